"""An OpenSpiel game as an implementation for ``rulespec conform`` (the differential
tests against OpenSpiel's C++ games use it)."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import attrs


@attrs.define
class PyspielImplementation:
    """An OpenSpiel game as an implementation: its state, and how its action ids read as
    the spec's texts -- ``text(state, player, action_id)`` one at a time (default:
    OpenSpiel's own ``action_to_string``), or ``texts(state, player, ids)`` all at once.
    ``snapshot_of(state)`` and ``observation_of(state, player)`` give field values to
    compare; ``returns_of(state)`` defaults to ``state.returns()``."""

    state: Any
    text: Callable[[Any, int, int], str] | None = None
    snapshot_of: Callable[[Any], Mapping[str, Any]] | None = None
    observation_of: Callable[[Any, int], Mapping[str, Any]] | None = None
    returns_of: Callable[[Any], Sequence[float]] | None = None
    texts: Callable[[Any, int, list[int]], list[str]] | None = None
    _applied: int = 0
    _named: tuple[int, dict[str, int]] | None = None

    def _ids(self) -> dict[str, int]:
        """The legal ids by text (named once per state)."""
        if self._named is not None and self._named[0] == self._applied:
            return self._named[1]
        s = self.state
        player = s.current_player()
        ids = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        if self.texts is not None:
            names = self.texts(s, player, ids)
        else:
            to_text = self.text or (lambda st, p, a: st.action_to_string(p, a))
            names = [to_text(s, player, a) for a in ids]
        self._named = (self._applied, dict(zip(names, ids)))
        return self._named[1]

    def legal_actions(self) -> list[str]:
        return [] if self.state.is_terminal() else list(self._ids())

    def apply(self, action: str) -> None:
        ids = self._ids()
        if action not in ids:
            raise ValueError(f"{action!r} is not among the legal actions")
        self.state.apply_action(ids[action])
        self._applied += 1

    def current_player(self) -> int | str:
        s = self.state
        return "terminal" if s.is_terminal() else "chance" if s.is_chance_node() \
            else int(s.current_player())

    def returns(self) -> list[float]:
        return list(self.returns_of(self.state) if self.returns_of else self.state.returns())

    def chance_outcomes(self) -> list[tuple[str, float]]:
        by_id = {a: t for t, a in self._ids().items()}
        return [(by_id[a], p) for a, p in self.state.chance_outcomes()]

    def snapshot(self) -> Mapping[str, Any]:
        return self.snapshot_of(self.state) if self.snapshot_of else {}

    def observation(self, player: int) -> Mapping[str, Any]:
        return self.observation_of(self.state, player) if self.observation_of else {}


__all__ = ["PyspielImplementation"]
