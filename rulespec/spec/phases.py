"""Phases of play as a construct: an action says the phase it belongs to, and its guard and
the sentence a refused player reads are written once (a mixin of :class:`~rulespec.spec.Game`).

``game.phases(phase, {Phase.deal: "the hands are being dealt", ...}, source=...)`` names
the phase field and what each phase is called when an action is refused outside it;
``@game.action(..., phase=Phase.play)`` (or the actions inside ``with game.phase(Phase.play):``)
then start with the precondition ``phase = play``, worded by that sentence.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

from ..ir.errors import SpecError
from ..ir.location import Location, caller_location
from ..ir.nodes import Expr, lift


class Phases:
    """The phase field, each phase's refusal sentence and source, and ``with game.phase``."""

    _phase_field: Expr | None = None
    _phase_says: dict[int, tuple[str, str]]
    _phase_block: Any = None

    def phases(self, field: Any, sentences: dict[Any, Any] | None = None, *,
               source: str) -> None:
        """Declare ``field`` (an enum field, ``flow=True``) the game's phase. ``sentences``
        maps a phase to what a player refused outside it is told ("the hands are being
        dealt"), or to ``(sentence, source)``; a phase left out is told by its enum
        description. ``source`` cites where the text lists the phases."""
        where = caller_location()
        self._need_source("phases", "phases", source, where)
        f = lift(field)
        enum = f.type.enum if f.type.kind == "enum" else None
        if f.op != "field" or len(f.args) > 1 or enum is None:
            raise SpecError(f"phases() takes the phase field, a scalar enum field, got {f!r}",
                            element="phases", where=where)
        if self._phase_field is not None:
            raise SpecError("the phases are declared twice", element="phases", where=where)
        says = {i: (enum.docs.get(m) or m, source) for i, m in enumerate(enum.members)}
        for member, said in (sentences or {}).items():
            i = self._phase_member(member, enum, "phases", where)
            text, src = said if isinstance(said, tuple) else (said, source)
            if not isinstance(text, str) or not text.strip():
                raise SpecError(f"phase {enum.members[i]}: the sentence is a non-empty string, "
                                f"got {text!r}", element="phases", where=where)
            self._need_source("phases", enum.members[i], src, where)
            says[i] = (text, src)
        self._phase_field, self._phase_says = f, says

    @contextlib.contextmanager
    def phase(self, *members: Any) -> Iterator[None]:
        """The actions declared inside the block belong to ``members`` (unless they say
        ``phase=`` themselves)."""
        where = caller_location()
        if self._phase_block is not None:
            raise SpecError("with game.phase(...) blocks do not nest", element="phases",
                            where=where)
        self._phase_guard(members, "phase block", where)  # checks them now
        self._phase_block = members
        try:
            yield
        finally:
            self._phase_block = None

    def _phase_guard(self, phase: Any, element: str,
                     where: Location | None) -> tuple[Expr, str, str] | None:
        """The precondition an action of ``phase`` starts with: (condition, sentence,
        source), or None for an action that names no phase."""
        if phase is None:
            return None
        if self._phase_field is None:
            raise SpecError("phase= needs the phases declared first: game.phases(field, "
                            "{Phase.x: 'sentence'}, source=...)", element=element, where=where)
        members = tuple(phase) if isinstance(phase, (tuple, list, set, frozenset)) else (phase,)
        if not members:
            raise SpecError("phase= names at least one phase", element=element, where=where)
        enum = self._phase_field.type.enum
        idx = [self._phase_member(m, enum, element, where) for m in members]
        field = self._phase_field
        cond = (field == enum[enum.members[idx[0]]] if len(idx) == 1 else
                field.is_one_of(*(enum[enum.members[i]] for i in idx)))
        texts = list(dict.fromkeys(self._phase_says[i][0] for i in idx))
        sources = list(dict.fromkeys(self._phase_says[i][1] for i in idx))
        return cond, " or ".join(texts), "; ".join(sources)

    @staticmethod
    def _phase_member(member: Any, enum: Any, element: str, where: Location | None) -> int:
        m = member if isinstance(member, Expr) else None
        if m is None or m.op != "const" or m.type.kind != "enum" or m.type.enum is not enum:
            raise SpecError(f"{member!r} is not a phase: use a member of {enum.name} "
                            f"({', '.join(enum.members)})", element=element, where=where)
        return m.args[0]
