"""Bounded model checking: no violation reachable within ``k`` steps of any setup.

The game is unrolled from the setup for each player count, one symbolic step at a time
(any legal action instance, chance outcomes included), and Z3 is asked whether a goal
can fail at each depth. Iterative deepening, so a violation found is a shortest one; it
is replayed on the Python backend and saved as a trace.

``prove`` asks it only about what induction did not prove: a goal that is not inductive
(is its counterexample to induction reachable?) or one whose induction failed because a
premise did.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Sequence

import attrs
import z3

from ..compile.smt_backend import SmtGame
from ..formats.names import slug
from ..runtime.model import Model
from ..runtime.trace import Trace, TraceWriteError, save_trace
from .property import all_properties
from .results import UNKNOWN, VIOLATED, Result
from .solvers import check, limited
from .reading_errors import reading_error
from .steps import BOUNDS, RULE_ERRORS, Goal, goals_of
from .walk import recheck

CHECKER = "z3-bmc"


@attrs.frozen
class Check:
    """A step goal as bounded model checking and the base case check it: its name and
    ``holds(before, after_cells)``."""

    name: str
    source: str | None
    holds: Callable[[list, list], Any]


def goal_checks(smt: SmtGame) -> list[Check]:
    """The step goals of :func:`.steps.goals_of`, the bounds of every field as one."""
    out = [Check(BOUNDS, None, lambda s, t: smt.bounds(t))]
    for g in goals_of(smt):
        if g.kind == "bounds":
            out[0] = Check(BOUNDS, g.source, out[0].holds)
        else:
            out.append(Check(g.name, g.source, lambda s, t, g=g: _holds(smt, g, s, t)))
    return out


def _holds(smt: SmtGame, g: Goal, s: list, t: list) -> Any:
    if g.kind == "errors":
        return z3.BoolVal(True)  # the error flag is checked on its own
    if g.kind == "invariant":
        return smt.invariant_checked(g.index, t).holds()
    before, after = smt.conserved_checked(g.index, s), smt.conserved_checked(g.index, t)
    return z3.And(z3.Not(before.error), z3.Not(after.error), before.value == after.value)


def bounded_model_check(model: Model, smt: SmtGame, depth: int, rlimit: int,
                        wanted: set[str] | None, trace_dir: str | Path,
                        lemmas: Sequence[int] = ()) -> dict[str, Result]:
    """The goals (and laws) found violated, or undecided, within ``depth`` steps from any
    setup: name -> result. A goal not in the answer holds within ``depth`` steps.

    Each query may spend ``rlimit`` resource units. ``lemmas`` are indices of invariants
    already proved by induction: assuming them at every step is sound and spares the
    solver from rediscovering them.
    """
    goals = [g for g in goal_checks(smt) if wanted is None or g.name in wanted]
    laws = [(k, inv) for k, inv in enumerate(smt.spec.invariants)
            if inv.law and (wanted is None or inv.name in wanted)]
    errors_wanted = wanted is None or RULE_ERRORS in wanted
    found: dict[str, Result] = {}
    props = all_properties(model)
    for n in range(model.min_players, model.max_players + 1):
        pending = [g for g in goals if g.name not in found]
        if not pending and not laws:
            break
        path = _Unrolling(smt, n)
        solver = limited(z3.Solver(), rlimit)
        solver.add(*path.constraints)
        for i in range(depth + 1):
            if i > 0:
                solver.add(*path.extend())
            s = path.states[i]
            solver.add(*[smt.invariant_checked(j, s).holds() for j in lemmas])
            checks = {g.name: g.holds(path.states[0], s) for g in pending}
            for k, inv in laws:
                checks[inv.name] = smt.invariant_checked(k, s).holds()
            if errors_wanted and RULE_ERRORS not in found:  # stepping, or reading state i
                checks[RULE_ERRORS] = z3.Not(z3.Or(path.error,
                                                   reading_error(smt, s, f"read.{n}.{i}")))
            if not checks:
                break
            while checks:  # until none of the goals left can fail at this depth
                solver.push()
                solver.add(z3.Or(*[z3.Not(c) for c in checks.values()]))
                r = check(solver)
                if r == z3.sat:
                    _violations(model, path, solver.model(), i, n, checks, props, found,
                                trace_dir)
                solver.pop()
                if r == z3.unknown:
                    # goal by goal: only the goals undecided on their own are UNKNOWN
                    for name, c in checks.items():
                        solver.push()
                        solver.add(z3.Not(c))
                        r1 = check(solver)
                        if r1 == z3.sat and name not in found:
                            _violations(model, path, solver.model(), i, n,
                                        {k: c for k, c in checks.items() if k not in found},
                                        props, found, trace_dir)
                        elif r1 == z3.unknown:
                            found.setdefault(name, Result(
                                name, UNKNOWN, CHECKER, f"undecided at depth {i} with {n} "
                                f"players within {rlimit:,} resource units"))
                        solver.pop()
                if r != z3.sat:
                    break
                checks = {k: c for k, c in checks.items() if k not in found}
            pending = [g for g in pending if g.name not in found]
            laws = [(k, inv) for k, inv in laws if inv.name not in found]
    return found


def _violations(model: Model, path: "_Unrolling", m: z3.ModelRef, i: int, n: int,
                checks: dict[str, Any], props: list, found: dict[str, Result],
                trace_dir: str | Path) -> None:
    """Record the goals a solver model violates at depth ``i``, replayed on the Python
    backend and saved as traces."""
    texts = [model._text(k) for k in path.actions(m, i)]
    failed = [name for name, c in checks.items()
              if z3.is_false(m.eval(c, model_completion=True))]
    v = recheck(model, n, texts, props)
    for name in failed:
        why = (v.message if v else "Z3 found a violation the Python backend does not "
               "reproduce (backend mismatch)")
        trace = Trace.of(model, n, texts, name, v.message if v else "found by Z3")
        saved: str | None = None
        error: str | None = None
        try:
            file = f"{slug(model.name)}-{slug(name)}-z3.json"
            saved = str(save_trace(trace, Path(trace_dir) / file))
        except TraceWriteError as err:  # the verdict stands; the result says where it failed
            error = str(err)
        found[name] = Result(name, VIOLATED if v is not None else UNKNOWN, CHECKER,
                             f"reachable in {i} step(s) with {n} players: {why}",
                             None, None, None, texts, saved, error)


class _Unrolling:
    """A path of symbolic steps from the setup for ``n`` players: at each step one action
    instance (chosen symbolically) is legal and applied, or the game is over and stays."""

    def __init__(self, smt: SmtGame, n: int) -> None:
        self.smt = smt
        init = smt.initial_checked(z3.IntVal(n))
        self.states: list[list] = [init.value]
        self.error = init.error
        self.constraints: list[Any] = []
        self.choices: list[Any] = []
        self.instances = [(a, inst) for a in range(len(smt.spec.actions))
                          for inst in smt.instances(a)]

    def extend(self) -> list[Any]:
        """Add one step: fresh cells constrained to the chosen action instance's successor.

        Each action instance (concrete parameter values) is one choice, so indices fold and
        a cell's next value only lists the instances that can change it; fresh variables
        per step keep terms small however deep the path goes. A cell no instance writes, or
        whose next value is the same whatever the choice, keeps a plain term, so known
        values (the phase during the layout, say) stay known and rule out whole actions.
        """
        smt = self.smt
        i = len(self.states) - 1
        s = self.states[-1]
        choice = z3.Int(f"choice{i}")
        over = smt.current_player_checked(s).value == -4
        legal, changes, errors = [], [[] for _ in s], []
        possible = {a: not z3.is_false(z3.simplify(smt.legal(a, s, smt.params(a, f"any{a}"))))
                    for a in range(len(smt.spec.actions))}
        for k, (a, inst) in enumerate(self.instances):
            if not possible[a]:  # e.g. the phase is known and the action needs another
                continue
            params = [z3.IntVal(v) for v in inst]
            ok = smt.legal(a, s, params)
            if z3.is_false(z3.simplify(ok)):
                continue
            after = smt.apply_checked(a, s, params)
            legal.append(z3.And(choice == k, ok))
            errors.append(z3.And(choice == k, after.error))
            for c, (old, new) in enumerate(zip(s, after.value)):
                if not new.eq(old):
                    changes[c].append((k, new))
        fresh = smt.fresh_state(f"s{i + 1}")
        nxt = list(s)
        out = [z3.Or(over, *legal)]
        for c, old in enumerate(s):
            if not changes[c]:
                continue  # no instance writes it: it keeps its term (a known value stays known)
            v = old
            for k, new in reversed(changes[c]):
                v = z3.If(choice == k, new, v)
            v = z3.simplify(z3.If(over, old, v))
            if z3.is_int_value(v) or z3.is_true(v) or z3.is_false(v):
                nxt[c] = v  # decided whatever the choice: later steps fold on it
            else:
                nxt[c] = fresh[c]
                out.append(fresh[c] == v)
        self.error = z3.Or(self.error, z3.And(z3.Not(over), z3.Or(*errors)))
        self.states.append(nxt)
        self.choices.append(choice)
        return out

    def actions(self, m: z3.ModelRef, upto: int) -> list[tuple]:
        """The action keys a solver model chose along the path, up to the end of the game."""
        keys = []
        for i in range(upto):
            over = m.eval(self.smt.current_player_checked(self.states[i]).value == -4,
                          model_completion=True)
            if z3.is_true(over):
                break
            k = m.eval(self.choices[i], model_completion=True).as_long()
            a, inst = self.instances[k]
            keys.append((a, *inst))
        return keys
