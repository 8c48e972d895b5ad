"""What stands behind a verdict, in one line a rules editor reads.

The checkers record it as data (``Result.evidence``, see ``docs/verification.md``); this
turns it into the line shown under each verdict: a test's games, examples and steps with
its seed and players, a proof's method and bound, why a check was skipped or undecided.
"""

from __future__ import annotations

from typing import Any


def players(counts: list[int] | None) -> str:
    """``[2, 3, 4]`` as '2-4 players', ``[3]`` as '3 players'.

    >>> players([2, 3, 4]), players([3]), players([1]), players([])
    ('2-4 players', '3 players', '1 player', 'no game')
    """
    if not counts:
        return "no game"
    lo, hi = min(counts), max(counts)
    if lo == hi:
        return f"{lo} player{'s' if lo != 1 else ''}"
    if sorted(counts) == list(range(lo, hi + 1)):
        return f"{lo}-{hi} players"
    return f"{', '.join(map(str, sorted(counts)))} players"


def _n(x: Any, word: str) -> str:
    plural = word[:-1] + "ies" if word.endswith("y") else word + "s"
    return f"{x:,} {word if x == 1 else plural}"


def sentence(ev: dict[str, Any] | None) -> str:
    """The evidence as one line.

    >>> sentence({"method": "Hypothesis", "examples": 5, "games": 7, "steps": 1234,
    ...           "players": [2, 3], "seed": 0, "policy": "Hypothesis"})
    'tested: 5 Hypothesis examples (7 games, 1,234 steps, 2-3 players), seed 0'
    >>> sentence({"method": "bounded model checking", "depth": 4, "players": [2, 3, 4]})
    'bounded model checking: no violation within 4 steps of any setup (2-4 players)'
    >>> sentence({"method": "step proof", "why": "no Z3 encoding: connected"})
    'step proof: not decided: no Z3 encoding: connected'
    """
    if not ev:
        return ""
    method = ev.get("method", "")
    units = (f", at most {ev['rlimit']:,} resource units per query" if ev.get("rlimit")
             else "")
    who = f" ({players(ev['players'])})" if ev.get("players") else ""
    if ev.get("why") and method in ("step proof", "induction", "law",
                                    "bounded model checking", "witness"):
        return f"{method}: not decided: {ev['why']}"
    if "games" in ev and "examples" in ev:  # a test by play
        kind = "Hypothesis examples" if method == "Hypothesis" else method
        text = (f"tested: {ev['examples']:,} {kind} ({_n(ev['games'], 'game')}, "
                f"{_n(ev.get('steps', 0), 'step')}, {players(ev.get('players'))}), "
                f"seed {ev.get('seed')}")
        return text + (f"; {ev['why']}" if ev.get("why") else "")
    if ev.get("why"):
        return f"{method}: {ev['why']}"
    if method == "step proof":
        used = ev.get("premises") or []
        parts = [_n(ev.get("cases", 0), "case")] + (
            [players(ev["players"])] if ev.get("players") else []) + [
            f"{_n(ev.get('queries', 0), 'query')} in all"]
        return (f"step proof: every action from every state within the invariants "
                f"({', '.join(parts)}){units}; "
                + (f"using {_n(len(used), 'premise')}: {', '.join(used[:6])}"
                   + (f" and {len(used) - 6} more" if len(used) > 6 else "")
                   if used else "using no premise"))
    if method == "induction":
        used = ev.get("premises") or []
        return (f"induction: true after every setup{who} and kept by every step"
                + (f", with {_n(len(used), 'premise')} proved the same way" if used else ""))
    if method == "bounded model checking":
        return (f"bounded model checking: no violation within {ev.get('depth')} steps of any "
                f"setup{who}{units}")
    if method == "law":
        return f"law: true in every state within the declared ranges{units}"
    if method == "witness":
        if ev.get("elsewhere"):
            return f"witness: the same rule {ev.get('witness', '')}"
        if ev.get("witness"):
            where = (f" ({ev['games']} played)" if ev["witness"] == "a random game"
                     and ev.get("games") else "")
            return f"witness: {ev['witness']}{where}"
        ruled = ev.get("ruled_out_by")
        return ("Z3: no state within the invariants enables it"
                + (f" ({_n(ev['cases'], 'case')})" if ev.get("cases") else "") + units
                + (f"; ruled out by {'; '.join(ruled)}" if ruled else ""))
    return method
