"""How the checks make Z3 solvers: the settings their queries share, in one place."""

from __future__ import annotations

import z3

#: Z3's simplex-based arithmetic solver (``smt.arith.solver=2``) rather than its default
#: (6). The checks ask about linear arithmetic over small bounded ints with many Boolean
#: cases; measured with z3-solver 5.4 on Hawaii, the step proofs take a quarter less
#: time and the dead-rule queries a fifth less (docs/verification.md, "How long").
ARITH_SOLVER = 2


def simple_solver() -> z3.Solver:
    """A solver with no preprocessing: fastest on the many small queries of the checks."""
    solver = z3.SimpleSolver()
    solver.set("smt.arith.solver", ARITH_SOLVER)
    return solver
