"""The parts of ``Game`` that record what the sources say and leave open: constants,
assumptions, interpretation points and rulesets (a mixin of :class:`~rulespec.spec.Game`)."""

from __future__ import annotations

from typing import Any

import attrs

from ..ir.assumed import Assumed, tag, with_tags
from ..ir.errors import SpecError
from ..ir.location import caller_location
from ..ir.nodes import Enum, Expr, Named, lift
from .elements import Assumption, Constant, Interpretation, Ruleset


@attrs.frozen
class Option:
    """An interpretation option's source, with an English rendering of its quote."""

    source: str
    english: str | None = None


def option(source: str, *, english: str | None = None) -> Option:
    """An option of :meth:`Game.interpretation` with its source passage in English."""
    return Option(source, english)


class Readings:
    """Constants, assumptions, interpretation points and rulesets of a game."""

    def constant(self, name: str, value: int, *, source: str) -> Any:
        """A number printed in the rules. Returns the number carrying its name
        (:class:`~rulespec.ir.nodes.Named`): plain Python arithmetic on it gives ints (sizes,
        ranges), and a rule that uses it records where the literal comes from, so
        ``rulespec mutate`` can change it by one wherever the rules use it."""
        where = caller_location()
        self._claim("constant", name, where)
        self._need_source("constant", name, source, where)
        self.constants.append(Constant(name, value, source, where))
        if isinstance(value, int) and not isinstance(value, bool):
            return Named(value, name)
        return lift(value)

    def assume(self, name: str, value: Any, *, reason: str, origin: str | None = None,
               shown: Any = None) -> Any:
        """A value the sources do not give: say why this one, and where it comes from.

        Returns the value with every int and string in it tagged by the assumption (and
        the entry of it: a dict's key, a list's index), so that the rules built from it
        carry where they come from (:mod:`rulespec.ir.assumed`); a bool comes back as a
        constant expression. Use the returned value in the rules, not a copy of it; a
        value computed from it in a way Python does not trace (``len``, a comparison, a
        string method) is labelled with :func:`~rulespec.ir.assumed.derived`. ``shown``:
        what ``rulespec info`` and the report show instead of ``value`` (a card's effects
        in words rather than the tuple the rules read)."""
        where = caller_location()
        self._claim("assumption", name, where)
        if not reason.strip():
            raise SpecError("an assumption needs a reason", element=f"assumption {name}",
                            where=where)
        entries = (tuple(map(str, value)) if isinstance(value, dict) else
                   tuple(map(str, range(len(value)))) if isinstance(value, (list, tuple))
                   else None)
        self.assumptions.append(Assumption(name, value if shown is None else shown, reason,
                                           origin, where, entries))
        if isinstance(value, bool):  # a bool cannot carry the tag: a tagged constant does
            return with_tags(lift(value), [Assumed(name)])
        return tag(value, name)

    def components(self, name: str, schema: type, *, file: str = "components.toml",
                   members: Any = None) -> dict[str, Any]:
        """The catalogue ``[name]`` of the game folder's data file, each entry read through
        the attrs class ``schema``: ``{entry: record}`` in the file's order, tagged like an
        assumption's entries, with each entry's provenance registered for ``info`` and the
        report. ``members``: an enum (or names) the entries must be exactly. See
        :mod:`rulespec.spec.components` and docs/formats/components.md."""
        from .components import declare
        return declare(self, name, schema, file=file, members=members)

    def interpretation(self, name: str, *, question: str, options: dict[str, Any],
                       default: str, source: str, english: str | None = None,
                       default_reason: str | None = None) -> Interpretation:
        """Declare a point where the text allows more than one reading.

        ``options`` maps each option to its source, or to ``option(source, english=...)``
        to store an English rendering of a quoted passage next to it; ``english`` does
        the same for ``source``; ``default_reason`` says why the default is the default.
        """
        where = caller_location()
        self._claim("interpretation", name, where)
        self._need_source("interpretation", name, source, where)
        if len(options) < 2:
            raise SpecError("an interpretation point needs at least two options",
                            element=f"interpretation {name}", where=where)
        if default not in options:
            raise SpecError(f"default {default!r} is not one of the options {list(options)}",
                            element=f"interpretation {name}", where=where)
        sources = {k: v.source if isinstance(v, Option) else v for k, v in options.items()}
        english_of = {k: v.english for k, v in options.items()
                      if isinstance(v, Option) and v.english}
        for opt, src in sources.items():
            self._need_source("interpretation option", f"{name}={opt}", src, where)
        e = Enum(f"{name}_option", list(options), source=source, where=where)
        point = Interpretation(name, question, sources, default,  # type: ignore[arg-type]
                               source, where, e, None, english, english_of, default_reason)
        node = Expr("interp", (point,), e.type)
        object.__setattr__(point, "node", node)
        self.interpretations.append(point)
        return point

    def point(self, name: str, question: str, /, *, source: Any, default: str, because: str,
              **options: Any) -> Interpretation:
        """An interpretation point in one call: each option a keyword (its source, or
        ``book.at(...).says(english)``), the point's own ``source`` likewise, the default
        and ``because`` (why it is the default). The same point as :meth:`interpretation`::

            order = game.point("order", "Printed order, or any order?",
                               source=book.at("7").says("Carry out the card's effects."),
                               printed=book.at("8", "順番に").says("In printed order."),
                               any=book.at("5", "好きな順番で").says("In any order."),
                               default="printed", because="the seed's main reading")
        """
        where = caller_location()
        if not isinstance(because, str) or not because.strip():
            raise SpecError("a point says why its default is the default: because=\"...\"",
                            element=f"interpretation {name}", where=where)
        own, english = (source.source, source.english) if isinstance(source, Option) else (
            source, None)
        return self.interpretation(name, question=question, options=options, default=default,
                                   source=own, english=english, default_reason=because)

    def text(self, name: str, *, cite: str = "L{}", quote: str = "「{}」") -> Any:
        """One source text and how this spec cites it: ``cite`` has a ``{}`` per part of a
        place (``"L{}"`` by line, ``"§{}"`` by section heading, ``"§{} L{}"`` both),
        ``quote`` wraps a short quote. ``book.at(place..., quote)`` is then the source
        string of a passage (:mod:`rulespec.spec.cite`)."""
        from .cite import Text
        return Text(name, cite=cite, quote=quote)

    def ruleset(self, name: str, *, options: dict[str, str], source: str,
                doc: str = "") -> Ruleset:
        """A named bundle of interpretation options (an edition, an online version) with
        its source; points it does not name keep their default. Declare the points first."""
        where = caller_location()
        self._claim("ruleset", name, where)
        self._need_source("ruleset", name, source, where)
        element = f"ruleset {name}"
        if not isinstance(options, dict) or not options:
            raise SpecError("a ruleset needs options {point: option} (at least one)",
                            element=element, where=where)
        points = {p.name: p for p in self.interpretations}
        for k, v in options.items():
            if k not in points:
                known = ", ".join(points) or "none declared yet"
                raise SpecError(f"no interpretation point {k!r} (points: {known})",
                                element=element, where=where)
            if v not in points[k].options:
                raise SpecError(f"point {k} has no option {v!r} (options: "
                                f"{', '.join(points[k].options)})", element=element, where=where)
        rs = Ruleset(name, dict(options), source, where, doc)
        self.rulesets.append(rs)
        return rs

