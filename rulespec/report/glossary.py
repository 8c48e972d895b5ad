"""The words a report uses, defined once: the legend every report page shows.

Each entry is a term as the page prints it (a verdict badge, a flag, a checker's name, an
assumption's kind), what kind of word it is, and what it means for a rules editor. The
verdicts follow ``docs/verification.md`` (a test holds the two to the same words); the
pictures' abbreviations come from the game's own view (:mod:`rulespec.draw.legend`).

>>> [t["term"] for t in WORDS if t["kind"] == "verdict"]
['PROVED', 'PASSED', 'VIOLATED', 'UNKNOWN', 'SKIPPED']
>>> [t["term"] for t in WORDS if t["kind"] == "comparison"]
['DIFFER', 'SAME']
"""

from __future__ import annotations

from typing import Any

#: where a reader finds all of it at length (in the repository)
DOCS = "docs/verification.md"

_WORDS = [
    # verdicts: one per property and checker
    ("verdict", "PROVED", "Z3 showed it holds in every state in scope (every reachable state "
     "for z3-induction). It proves the spec: a rule transcribed wrongly is proved just as "
     "well."),
    ("verdict", "PASSED", "tested on the games, examples and steps shown, with the seed "
     "shown; nothing failed. Evidence, not proof: a counterexample may still exist."),
    ("verdict", "VIOLATED", "a property of the spec fails: the report shows a concrete "
     "counterexample (its steps and a picture), replayable from its trace."),
    ("verdict", "UNKNOWN", "not decided within the budget (a solver limit, a step that is "
     "not inductive with no reachable failure found). Never counted as a pass."),
    ("verdict", "SKIPPED", "not checked, for the reason given (a checker not run under this "
     "budget, an operation the solver cannot encode, a property the spec waives)."),
    # comparing two readings of a rule: an open question, not a failure
    ("comparison", "DIFFER", "two readings of a passage lead to different play: the "
     "report shows the smallest situation found where they part. A question for the "
     "rules author, not a failure of the spec."),
    ("comparison", "SAME", "no difference found between two readings within the stated "
     "bound (search depth, setups, nodes): they may still differ beyond it."),
    # flags of the rule index
    ("flag", "never reached in play", "no coverage game ran this rule (each move picks a "
     "rule, then one of its moves): untested by play, perhaps rare, perhaps dead."),
    ("flag", "reached N×", "how many times the coverage games ran this rule."),
    ("flag", "dead (Z3)", "Z3 finds no state within the invariants where this rule can "
     "apply: one of its preconditions can never hold."),
    ("flag", "dead? undecided", "the solver could not decide within its budget whether the "
     "rule can ever apply."),
    ("flag", "N scenario(s)", "how many scenarios play or name this rule, pinning what it "
     "does."),
    ("flag", "pinned by", "the scenarios and properties that would notice a change to this "
     "rule (a property pins a rule when it reads a field the rule writes)."),
    ("flag", "default", "the reading of an open question the spec uses unless told "
     "otherwise; the report says why."),
    ("flag", "witness", "a property expected to be violated: its counterexample shows that "
     "something can happen (a reachable situation), so VIOLATED is the good outcome."),
    # where an assumption's value comes from
    ("assumption", "constructed", "the value was made up for the model (a card list, a "
     "price, a layout no source prints): results that read it may be artefacts of it."),
    ("assumption", "printed", "component data printed in the game's own material (its "
     "rulebook, its card list): the rules' own values, listed with the data file they "
     "are read from."),
    ("assumption", "published game", "the value is taken from a published source other "
     "than the rule text quoted (a component list, a review, an online edition)."),
    ("assumption", "inference", "the value is inferred from the rules or the components, "
     "not printed anywhere."),
    ("assumption", "modelling bound", "a limit the model needs (the longest game, the "
     "largest count) that the rules do not state."),
    ("assumption", "not found", "no source was found for the value: it is constructed, and "
     "results that read it rest on it."),
    # checkers and methods
    ("checker", "hypothesis", "games played by Hypothesis, which shrinks a failure to the "
     "shortest, simplest trace."),
    ("checker", "random", "seeded random games (each move chosen uniformly among the legal "
     "ones)."),
    ("checker", "z3", "the Z3 solver on the same rules: z3-step (each action keeps it), "
     "z3-induction (every reachable state), z3-law (a conserved total), z3-bmc (every game "
     "of up to the stated number of steps)."),
    # figures
    ("figure", "95% CI", "a 95 % confidence interval (Wilson) for a share of games: the "
     "true share lies in it with 95 % confidence."),
    ("figure", "lockstep games", "games played under both readings with the same seed and "
     "players, move for move, to see how often the readings part and the winner changes."),
]

WORDS: list[dict[str, str]] = [{"kind": k, "term": t, "meaning": m} for k, t, m in _WORDS]

#: the headings the legend groups its words under, in order
KINDS = {"verdict": "Verdicts", "comparison": "Comparing readings", "flag": "Flags",
         "assumption": "Kinds of assumption", "checker": "Checkers", "figure": "Figures"}


def legend(abbreviations: list[tuple[str, str]]) -> dict[str, Any]:
    """The report's legend: the words, the pictures' abbreviations, where to read more."""
    return {"docs": DOCS, "words": [dict(w) for w in WORDS],
            "abbreviations": [{"text": t, "meaning": m} for t, m in abbreviations]}
