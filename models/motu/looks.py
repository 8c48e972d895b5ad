"""How a MOTU state looks: the turn, the row, the fate cards, each island and score
sheet. A part of spec.py."""

from rulespec.spec import if_, ordinal, view

from .spec import (C, CARD_H, CARD_SYMBOL, CARD_TERRAIN, CARD_W, Fate, R, ROW_SLOTS, Source, Sym,
                   Terrain, beach, coconuts, deck_left, fate_owner, final_score, game, phase,
                   placed, revealed, row, scorings, sheet, symbol, taken, terrain, to_move,
                   traveller_points)

# =====================================================================================
# How it looks
# =====================================================================================
TERRAIN_COLOUR = {"land": "#9cc46b", "sea": "#5b9bd5", "beach_h": "#f1d98f",
                  "beach_v": "#f1d98f"}
SYMBOL_TEXT = {"none": "", "fisher": "Fr", "fish": "Fs", "hunter": "Hu", "bird": "Bd",
               "canoe": "Ca", "palm": "Pa", "lizard": "Li", "mask": "Ma", "moon": "Mo",
               "turtle": "Tu", "shark": "Sh", "volcano": "V★", "village": "⌂★"}
STRIDE = 16  # a cell's picture: terrain * 16 + symbol


def cell_picture(t, s):
    return ordinal(t) * STRIDE + ordinal(s)


CELL_GLYPHS = {
    ti * STRIDE + si: view.glyph(SYMBOL_TEXT[s], TERRAIN_COLOUR[t], shape="square",
                                 title=f"{t.replace('_h', '').replace('_v', '')}"
                                       f"{'' if s == 'none' else ' with a ' + s}")
    for ti, t in enumerate(Terrain.members) if t != "empty"
    for si, s in enumerate(Sym.members)}
FATE_SHORT = {"palms_8": "Pa +8/-5", "canoes_4": "Ca +4/-3", "fish_birds_10": "Fs+Bd 10/2/-8",
              "totems_6": "Totems +6/-4", "beaches_6": "Beach +6/-4",
              "coconuts_4": "Coco +4/-3", "volcanoes_6": "V +6/-4", "fishers_5": "Fr +5/-3",
              "hunters_5": "Hu +5/-3", "birds_4": "Bd +4/-3"}
FATE_LIST = list(Fate)

#: what the symbols' short texts stand for (the report's legend)
SYMBOL_LEGEND = {t: {"volcano": "volcano (its star cannot be covered)",
                     "village": "village (its star cannot be covered)"}.get(s, s)
                 for s, t in SYMBOL_TEXT.items() if t}

game.view(
    view.counters("Turn", {"phase": phase, "to move": to_move, "scorings done": scorings,
                           "deck A left": deck_left[0], "deck B left": deck_left[1],
                           "deck C left": deck_left[2], "card in hand": taken}),
    *[view.grid(f"Row card {k + 1} · coconuts on it shown below", rows=CARD_H, cols=CARD_W,
                cell=lambda i, j, k=k: cell_picture(CARD_TERRAIN[i * CARD_W + j][row[k]],
                                                    CARD_SYMBOL[i * CARD_W + j][row[k]]),
                glyphs=CELL_GLYPHS, colour="#ffffff") for k in ROW_SLOTS],
    view.counters("Coconuts on the row", {f"card {k + 1}": row.rider("coconuts", k)
                                          for k in ROW_SLOTS}),
    view.slots("Fate cards (owner marked; empty: not in play)", count=len(FATE_LIST),
               value=lambda i: if_(fate_owner[FATE_LIST[i]] == -2, 0, i + 1),
               glyphs={i + 1: view.glyph(FATE_SHORT[m], "#e8c8e8", shape="card",
                                         title=Fate.docs[m])
                       for i, m in enumerate(Fate.members)},
               owner=lambda i: fate_owner[FATE_LIST[i]]),
    view.grid("Island", rows=R, cols=C, player=True,
              cell=lambda p, r, c: cell_picture(terrain[p, r, c], symbol[p, r, c]),
              glyphs=CELL_GLYPHS, row_labels=[str(r) for r in range(R)],
              col_labels=[str(c) for c in range(C)], colour="#ffffff"),
    view.counters("Player", {
        "coconuts": lambda p: coconuts[p], "cards added": lambda p: placed[p],
        "traveller revealed": lambda p: revealed[p],
        "traveller points": lambda p: traveller_points[p],
        **{f"{s} scored": (lambda p, s=s: sheet[p, Source[s]]) for s in Source.members},
        "longest beach (cards)": lambda p: beach[p], "score": final_score}, player=True),
    legend=SYMBOL_LEGEND,
)
