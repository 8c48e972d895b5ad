"""The collections kit expands to plain IR that behaves as its docstrings say.

Most tests drive the market fixture (tests/fixtures/kit_market): a deck, a row of three
slots with coins riding on them, hands, a discard pile, a subset choice and a queue of
pending effects under both readings of the effect order.
"""

from __future__ import annotations

import pytest

import rulespec
from rulespec import IllegalAction, SpecError
from rulespec.check.results import VIOLATED
from rulespec.check.runner import RANDOM, check_game
from rulespec.spec import Game
from rulespec.spec.kit import Deck, Effects, Hands, Pile, Row, Subsets

MARKET = "tests/fixtures/kit_market"


def _play(game, *texts, state=None):
    s = state if state is not None else game.initial_state()
    for t in texts:
        s = game.apply(s, game.action_from_str(s, t))
    return s


def _laid(game, *cards):
    return _play(game, *(f"lay out {c}" for c in cards))


def test_a_deck_draw_is_weighted_by_the_copies_left():
    game = rulespec.load(MARKET)
    s = game.initial_state()
    odds = {str(a): p for a, p in game.chance_outcomes(s)}
    assert odds == pytest.approx({"lay out fish": 0.3, "lay out shell": 0.3,
                                  "lay out boat": 0.2, "lay out hut": 0.2})
    s = _laid(game, "boat")
    assert s["deck"] == [0, 3, 3, 1, 2] and s["deck_size"] == 9
    assert dict((str(a), p) for a, p in game.chance_outcomes(s))["lay out boat"] == \
        pytest.approx(1 / 9)


def test_taking_from_the_row_slides_the_cards_and_their_riders():
    game = rulespec.load(MARKET)
    s = _laid(game, "fish", "boat", "hut")
    assert s["market"] == ["fish", "boat", "hut"] and s["phase"] == "play"
    s = _play(game, "buy slot 2", state=s)  # pays a coin onto slots 0 and 1
    assert s["market"] == ["fish", "boat", "none"]
    assert s["market_coins"] == [1, 1, 0] and s["coins"] == [1, 3]
    assert s["hand"][0] == [0, 0, 0, 0, 1] and s["hand_size"] == [1, 0]
    s = _play(game, "resolve collect", "end turn", "lay out shell", state=s)
    assert s["coins"] == [2, 3] and s["market_coins"] == [0, 1, 0]
    s = _play(game, "buy slot 0", state=s)  # player 1 takes the fish; boat and shell slide
    assert s["market"] == ["boat", "shell", "none"] and s["market_coins"] == [1, 0, 0]


def test_a_full_row_cannot_be_refilled_and_the_row_stays_packed(tmp_path):
    game = rulespec.load(MARKET)
    s = _laid(game, "fish", "fish", "fish")
    assert game.current_player(s) == 0  # full: the refill stops
    results = {r.property: r for r in check_game(game, examples=40, mode=RANDOM,
                                                 trace_dir=tmp_path)}
    assert results["market_is_packed"].status == "PASSED"
    assert results["goods_are_conserved"].status == "PASSED"
    assert results["goods_are_conserved_per_card"].status == "PASSED"


def test_a_subset_choice_reads_as_its_items():
    game = rulespec.load(MARKET)
    s = _play(game, "buy slot 0", "skip the effects",   # one fish: no bonus yet
              "buy slot 0", "resolve bonus",              # two fish: a point
              "buy slot 0", state=_laid(game, "fish", "fish", "hut"))
    assert [str(a) for a in game.legal_actions(s)] == ["skip the effects"]  # nothing to collect
    s = _play(game, "skip the effects", state=s)
    legal = [str(a) for a in game.legal_actions(s) if str(a).startswith("sell")]
    assert legal == ["sell {fish}", "sell {hut}", "sell {fish,hut}"]
    after = _play(game, "sell {fish,hut}", state=s)
    assert after["points"][0] == s["points"][0] + 2 and after["discard"] == [0, 1, 0, 0, 1]


def test_effects_in_printed_order_pass_over_only_the_impossible_ones():
    game = rulespec.load(MARKET)  # printed order: bonus, then collect
    s = _play(game, "buy slot 1", state=_laid(game, "fish", "boat", "shell"))
    assert s["effects"] == [True, True] and s["market_coins"][0] == 1
    # no pair of fish: the bonus cannot be carried out, so collect may come first ...
    assert [str(a) for a in game.legal_actions(s)] == ["resolve collect"]
    with pytest.raises(IllegalAction, match="skip only when impossible"):
        _play(game, "skip the effects", state=s)  # ... and may not be skipped
    after = _play(game, "resolve collect", state=s)
    assert after["effects"] == [False, False] and after["coins"][0] == 3  # the bonus is dropped


BOTH_POSSIBLE = ["lay out fish", "lay out fish", "lay out shell", "buy slot 0",
                 "skip the effects", "buy slot 0", "resolve bonus", "end turn", "lay out boat",
                 "lay out hut", "end turn", "buy slot 1"]


def test_the_effect_order_is_a_reading_that_changes_what_is_legal():
    printed = rulespec.load(MARKET)
    anyway = rulespec.load(MARKET, interpretation={"effect_order": "any"})
    a, b = _play(printed, *BOTH_POSSIBLE), _play(anyway, *BOTH_POSSIBLE)
    # the boat was bought with two fish in hand and a coin now on slot 0: both can happen
    assert a["effects"] == [True, True] and a["market_coins"][0] == 1
    assert [str(x) for x in printed.legal_actions(a)] == ["resolve bonus"]
    assert [str(x) for x in anyway.legal_actions(b)] == ["resolve bonus", "resolve collect"]


def test_kit_errors_name_the_element():
    src = "fixture"
    game = Game("bad_kit", title="bad", players=2, source=src)
    Card = game.enum("Card", ["none", "a", "b"], source=src)
    with pytest.raises(SpecError, match="flags=True means one copy"):
        Pile(game, "p", Card, copies=2, flags=True, source=src)
    with pytest.raises(SpecError, match="empty must be a member"):
        Row(game, "r", 2, Card, empty=3, source=src)
    with pytest.raises(SpecError, match="min_size <= max_size"):
        Subsets(game, "S", ["x", "y"], min_size=2, max_size=1, source=src)
    point = game.interpretation("o", question="?", options={"first": src, "last": src},
                                default="first", source=src)
    E = game.enum("E", ["x"], source=src)
    with pytest.raises(SpecError, match="options 'printed' and 'any'"):
        Effects(game, "fx", E, order=point, source=src)
    hand = Hands(game, "hand", Card, source=src)
    with pytest.raises(SpecError, match="say whose"):
        hand.count(Card.a)
    deck = Deck(game, "deck", Card, copies={Card.none: 0, Card.a: 1, Card.b: 2}, source=src)
    with pytest.raises(SpecError, match="no of="):
        deck.count(Card.a, of=0)


def test_a_broken_conservation_is_caught(tmp_path):
    """The generated law is not vacuous: a rule that loses a card violates it."""
    from rulespec.runtime.registry import spec_path
    text = spec_path(MARKET).read_text()
    old = "            discard.put(rule, g)\n"
    assert old in text
    (tmp_path / "spec.py").write_text(text.replace(old, ""))
    game = rulespec.load(tmp_path / "spec.py")
    results = {r.property: r for r in check_game(game, examples=100, trace_dir=tmp_path)}
    assert results["goods_are_conserved"].status == VIOLATED
    assert results["goods_are_conserved_per_card"].status == VIOLATED
