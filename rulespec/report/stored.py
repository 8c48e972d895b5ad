"""A game's report document through the verdict store (:mod:`rulespec.check.store`).

The document is every verdict the report shows, so it is kept whole, under a key of
everything the report reads: the whole spec (its IR, its files and the Python properties:
:meth:`~rulespec.check.fingerprint.SpecPrint.whole`), the game's scenario files, the
budget (but the number of processes, which no verdict depends on) and the output folder
(its traces are named in the document). A report the safety limit stopped is not kept.
When the document has to be made again, what it is made of is still reused piece by
piece where the pieces are stored (``prove``'s jobs: :mod:`rulespec.check.job_store`).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Callable

from ..check.store import MISSING, current
from .budget import Budget

KIND = "report"


def key(game_ref: str, budget: Budget, out_dir: str) -> dict[str, Any]:
    from ..check.fingerprint import SpecPrint
    from ..runtime.registry import load
    from .collect import scenario_files
    model = load(game_ref)
    files = hashlib.sha256()
    for p in scenario_files(model, game_ref):
        files.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    counts = {k: v for k, v in budget.to_json().items() if k != "workers"}
    return {"game": game_ref, "spec": SpecPrint.of(model.spec).whole(),
            "scenarios": files.hexdigest(), "budget": counts,
            "out_dir": str(Path(out_dir).resolve())}


def document(game_ref: str, budget: Budget, out_dir: str,
             make: Callable[[], dict[str, Any]]) -> tuple[dict[str, Any], bool]:
    """The report document: from the store when it holds it (and every file it names is
    still there), else ``make()``'s, then kept. Also says whether it came from the store."""
    store = current()
    if store is None:
        return make(), False
    k = key(game_ref, budget, out_dir)
    got = store.get(KIND, k)
    if got is not MISSING and isinstance(got, dict) and _files_there(got, out_dir):
        return got, True
    doc = make()
    if not doc.get("budget", {}).get("solver", {}).get("stopped"):
        store.put(KIND, k, doc)
    return doc, False


def _files_there(doc: Any, out_dir: str) -> bool:
    """Every trace or scenario file under ``out_dir`` that the document names exists."""
    root = str(Path(out_dir) / "traces")
    todo = [doc]
    while todo:
        x = todo.pop()
        if isinstance(x, dict):
            todo += list(x.values())
        elif isinstance(x, list):
            todo += x
        elif isinstance(x, str) and x.startswith(root) and "\n" not in x:
            if not Path(x).exists():
                return False
    return True
