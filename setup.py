"""Packages for setuptools (everything else is in pyproject.toml).

Installing rulespec adds one top-level import package, ``rulespec``. The bundled games and
properties keep their own folders in the repository (``models/``, ``properties/``) but
install inside it, as ``rulespec.models`` and ``rulespec.properties``: a top-level
``models`` would collide with countless other projects. Every folder below them is listed
(game folders hold data, not just modules), so a new game needs no change here.
"""

from setuptools import find_namespace_packages, find_packages, setup

MAPPED = {"models": "rulespec.models", "properties": "rulespec.properties"}


def _mapped_packages() -> list[str]:
    found = find_namespace_packages(include=[f"{top}*" for top in MAPPED],
                                    exclude=["*__pycache__*"])
    out = []
    for name in found:
        top, _, rest = name.partition(".")
        if top in MAPPED:
            out.append(MAPPED[top] + (f".{rest}" if rest else ""))
    return out


setup(
    packages=[*find_packages(include=["rulespec", "rulespec.*"]), *_mapped_packages()],
    package_dir={new: old for old, new in MAPPED.items()},
)
