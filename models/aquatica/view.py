"""How an Aquatica state looks (the report's and `rulespec show`'s drawing). A part of
spec.py: it reads the spec's fields and words and declares the view.
"""

from rulespec.spec import any_of, if_, ordinal, sum_of, view

from .spec import (ALL_CARDS, CHAR_ROW, Card, GOALS, Goal, Icon, KINGS, LOCATIONS, Loc, MAX_DEPTHS,
                   MAX_LOCATIONS, MantaSide, OCEAN, RECRUIT_COST, ROW_LOCATIONS, SLOTS, SPOTS,
                   SPOT_POINTS, STARTING, TRAINED, UPPER_SLOTS, WildKind, board, char_deck,
                   char_row, coins, depth, depth_icon, depths, discard, ending, final_score,
                   final_turns, game, goal_spot, hand, loc_deck, lower, main, mantas_in_reserve,
                   power, scored, to_move, trained, upper, wild_ready, wild_tired)

# =====================================================================================
# How it looks
# =====================================================================================
TYPE_COLOUR = {"shark_bay": "#5b9bd5", "sunken_ships": "#a67c52",
               "decayed_civilizations": "#9e9e9e", "ocean_volcanoes": "#e0643c"}
LOC_ABBR = {"coral_garden": "CG", "shark_lair": "SL", "bay_of_teeth": "BT", "kelp_maze": "KM",
            "wreck": "Wr", "galleon": "Ga", "ghost_fleet": "GF", "treasure_hold": "TH",
            "sunken_temple": "ST", "lost_city": "LC", "ancient_library": "AL",
            "black_smoker": "BS", "magma_vents": "MV", "ash_plains": "AP"}
ICON_TEXT = {"empty": "·", "coin1": "1c", "coin2": "2c", "power1": "1p", "power2": "2p",
             "badge_shark_bay": "+2p SB", "badge_sunken_ships": "+2p SS",
             "badge_decayed_civilizations": "+2p DC", "badge_ocean_volcanoes": "+2p OV",
             "scout": "Sct", "recruit": "Rec", "recruit_free": "Rec0", "take_back": "Back",
             "raise1": "R1", "raise2": "R2", "full_raise": "Rmax", "score": "Scr"}
LOC_GLYPHS = {Loc[k]: view.glyph(f"{LOC_ABBR[k]} {v[3]}", TYPE_COLOUR[v[0]], shape="card",
                                  title=f"{k.replace('_', ' ')}: {v[1]} coins / {v[2]} power, "
                                        f"{v[3]} points, depths "
                                        f"{', '.join(ICON_TEXT[d] for d in v[4])}"
                                        + (f", wild {v[5]} manta" if v[5] else ""))
              for k, v in LOCATIONS.items()}
CARD_ABBR = {"patrician": "Pat", "legionary": "Leg", "matrona": "Mat", "sea_horse": "SHo",
             "wave_teller": "Wav", "recruiter": "Rec", "king_1": "K1", "king_2": "K2",
             "king_3": "K3", "king_4": "K4", **{f"king_{n}": f"K{n}" for n in range(5, 9)},
             "mantas_leader": "MLd", "researcher": "Res",
             "healer": "Hea", "grabber": "Gra", "meg": "Meg", "merchant": "Mer",
             "tide_caller": "Tid", "scholar": "Sch", "diver": "Div"}
CARD_COLOUR = {**{k: "#f2e6c9" for k in STARTING}, **{k: "#f5c542" for k in KINGS},
               **{k: "#9fd3c7" for k in OCEAN}}
CARD_GLYPHS = {Card[k]: view.glyph(CARD_ABBR[k], CARD_COLOUR[k], shape="card", title=v[2])
               for k, v in ALL_CARDS.items()}
ICON_COLOUR = {"coin": "#f5c542", "power": "#d9534f", "badge": "#d9534f", "empty": "#ffffff"}
ICON_GLYPHS = {k: view.glyph(ICON_TEXT[n], ICON_COLOUR.get(n.split("_")[0].rstrip("12"),
                                                           "#b9d7ea"),
                             shape="square", title=Icon.docs[n])
               for k, n in enumerate(Icon.members)}
PLAYER_COLOUR = ["#E69F00", "#56B4E9", "#009E73", "#CC79A7"]
SIDE_GLYPHS = {MantaSide.ready: view.glyph("ready", "#7fc97f", title="ready"),
               MantaSide.tired: view.glyph("tired", "#bbbbbb", title="tired"),
               MantaSide.goal: view.glyph("goal", "#fdc086", title="on a goal track")}


def depth_cell(p, s, j):
    """Depth ``j`` of the location in slot ``s``: its icon while still to come, else -1."""
    loc = board[p, s]
    return if_(any_of(loc == Loc.none, j < depth[p, s], j >= depths[loc]), -1,
               ordinal(depth_icon(loc, j)))


game.view(
    view.counters("Turn", {"player on turn": to_move, "main action": main, "coins": coins,
                           "power": power, "locations in the deck": loc_deck.size(),
                           "characters in the deck": char_deck.size(),
                           "end triggered": ending, "extra turns still to begin": final_turns}),
    view.slots("Scouted row (conquer 1 power less)", count=UPPER_SLOTS, value=lambda i: upper[i],
               glyphs=LOC_GLYPHS),
    view.slots("Location row", count=ROW_LOCATIONS, value=lambda i: lower[i], glyphs=LOC_GLYPHS),
    view.slots("Characters for hire", count=CHAR_ROW, value=lambda i: char_row[i],
               glyphs=CARD_GLYPHS, labels=[f"{c} coin{'s' if c > 1 else ''}"
                                           for c in RECRUIT_COST]),
    view.grid("Goal tracks (best spot first)", rows=GOALS, cols=SPOTS,
              cell=lambda g, k: goal_spot[Goal[Goal.members[g]], k],
              glyphs={p: view.glyph(f"P{p}", PLAYER_COLOUR[p], title=f"player {p}'s manta")
                      for p in range(4)},
              row_labels=["8 cards", "5 locations", "3 scored", "2 wild"],
              col_labels=[f"{v} pts" for v in SPOT_POINTS[:-1]] + ["unused"]),
    view.counters("Player", {
        "score": final_score, "cards in hand": lambda p: hand.size(of=p),
        "discarded": lambda p: discard.size(of=p), "scored locations": lambda p: scored.size(of=p),
        "wild mantas ready": lambda p: sum_of(WildKind, lambda w: wild_ready[p, w]),
        "wild mantas tired": lambda p: sum_of(WildKind, lambda w: wild_tired[p, w]),
        "mantas in reserve": mantas_in_reserve}, player=True),
    view.slots("Player board", count=MAX_LOCATIONS, value=lambda p, s: board[p, s],
               glyphs=LOC_GLYPHS, labels=[f"slot {s}" for s in SLOTS], player=True),
    view.grid("Depths still to come (top first)", rows=MAX_LOCATIONS, cols=MAX_DEPTHS,
              cell=depth_cell, glyphs=ICON_GLYPHS, player=True,
              row_labels=[f"slot {s}" for s in SLOTS],
              col_labels=[f"depth {j + 1}" for j in range(MAX_DEPTHS)]),
    view.slots("Trained mantas", count=len(TRAINED), value=lambda p, m: trained[p, m],
               glyphs=SIDE_GLYPHS, labels=[ICON_TEXT[n] for n in TRAINED], player=True),
    view.pile("Hand", lambda p: [view.chip(hand.count(c, of=p), CARD_GLYPHS[c])
                                 for c in CARD_GLYPHS], player=True),
    view.pile("Discard pile", lambda p: [view.chip(discard.count(c, of=p), CARD_GLYPHS[c])
                                         for c in CARD_GLYPHS], player=True),
    view.pile("Scoring pile", lambda p: [view.chip(scored.count(loc, of=p), LOC_GLYPHS[loc])
                                         for loc in LOC_GLYPHS], player=True),
)
