"""Dead rules: an action, an effect branch or a scoring clause that no state can enable.

"No state" means no state within the declared bounds where every invariant and law holds
(the same premises as the step proofs). A dead rule is a spec bug or a rule that never
applies; either way the rules editor wants to know. Each rule gets one result under the
property name ``rule_can_apply:<what>``: PROVED when it runs in a random game or Z3 finds
a state that enables it (a witness), VIOLATED when none exists, UNKNOWN when a query
spends its budget (resource units) undecided.

Seeded random games come first (:func:`play`): what they run needs no query. The rest is
asked of Z3 per step case (player count and pinned flow values, most players first), on
one solver per case that holds its premises; each witness found is also tried on the
other rules of the action still open, and the search starts from a state the random
games reached (Z3's initial values: a hint, never a premise).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

import attrs
import z3

from ..compile.python_backend import CHANCE, TERMINAL, RuleError
from ..compile.smt_backend import SmtGame, Unsupported
from ..ir.branches import SCORE, branch_labels, score_clauses
from ..ir.walk import walk
from .results import PROVED, SKIPPED, UNKNOWN, VIOLATED, Result
from .solvers import DEFAULT_RLIMIT, check, limited, simple_solver
from .steps import Premises, step_cases

CHECKER = "z3-dead-rules"


@attrs.frozen
class Played:
    """What seeded random games ran (plain data: it goes to other processes)."""

    games: int
    taken: frozenset[int] = frozenset()  # action indices
    ran: frozenset[tuple[int, str]] = frozenset()  # (action index, branch label)
    finals: tuple[tuple, ...] = ()  # the final states (flat values)
    #: per step case (its pinned cells), the last state the games reached in it
    reached: tuple[tuple[tuple, tuple], ...] = ()


def dead_rules(smt: SmtGame, rlimit: int = DEFAULT_RLIMIT, model: Any = None,
               games: int = 0) -> list[Result]:
    """One result per action, per effect branch (``when``/``otherwise``) and per scoring
    clause (each side of a conditional in the score); a branch of a helper several actions
    call is dead only if it runs in none (:func:`shared_branches`), and each dead rule
    says what rules it out (:func:`explain_dead`).

    With a ``model``, ``games`` seeded random games are played first: an action taken or a
    branch run in a played game is alive (a reachable witness, stronger than a state
    within the invariants) and needs no solver query. Each query may spend ``rlimit``
    resource units (a count, so the result does not depend on the machine's load).
    """
    played = play(model, smt, games) if model is not None and games else Played(0)
    found = shared_branches(action_rules(smt, range(len(smt.spec.actions)), played, rlimit)
                            + score_rules(smt, played, rlimit))
    dead = [r.property for r in found if r.status == VIOLATED]
    return with_reasons(found, explain_dead(smt, played, rlimit, dead) if dead else {})


def play(model: Any, smt: SmtGame, games: int, rounds_of: int | None = None) -> Played:
    """The actions taken, the branches run, the final states and a reached state per step
    case of ``games`` seeded random games (the Z3 backend runs each step's effects on its
    concrete state: every branch is decided). With ``rounds_of``, the games are played in
    rounds of that many, and a round that takes no new action and runs no new branch is
    the last: each game costs far less than a witness query, but once the games stop
    finding rules, more of them only cost (the same games whatever the machine)."""
    from ..runtime.play import seeded_chooser
    taken: set[int] = set()
    seen_ids: set[tuple[int, bool]] = set()
    played = 0
    finals: list[tuple] = []
    reached: dict[tuple, tuple] = {}

    def seen(st: Any, side: bool) -> None:
        seen_ids.add((id(st), side))
    smt.branch_seen = seen
    try:
        cases = sorted({fixed for _, fixed in step_cases(smt)})
        news = (0, 0)
        for g in range(games):
            if rounds_of and g and g % rounds_of == 0:
                if (len(taken), len(seen_ids)) == news:
                    break  # the last round found nothing new
                news = (len(taken), len(seen_ids))
            rng = random.Random(g)
            chance = seeded_chooser(model, rng)
            n = model.min_players + g % (model.max_players - model.min_players + 1)
            state = model.initial_state(n)
            try:
                for _ in range(model.spec.max_steps + 1):
                    legal = model.legal_actions(state)
                    if not legal:
                        break
                    for fixed in cases:
                        if all(state.values[c] == v for c, v in fixed):
                            reached[fixed] = state.values
                    action = _pick(model, state, legal, rng, chance)
                    key = action.key
                    taken.add(key[0])
                    smt.run_concrete(key[0], state.values, key[1:])
                    state = model.apply(state, action)
                if model.is_terminal(state):
                    finals.append(state.values)
            except RuleError:
                pass  # the game stops where a rule fails: the proof of the rules' errors says so
            played = g + 1
    except Unsupported:  # no Z3 encoding: the queries say so, rule by rule
        pass
    finally:
        smt.branch_seen = None
    ran: set[tuple[int, str]] = set()  # statement ids as labels (ids do not cross processes)
    s = smt.fresh_state("s")
    for a in range(len(smt.spec.actions)):
        try:
            branches = _branches(smt, a, s, smt.params(a, f"p.{a}"))
        except Unsupported:
            continue
        ran.update((a, label) for st, side, label, _ in branches if (id(st), side) in seen_ids)
    return Played(played, frozenset(taken), frozenset(ran), tuple(finals),
                  tuple(sorted(reached.items())))


def action_rules(smt: SmtGame, actions: Sequence[int], played: Played,
                 rlimit: int, cases: Sequence[tuple] | None = None) -> list[Result]:
    """Alive or dead: each of the given actions, and each branch of its effects (``cases``:
    their step cases, when the caller has them: then no other action is compiled, and
    the answer reads only these actions and the rest of the spec)."""
    try:
        search = _Search(smt, played, rlimit, cases)
    except Unsupported as err:  # the step cases could not be built
        return [Result(f"rule_can_apply:{smt.spec.actions[a].name}", SKIPPED, CHECKER,
                       f"no Z3 encoding: {err}", smt.spec.actions[a].source) for a in actions]
    out: list[Result] = []
    for a in actions:
        out += search.action(a)
    return out


@attrs.define
class _Rule:
    """One rule of an action to show alive: the action itself (``key`` None) or a branch
    (statement id, side), with its label and where it is written."""

    key: tuple[int, bool] | None
    label: str
    verdicts: list[str] = attrs.field(factory=list)
    alive: str = ""  # how it was shown alive ("played", "sat"), or ""
    written: str | None = None  # file:line of the branch's when


class _Search:
    """The witness queries of one job: one solver per step case, premises asserted once."""

    def __init__(self, smt: SmtGame, played: Played, rlimit: int,
                 cases: Sequence[tuple] | None = None) -> None:
        self.smt, self.played, self.rlimit = smt, played, rlimit
        self.cases: dict[int, list[tuple]] = {}
        for a, fixed in step_cases(smt) if cases is None else cases:
            self.cases.setdefault(a, []).append(fixed)
        self.reached = dict(played.reached)
        self._premises: dict[tuple, Premises] = {}
        self._solvers: dict[tuple, z3.Solver] = {}

    def action(self, a: int) -> list[Result]:
        smt, action = self.smt, self.smt.spec.actions[a]
        name = f"rule_can_apply:{action.name}"
        played = f"runs in a random game ({self.played.games} played)"
        try:
            s = smt.fresh_state("s")
            params = smt.params(a, f"p.{a}")
            other = _other_reading(action.preconditions,
                                   [smt.precondition(a, j, s, params)
                                    for j in range(len(action.preconditions))])
            if other is not None:
                why = f"a rule of another reading: {other} under this one"
                return [Result(name, SKIPPED, CHECKER, why, action.source,
                               evidence={"method": "witness", "why": why})]
            rules = [_Rule(None, "")] + [
                _Rule((id(st), side), label, written=_written(st))
                for st, side, label, _ in _branches(smt, a, s, params)]
            for r in rules:
                if (r.key is None and a in self.played.taken) or (
                        r.key is not None and (a, r.label) in self.played.ran):
                    r.alive = "played"
            self._ask(a, rules)
        except Unsupported as err:
            return [Result(name, SKIPPED, CHECKER, f"no Z3 encoding: {err}", action.source,
                           evidence={"method": "witness", "why": f"no Z3 encoding: {err}"})]
        facts = {"rlimit": self.rlimit, "games": self.played.games,
                 "cases": len(self.cases.get(a, ()))}
        out = [_result(name, rules[0], action.source,
                       "enabled in some state within the invariants",
                       "no state within the invariants enables it", played, facts)]
        if rules[0].alive:
            out += [_result(f"{name}:{r.label}", r, action.source,
                            "this branch runs in some state",
                            "this branch never runs when the action is legal", played, facts)
                    for r in rules[1:]]
        return out

    def explain(self, name: str) -> list[str]:
        """What rules out the dead rule ``rule_can_apply:<action>[:<label>]``, in the spec's
        words: the preconditions, the branch's condition and the invariants (or ranges) of
        an unsat core, in the first case of the action (the most players). One query
        within the same budget; [] if it is undecided (or the rule is not found)."""
        _, action_name, *label = name.split(":", 2)
        names = [x.name for x in self.smt.spec.actions]
        if action_name not in names:
            return []
        a = names.index(action_name)
        branch = None
        if label:
            s = self.smt.fresh_state("s")
            found = [(st, side) for st, side, lab, _ in
                     _branches(self.smt, a, s, self.smt.params(a, f"p.{a}")) if lab == label[0]]
            if not found:
                return []
            branch = found[0]
        try:
            return self._explain(a, branch)
        except Unsupported:
            return []

    def _explain(self, a: int, branch: tuple[Any, bool] | None) -> list[str]:
        from ..ir.english import to_english
        smt, action = self.smt, self.smt.spec.actions[a]
        _, p = self._solver(self.cases[a][0])
        solver = limited(simple_solver(), self.rlimit)
        words: dict[int, tuple[int, str]] = {}  # flag id -> (order shown, words)

        def track(order: int, text: str, term: Any) -> Any:
            flag = z3.Bool(f"why!{len(words)}")
            words[flag.get_id()] = (order, text)
            solver.add(z3.Implies(flag, term))
            return flag
        s, params = p.state, smt.params(a, f"p.{a}")
        flags = []
        if branch is not None:
            st, side = branch
            conds = {(id(x), y): c for x, y, _, c in _branches(smt, a, s, params)}
            cond = _short(to_english(st.cond))
            flags.append(track(0, f"its condition ({cond})" if side else
                               f"the opposite of its condition ({cond})",
                               conds.get((id(st), side), z3.BoolVal(False))))
        for j, pre in enumerate(action.preconditions):
            flags.append(track(1, f"precondition '{pre.text}'", smt.precondition(a, j, s, params)))
        cp = smt.current_player_checked(s)
        is_chance = cp.value == CHANCE
        flags.append(track(2, "the game is not over",
                           z3.And(z3.Not(cp.error), cp.value != TERMINAL)))
        flags.append(track(2, "chance moves" if action.chance else "a player moves",
                           is_chance if action.chance else z3.Not(is_chance)))
        if action.chance:
            w = smt.weight_checked(a, s, params)
            flags.append(track(2, "the outcome's odds are above 0",
                               z3.And(z3.Not(w.error), w.value > 0)))
        groups: dict[tuple, list[Any]] = {}
        for k, t in enumerate(p.terms):
            groups.setdefault(p.keys[k][0], []).append(t)
        flags += [track(3 if origin[0] != "bounds" else 4, _premise_words(smt, origin),
                        z3.And(*terms)) for origin, terms in groups.items()]
        flags.append(track(5, "the parameters' ranges", smt.param_domain(a, s, params)))
        if check(solver, *flags) != z3.unsat:
            return []
        return [text for _, text in sorted(words[f.get_id()] for f in solver.unsat_core())]

    def _ask(self, a: int, rules: list[_Rule]) -> None:
        """Witness queries, case by case (most players first), until every rule is alive
        or every case has answered."""
        smt = self.smt
        for fixed in self.cases[a]:
            open_ = [r for r in rules if not r.alive]
            if not open_:
                return
            solver, p = self._solver(fixed)
            params = smt.params(a, f"p.{a}")
            legal = smt.legal(a, p.state, params)
            conds = {(id(st), side): c for st, side, _, c in _branches(smt, a, p.state, params)}

            def enables(r: _Rule) -> Any:
                if r.key is None:
                    return legal
                return z3.And(legal, conds.get(r.key, z3.BoolVal(False)))
            for r in open_:
                if r.alive:
                    continue  # a witness found for another rule showed it too
                if r.key is not None and rules[0].verdicts[-1:] == ["unsat"] \
                        and not rules[0].alive:
                    r.verdicts.append("unsat")  # the action is illegal in this case
                    continue
                solver.push()
                solver.add(enables(r))
                verdict = check(solver)
                r.verdicts.append(str(verdict))
                if verdict == z3.sat:
                    m = solver.model()
                    for other in rules:
                        if not other.alive and z3.is_true(
                                m.eval(enables(other), model_completion=True)):
                            other.alive = "sat"
                solver.pop()

    def _solver(self, fixed: tuple) -> tuple[z3.Solver, Premises]:
        """The case's solver, with its premises, starting from a state a game reached."""
        if fixed not in self._solvers:
            p = self._premises[fixed] = Premises(self.smt, dict(fixed))
            solver = limited(simple_solver(), self.rlimit)
            solver.add(*p.terms)
            values = self.reached.get(fixed)
            if values is not None:
                for t, v in zip(p.state, values):
                    if z3.is_const(t) and not (z3.is_int_value(t) or z3.is_true(t)
                                               or z3.is_false(t)):
                        solver.set_initial_value(t, z3.BoolVal(v) if isinstance(v, bool)
                                                 else z3.IntVal(v))
            self._solvers[fixed] = solver
        return self._solvers[fixed], self._premises[fixed]


def _result(name: str, rule: _Rule, source: str | None, alive: str, dead: str,
            played: str, facts: dict[str, Any] | None = None) -> Result:
    ev = {"method": "witness", **(facts or {})}
    if rule.written:
        ev["written"] = rule.written
    if rule.alive == "played":
        return Result(name, PROVED, CHECKER, played, source,
                      evidence={**ev, "witness": "a random game"})
    if rule.alive:
        return Result(name, PROVED, CHECKER, alive, source,
                      evidence={**ev, "witness": "a state within the invariants"})
    if rule.verdicts and all(v == "unsat" for v in rule.verdicts):
        return Result(name, VIOLATED, CHECKER, dead, source, evidence=ev)
    why = "a query spent its budget undecided"
    return Result(name, UNKNOWN, CHECKER, why, source, evidence={**ev, "why": why})


def _written(st: Any) -> str | None:
    w = getattr(st, "where", None)
    return f"{w.file}:{w.line}" if w is not None else None


def _short(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"


def reasons_sentence(reasons: Sequence[str]) -> str:
    """What rules a dead rule out, as a clause: 'A never holds', 'A and B cannot both
    hold', 'A, B and C cannot all hold'."""
    if len(reasons) == 1:
        return f"{reasons[0]} never holds"
    both = "both" if len(reasons) == 2 else "all"
    return f"{', '.join(reasons[:-1])} and {reasons[-1]} cannot {both} hold"


def _premise_words(smt: SmtGame, origin: tuple) -> str:
    """A premise of the step proofs by where it comes from, in the spec's words."""
    spec = smt.spec
    if origin[0] == "bounds":
        f = spec.field(origin[1])
        return f"the range of {f.name} ({f.lo}..{'' if f.hi is None else f.hi})"
    if origin[0] == "invariant":
        inv = spec.invariants[origin[1]]
        return f"invariant {inv.name}" + (f" ({inv.doc})" if inv.doc else "")
    law = spec.conservation[origin[1]]
    return f"conservation law {law.name}" + (f" ({law.doc})" if law.doc else "")


def explain_dead(smt: SmtGame, played: Played, rlimit: int, names: Sequence[str]
                 ) -> dict[str, list[str]]:
    """For each dead rule named, what rules it out (:meth:`_Search.explain`)."""
    try:
        search = _Search(smt, played, rlimit)
    except Unsupported:
        return {}
    return {n: search.explain(n) for n in names}


def with_reasons(results: list[Result], why: dict[str, list[str]]) -> list[Result]:
    """The dead rules' results with what rules each out (``explain_dead``) in their detail
    and evidence."""
    out = []
    for r in results:
        reasons = why.get(r.property)
        if r.status == VIOLATED and reasons:
            r = attrs.evolve(r, detail=f"{r.detail}: {reasons_sentence(reasons)}",
                             evidence={**(r.evidence or {}), "ruled_out_by": reasons})
        out.append(r)
    return out


def shared_branches(results: list[Result]) -> list[Result]:
    """A branch written once in a helper that several actions (or one action, several
    times) call is one rule: dead only if it runs in none of them. Each instance found
    dead where another instance runs becomes PROVED, naming where it runs."""
    alive: dict[str, list[str]] = {}
    for r in results:
        w = (r.evidence or {}).get("written")
        if w and r.status == PROVED:
            alive.setdefault(w, []).append(r.property.split(":", 1)[1])
    out = []
    for r in results:
        w = (r.evidence or {}).get("written")
        if r.status == VIOLATED and w in alive:
            where = alive[w]
            shown = ", ".join(where[:3]) + (f" and {len(where) - 3} more" if len(where) > 3
                                            else "")
            here = r.property.split(":", 1)[1]
            r = attrs.evolve(r, status=PROVED,
                             detail=f"never runs as {here}, but the same rule (written at "
                                    f"{w.rsplit('/', 1)[-1]}) runs as {shown}",
                             evidence={**(r.evidence or {}), "witness": f"runs as {where[0]}",
                                       "elsewhere": where[:5], "elsewhere_count": len(where)})
        out.append(r)
    return out


def _branches(smt: SmtGame, a_idx: int, s: list, params: list
              ) -> list[tuple[Any, bool, str, Any]]:
    """For each ``when`` of the action's effects: (statement, True, label, condition under
    which its body runs), and likewise (statement, False, ...) for each ``otherwise``. A
    ``when`` inside a loop runs if it runs in some iteration."""
    seen: dict[int, tuple[Any, list, list]] = {}

    def probe(st: Any, guard: Any, cond: Any) -> None:
        entry = seen.setdefault(id(st), (st, [], []))
        entry[1].append(z3.And(guard, cond))
        entry[2].append(z3.And(guard, z3.Not(cond)))

    smt.branch_probe = probe
    try:
        smt.apply_checked(a_idx, s, params)
    finally:
        smt.branch_probe = None
    out = []
    labels = branch_labels(smt.spec.actions[a_idx].effects)
    for st, thens, elses in seen.values():
        out.append((st, True, labels[(id(st), True)], z3.Or(*thens)))
        if st.otherwise:
            out.append((st, False, labels[(id(st), False)], z3.Or(*elses)))
    return out


def _pick(model: Any, state: Any, legal: list, rng: Any, chance: Callable) -> Any:
    """Chance by its odds (``seeded_chooser``); a player's move by rule first, then
    uniformly within the rule, so that rare rules (an island gift, a fishing trip) are
    played as often as purchases."""
    if model.current_player(state) == CHANCE:
        return legal[chance(state, legal)]
    rules = sorted({a.key[0] for a in legal})
    rule = rng.choice(rules)
    return rng.choice([a for a in legal if a.key[0] == rule])


def score_rules(smt: SmtGame, played: Played, rlimit: int) -> list[Result]:
    """Each conditional in the scoring rule (one per source line: a rule written once for
    every village is one clause) can go both ways in some terminal state: in the final
    state of a played game, else in a terminal state within the invariants (Z3)."""
    spec = smt.spec
    out: list[Result] = []
    clauses = score_clauses(spec.scoring.score)
    if not clauses:
        return out
    s = smt.fresh_state("s")
    var = spec.scoring.var.args[0]
    solver: list[z3.Solver] = []  # the premises, once a query needs them
    p = z3.Int("p")
    for clause in clauses:
        conds = list(clause.conds)
        name = f"rule_can_apply:{SCORE}"
        try:
            checked = [smt.evaluate(e.args[0], s, {var: p}) for e in conds]
            # a condition decided by the interpretation alone (``if_(point.is_(...), ..)``)
            # switches between readings: under this one, its other side is not a rule
            kept = [k for k, c in enumerate(checked) if not _decided(c)]
            if not kept:
                continue
            conds, checked = [conds[k] for k in kept], [checked[k] for k in kept]
            seen: set[bool] = set()  # the sides taken at the end of a played game
            for values in played.finals:
                final = smt.concrete_state(values)
                for k in range(values[0]):
                    for e in conds:
                        c = smt.evaluate(e.args[0], final, {var: k})
                        if _decided(c):
                            seen.add(z3.is_true(c.value))
        except Unsupported as err:
            out.append(Result(f"{name}:{clause.then}", SKIPPED, CHECKER,
                              f"no Z3 encoding: {err}", spec.scoring.source))
            continue
        for side, taken in ((clause.then, True), (clause.otherwise, False)):
            rule = _Rule(None, side)
            if taken in seen:
                rule.alive = "played"
            else:
                if not solver:
                    solver.append(limited(simple_solver(), rlimit))
                    solver[0].add(smt.bounds(s), smt.terminal_checked(s).holds(),
                                  0 <= p, p < s[0],
                                  *[smt.invariant_checked(k, s).holds()
                                    for k in range(len(spec.invariants))])
                ways = [c.holds() if taken else z3.And(z3.Not(c.error), z3.Not(c.value))
                        for c in checked]
                solver[0].push()
                solver[0].add(z3.Or(*ways))
                verdict = check(solver[0])
                solver[0].pop()
                rule.verdicts.append(str(verdict))
                if verdict == z3.sat:
                    rule.alive = "sat"
            out.append(_result(f"{name}:{side}", rule, spec.scoring.source,
                               "this scoring clause applies in some final state",
                               "this scoring clause never applies at the end of a game",
                               "applies at the end of a random game"))
    return out


def _reads_a_reading(e: Any) -> bool:
    """The expression reads an interpretation point."""
    return any(x.op == "interp" for x in walk(e))


def _other_reading(preconditions: Sequence[Any], encoded: Sequence[Any]) -> str | None:
    """The words of a precondition that reads an interpretation point and is false under
    this reading whatever the state (the action belongs to another reading), or None."""
    for pre, term in zip(preconditions, encoded):
        if _reads_a_reading(pre.cond) and z3.is_false(z3.simplify(term)):
            return f"'{pre.text}' is false"
    return None


def _decided(c: Any) -> bool:
    """True if a condition has the same value, without error, in every state."""
    return z3.is_false(c.error) and (z3.is_true(c.value) or z3.is_false(c.value))
