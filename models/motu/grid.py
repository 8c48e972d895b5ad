"""The grid abstraction of MOTU's islands (docs/games/motu.md): how a card turned by quarter
turns covers cells, which cells neighbour it, and which cells' beach bands join end to end.
Geometry, not rules: the placement rules themselves are in spec.py (§2). A part of spec.py."""

from rulespec.spec import Graph, all_of

from .spec import C, CARD_H, CARD_TERRAIN, CARD_TERRAIN_TURNED, CARD_W, CELLS, R


QUARTERS = {0: "upright", 1: "turned_90", 2: "turned_180", 3: "turned_270"}


def footprint(q):
    """(card cell k, row offset, column offset) of an upright card turned q quarter turns
    clockwise, and the footprint's height and width."""
    out = []
    for i in range(CARD_H):
        for j in range(CARD_W):
            k = i * CARD_W + j
            dr, dc = {0: (i, j), 1: (j, CARD_H - 1 - i), 2: (CARD_H - 1 - i, CARD_W - 1 - j),
                      3: (CARD_W - 1 - j, i)}[q]
            out.append((k, dr, dc))
    h, w = (CARD_H, CARD_W) if q % 2 == 0 else (CARD_W, CARD_H)
    return out, h, w


ORTHO = [(-1, 0), (1, 0), (0, -1), (0, 1)]


DIAG = [(-1, -1), (-1, 1), (1, -1), (1, 1)]


def new_terrain(card, q, k):
    return (CARD_TERRAIN_TURNED if q % 2 else CARD_TERRAIN)[k][card]


def beyond(r, c, h, w, nr, nc):
    """The footprint of height ``h`` and width ``w`` starts at (r, c), and (nr, nc) is a
    neighbour of one of its cells, relative to that start: the condition that the
    neighbour lies on the grid (only the sides of the footprint can leave it)."""
    conds = []
    if nr < 0:
        conds.append(r >= -nr)
    if nr >= h:
        conds.append(r + nr < R)
    if nc < 0:
        conds.append(c >= -nc)
    if nc >= w:
        conds.append(c + nc < C)
    return all_of(*conds)


def offsets(q):
    """How many rows and columns the top-left cell of a card turned ``q`` may take."""
    _, h, w = footprint(q)
    return R - h + 1, C - w + 1


def _band_graph():
    """Two nodes per cell, one for a band running left-right (node 2i), one for up-down
    (2i + 1); a cell shows at most one. Neighbouring cells' bands join where the band of
    one runs into the other (its end rests on it): not two parallel bands side by side."""
    edges = []
    for r, c in CELLS:
        i = r * C + c
        if c + 1 < C:  # left-right neighbours: joined unless both run up-down
            j = i + 1
            edges += [(2 * i, 2 * j), (2 * i, 2 * j + 1), (2 * i + 1, 2 * j)]
        if r + 1 < R:  # up-down neighbours: joined unless both run left-right
            j = i + C
            edges += [(2 * i + 1, 2 * j + 1), (2 * i + 1, 2 * j), (2 * i, 2 * j + 1)]
    return Graph.from_edges("beach bands", 2 * R * C, edges,
                            [f"({r},{c}) {d}" for r, c in CELLS for d in ("-", "|")])


BANDS = _band_graph()
