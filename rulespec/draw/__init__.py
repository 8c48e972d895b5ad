"""Drawing a state from its spec's view: an SVG picture (:mod:`.svg`) and a text board
(:mod:`.text`), both read through :mod:`.values`, with labels measured by :mod:`.fit` and
abbreviations explained by :mod:`.legend`.

This package sits below :mod:`rulespec.runtime` (it needs only the spec and the compiled
view), so that a state can draw itself (``print(state)``, ``State._repr_svg_``) and the
report, the CLI and a notebook all draw from the one view.
"""
