"""Naming subexpressions of generated code once: common ones, and loop-invariant ones.

The Python backend offers every subexpression it writes (as code text) to a :class:`Hoist`
for the function being written; the hoister decides, once the function is complete, which
to define once (``_h3 = ...``, in the outermost loop that binds what it reads) and which to
write in place. It works on code text: the same text is the same computation, and names in
it (``p_x`` for parameters, ``_h``/``_g`` for definitions) say where it can be computed.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import attrs

_INT_LITERAL = re.compile(r"-?\d+\Z")
_LITERAL_START = frozenset("-0123456789TF")


def literal(code: str) -> tuple[bool, Any]:
    """``(True, value)`` when ``code`` is an int or bool literal (then it can be folded)."""
    if code[:1] not in _LITERAL_START:
        return False, None
    if code == "True":
        return True, True
    if code == "False":
        return True, False
    if _INT_LITERAL.match(code):
        return True, int(code)
    return False, None



_IDENT = re.compile(r"[A-Za-z_]\w*")
_STRING = re.compile(r"'[^']*'")
HOISTED = re.compile(r"\b_[hg]\w+\b")
SHARED = re.compile(r"\b_g\d+\b")
#: a read at a constant index out of range (the emitter writes a constant in range without
#: ``_ck``), or of a member with no value (``_no``): it raises whenever it runs, so it stays
#: behind the guard that skips it
_ALWAYS_RAISES = re.compile(r"\b_(ck|no)\(-?\d+, ")
#: identifiers of generated code that are not variables
_FIXED = frozenset({"s", "min", "max", "abs", "any", "all", "sum", "range", "True", "False",
                    "not", "and", "or", "if", "else", "for", "in", "_ck"})


class Def:
    """A subexpression named once: ``name = code`` at loop level ``level``."""

    __slots__ = ("name", "code", "level", "depths", "parents", "_kept", "member", "members",
                 "_where", "parts")

    def __init__(self, name: str, code: str, level: int, member: int | None) -> None:
        self.name, self.code, self.level = name, code, level
        self.depths: Counter[int] = Counter()  # loop depth of each use outside other defs
        self.parents: list[Def] = []          # defs written with this one inside
        self._kept: tuple[bool, Counter[int]] | None = None
        self.member = member      # the enumerator it belongs to (None: shared by a group)
        self.members: set[int] = set()   # for a shared one: the enumerators that use it
        self.parts: list[Def] = []       # the named subexpressions written in ``code``
        self._where: set[int | None] | None = None

    def users(self) -> set[int | None]:
        """Where its text is written: enumerators of a group, or None for the group's top."""
        if self._where is None:
            where: set[int | None] = set(self.members) if self.member is None else {self.member}
            for p in self.parents:
                where |= {p.placed()} if p.kept()[0] else p.users()
            self._where = where
        return self._where

    def placed(self) -> int | None:
        """Where it is defined (if it is): its own enumerator, or the group's top (None)
        when several enumerators use a shared one."""
        if self.member is not None:
            return self.member
        where = self.users()
        return next(iter(where)) if len(where) == 1 else None

    def kept(self) -> tuple[bool, Counter[int]]:
        """Whether to define it (used twice, or in a loop it does not depend on), and the
        depths it would be evaluated at if written out in place."""
        if self._kept is None:
            depths = Counter(self.depths)
            for p in self.parents:
                keep, where = p.kept()
                depths.update({p.level: 1} if keep else where)
            n = sum(depths.values())
            deep = any(d > self.level for d, k in depths.items() if k > 0)
            self._kept = (n > 1 or deep, depths)
        return self._kept


class Hoist:
    """Common and loop-invariant subexpressions of one generated function.

    Every subexpression the emitter produces is offered here with the loop level of the
    line it is part of. It gets a name, and the level where everything it reads is bound
    (state cells, parameters of outer loops); it is defined there once (``blocks[level]``)
    when it is used more than once or inside a loop it does not depend on, and written in
    place otherwise. Hoisting evaluates a subexpression that a guard might have skipped, so
    a function with hoisted code must fall back to the plain code when it raises."""

    def __init__(self, levels: dict[str, int], blocks: list[list], prefix: str = "_h",
                 shared: "Hoist | None" = None, member: int | None = None) -> None:
        self.levels = levels        # identifier -> loop level that binds it
        self.blocks = blocks        # per loop level: lines (str) and definitions (Def)
        self.prefix = prefix
        self.shared = shared        # where subexpressions of the state alone go, if set
        self.member = member        # which enumerator of the group this is
        self.site = 0               # loop level of the line being emitted
        self.by_code: dict[str, Def] = {}
        self.by_name: dict[str, Def] = {}
        self.local: set[str] = set()    # code that reads a variable bound inside the line
        self.barrier: str | None = None  # a loop variable that is not hoisted for now

    def _def(self, name: str) -> Def | None:
        d = self.by_name.get(name)
        if d is None and self.shared is not None:
            d = self.shared.by_name.get(name)
        return d

    def offer(self, code: str, depth: int) -> str:
        if self.barrier is not None and re.search(rf"\b{self.barrier}\b", code):
            return code   # reads the variable of a filter being built: stays in the filter
        d = self.by_code.get(code)
        if d is None and self.shared is not None:
            d = self.shared.by_code.get(code)
        new = d is None
        if d is None:
            if code in self.local or code.isidentifier() or literal(code)[0]:
                return code
            if _ALWAYS_RAISES.search(code):
                self.local.add(code)
                return code
            level = 0
            for ident in _IDENT.findall(_STRING.sub("", code)):
                if ident in _FIXED:
                    continue
                bound = self._def(ident)
                if bound is None and ident.startswith("_"):
                    continue   # a module constant or helper: _T3, _ck, _connected ...
                lvl = bound.level if bound is not None else self.levels.get(ident)
                if lvl is None:
                    self.local.add(code)
                    return code
                level = max(level, lvl)
            reg = self.shared if self.shared is not None and level == 0 else self
            d = Def(f"{reg.prefix}{len(reg.by_name)}", code, level,
                     None if reg is self.shared else self.member)
            d.parts = [self._def(part) for part in HOISTED.findall(code)]
            reg.by_code[code] = d
            reg.by_name[d.name] = d
            reg.blocks[level].append(d)
        if d.member is None and self.shared is not None and self.member not in d.members:
            d.members.add(self.member)   # defined here if no other enumerator needs it
            self.blocks[0].append(Use(d))
        # Emitting ``code`` offered its named parts just before, here: they are used in
        # d's definition (once), not in the line.
        at = self.site + depth
        for c in d.parts:
            c.depths[at] -= 1
            if new:
                c.parents.append(d)
        d.depths[at] += 1
        return d.name

    def render(self, text: str) -> str:
        """``text`` with the names of subexpressions not worth a definition written out."""
        def expand(m: re.Match) -> str:
            d = self._def(m.group(0))
            assert d is not None
            return d.name if d.kept()[0] else self.render(d.code)
        return HOISTED.sub(expand, text)

    def lines(self, level: int, indent: str) -> list[str]:
        out = []
        for item in self.blocks[level]:
            if isinstance(item, Use):
                item = item.d
                if item.placed() != self.member:
                    continue
            if isinstance(item, Def):
                if item.kept()[0] and item.placed() == self.member:
                    out.append(f"{indent}{item.name} = {self.render(item.code)}")
            else:
                out.append(indent + self.render(item))
        return out


@attrs.frozen
class Use:
    """Where an enumerator first uses a definition its group shares (its place there, if
    no other enumerator of the group needs it)."""

    d: Def
