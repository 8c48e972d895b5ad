"""What a rule function receives: ``RuleBuilder`` records guards and effects, in order.

A decorated rule function runs once, on symbolic parameters; the builder turns its calls
(``rule.require``, ``rule.set``, ``with rule.when(...)``) into preconditions and statements.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

import attrs

from ..ir.assumed import tags_of
from ..ir.errors import SpecError
from ..ir.location import caller_location, with_target
from ..ir.nodes import BOOL, INT, Expr, bound_var, domain_of, lift
from ..ir.statements import Assign, ForEach, If, Let
from .elements import Precondition


class RuleBuilder:
    """What a rule function receives: record guards and effects, in order."""

    def __init__(self, element: str, allow_require: bool = True) -> None:
        self._element = element
        self._allow_require = allow_require
        self.preconditions: list[Precondition] = []
        self._blocks: list[list] = [[]]
        self.weight: Expr | None = None
        #: assumption labels the rule rests on by its shape (``rests_on``)
        self.rests: set = set()

    @property
    def effects(self) -> tuple:
        return tuple(self._blocks[0])

    def require(self, cond: Any, text: str, *, source: str | None = None) -> None:
        """A precondition: the action is legal only if ``cond`` holds. ``text`` says the rule."""
        where = caller_location()
        if not self._allow_require:
            raise SpecError("require() is only allowed in actions", element=self._element,
                            where=where)
        if len(self._blocks) > 1:
            raise SpecError("require() must be at the top of the rule, not inside when/for_each",
                            element=self._element, where=where)
        c = lift(cond)
        if c.type != BOOL:
            raise SpecError(f"precondition {text!r} must be a bool, got {c.type}",
                            element=self._element, where=where)
        self.preconditions.append(Precondition(text, c, source, where))

    def rests_on(self, *values: Any) -> None:
        """This rule rests on assumptions no value of it shows (a parameter's range, a
        modelling choice written as its shape): ``values`` that ``game.assume`` returned."""
        where = caller_location()
        tags = tags_of(values)
        if not tags:
            raise SpecError("rests_on() takes values game.assume returned", element=self._element,
                            where=where)
        self.rests |= tags

    def set(self, target: Any, value: Any, *, source: str | None = None) -> None:
        """Assign ``value`` to the field cell ``target``."""
        where = caller_location()
        t = lift(target)
        if t.op != "field":
            raise SpecError(f"can only set a field, not {t!r}", element=self._element, where=where)
        v = lift(value)
        if v.type != t.type:
            raise SpecError(f"cannot set {t.args[0].name} ({t.type}) to a {v.type}",
                            element=self._element, where=where)
        self._blocks[-1].append(Assign(t, v, where, source))

    def let(self, value: Any, *, name: str | None = None) -> Expr:
        """Evaluate ``value`` now and name it for the rest of this block (like a local).
        ``name`` is required: the report's English reads the value by it."""
        where = caller_location()
        from ..ir.nodes import _counter
        if not isinstance(name, str) or not name.strip():
            raise SpecError("rule.let needs a name the report can read the value by: "
                            "rule.let(value, name=\"...\")", element=self._element, where=where)
        v = lift(value)
        var = Expr("var", (f"{name}{next(_counter)}", None), v.type, None, None, name)
        self._blocks[-1].append(Let(var, v, where))
        return var

    def add(self, target: Any, delta: Any, *, source: str | None = None) -> None:
        """``target += delta``."""
        self.set(target, lift(target) + delta, source=source)

    @contextlib.contextmanager
    def when(self, cond: Any, *, source: str | None = None,
             name: str | None = None) -> Iterator[None]:
        """Effects inside the block happen only if ``cond`` holds. ``name`` says the rule in
        a few words (the report and the dead-rule checker call the branch so; without
        it, by its condition)."""
        where = caller_location()
        if name is not None and not (isinstance(name, str) and name.strip()):
            raise SpecError(f"a when's name is a non-empty string, got {name!r}",
                            element=self._element, where=where)
        c = lift(cond)
        if c.type != BOOL:
            raise SpecError(f"when() needs a bool, got {c.type}", element=self._element,
                            where=where)
        with self._block() as body:
            yield
        self._blocks[-1].append(If(c, tuple(body), (), where, source, name))

    @contextlib.contextmanager
    def otherwise(self, *, source: str | None = None) -> Iterator[None]:
        """Effects for when the immediately preceding ``when`` did not hold. ``source``: the
        text of that side, when it has its own (``diff`` and the report credit it)."""
        where = caller_location()
        block = self._blocks[-1]
        if not block or not isinstance(block[-1], If) or block[-1].otherwise:
            raise SpecError("otherwise() must follow a when() block", element=self._element,
                            where=where)
        with self._block() as body:
            yield
        last = block[-1]
        block[-1] = attrs.evolve(last, otherwise=tuple(body), otherwise_source=source)

    @contextlib.contextmanager
    def for_each(self, dom: Any, *, source: str | None = None,
                 name: str | None = None) -> Iterator[Expr]:
        """Repeat the block for each value of a finite domain (yields the loop variable,
        which the report calls by the name after ``as``, or ``name``)."""
        where = caller_location()
        d = domain_of(dom)
        var = bound_var(d, name or with_target())
        with self._block() as body:
            yield var
        self._blocks[-1].append(ForEach(var, d, tuple(body), where, source))

    @contextlib.contextmanager
    def _block(self) -> Iterator[list]:
        """A nested block: the statements recorded inside it end up in the list yielded."""
        body: list = []
        self._blocks.append(body)
        try:
            yield body
        finally:
            self._blocks.pop()

    def set_weight(self, weight: Any) -> None:
        """For a chance outcome: its relative weight (default 1)."""
        w = lift(weight)
        if w.type != INT:
            raise SpecError(f"a chance weight must be an int, got {w.type}", element=self._element)
        self.weight = w



@contextlib.contextmanager
def _in_element(element: str) -> Iterator[None]:
    """Name the element being built in any SpecError raised without one."""
    try:
        yield
    except SpecError as err:
        if err.element is None:
            raise SpecError(err.problem, element=element, where=err.where) from None
        raise
