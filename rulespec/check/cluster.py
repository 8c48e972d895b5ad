"""The Dask side of the campaign executor: a connection to a Dask scheduler the user named.

``rulespec mutate GAME --cluster tcp://HOST:8786`` (or ``RULESPEC_CLUSTER``) runs the
campaign's tasks on that cluster's workers through Dask's own
``concurrent.futures.Executor`` (``Client.get_executor``); without it, the local worker
processes of :mod:`.workers` run them, as always. The workers need rulespec (and Dask) and
the game's files at the same paths (a shared file system or the same checkout); each task
loads its game from a frozen :class:`~rulespec.runtime.gameref.GameRef` and refuses a spec
whose bytes differ.

Dask cannot stop a task once it runs, so nothing here relies on it: every task's work is
counted (examples, shrink runs, Z3 resource units), and a task ends by itself. When the
command stops (Ctrl-C, its safety limit, an error), the tasks not yet finished are
cancelled and the command leaves at once. A worker lost mid-campaign loses no result: the
scheduler runs its tasks again elsewhere (a task is a pure function of its arguments).

Dask is optional (``pip install 'rulespec[cluster]'``) and imported only here, only when a
scheduler is named.
"""

from __future__ import annotations

import os
from concurrent.futures import Executor
from typing import Any

#: the environment variable naming a scheduler when ``--cluster`` is not given (CI)
CLUSTER_ENV = "RULESPEC_CLUSTER"

#: seconds to reach the scheduler, and then to see a first worker, before giving up
CONNECT_TIMEOUT_S = 10


class ClusterError(ValueError):
    """The scheduler cannot be used: not reachable, no workers, or Dask not installed."""


def cluster_address(option: str | None) -> str | None:
    """The scheduler named by ``--cluster``, else by ``RULESPEC_CLUSTER``; None: local."""
    chosen = option if option is not None else os.environ.get(CLUSTER_ENV)
    chosen = (chosen or "").strip()
    return chosen or None


class Cluster:
    """A connected Dask client (:meth:`connect`); :meth:`executor` gives its executor."""

    def __init__(self, address: str, client: Any) -> None:
        self.address = address
        self.client = client

    @classmethod
    def connect(cls, address: str, timeout: float = CONNECT_TIMEOUT_S) -> "Cluster":
        """Connect to the scheduler at ``address`` and wait for one worker; a
        :class:`ClusterError` in one line otherwise (before any work starts)."""
        try:
            from distributed import Client
        except ImportError:
            raise ClusterError(f"--cluster {address}: Dask is not installed (pip install "
                               "'rulespec[cluster]')") from None
        _reachable(address, timeout)
        try:
            client = Client(address, timeout=f"{timeout}s", set_as_default=False)
        except (OSError, TimeoutError, ValueError) as err:
            why = " ".join(str(err).split()) or type(err).__name__
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {why[:300]}"
                               ) from None
        try:
            client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError):
            client.close()
            raise ClusterError(f"the Dask scheduler at {address} has no workers (start "
                               f"some with `dask worker {address}`)") from None
        try:
            _same_code(address, client)
        except BaseException:
            client.close()
            raise
        return cls(address, client)

    @property
    def workers(self) -> int:
        """How many workers the scheduler has now."""
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def executor(self) -> Executor:
        """Dask's ``concurrent.futures.Executor`` over this cluster. ``pure=False``: every
        submission is a task of its own (two equal calls are not merged)."""
        return self.client.get_executor(pure=False)

    def close(self) -> None:
        try:
            self.client.close()
        except Exception:  # noqa: BLE001 - a scheduler gone already: nothing to close
            pass

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Cluster({self.address!r})"


_CODE: list[str] = []


def code_identity() -> str:
    """The SHA-256 of this process's rulespec source files, read once per process: a
    scheduler or worker started before rulespec changed keeps the old value (and the old
    code it has loaded)."""
    if not _CODE:
        import hashlib
        from pathlib import Path

        from .. import properties
        # the package and its properties, wherever an install puts them (an editable one
        # maps properties/ in from the repository); the specs are checked by their hash
        h = hashlib.sha256()
        for root in (Path(__file__).resolve().parent.parent,
                     Path(properties.__file__).resolve().parent):
            for p in sorted(root.rglob("*.py")):
                rel = p.relative_to(root)
                if rel.parts[0] in ("models", "properties"):
                    continue
                h.update(str(rel).encode() + b"\0" + p.read_bytes() + b"\0")
        _CODE.append(h.hexdigest())
    return _CODE[0]


def _same_code(address: str, client: Any) -> None:
    """Refuse a cluster whose scheduler or workers run another rulespec than this command
    (they unpickle its tasks with the code they have loaded)."""
    mine = code_identity()
    try:
        found = {"the scheduler": client.run_on_scheduler(code_identity)}
        found.update({f"the worker {w}": v for w, v in client.run(code_identity).items()})
    except Exception as err:  # noqa: BLE001 - a worker without rulespec, say
        why = " ".join(str(err).split()) or type(err).__name__
        raise ClusterError(f"the Dask cluster at {address} cannot run rulespec: "
                           f"{type(err).__name__}: {why[:200]} (it needs rulespec installed, the "
                           "same as this command's: restart it after changing rulespec)") from None
    other = [who for who, value in found.items() if value != mine]
    if other:
        raise ClusterError(f"the Dask cluster at {address} runs another rulespec than this "
                           f"command ({other[0]}" + (f" and {len(other) - 1} more" if
                                                     len(other) > 1 else "")
                           + "): restart its scheduler and workers after changing rulespec")


def _reachable(address: str, timeout: float) -> None:
    """A ``tcp://HOST:PORT`` nobody listens on is refused at once (Dask's client would retry
    for the whole timeout)."""
    import socket
    from urllib.parse import urlsplit
    try:
        parts = urlsplit(address if "://" in address else f"tcp://{address}")
        host, port = parts.hostname, parts.port
    except ValueError:
        raise ClusterError(f"--cluster {address!r}: not a scheduler address (give "
                           "tcp://HOST:PORT)") from None
    if parts.scheme != "tcp" or not host or port is None:
        return   # another protocol (tls://, inproc://...): Dask's client checks it
    try:
        socket.create_connection((host, port), timeout).close()
    except OSError as err:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: "
                           f"{err.strerror or err}") from None


def connect(address: str | None) -> Cluster | None:
    """:meth:`Cluster.connect` for an address, None for none (the local workers)."""
    return None if address is None else Cluster.connect(address)
