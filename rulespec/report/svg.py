"""The report's pictures come from :mod:`rulespec.draw.svg` (below the runtime, so that a
state can draw itself too); this name stays for the report's modules and older imports."""

from ..draw.svg import PLAYER_COLOURS, Picture, default_view, draw_glyph, player_colour

__all__ = ["PLAYER_COLOURS", "Picture", "default_view", "draw_glyph", "player_colour"]
