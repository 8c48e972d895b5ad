"""What ``rulespec prove`` prints for people: lines of at most 100 columns.

One line per property, its checkers' verdicts together; a property name is never cut
(so it can be copied into ``--property``), the details wrap below it instead. The many
dead-rule results are a count unless something is wrong with them (``verbose`` lists
them all). ``--json`` has everything.

>>> from rulespec.check.results import Result
>>> rs = [Result("marks_alternate", "PROVED", "z3-step"),
...       Result("marks_alternate", "PROVED", "z3-induction"),
...       Result("rule_can_apply:mark", "PROVED", "z3-dead-rules", "runs in a random game")]
>>> for _, line in lines("Tic-tac-toe: Z3", rs):
...     print(line)
Tic-tac-toe: Z3
PROVED    marks_alternate  (z3-step, z3-induction)
dead rules: 1 rule_can_apply:* result, all PROVED (--verbose lists them)
summary: 3 PROVED
"""

from __future__ import annotations

import textwrap
from collections import Counter
from typing import Sequence

from .results import PROVED, STATUSES, Result

WIDTH = 100
STYLE = {"PASSED": "green", "PROVED": "green", "VIOLATED": "bold red", "UNKNOWN": "yellow",
         "SKIPPED": "dim"}
DEAD = "rule_can_apply:"
_RANK = {"VIOLATED": 0, "UNKNOWN": 1, "SKIPPED": 2, "PASSED": 3, "PROVED": 4}


def lines(title: str, results: Sequence[Result], verbose: bool = False,
          width: int = WIDTH) -> list[tuple[str | None, str]]:
    """(style, text) pairs: a title, one entry per property, the dead rules, a summary."""
    out: list[tuple[str | None, str]] = [(None, t) for t in _wrap(title, width, 0)]
    by_name: dict[str, list[Result]] = {}
    for r in results:
        if verbose or not r.property.startswith(DEAD) or r.status != PROVED:
            by_name.setdefault(r.property, []).append(r)
    for name, rs in by_name.items():
        worst = min((r.status for r in rs), key=_RANK.__getitem__)
        if all(r.status == PROVED for r in rs):
            head = f"{worst:<9} {name}  ({', '.join(r.checker for r in rs)})"
            out += [(STYLE[worst], t) for t in _wrap(head, width, 0, 10)]
            if verbose:
                out += [(None, t) for r in rs for t in _wrap(f"{r.checker}: {r.detail}",
                                                             width, 10, 14)]
            continue
        out += [(STYLE[worst], t) for t in _wrap(f"{worst:<9} {name}", width, 0, 10)]
        for r in rs:
            if r.status == PROVED and not verbose:
                text = f"{r.checker}: PROVED"
            else:
                text = f"{r.checker}: {r.status}: {r.detail}"
            out += [(STYLE[r.status] if r.status != PROVED else None, t)
                    for t in _wrap(text, width, 10, 14)]
            if r.trace is not None:
                steps = "; ".join(r.trace) if r.trace else "(the setup itself)"
                out += [(None, t) for t in _wrap(
                    f"counterexample, {len(r.trace)} step(s): {steps}", width, 14, 18)]
            if r.trace_path:
                out += [(None, " " * 14 + f"replay with: rulespec replay {r.trace_path}")]
            if r.trace_error:  # the verdict stands without the file
                out += [("yellow", t) for t in _wrap(f"trace not saved: {r.trace_error}",
                                                     width, 14, 18)]
    dead = [r for r in results if r.property.startswith(DEAD)]
    if dead and not verbose:
        counts = Counter(r.status for r in dead)
        if set(counts) == {PROVED}:
            what = "all PROVED"
        else:
            what = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
        noun = "result" if len(dead) == 1 else "results"
        out += [(None, t) for t in _wrap(f"dead rules: {len(dead)} {DEAD}* {noun}, {what} "
                                         "(--verbose lists them)", width, 0)]
    total = Counter(r.status for r in results)
    out.append((None, "summary: " + ", ".join(f"{total[s]} {s}" for s in STATUSES
                                               if total[s])))
    return out


def _wrap(text: str, width: int, first: int, hang: int | None = None) -> list[str]:
    """``text`` indented ``first`` columns (continuations ``hang``), words never broken:
    a longer word (a property name, a path) stands on a line of its own."""
    hang = first if hang is None else hang
    return textwrap.wrap(text, width, initial_indent=" " * first,
                         subsequent_indent=" " * hang, break_long_words=False,
                         break_on_hyphens=False) or [""]


def retry_line(retry: dict, rlimit: int, width: int = WIDTH) -> str:
    """One line on the step cases tried again with a larger budget (``--retry-rlimit``).

    >>> print(retry_line({"rlimit": 50_000_000, "cases": 3, "tried": True}, 10_000_000))
    tried again: the 3 step cases a goal was undecided in within 10,000,000 units a query, with
      50,000,000 (the verdicts above are after it)
    >>> print(retry_line({"rlimit": 50_000_000, "cases": 40, "tried": False}, 10_000_000))
    not tried again: a goal was undecided in 40 step cases within 10,000,000 units a query, more than
      the 16 a retry with 50,000,000 takes
    """
    from .prove import RETRY_CASES
    if retry["tried"]:
        cases = f"{retry['cases']} step cases" if retry["cases"] != 1 else "step case"
        text = (f"tried again: the {cases} a goal was undecided in within {rlimit:,} units a "
                f"query, with {retry['rlimit']:,} (the verdicts above are after it)")
    else:
        text = (f"not tried again: a goal was undecided in {retry['cases']} step cases within "
                f"{rlimit:,} units a query, more than the {RETRY_CASES} a retry with "
                f"{retry['rlimit']:,} takes")
    return "\n".join(_wrap(text, width, 0, 2))


def inference_line(inference: dict, width: int = WIDTH) -> str:
    """One line on the search for auxiliary invariants (:mod:`.infer`).

    >>> print(inference_line({"lemmas": ["a = b"], "candidates": 8, "states_played": 534,
    ...                       "dropped": ["a ≤ 2"], "unneeded": ["a ≤ b"] * 6,
    ...                       "rlimit_spent": 94}))
    inferred: 1 lemma kept of 8 candidates true in 534 played states (1 dropped: a step breaks it; 6
      true but not needed), 94 resource units; each is proved above as 'inferred: ...'
    """
    n = len(inference["lemmas"])
    if not n:
        unneeded = len(inference.get("unneeded", []))
        text = (f"inferred: no lemma: of {inference['candidates']} candidates true in "
                f"{inference['states_played']} played states, "
                + (f"a step breaks {len(inference['dropped'])} and the open goals need none "
                   f"of the other {unneeded}" if unneeded else "a step breaks each")
                + f" ({inference['rlimit_spent']:,} resource units)")
    else:
        text = (f"inferred: {n} lemma{'s' if n != 1 else ''} kept of "
                f"{inference['candidates']} candidates true in "
                f"{inference['states_played']} played states ({len(inference['dropped'])} "
                f"dropped: a step breaks it; {len(inference.get('unneeded', []))} true but "
                f"not needed), {inference['rlimit_spent']:,} resource units; "
                "each is proved above as 'inferred: ...'")
    if inference.get("not_about_the_open_goals"):
        text += (f"; {inference['not_about_the_open_goals']} more name no field the open "
                 "goals read (not tried)")
    return "\n".join(_wrap(text, width, 0, 2))
