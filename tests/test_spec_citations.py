"""Citations (``game.text`` / ``book.at``) and compact interpretation points (``game.point``)."""

import pickle

import pytest

import rulespec
from rulespec import IllegalAction, SpecError
from rulespec.spec import Citation, Game, Option, option

AQUATICA, MOTU, HAWAII = ("002_50b4d45ccb25edcc.txt", "003_6720fac1c931cea7.txt",
                          "000_3b00b4fc026f56e4.txt")


# the citation helpers the three seed specs wrote for themselves (as of issue 27): a
# citation object must render exactly these strings, so reports and tests do not move
def aquatica_src(line, quote=None):
    return f"{AQUATICA} L{line}" + (f": 「{quote}」" if quote else "")


def motu_src(section, line, quote=None):
    return f"{MOTU} §{section} L{line}" + (f": 「{quote}」" if quote else "")


def hawaii_src(section, quote=None):
    return f"{HAWAII} §{section}" + (f": 「{quote}」" if quote else "")


def _game():
    return Game("cited", title="Cited", players=2, source="fixture")


@pytest.mark.parametrize("place", [("94",), ("94", "カード1枚につき1カウンター"), ("3-73",),
                                   ("17, 75", "そのターンで使用できる2コインを得ます")])
def test_a_line_citation_renders_as_aquatica_cites(place):
    book = _game().text(AQUATICA, cite="L{}")
    assert book.at(*place) == aquatica_src(*place)


@pytest.mark.parametrize("place", [("セットアップ", 13), ("ラウンドをプレイする", "43-52"),
                                   ("スコアの計算", 163, "それらのプレイヤー全員が勝利を分け合います")])
def test_a_section_and_line_citation_renders_as_motu_cites(place):
    book = _game().text(MOTU, cite="§{} L{}")
    assert book.at(*place) == motu_src(*place)
    section = book.part(place[0])
    assert section.at(*place[1:]) == motu_src(*place)


@pytest.mark.parametrize("place", [("ゲームの流れ",), ("釣り", "釣りをする")])
def test_a_section_citation_renders_as_hawaii_cites(place):
    book = _game().text(HAWAII, cite="§{}")
    assert book.at(*place) == hawaii_src(*place)


def test_a_citation_keeps_its_parts_through_pickling_and_joins_others():
    book = _game().text(MOTU, cite="§{} L{}")
    c = book.at("ゲームの目的", 33)
    assert isinstance(c, str) and isinstance(c, Citation)
    back = pickle.loads(pickle.dumps(c))
    assert (back, back.text, back.place, back.quote) == (c, MOTU, ("ゲームの目的", "33"), None)
    both = c.also(book.at("6 - 中間決算", 126))
    assert both == motu_src("ゲームの目的", 33) + "; " + motu_src("6 - 中間決算", 126)
    assert c.says("the aim") == Option(str(c), "the aim")


def test_a_citation_is_accepted_wherever_a_source_is():
    game = _game()
    book = game.text("rules.txt", cite="L{}")
    mark = game.field("mark", range(0, 3), source=book.at("2", "a mark"))
    turn = game.field("turn", range(0, 2), flow=True, source=book.at("3"))

    @game.action(text="mark", source=book.at("4", "mark once"))
    def put(rule):
        rule.require(mark == 0, "no mark yet", source=book.at("5", "only once"))
        with rule.when(turn == 0, source=book.at("6")):
            rule.set(mark, 1, source=book.at("7"))
        with rule.otherwise():
            rule.set(mark, 2)
        rule.set(turn, 1 - turn)

    game.current_player(turn, source=book.at("3"))
    game.terminal(mark == 2, source=book.at("8"))
    game.max_steps(2, source=book.at("8"))
    game.score(lambda p: 0, source=book.at("9"))
    game.shared_ties(source=book.at("9"))
    model = rulespec.Model(game.build())
    s = model.apply(model.initial_state(), model.action_from_str(model.initial_state(), "mark"))
    with pytest.raises(IllegalAction) as refused:
        model.apply(s, model.action_from_str(model.initial_state(), "mark"))
    assert "rules.txt L5: 「only once」" in str(refused.value)


def test_bad_citations_are_one_line_errors():
    book = _game().text("seed.txt", cite="§{} L{}")
    with pytest.raises(SpecError, match="at\\(\\) takes the place"):
        book.at("a", 1, "quote", "extra")
    with pytest.raises(SpecError, match="non-empty"):
        book.at(" ", 3)
    with pytest.raises(SpecError, match="part\\(\\) fixes"):
        book.part("a", "b", "c")
    with pytest.raises(SpecError, match="says\\(\\) takes the passage in English"):
        book.at("a", 1).says("")


# --- compact interpretation points -------------------------------------------------------
def _both_forms():
    """The same point written the old way and with game.point."""
    old, new = _game(), _game()
    b_old, b_new = old.text(AQUATICA), new.text(AQUATICA)
    a = old.interpretation(
        "order", question="Printed order, or any order?",
        options={"printed": option(b_old.at("8", "順番"), english="In printed order."),
                 "any": option(b_old.at("5", "好きな順番で"), english="In any order.")},
        default="printed", source=b_old.at("7"), english="Carry out the card's effects.",
        default_reason="the main reading")
    b = new.point("order", "Printed order, or any order?",
                  source=b_new.at("7").says("Carry out the card's effects."),
                  printed=b_new.at("8", "順番").says("In printed order."),
                  any=b_new.at("5", "好きな順番で").says("In any order."),
                  default="printed", because="the main reading")
    return a, b


def test_a_compact_point_is_the_same_point_as_the_long_form():
    a, b = _both_forms()
    fields = ("name", "question", "options", "default", "source", "english",
              "option_english", "default_reason")
    assert [getattr(a, f) for f in fields] == [getattr(b, f) for f in fields]
    assert list(b.options) == ["printed", "any"]
    assert b.is_("any").op == "eq"


def test_a_compact_point_takes_plain_sources_and_option_names_like_its_arguments():
    game = _game()
    p = game.point("which", "Which one?", source="fixture", name="fixture: by name",
                   question="fixture: by question", default="name", because="first")
    assert p.options == {"name": "fixture: by name", "question": "fixture: by question"}
    assert p.english is None and p.option_english == {}
