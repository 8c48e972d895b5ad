"""Hawaii: properties checked in Python, beyond the spec's own invariants and conservation laws.

``rulespec check hawaii`` picks up ``PROPERTIES`` automatically. Each property reads the
rule from the seed (``000_3b00b4fc026f56e4.txt``, second copy) and checks it from the
outside, on states and transitions, without reusing the spec's expressions:

- transitions across a round end (turn order, round count, prizes), which the spec's
  invariants cannot state because they see one state at a time;
- monotone quantities (victory points, boats used within a round);
- the final score, recomputed from the villages at the end.

Every number the properties read (the seed's printed constants, the tile effects, the
round tiles, the token values) comes from the spec the checked model was loaded from: its
constants, its enums and its component catalogues (:func:`numbers`). Only the logic is
restated here, never a value: a spec, or a ``--components`` list, with another number is
checked against that number.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from rulespec import load_spec
from rulespec.check.property import end_property, state_property, step_property

SEED = "000_3b00b4fc026f56e4.txt"


@attrs.frozen
class Numbers:
    """The numbers of one loaded Hawaii spec that the properties read (none restated)."""

    names: list[str]            # the Name enum, in its order (the state's has/lvl2 columns)
    cottage_types: list[str]    # 補足１: the start cottage and the cottages
    fruits: list[str]
    villages: int
    columns: int
    rounds: int
    last_round_space_1_vp: int  # §パス: 第５ラウンド…一番左のマス…勝利点２点
    value: list[int]            # token code -> value (code 0 = no token)
    spear: list[int]            # token code -> 1 if it shows a spear
    kahuna_vp: list[int]        # §タイルの配置: by row, from the top
    target: list[int]           # assumption round_tiles
    prizes: list[tuple[int, int, int]]
    # assumption tile_effects, (level I, level II)
    surfer_goal: tuple[int, int]
    lono_vp: tuple[int, int]
    spear_hut_vp: tuple[int, int]
    long_vp: tuple[int, int]
    irrigation_vp: tuple[int, int]
    hula_vp: tuple[int, int]
    kane_vp: tuple[int, int]
    laka_vp: tuple[int, int]
    kanaloa_vp: tuple[int, int]
    ku_vp: tuple[int, int]

    @property
    def index(self) -> dict[str, int]:
        """Tile name -> its column in the state's ``has`` and ``lvl2`` rows."""
        return {n: i for i, n in enumerate(self.names)}


_NUMBERS: dict[int, Numbers] = {}


def numbers(model: Any = None) -> Numbers:
    """The numbers of the spec ``model`` was loaded from (the bundled spec without a model):
    its constants, its enums and its component catalogues (components.toml, or the
    ``--components`` file it was loaded with)."""
    spec = model.spec if model is not None else load_spec("hawaii")
    if id(spec) in _NUMBERS:
        return _NUMBERS[id(spec)]
    const = {c.name: c.value for c in spec.constants}
    data = {a.name: a.value for a in spec.assumptions}
    enums = {e.name: list(e.members) for e in spec.enums}
    tiles, rounds = data["tiles"], list(data["round_tiles"].values())
    tokens = list(data["price_tokens"].values())
    pair = lambda kind: tuple(tiles[kind]["amounts"])  # noqa: E731 - (level I, level II)
    found = _NUMBERS[id(spec)] = Numbers(
        names=enums["Name"], cottage_types=[m for m in enums["Founder"] if m != "none"],
        fruits=[k for k, tile in tiles.items() if tile["group"] == "fruit"],
        villages=const["villages_per_player"], columns=const["board_columns"],
        rounds=const["rounds"], last_round_space_1_vp=const["last_round_first_pass_vp"],
        value=[0] + [tok["value"] for tok in tokens],
        spear=[0] + [int(tok.get("spear", False)) for tok in tokens],
        kahuna_vp=[const[f"kahuna_vp_by_row_{k}"] for k in range(1, 6)],
        target=[r["target"] for r in rounds], prizes=[tuple(r["prizes"]) for r in rounds],
        surfer_goal=(tiles["surfer"]["amounts"][0], const["surfer_II_goal_reduction"]),
        lono_vp=pair("lono"), spear_hut_vp=pair("spear_hut"), long_vp=pair("long_hut"),
        irrigation_vp=tuple(tiles["irrigation"]["end_points"]), hula_vp=pair("hula"),
        kane_vp=pair("kane"), laka_vp=pair("laka"), kanaloa_vp=pair("kanaloa"),
        ku_vp=pair("ku"))
    return found


PASS_TEXT = re.compile(r"^pass to turn-order space (\d)$")


def _seated(state: Any) -> range:
    return range(state["num_players"])


def _level_amount(nums: Numbers, state: Any, p: int, v: int, name: str,
                  amounts: tuple[int, int]) -> int:
    col = nums.index[name]
    if not state["has"][p][v][col]:
        return 0
    return amounts[1] if state["lvl2"][p][v][col] else amounts[0]


def _owned(nums: Numbers, state: Any, p: int, name: str, amounts: tuple[int, int]) -> int:
    return sum(_level_amount(nums, state, p, v, name, amounts) for v in range(nums.villages))


def _round_ended(before: Any, after: Any) -> bool:
    return before["phase"] == "play" and (
        after["round"] != before["round"] or after["phase"] == "over")


def _last_pass(before: Any, action: Any) -> tuple[int, int] | None:
    """(mover, space) of a pass action, or None."""
    m = PASS_TEXT.match(str(action))
    if not m:
        return None
    return before["order"][before["turn_pos"]], int(m.group(1))


# =====================================================================================
# Turn order and rounds
# =====================================================================================
@step_property("next_round_turn_order_is_the_pass_order",
               source=f"{SEED} §ラウンド終了と新たなラウンドの開始: 「手番順が、前ラウンドでのパスエリアに従って"
                      "変化する」; §パス: 「どこに自分のコマを置くかで、次のラウンドのターン順…が決まります」")
def next_round_turn_order_is_the_pass_order(model: Any, before: Any, action: Any,
                                            after: Any) -> str | None:
    """The turn order changes only when a round ends, and then it is the order of the pass
    spaces (space 1 moves first), including the last player's pass; the new round starts
    with the player on space 1. Within a round the order never changes."""
    n = before["num_players"]
    if not _round_ended(before, after):
        if after["order"][:n] != before["order"][:n]:
            return (f"the turn order changed within round {before['round']} "
                    f"({before['order'][:n]} -> {after['order'][:n]}) after {action}")
        return None
    if after["phase"] == "over":
        return None
    last = _last_pass(before, action)
    if last is None:
        return f"round {before['round']} ended by {action}, not by a pass"
    mover, space = last
    spaces = list(before["pass_by"][:n])
    spaces[space - 1] = mover
    if after["order"][:n] != spaces:
        return (f"round {after['round']} turn order is {after['order'][:n]}, but the pass "
                f"spaces held {spaces}")
    if after["turn_pos"] != 0:
        return f"round {after['round']} starts at turn position {after['turn_pos']}, not 0"
    return None


@step_property("a_round_ends_when_everyone_has_passed",
               source=f"{SEED} §ゲーム進行: 「全プレイヤーがパスをすると１ラウンドが終了します」; "
                      "「ゲームは全５ラウンド行われ」")
def a_round_ends_when_everyone_has_passed(model: Any, before: Any, action: Any,
                                          after: Any) -> str | None:
    """The round number only ever goes up by one, and only on the pass of the last player
    who had not passed yet; after round 5 the game is over instead of a round 6."""
    r0, r1 = before["round"], after["round"]
    if r1 < r0 or r1 > r0 + 1:
        return f"the round went from {r0} to {r1} on {action}"
    if not _round_ended(before, after):
        return None
    last = _last_pass(before, action)
    if last is None:
        return f"round {r0} ended on {action}, which is not a pass"
    mover = last[0]
    waiting = [p for p in _seated(before) if p != mover and not before["passed"][p]]
    if waiting:
        return f"round {r0} ended while players {waiting} had not passed"
    rounds = numbers(model).rounds
    if r0 < rounds and (r1 != r0 + 1 or after["phase"] == "over"):
        return f"after round {r0} the game should go on to round {r0 + 1}"
    if r0 == rounds and after["phase"] != "over":
        return f"after round {rounds} the game should be over (phase {after['phase']})"
    return None


@end_property("the_game_lasts_exactly_five_rounds",
              source=f"{SEED} §ゲーム進行: 「ゲームは全５ラウンド行われ、第５ラウンドが終了するとゲーム終了です」")
def the_game_lasts_exactly_five_rounds(model: Any, state: Any, steps: int) -> str | None:
    """A finished game has played round 5 and no further round (the rounds were counted
    one at a time by ``a_round_ends_when_everyone_has_passed``); an unfinished game
    (cut at ``max_steps``) is not judged here."""
    if not model.is_terminal(state):
        return None
    if state["round"] != numbers(model).rounds or state["phase"] != "over":
        return f"the game ended in round {state['round']} (phase {state['phase']})"
    return None


# =====================================================================================
# Resources, boats, points
# =====================================================================================
@state_property("no_negative_resource",
                source=f"{SEED} §画面説明: 貝、足、フルーツ、勝利点; §タイルの購入と配置: "
                       "「必要な足と、タイルの価格分の貝を支払う必要があります」")
def no_negative_resource(model: Any, state: Any) -> str | None:
    """No seated player ever holds a negative number of shells, feet, fruit or victory
    points: a payment the player cannot make is never allowed."""
    for field in ("shells", "feet", "fruit", "vp"):
        values = state[field]
        for p in _seated(state):
            if values[p] < 0:
                return f"player {p} has {values[p]} {field}"
    return None


@step_property("victory_points_never_decrease",
               source=f"{SEED} §ゲームの流れ: 「最終的に最も多くの勝利点を獲得したプレイヤーが勝者です」 "
                      "(points are only ever gained: §ラウンド目標, §島の訪問, §パス)")
def victory_points_never_decrease(model: Any, before: Any, action: Any,
                                  after: Any) -> str | None:
    """No rule takes victory points away."""
    b, a = before["vp"], after["vp"]
    for p in _seated(before):
        if a[p] < b[p]:
            return f"player {p}'s points fell from {b[p]} to {a[p]} on {action}"
    return None


@step_property("a_used_boat_stays_used_until_the_round_ends",
               source=f"{SEED} §ボートの使用: 「１つのボートは１ラウンド中に一度しか使えません。次のラウンドが"
                      "始まると、前のラウンドで使用したボートを再び使えるようになります」")
def a_used_boat_stays_used_until_the_round_ends(model: Any, before: Any, action: Any,
                                                after: Any) -> str | None:
    """Within a round, the canoe's and each boat level's "used" marks never go back (the
    invariant ``boats_used_at_most_once_per_round`` bounds them; this makes them stick),
    and every boat trip (fishing, island) marks at least one more boat used."""
    same_round = not _round_ended(before, after)
    bu, au = before["boats_used"], after["boats_used"]
    bc, ac = before["canoe_used"], after["canoe_used"]
    for p in _seated(before):
        if same_round and (au[p][0] < bu[p][0] or au[p][1] < bu[p][1] or (bc[p] and not ac[p])):
            return (f"player {p}'s boats became usable again within round {before['round']} "
                    f"on {action}")
    text = str(action)
    if text.startswith(("fish ", "visit the island")):
        p = before["order"][before["turn_pos"]]
        used_before = sum(bu[p]) + int(bc[p])
        used_after = sum(au[p]) + int(ac[p])
        if used_after <= used_before:
            return f"{text} marked no boat of player {p} as used"
    return None


# =====================================================================================
# Round prizes and final scoring, recomputed
# =====================================================================================
def expected_prizes(totals: list[int], met: list[bool], prizes: tuple[int, int, int]) -> list[int]:
    """§ラウンド目標, read directly: among the players who met the goal, the highest total
    gets the first prize; if exactly one player has it, the next highest total (all tied
    there) gets the second prize; everyone else who met the goal gets the third."""
    scores = sorted({t for t, m in zip(totals, met) if m}, reverse=True)
    if not scores:
        return [0] * len(totals)
    best = scores[0]
    n_best = sum(1 for t, m in zip(totals, met) if m and t == best)
    second = scores[1] if len(scores) > 1 and n_best == 1 else None
    out = []
    for t, m in zip(totals, met):
        if not m:
            out.append(0)
        elif t == best:
            out.append(prizes[0])
        elif t == second:
            out.append(prizes[1])
        else:
            out.append(prizes[2])
    return out


@step_property("round_prizes_follow_the_goal_tile",
               source=f"{SEED} §ラウンド目標 (例１, 例２: 「最も多くの価格トークンを集めたプレイヤーが複数人いる"
                      "場合は、２番目に多くの…「それ以外のプレイヤー」が受け取る勝利点を受け取る」); "
                      "§タイル効果の詳細: ロノ, サーファー")
def round_prizes_follow_the_goal_tile(model: Any, before: Any, action: Any,
                                      after: Any) -> str | None:
    """At the end of a round each player gains exactly: the goal tile's prize (computed
    here from the price-token totals, the surfers' reductions and the tie rules of the two
    worked examples), plus Lono's points if the goal was met, plus the spear cottages'
    points per spear token, plus 2 for space 1 of the last round's pass area."""
    if not _round_ended(before, after):
        return None
    last = _last_pass(before, action)
    if last is None:
        return None  # a_round_ends_when_everyone_has_passed reports it
    mover, space = last
    nums = numbers(model)
    n = before["num_players"]
    r0 = before["round"] - 1
    totals = list(before["round_total"][:n])
    spears = list(before["spears"][:n])
    code = before["pass_tok"][space - 1]
    totals[mover] += nums.value[code]
    spears[mover] += nums.spear[code]
    surfers = [_owned(nums, before, p, "surfer", nums.surfer_goal) for p in range(n)]
    met = [totals[p] + surfers[p] >= nums.target[r0] for p in range(n)]
    # interpretation goal_ranking: rank by the totals, or by the totals with the surfers
    ranked = (totals if model.interpretation.get("goal_ranking", "raw") == "raw"
              else [t + r for t, r in zip(totals, surfers)])
    prizes = expected_prizes(ranked, met, nums.prizes[r0])
    for p in range(n):
        want = (prizes[p] + (_owned(nums, before, p, "lono", nums.lono_vp) if met[p] else 0)
                + spears[p] * _owned(nums, before, p, "spear_hut", nums.spear_hut_vp))
        if p == mover and space == 1 and before["round"] == nums.rounds:
            want += nums.last_round_space_1_vp
        got = after["vp"][p] - before["vp"][p]
        if got != want:
            return (f"round {r0 + 1}: player {p} (total {totals[p]}, goal met: {met[p]}) "
                    f"gained {got} points, the rules give {want} (totals {totals})")
    return None


def _valid(state: Any, p: int, v: int, reading: Any = None, nums: Numbers | None = None) -> bool:
    """§タイルの配置: the village's rightmost tile reaches the leftmost tiki's column
    (assumption tiki_columns: width + tikis >= columns + 1). Without a tiki (interpretation
    village_without_tiki): never valid, or valid once it fills the board's columns."""
    nums = nums or numbers()
    tikis = state["tikis"][p]
    if tikis == 0 and (reading or {}).get("village_without_tiki", "invalid") == "board_edge":
        tikis = 1  # the board's last column stands in for the missing tiki's
    return (state["founder"][p][v] != "none" and tikis >= 1
            and state["width"][p][v] + tikis >= nums.columns + 1)


def end_bonus(state: Any, p: int, reading: Any = None, nums: Numbers | None = None) -> int:
    """End-of-game points of player ``p``, from the valid villages only (§ゲーム終了).
    ``reading`` is the model's interpretation (village_without_tiki, laka_fruit,
    kanaloa_surfers);
    ``nums`` the numbers of the model's spec (the bundled spec's without)."""
    reading = reading or {}
    nums = nums or numbers()
    col = nums.index
    has = state["has"][p]
    valid = [_valid(state, p, v, reading, nums) for v in range(nums.villages)]
    laka_all = reading.get("laka_fruit", "all_villages") == "all_villages"
    fruit_tiles = sum(has[v][col[f]] for v in range(nums.villages) for f in nums.fruits
                      if laka_all or valid[v])
    valid_surfers = sum(1 for v in range(nums.villages) if valid[v] and has[v][col["surfer"]])
    kanaloa_own = reading.get("kanaloa_surfers", "valid_villages") == "own_village"
    total = 0
    for v in range(nums.villages):
        if not valid[v]:
            continue
        lv = lambda name, amounts: _level_amount(nums, state, p, v, name, amounts)  # noqa: E731
        total += nums.kahuna_vp[v] if state["kahunas"][p] > v else 0
        total += lv("long_hut", nums.long_vp) + lv("irrigation", nums.irrigation_vp)
        total += lv("hula", nums.hula_vp) * sum(has[v])
        total += lv("kane", nums.kane_vp) * sum(has[v][col[c]] for c in nums.cottage_types)
        total += lv("laka", nums.laka_vp) * fruit_tiles
        surfers = has[v][col["surfer"]] if kanaloa_own else valid_surfers
        total += lv("kanaloa", nums.kanaloa_vp) * surfers
        total += lv("ku", nums.ku_vp) * state["tikis"][p]
    return total


@end_property("end_scoring_counts_only_valid_villages",
              source=f"{SEED} §ゲーム終了: 「これらの効果はその村がゲーム終了時点で「村として成立している状態」"
                     "でないと勝利点を獲得できません」; §タイルの配置 (kahunas 5/5/10/10/15)")
def end_scoring_counts_only_valid_villages(model: Any, state: Any, steps: int) -> str | None:
    """At the end, each player's score is their points plus the end effects of tiles and
    kahunas in valid villages only, recomputed here village by village. Also checked
    directly: a player without a valid village scores exactly their points."""
    if not model.is_terminal(state):
        return None
    scores = model.scores(state)
    reading = model.interpretation
    nums = numbers(model)
    for p in _seated(state):
        bonus = end_bonus(state, p, reading, nums)
        if (not any(_valid(state, p, v, reading, nums) for v in range(nums.villages))
                and scores[p] != state["vp"][p]):
            return (f"player {p} has no valid village but scores {scores[p]} "
                    f"with {state['vp'][p]} points")
        if scores[p] != state["vp"][p] + bonus:
            return (f"player {p} scores {scores[p]}; points {state['vp'][p]} + end bonus "
                    f"from valid villages {bonus} = {state['vp'][p] + bonus}")
    return None


PROPERTIES = [
    next_round_turn_order_is_the_pass_order,
    a_round_ends_when_everyone_has_passed,
    the_game_lasts_exactly_five_rounds,
    no_negative_resource,
    victory_points_never_decrease,
    a_used_boat_stays_used_until_the_round_ends,
    round_prizes_follow_the_goal_tile,
    end_scoring_counts_only_valid_villages,
]
