"""How Hawaii's state looks: the report and --svg draw it from this (a part of spec.py)."""

from rulespec.spec import if_, view

from .spec import COLUMNS, DOCKS, ISLAND_FEET, START_HUT_WIDTH, VILLAGES, game
from .catalogue import (
    ADJACENT, BEACH, CODES, COTTAGES, FISH, FRUITS, GIFT_KINDS, GODS, ISLANDS, ISLAND_NAMES,
    NAMES, PLACES, PLACE_NAMES, SPEAR, VALUE, WIDTH)
from .vocabulary import DOCK_LIST, Isl, Level, Name, Place
from .state import (
    N, area_tok, boats, canoe_used, docks, feet, fish_pool, fruit, has, kahunas, laid, lvl2,
    order, pass_by, pass_tok, pawn, phase, pos_of, round_, round_total, shells, tikis, vp)
from .villages import valid

# =====================================================================================
# How it looks (the report and --svg draw the state from this)
# =====================================================================================
PLACE_LABELS = {"cottages_1": "Cottages I", "cottages_2": "Cottages II",
                "village_life": "Village life", "fruit_1": "Fruit I", "fruit_2": "Fruit II",
                "sea": "Sea", "kahunas": "Kahunas", "tikis": "Tikis", "gods_1": "Gods I",
                "gods_2": "Gods II"}
TILE_COLOURS = {**{k: "#b07a4f" for k in COTTAGES}, "start_hut": "#7a4e2d",
                "irrigation": "#3a9ca6", "hula": "#d9708f",
                **{k: "#6aa84f" for k in FRUITS}, "surfer": "#4a86c5",
                **{k: "#8e63b5" for k in GODS}, "boat": "#4a86c5", "kahuna": "#c9a227",
                "tiki": "#8c5a3c"}
TILE_TEXT = {"start_hut": "start", "shell_hut": "shell", "foot_hut": "foot",
             "spear_hut": "spear", "exchange_hut": "exch.", "long_hut": "long hut",
             "irrigation": "irrig.", "breadfruit": "bread", "coconut": "coco",
             "banana": "banana"}
# board positions as the rules' picture shows them: rows of 2-3-3-2 places, the beach below
SPOT_XY = {8: (25, 0), 9: (75, 0), 5: (0, 25), 6: (50, 25), 7: (100, 25), 2: (0, 50),
           3: (50, 50), 4: (100, 50), 0: (25, 75), 1: (75, 75), BEACH: (50, 100)}


def _token_glyph(c):
    spear = "⚔" if SPEAR[c] else ""
    return view.glyph(f"{VALUE[c]}{spear}", "#f2d8a7",
                      title=f"price token {VALUE[c]}{' with a spear' if SPEAR[c] else ''}",
                      legend=False)  # the view's legend says what ⚔ means


def _place_pieces(n):
    places = [view.piece(if_(laid[Place[pl]], pos_of[Place[pl]], -1), PLACE_LABELS[pl],
                         kind="tile", glyph=view.glyph(colour=TILE_COLOURS[PLACES[pl].tiles[0]]),
                         chips=[view.chip(area_tok[a, c], _token_glyph(c)) for c in CODES])
              for a, pl in enumerate(PLACE_NAMES)]
    pawns = [view.piece(if_(p < N, pawn[p], -1), f"player {p}'s pawn", player=p)
             for p in range(n)]
    return places + pawns


def _island_text(i):
    what, value = ISLANDS[i]
    return {"fruit": f"{value} fruit", "vp": f"{value} VP"}.get(
        what, f"{value} II" if value in GIFT_KINDS or value == "boat" else value)


def _island_title(i):
    what, value = ISLANDS[i]
    if what == "tile":
        level = " (level II)" if value in GIFT_KINDS or value == "boat" else ""
        return f"an island that gives a {value.replace('_', ' ')} tile{level}"
    return f"an island that gives {value} {'victory points' if what == 'vp' else what}"


def _village_tiles(p, v):
    order = ["start_hut"] + COTTAGES + [n for n in NAMES if n not in COTTAGES + ["start_hut"]]
    return [view.tile(has[p, v, Name[n]],
                      view.glyph(TILE_TEXT.get(n, n), TILE_COLOURS[n], title=n.replace("_", " ")),
                      width=START_HUT_WIDTH if n == "start_hut" else WIDTH.get(n, 1),
                      badge=lvl2[p, v, Name[n]], badge_text="II")
            for n in order]


game.view(
    view.counters("Round", {"round": round_, "phase": phase}),
    view.place_map("Main board", pieces=_place_pieces,
                   spots=[view.spot(k, "beach" if k == BEACH else f"position {k}", x, y)
                          for k, (x, y) in SPOT_XY.items()],
                   links=[(a, b) for a, bs in ADJACENT.items() for b in bs if a < b]),
    view.slots("Pass area (next round's turn order)", count=5, value=lambda k: pass_tok[k],
               glyphs={c: _token_glyph(c) for c in CODES}, owner=lambda k: pass_by[k],
               labels=[str(k + 1) for k in range(5)]),
    view.slots("Islands", count=DOCKS, value=lambda d: docks[DOCK_LIST[d]],
               glyphs={Isl[i]: view.glyph(_island_text(i), "#a8d5e2", shape="square",
                                          title=_island_title(i))
                       for i in ISLAND_NAMES},
               labels=[f"{ISLAND_FEET[d]} feet" for d in range(DOCKS)]),
    view.pile("Fishing cove", [view.chip(fish_pool[c], view.glyph(
        f"{FISH[c]}", "#5b9bd5", title=f"fish token: {FISH[c]} fish") ) for c in CODES]),
    view.counters("Resources", {
        "shells": lambda p: shells[p], "feet": lambda p: feet[p], "fruit": lambda p: fruit[p],
        "victory points": lambda p: vp[p], "round total": lambda p: round_total[p],
        "boats, level I": lambda p: boats[p, Level.I],
        "boats, level II": lambda p: boats[p, Level.II],
        "canoe used": lambda p: canoe_used[p]}, player=True),
    view.tableau("Villages", rows=VILLAGES, columns=COLUMNS, tiles=_village_tiles,
                 marker=lambda p, v: kahunas[p] > v,
                 marker_glyph=view.glyph("K", TILE_COLOURS["kahuna"], title="kahuna"),
                 top=lambda p: tikis[p],
                 top_glyph=view.glyph("T", TILE_COLOURS["tiki"], shape="square", title="tiki"),
                 flag=lambda p, v: valid(p, v), player=True),
    legend={"⚔": "the price token has a spear", "II": "a level-II tile (on a tile: its "
            "level-II side)", "VP": "victory points"},
)
