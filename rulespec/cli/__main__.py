"""``python -m rulespec.cli``: the same as the ``rulespec`` command."""

from .main import main

main()
