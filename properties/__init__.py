"""Properties beyond the spec: generic ones for every game, and per-game ones."""
