"""A game's identity as one frozen value that crosses to worker processes and cluster nodes.

A campaign (``mutate``, ``prove``, ``check --workers``, ``report``) sends its tasks a
:class:`GameRef`, never a game name with ``["K=V"]`` strings to join and reload: the spec
file, the hash of exactly the bytes the parent loaded, the whole reading (every
interpretation point's option) and the ``--components`` file, if any. A worker loads that
and nothing else: a spec whose files changed since is refused (:class:`SpecChanged`), as a
trace's spec is.

>>> import pickle, rulespec
>>> ref = GameRef.of(rulespec.load("tic_tac_toe"))
>>> ref.bundled, len(ref.sha256)
('tic_tac_toe', 64)
>>> pickle.loads(pickle.dumps(ref)) == ref
True
>>> ref.load() is rulespec.load("tic_tac_toe")
True
"""

from __future__ import annotations

from typing import Any

import attrs

from .model import Model
from .registry import SpecChanged, load, origin

__all__ = ["GameRef", "SpecChanged"]


@attrs.frozen
class GameRef:
    """Which spec, which bytes of it, which reading: everything a worker needs to load the
    same game as the process that made the reference."""

    #: the spec file's absolute path
    spec: str
    #: the spec's identity when the reference was made (:class:`~.registry.SpecOrigin`)
    sha256: str
    #: every interpretation point and its option, sorted by point
    interpretation: tuple[tuple[str, str], ...]
    #: the bundled game's name: a worker with rulespec installed elsewhere finds it by name
    #: (the hash still has to match)
    bundled: str | None = None
    #: the ``--components`` file whose catalogues replaced the spec's own, if any
    components: str | None = None

    @classmethod
    def of(cls, model: Model) -> "GameRef":
        """The reference of a loaded game (ValueError for a spec built without the
        registry: nothing would tell a worker which bytes to load)."""
        found = origin(model.spec)
        if found is None:
            raise ValueError(f"{model.name}: a spec built outside rulespec.load cannot be "
                             "sent to workers (load it from its file)")
        components = getattr(found, "components", None)
        return cls(str(found.path), found.sha256, tuple(sorted(model.interpretation.items())),
                   found.bundled, None if components is None else str(components))

    @property
    def where(self) -> str:
        """What to load: the bundled game's name, else the spec's path."""
        return self.bundled or self.spec

    def load(self, backend: str = "python") -> Model:
        """The game this reference names, refusing a spec whose bytes changed since
        (:class:`SpecChanged`, a ValueError)."""
        extra: dict[str, Any] = {} if self.components is None else {
            "components": self.components}
        return load(self.where, dict(self.interpretation), sha256=self.sha256,
                    backend=backend, **extra)

    def __str__(self) -> str:
        reading = ",".join(f"{k}={v}" for k, v in self.interpretation)
        return f"{self.where} ({reading})" if reading else self.where
