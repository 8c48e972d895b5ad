"""The coverage section's bar chart: steps taken per action, each name measured so that the
label column fits the longest (a name too long for any column is shortened with "…" and
given in full in its tooltip and in the table under the chart).

>>> svg = coverage_chart([{"name": "mark", "id": "a-mark", "count": 3},
...                       {"name": "resign", "id": "a-resign", "count": 0}])
>>> svg.startswith("<svg") and 'class="bar zero"' in svg and ">resign<" in svg
True
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, Sequence

from ..draw.fit import shorten, text_width
from ..draw.svg import FONT

#: the chart's width; its name column takes what the longest name needs, up to LABELS
WIDTH, LABELS, SIZE, ROW = 640.0, 300.0, 11.0, 16


def coverage_chart(actions: Sequence[dict[str, Any]]) -> str:
    """An SVG bar chart of each action's step count (never reached: red), names linked to
    the rule index."""
    label_w = min(LABELS, max([40.0] + [text_width(a["name"], SIZE) for a in actions]))
    count_w = max([12.0] + [text_width(str(a["count"]), SIZE) for a in actions]) + 8
    bars = WIDTH - label_w - 14 - count_w
    top = max([a["count"] for a in actions] + [1])
    height = len(actions) * ROW + 8
    root = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg",
                              "viewBox": f"0 0 {WIDTH:g} {height}", "width": f"{WIDTH:g}",
                              "height": str(height), "role": "img",
                              "aria-label": "steps per action", "font-family": FONT,
                              "font-size": f"{SIZE:g}"})
    for k, a in enumerate(actions):
        y = k * ROW
        link = ET.SubElement(root, "a", {"href": f"#{a['id']}"})
        name = shorten(a["name"], label_w, SIZE)
        t = ET.SubElement(link, "text", {"x": f"{label_w + 2:.0f}", "y": str(y + 14),
                                         "text-anchor": "end"})
        t.text = name
        if name != a["name"]:
            ET.SubElement(t, "title").text = a["name"]
        w = max(2.0, a["count"] / top * bars)
        bar = ET.SubElement(root, "rect", {
            "class": "bar zero" if a["count"] == 0 else "bar", "x": f"{label_w + 8:.0f}",
            "y": str(y + 5), "width": f"{w:.1f}", "height": "11"})
        ET.SubElement(bar, "title").text = f"{a['name']}: {a['count']}"
        n = ET.SubElement(root, "text", {"x": f"{label_w + 12 + w:.1f}", "y": str(y + 14)})
        n.text = str(a["count"])
    return ET.tostring(root, encoding="unicode")
