"""The effects kit with the spec's own actions: counted effects, printed or any order,
"as far as possible" or stopping once one fails, a pause, and a turn that ends only when
no effect waits."""

import json

import pytest

import rulespec
from rulespec import IllegalAction
from rulespec.ir.errors import SpecError
from rulespec.spec import Game, all_of, not_
from rulespec.spec.kit import Effects

SRC = "fixture: a card with effects"


def _spec(first: str = "gain"):
    """Playing the card queues two gains and a pay (printed in the order ``first``, the
    other); a gain is always possible, a pay needs a coin."""
    game = Game("effects", title="Effects", players=1, source=SRC)
    names = ["gain", "pay"] if first == "gain" else ["pay", "gain"]
    Effect = game.enum("Effect", [*names, "none"], source=SRC)
    order = game.point("order", "Printed order?", source=SRC, printed=SRC, any=SRC,
                       default="printed", because="fixture")
    partial = game.point("partial", "Stop once one fails?", source=f"{SRC} §partial",
                         far=SRC, stop=SRC,
                         default="far", because="fixture")
    coins = game.field("coins", range(0, 4), initial=0, source=SRC)
    played = game.field("played", bool, flow=True, source=SRC)
    choosing = game.field("choosing", bool, flow=True, source=SRC)
    over = game.field("over", bool, flow=True, source=SRC)
    fx = Effects(game, "pending", Effect, order=order, counted=2, flow=True, source=SRC,
                 order_source=f"{SRC}; assumption printed")
    fx.possible_when({Effect.gain: lambda: coins < 3, Effect.pay: coins >= 1,
                      Effect.none: False})
    fx.paused_while(choosing, "no choice is being made", source=SRC)

    @game.action(text="play", source=SRC)
    def play(rule):
        rule.require(not_(played), "the card is not played yet", source=SRC)
        rule.set(played, True)
        fx.add(rule, Effect.gain, 2, source=SRC)
        fx.add(rule, Effect.pay, source=SRC)

    @game.action(text="gain", source=SRC)
    def gain(rule):
        fx.carry_out(rule, Effect.gain, source=SRC)
        rule.require(coins < 3, "you have room for a coin", source=SRC)
        rule.add(coins, 1)

    @game.action(text="pay", source=SRC)
    def pay(rule):
        fx.carry_out(rule, Effect.pay, source=SRC)
        rule.require(coins >= 1, "you have a coin", source=SRC)
        rule.add(coins, -1)

    @fx.skip(text="skip", source=SRC, as_far_as_possible=partial.is_("far"),
             because=partial.source)
    def skip(rule):
        rule.require(played, "the card is played", source=SRC)

    @game.action(text="end turn", source=SRC)
    def end_turn(rule):
        rule.require(played, "the card is played", source=SRC)
        fx.require_done(rule, source=SRC)
        rule.set(over, True)

    game.current_player(0, source=SRC)
    game.terminal(over, source=SRC)
    game.max_steps(6, source=SRC)
    game.score(lambda p: coins, source=SRC)
    return game.build()


def _after(model, *texts, coins=None):
    s = model.initial_state()
    if coins is not None:
        doc = json.loads(s.to_json())
        doc["fields"]["coins"] = coins
        s = model.state_from_json(doc)
    for t in texts:
        s = model.apply(s, model.action_from_str(s, t))
    return s


def _legal(model, s):
    return [str(a) for a in model.legal_actions(s)]


def test_in_printed_order_an_effect_waits_for_those_printed_before_it():
    printed = rulespec.Model(_spec())
    s = _after(printed, "play", coins=1)
    assert _legal(printed, s) == ["gain"]          # the pay is printed after the gains
    with pytest.raises(IllegalAction, match="in printed order: the effects printed before"):
        printed.apply(s, printed.action_from_str(s, "pay"))
    s = _after(printed, "play", "gain", "gain", coins=1)
    assert _legal(printed, s) == ["pay"] and s["pending"] == [0, 1, 0]
    assert _legal(printed, printed.apply(s, printed.action_from_str(s, "pay"))) == ["end turn"]


def test_in_any_order_every_waiting_possible_effect_is_open():
    anyorder = rulespec.Model(_spec(), {"order": "any"})
    assert _legal(anyorder, _after(anyorder, "play", coins=1)) == ["gain", "pay"]


def test_in_printed_order_an_impossible_earlier_effect_lapses():
    model = rulespec.Model(_spec(first="pay"))
    s = _after(model, "play")                     # no coin: the pay, printed first, cannot
    assert _legal(model, s) == ["gain"]
    s = model.apply(s, model.action_from_str(s, "gain"))
    assert s["pending"] == [0, 1, 0]              # the pay lapsed, one gain is left


def test_a_turn_ends_only_when_no_effect_waits():
    model = rulespec.Model(_spec())
    s = _after(model, "play")
    with pytest.raises(IllegalAction, match="requires: no effect is waiting"):
        model.apply(s, model.action_from_str(s, "end turn"))


def test_as_far_as_possible_the_rest_is_skipped_only_when_none_can_be_done():
    far = rulespec.Model(_spec(), {"order": "any"})
    stop = rulespec.Model(_spec(), {"order": "any", "partial": "stop"})
    # no coin: the gains can be done, the pay cannot
    assert "skip" not in _legal(far, _after(far, "play"))
    assert "skip" in _legal(stop, _after(stop, "play"))
    s = _after(far, "play", coins=3)               # three coins: no gain possible, a pay is
    assert _legal(far, s) == ["pay"]
    s = far.apply(s, far.action_from_str(s, "pay"))
    s = far.apply(s, far.action_from_str(s, "gain"))  # coins 3 again: the last gain cannot
    assert s["pending"] == [1, 0, 0] and _legal(far, s) == ["skip"]
    done = far.apply(s, far.action_from_str(s, "skip"))
    assert done["pending"] == [0, 0, 0] and _legal(far, done) == ["end turn"]


def test_no_effect_is_carried_out_while_paused():
    model = rulespec.Model(_spec())
    s = _after(model, "play")
    doc = json.loads(s.to_json())
    doc["fields"]["choosing"] = True
    paused = model.state_from_json(doc)
    assert _legal(model, paused) == []
    with pytest.raises(IllegalAction, match="no choice is being made"):
        model.apply(paused, model.action_from_str(paused, "gain"))


def test_the_guards_cite_the_order_and_the_reading_they_rest_on():
    spec = _spec()
    pay = next(a for a in spec.actions if a.name == "pay")
    assert [(p.text, p.source) for p in pay.preconditions] == [
        ("the effect is waiting", SRC), ("no choice is being made", SRC),
        ("in printed order: the effects printed before it are done or impossible",
         f"{SRC}; assumption printed"), ("you have a coin", SRC)]
    skip = next(a for a in spec.actions if a.name == "skip")
    assert skip.preconditions[2].source == spec.interpretation("partial").source
    gain = next(a for a in spec.actions if a.name == "gain")
    assert "in printed order" not in " ".join(p.text for p in gain.preconditions)  # first


# --- an extra effect, a rule that needs none under a reading, two competing effects --------
def _extra_spec():
    """The card queues two gains and a pay (printed in that order); a bonus, taken while
    they wait, puts a pay first (where the reading ``between`` allows it) and marks where
    it came from; ``cash`` pays without a waiting effect where ``cash_at_will`` reads ``free``."""
    game = Game("effects_extra", title="Effects extra", players=1, source=SRC)
    Effect = game.enum("Effect", ["gain", "pay", "none"], source=SRC)
    order = game.point("order", "Printed order?", source=SRC, printed=SRC, any=SRC,
                       default="printed", because="fixture")
    between = game.point("between", "An extra between the effects?", source=f"{SRC} §extra",
                         yes=SRC, no=SRC, default="yes", because="fixture")
    cash_point = game.point("cash_at_will", "Pay at will?", source=SRC, effect=SRC, free=SRC,
                            default="effect", because="fixture")
    coins = game.field("coins", range(0, 4), initial=0, source=SRC)
    marker = game.field("marker", range(0, 2), flow=True, source=SRC)
    played = game.field("played", bool, flow=True, source=SRC)
    over = game.field("over", bool, flow=True, source=SRC)
    fx = Effects(game, "pending", Effect, order=order, counted=2, flow=True, source=SRC)
    extra = fx.extra("extra", none=Effect.none, allowed=between.is_("yes"), source=SRC,
                     rules_source=between.source, resets={marker: 0})
    fx.possible_when({Effect.gain: coins < 3, Effect.pay: coins >= 1, Effect.none: False})

    @game.action(text="play", source=SRC)
    def play(rule):
        rule.require(not_(played), "the card is not played yet", source=SRC)
        rule.set(played, True)
        fx.add(rule, Effect.gain, 2)
        fx.add(rule, Effect.pay)

    @game.action(text="bonus", source=SRC)
    def bonus(rule):
        rule.require(all_of(fx.active(), not_(fx.extra_waiting()), between.is_("yes")),
                     "effects wait, no extra yet", source=SRC)
        fx.put_first(rule, Effect.pay)
        rule.set(marker, 1)

    @game.action(text="gain", source=SRC)
    def gain(rule):
        fx.carry_out(rule, Effect.gain, source=SRC)
        rule.require(coins < 3, "you have room for a coin", source=SRC)
        rule.add(coins, 1)

    @game.action(text="pay", source=SRC)
    def pay(rule):
        fx.carry_out(rule, Effect.pay, source=SRC)
        rule.require(coins >= 1, "you have a coin", source=SRC)
        rule.add(coins, -1)

    @game.action(text="cash", source=SRC)
    def cash(rule):
        fx.carry_out(rule, Effect.pay, source=SRC,
                     unless=all_of(cash_point.is_("free"), fx.idle()))
        rule.require(coins >= 1, "you have a coin", source=SRC)
        rule.add(coins, -1)

    @fx.skip(text="skip", source=SRC, may_stop=False, refusal="nothing left can be done")
    def skip(rule):
        pass

    @game.action(text="end turn", source=SRC)
    def end_turn(rule):
        rule.require(all_of(played, fx.idle()), "the card is played and done", source=SRC)
        rule.set(over, True)

    game.current_player(0, source=SRC)
    game.terminal(over, source=SRC)
    game.max_steps(8, source=SRC)
    game.score(lambda p: coins, source=SRC)
    assert extra is not None
    return game.build()


def test_an_extra_effect_is_carried_out_first_out_of_printed_order():
    model = rulespec.Model(_extra_spec())
    s = _after(model, "play", "bonus", coins=1)
    assert s["extra"] == "pay" and s["marker"] == 1
    # the gains, printed first, wait (cash is a pay of the queue too)
    assert _legal(model, s) == ["pay", "cash"]
    with pytest.raises(IllegalAction, match="requires: the effect is waiting"):
        model.apply(s, model.action_from_str(s, "gain"))
    s = model.apply(s, model.action_from_str(s, "pay"))
    # the extra is done (and what came with it reset); the queue is as the card left it
    assert s["extra"] == "none" and s["marker"] == 0 and s["pending"] == [2, 1, 0]
    assert _legal(model, s) == ["bonus", "gain"]


def test_an_extra_effect_that_cannot_be_done_is_skipped_alone():
    model = rulespec.Model(_extra_spec())
    s = _after(model, "play", "bonus")            # no coin: the extra pay cannot be done
    assert "skip" in _legal(model, s)
    s = model.apply(s, model.action_from_str(s, "skip"))
    assert s["extra"] == "none" and s["marker"] == 0 and s["pending"] == [2, 1, 0]
    # the queue's own skip: the gains can be done, so it is refused, with its own text
    with pytest.raises(IllegalAction, match="nothing left can be done"):
        model.apply(s, model.action_from_str(s, "skip"))


def test_where_the_reading_forbids_it_no_extra_waits():
    model = rulespec.Model(_extra_spec(), {"between": "no"})
    s = _after(model, "play", coins=1)
    doc = json.loads(s.to_json())
    doc["fields"]["extra"] = "pay"                # a stray value counts for nothing
    s = model.state_from_json(doc)
    assert _legal(model, s) == ["gain"]


def test_unless_a_reading_frees_it_a_rule_needs_a_waiting_effect():
    default = rulespec.Model(_extra_spec())
    free = rulespec.Model(_extra_spec(), {"cash_at_will": "free"})
    done = ["play", "gain", "gain", "pay"]
    s = _after(default, *done, coins=1)
    with pytest.raises(IllegalAction, match="requires: the effect is waiting"):
        default.apply(s, default.action_from_str(s, "cash"))
    s = _after(free, *done, coins=1)
    assert "cash" in _legal(free, s)
    after = free.apply(s, free.action_from_str(s, "cash"))
    assert after["coins"] == 1 and after["pending"] == [0, 0, 0]
    # while effects wait, the free reading does not apply: cash is the queue's pay
    s = _after(free, "play", coins=1)
    with pytest.raises(IllegalAction, match="in printed order"):
        free.apply(s, free.action_from_str(s, "cash"))


def _competing_spec():
    """A card queues a hire (cost 1 or 2, the player's choice) and a buy (cost 2), with 3
    coins; under ``most`` a hire that leaves too few for the buy is refused."""
    game = Game("effects_compete", title="Effects compete", players=1, source=SRC)
    Effect = game.enum("Effect", ["hire", "buy", "none"], source=SRC)
    most = game.point("most", "Leave room for the other?", source=f"{SRC} §most",
                      no=SRC, yes=SRC, default="no", because="fixture")
    coins = game.field("coins", range(0, 4), initial=3, source=SRC)
    played = game.field("played", bool, flow=True, source=SRC)
    over = game.field("over", bool, flow=True, source=SRC)
    fx = Effects(game, "pending", Effect, order="any", flow=True, source=SRC)
    fx.possible_when({Effect.hire: coins >= 1, Effect.buy: coins >= 2, Effect.none: False})

    @game.action(text="play", source=SRC)
    def play(rule):
        rule.require(not_(played), "the card is not played yet", source=SRC)
        rule.set(played, True)
        fx.add(rule, Effect.hire)
        fx.add(rule, Effect.buy)

    @game.action(params={"cost": range(1, 3)}, text="hire for {cost}", source=SRC)
    def hire(rule, cost):
        fx.carry_out(rule, Effect.hire, source=SRC)
        rule.require(coins >= cost, "you have the coins", source=SRC)
        fx.leave_possible(rule, Effect.hire, Effect.buy, when=most.is_("yes"),
                          together=coins >= 3, still=coins - cost >= 2,
                          text="the coins left still pay for the buy", source=most.source)
        rule.add(coins, 0 - cost)

    @game.action(text="end", source=SRC)
    def end(rule):
        fx.require_done(rule, source=SRC)
        rule.set(over, True)

    game.current_player(0, source=SRC)
    game.terminal(over, source=SRC)
    game.max_steps(5, source=SRC)
    game.score(lambda p: coins, source=SRC)
    return game.build()


def test_a_choice_must_leave_a_competing_effect_possible_where_a_reading_asks_it():
    free = rulespec.Model(_competing_spec())
    most = rulespec.Model(_competing_spec(), {"most": "yes"})
    assert _legal(free, _after(free, "play")) == ["hire for 1", "hire for 2"]
    s = _after(most, "play")
    assert _legal(most, s) == ["hire for 1"]
    with pytest.raises(IllegalAction, match="the coins left still pay for the buy"):
        most.apply(s, most.action_from_str(s, "hire for 2"))
    hire = next(a for a in _competing_spec().actions if a.name == "hire")
    assert hire.preconditions[-1].source == f"{SRC} §most"


def test_each_guard_the_kit_writes_is_its_own_mutation_site():
    """Dropping one guard (``rulespec mutate``'s drop_precondition removes every guard of a
    site) must not drop the others: the pause is sited where it was declared, the printed
    order where the queue was, each action's "the effect is waiting" at its carry_out."""
    spec = _spec()
    gain, pay, skip = (next(a for a in spec.actions if a.name == n)
                       for n in ("gain", "pay", "skip"))
    sites = [(p.where.line, p.where.column) for p in pay.preconditions[:3]]
    assert len(set(sites)) == 3
    assert gain.preconditions[1].where == pay.preconditions[1].where == \
        skip.preconditions[1].where                      # one pause, one site
    assert skip.preconditions[1].where != skip.preconditions[2].where


def test_the_generic_resolve_action_refuses_an_extra_effect():
    game = Game("effects_declare", title="Effects declare", players=1, source=SRC)
    Effect = game.enum("Effect", ["gain", "none"], source=SRC)
    fx = Effects(game, "pending", Effect, order="any", source=SRC)
    fx.extra("extra", none=Effect.none, allowed=True, source=SRC)
    with pytest.raises(SpecError, match="no place for an extra effect"):
        fx.declare(possible={"gain": True, "none": False},
                   resolve={"gain": lambda rule: None, "none": lambda rule: None}, source=SRC)
