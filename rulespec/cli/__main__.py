"""``python -m rulespec.cli``: the same as the ``rulespec`` command."""

from . import main

main()
