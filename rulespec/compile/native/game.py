"""A spec's C module from Python: the functions of the Python backend's ``CompiledGame`` on
state tuples, under one reading.

:class:`NativeModule` is the compiled module of a spec (one for all its readings);
:class:`NativeGame` is one reading of it. Each ``raw_*`` method returns the C answer, or
:data:`RAISED` where the rules cannot be evaluated (the equivalence tests hold that to the
cases where the Python backend raises). The other methods give the Python backend's answer
there instead (or raise what it raises), so their results are always the Python
backend's.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable

from ...ir.nodes import BOOL
from ...spec.elements import GameSpec
from ..layout import Layout
from . import build
from .module import generate, key_capacity, key_width

#: what a ``raw_*`` method returns when the rules raise
RAISED = object()


class NativeModule:
    """One spec compiled to C and loaded (every reading of it)."""

    def __init__(self, spec: GameSpec) -> None:
        source, writer = generate(spec)
        self.spec = spec
        self.source = source
        self.ffi = build.ffi()
        self.rt = build.runtime()
        self.lib, self.table = build.load(source, _file_name(spec.name))
        layout = Layout.of(spec)
        self.layout = layout
        self.size = layout.size
        self.width = key_width(spec)
        self.capacity = max(1, key_capacity(spec))
        self.n_params = [len(a.params) for a in spec.actions]
        self.bool_cells = [slot.offset + k for slot in layout.slots.values()
                           if slot.field.type == BOOL for k in range(slot.field.size)]
        #: the effect ``If`` statements by counter (coverage: 2k then side, 2k + 1 the other)
        self.branch_statements = list(writer.branch_statements)

    def values(self, buf: Any, offset: int = 0) -> tuple:
        """A state tuple from C cells (bool cells as bools, as the Python backend's)."""
        cells = self.ffi.unpack(buf + offset, self.size)
        for k in self.bool_cells:
            cells[k] = cells[k] != 0
        return tuple(cells)

    def keys(self, buf: Any, n: int, offset: int = 0) -> list[tuple]:
        """``n`` action keys from C (each ``width`` ints) as the Python backend's tuples."""
        flat = self.ffi.unpack(buf + offset * self.width, n * self.width)
        w, np_ = self.width, self.n_params
        return [tuple(flat[i:i + 1 + np_[flat[i]]]) for i in range(0, n * w, w)]

    def key(self, key: tuple, buf: Any) -> Any:
        buf[0:len(key)] = key
        return buf


_MODULES: "weakref.WeakKeyDictionary[GameSpec, NativeModule]" = weakref.WeakKeyDictionary()
_FAILED: "weakref.WeakKeyDictionary[GameSpec, str]" = weakref.WeakKeyDictionary()


def native_module(spec: GameSpec) -> NativeModule:
    """The spec's C module (compiled, or from the cache), one per spec object; raises
    :class:`build.NativeUnavailable` saying why there is none."""
    found = _MODULES.get(spec)
    if found is not None:
        return found
    if spec in _FAILED:
        raise build.NativeUnavailable(_FAILED[spec])
    try:
        found = _MODULES[spec] = NativeModule(spec)
    except build.NativeUnavailable as err:
        _FAILED[spec] = str(err)
        raise
    return found


def _file_name(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in name)[:40] or "game"


class NativeGame:
    """A spec's C module under one reading (``interp``: each point's option index)."""

    def __init__(self, module: NativeModule, interp: list[int],
                 python: Callable[[], Any]) -> None:
        self.module = module
        f = self.ffi = module.ffi
        self.rt = module.rt
        self.table = module.table
        self.I = f.new("V[]", max(1, len(interp)))
        self.I[0:len(interp)] = interp
        self.interp = tuple(interp)
        self._python = python        # the Python backend's CompiledGame (made when needed)
        size = module.size
        self._s = f.new("V[]", size)
        self._out = f.new("V[]", size)
        self._keys = f.new("int32_t[]", module.capacity * module.width)
        self._w = f.new("V[]", module.capacity)
        self._n = f.new("int32_t *")
        self._v = f.new("V *")
        self._key = f.new("int32_t[]", module.width)
        self._vals = f.new("V[]", max(1, module.spec.max_players))

    @property
    def python(self) -> Any:
        return self._python()

    def _state(self, values: tuple) -> Any:
        self._s[0:len(values)] = values
        return self._s

    # --- the C answers (RAISED where the rules raise) -----------------------------------
    def raw_initial(self, n: int) -> Any:
        if self.rt.rs_initial(self.table, self.I, n, self._out) < 0:
            return RAISED
        return self.module.values(self._out)

    def raw_terminal(self, values: tuple) -> Any:
        r = self.rt.rs_terminal(self.table, self.I, self._state(values))
        return RAISED if r < 0 else r == 1

    def raw_current_player(self, values: tuple) -> Any:
        if self.rt.rs_current_player(self.table, self.I, self._state(values), self._v) < 0:
            return RAISED
        return self._v[0]

    def raw_legal(self, values: tuple) -> Any:
        if self.rt.rs_legal(self.table, self.I, self._state(values), self._keys, self._w,
                            self._n) < 0:
            return RAISED
        return self.module.keys(self._keys, self._n[0])

    def raw_chance_weights(self, values: tuple) -> Any:
        if self.rt.rs_chance_weights(self.table, self.I, self._state(values), self._keys,
                                     self._w, self._n) < 0:
            return RAISED
        n = self._n[0]
        return list(zip(self.module.keys(self._keys, n), self.ffi.unpack(self._w, n)))

    def raw_step(self, values: tuple, key: tuple) -> Any:
        r = self.rt.rs_step(self.table, self.I, self._state(values),
                            self.module.key(key, self._key), self._out)
        if r < 0:
            return RAISED
        return self.module.values(self._out) if r == 1 else None

    def raw_apply(self, values: tuple, key: tuple) -> Any:
        if self.rt.rs_apply(self.table, self.I, self._state(values),
                            self.module.key(key, self._key), self._out) < 0:
            return RAISED
        return self.module.values(self._out)

    def raw_precondition(self, i: int, j: int, values: tuple, params: tuple) -> Any:
        self._key[0:len(params)] = params
        r = self.rt.rs_pre(self.table, self.I, i, j, self._state(values), self._key)
        return RAISED if r < 0 else r == 1

    def raw_scores(self, values: tuple) -> Any:
        if self.rt.rs_scores(self.table, self.I, self._state(values), self._vals) < 0:
            return RAISED
        return self.ffi.unpack(self._vals, values[0])

    def raw_tie_key(self, k: int, values: tuple, p: int) -> Any:
        if self.rt.rs_tie(self.table, self.I, k, self._state(values), p, self._v) < 0:
            return RAISED
        return self._v[0]

    def raw_invariant(self, k: int, values: tuple) -> Any:
        r = self.rt.rs_inv(self.table, self.I, k, self._state(values))
        return RAISED if r < 0 else r == 1

    def raw_conserved(self, k: int, values: tuple) -> Any:
        if self.rt.rs_cons(self.table, self.I, k, self._state(values), self._v) < 0:
            return RAISED
        return self._v[0]

    def raw_observe(self, values: tuple, p: int) -> Any:
        if self.rt.rs_observe(self.table, self.I, self._state(values), p, self._out) < 0:
            return RAISED
        hidden = -(2 ** 63)
        seen = self.ffi.unpack(self._out, self.module.size)
        bools = set(self.module.bool_cells)
        return tuple(None if v == hidden else (v != 0 if k in bools else v)
                     for k, v in enumerate(seen))

    # --- the answers (the Python backend's where C cannot give one) ---------------------
    def initial(self, n: int) -> tuple:
        got = self.raw_initial(n)
        return self.python.initial(n) if got is RAISED else got

    def terminal(self, values: tuple) -> bool:
        got = self.raw_terminal(values)
        return self.python.terminal(values) if got is RAISED else got

    def current_player(self, values: tuple) -> int:
        got = self.raw_current_player(values)
        return self.python.current_player(values) if got is RAISED else got

    def legal(self, values: tuple) -> list:
        got = self.raw_legal(values)
        return self.python.legal(values) if got is RAISED else got

    def chance_weights(self, values: tuple) -> list:
        got = self.raw_chance_weights(values)
        return self.python.chance_weights(values) if got is RAISED else got

    def scores(self, values: tuple) -> list:
        got = self.raw_scores(values)
        return self.python.scores(values) if got is RAISED else got
