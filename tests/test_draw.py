"""Drawing a state from its spec's view (rulespec/draw/): the text board ``print(state)``
shows, the picture a notebook shows, labels that fit their boxes, the legend of a view's
abbreviations, and the layer the drawing sits in (below the runtime, above compile)."""

import ast
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.cells import cell_len

import rulespec
from rulespec.draw.fit import fit, text_width
from rulespec.draw.legend import abbreviations
from rulespec.draw.svg import Picture
from rulespec.runtime.play import play_random
from rulespec.runtime.registry import available_games
from rulespec.spec import Game, view

ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"


def _mid_game(model):
    players = min(model.max_players, 3)
    _, steps = play_random(model, players, 1)
    return steps[len(steps) // 2].state


@pytest.mark.parametrize("game", available_games())
def test_print_state_draws_the_board_from_the_view(game):
    model = rulespec.load(game)
    state = _mid_game(model)
    text = str(state)
    assert text == model.board_text(state)
    lines = text.splitlines()
    assert max(cell_len(line) for line in lines) <= 100
    for part in model.spec.view.parts:  # every part of the view, under its title
        title = part.title if getattr(part, "player", None) is None else \
            f"{part.title} · player {part.player}"
        if getattr(part, "player", None) is None or part.player < state.values[0]:
            assert title in lines, f"{title!r} is not drawn"
    assert repr(state).startswith("State(")  # the repr stays the exact one


def test_the_text_board_shows_the_values_a_move_changed():
    game = rulespec.load("tic_tac_toe")
    start = game.initial_state()
    after = game.apply(start, game.action_from_str(start, "mark(1,1)"))
    assert str(start).splitlines()[2] == "  · · ·"
    assert str(after).splitlines()[2] == "  · X ·"
    assert "moves    1" in str(after) and "moves    0" in str(start)


def test_a_state_shows_itself_in_a_notebook():
    game = rulespec.load("hawaii")
    state = _mid_game(game)
    svg = state._repr_svg_()
    assert ET.fromstring(svg).tag == f"{SVG}svg" and "Main board" in svg
    html = state._repr_html_()
    assert html.startswith("<figure") and "<svg" in html and "<pre>" in html
    assert "Villages · player 0" in html  # the text board, escaped, under the picture


def test_drawing_sits_below_the_runtime():
    """rulespec/draw imports spec, compile and ir, never runtime, check or report; the
    runtime may import draw (a state draws itself), never report."""
    def imports(package):
        out = set()
        for path in (ROOT / "rulespec" / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.level >= 1 and node.module:
                    out.add(node.module.split(".")[0])
                elif isinstance(node, ast.ImportFrom) and node.module and \
                        node.module.startswith("rulespec."):
                    out.add(node.module.split(".")[1])
        return out
    assert imports("draw") <= {"spec", "compile", "ir", "svg", "values", "fit", "legend"}
    assert not imports("runtime") & {"report", "check", "cli"}


def test_fit_wraps_then_shrinks_then_shortens_saying_so():
    assert fit("5 locations", 200, 10).lines == ("5 locations",)
    wrapped = fit("5 locations", 50, 10)
    assert wrapped.lines == ("5", "locations") and not wrapped.shortened
    short = fit("an unbreakablelabelthatneverfits", 40, 10, max_lines=1)
    assert short.shortened and short.lines[0].endswith("…")
    assert text_width(short.lines[0], short.size, False) <= 40
    assert text_width("漢字", 10) == 20  # a wide character is one em


LABELS_SPEC = '''
from rulespec.spec import Game, view
game = Game("labels", title="Labels", players=1, source="s")
Kind = game.enum("Kind", ["none", "a"], source="s")
cells = game.field("cells", Kind, shape=(2, 2), source="s")
phase = game.field("phase", Kind, source="s")

@game.action(source="s")
def wait(rule):
    rule.set(phase, Kind.a)

game.current_player(0, source="s")
game.terminal(phase == Kind.a, source="s")
game.max_steps(1, source="s")
game.score(lambda p: 0, source="s")
game.shared_ties(source="s")
game.view(
    view.grid("Goals", rows=2, cols=2, cell=lambda r, c: cells[r, c],
              glyphs={Kind.a: view.glyph("Aa", "#abcdef", title="a long name")},
              row_labels=["5 locations", "a row label much too long to fit in one line"],
              col_labels=["first column", "2"]),
    view.counters("Turn", {"phase": phase}),
    view.slots("A row far wider than any picture", count=30, value=lambda i: cells[0, 0],
               labels=[f"slot {i}" for i in range(30)]),
    legend={"Aa": "the letter a, twice"})
SPEC = game.build()
'''


def test_labels_are_measured_and_never_clipped(tmp_path):
    (tmp_path / "spec.py").write_text(LABELS_SPEC)
    model = rulespec.load(str(tmp_path / "spec.py"))
    svg = Picture(model).svg(model.initial_state(1), "labels")
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "5 locations" in texts  # a row label gets the room it needs (was "5 locatio")
    width = float(root.get("width"))
    assert width <= 760  # the 30 slots wrap onto several lines
    # the value column is as wide as the widest value the field may show: no collision
    assert "phase" in texts and "none" in texts
    # a label too long for any room is shortened, and given in full under the picture
    if any(t and t.endswith("…") for t in texts):
        assert "Shortened above:" in texts
    assert abbreviations(model.spec.view) == [("Aa", "the letter a, twice")]


def test_the_legend_explains_the_bundled_abbreviations():
    motu = dict(abbreviations(rulespec.load("motu").spec.view))
    assert {motu[k] for k in ("Pa", "Fs", "Ca", "Bd")} == {"palm", "fish", "canoe", "bird"}
    assert motu["V★"].startswith("volcano")
    hawaii = dict(abbreviations(rulespec.load("hawaii").spec.view))
    assert hawaii["K"] == "kahuna" and "⚔" in hawaii
    aquatica = dict(abbreviations(rulespec.load("aquatica").spec.view))
    assert aquatica["1c"] == "1 coin" and aquatica["Pat"].startswith("Patrizier")


def test_a_view_legend_must_map_texts_to_meanings():
    g = Game("bad", title="Bad", players=1, source="s")
    f = g.field("f", range(0, 2), source="s")
    with pytest.raises(rulespec.SpecError, match="legend"):
        g.view(view.counters("C", {"f": f}), legend={"X": ""})
