"""The bundled games: one folder per game, each with spec.py, scenarios/ and a README."""
