"""Packages for setuptools (everything else is in pyproject.toml).

Installing rulespec adds one top-level import package, ``rulespec``. The bundled games and
properties keep their own folders in the repository (``models/``, ``properties/``) but
install inside it, as ``rulespec.models`` and ``rulespec.properties``: a top-level
``models`` would collide with countless other projects. Every folder is listed, under
``rulespec/`` too: a folder that holds only data (game folders, ``report/templates``) is a
package to Python, and setuptools warns that it "would be ignored" unless it is listed. A new
game or data folder needs no change here.
"""

from setuptools import find_namespace_packages, setup

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
    packages=[*find_namespace_packages(include=["rulespec", "rulespec.*"],
                                       exclude=["*__pycache__*"]),
              *_mapped_packages()],
    package_dir={new: old for old, new in MAPPED.items()},
)
