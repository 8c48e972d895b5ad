"""Families of actions in the rule index: several actions one spec line defines, citing one
passage (a helper the spec calls for each kind of tile or card), shown once.

The member with the most rules is shown in full; each other member is one entry beside it
that names it and lists its rules, each pointing at the rule it repeats, with its own
flags and pins and its own English only where it says more than "the same, with its own
tile". Every member and every rule of it keeps its id on the page, so a link to it lands
on a place that names it.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from typing import Any

#: actions written by one spec line form a family from this many on
FAMILY_MIN = 3
#: a list naming this many members of a larger family or fewer names each of them
FEW = 3


def name_words(names: list[str]) -> list[str]:
    """Each member's own word: its name without the words every member's name begins and
    ends with (``buy_shell_hut``, ``buy_lono`` -> ``shell_hut``, ``lono``).

    >>> name_words(["buy_shell_hut", "buy_foot_hut", "buy_lono"])
    ['shell_hut', 'foot_hut', 'lono']
    >>> name_words(["deal_row_1", "deal_row_2"])
    ['1', '2']
    """
    words = [n.split("_") for n in names]
    shortest = min(len(w) for w in words)
    i = 0
    while i < shortest and len({w[i] for w in words}) == 1:
        i += 1
    j = 0
    while j < shortest - i and len({w[-1 - j] for w in words}) == 1:
        j += 1
    return ["_".join(w[i:len(w) - j]) or "_".join(w) for w in words]


def word_pairs(shown: str, mine: str, first: tuple[str, str]) -> list[tuple[str, str]]:
    """The words a member's own reading puts for the shown one's: ``first`` (its name's
    word), then each word its description says in the shown one's place (a tile's kind
    and its place: one spec line, several parameters).

    >>> word_pairs("Buy a shell_hut at cottages_1.", "Buy a spear_hut at cottages_2.",
    ...            ("shell_hut", "spear_hut"))
    [('shell_hut', 'spear_hut'), ('cottages_1', 'cottages_2')]
    """
    a, b = _WORD.findall(shown), _WORD.findall(mine)
    pairs = [first]
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "replace" and i2 - i1 == j2 - j1:
            for x, y in zip(a[i1:i2], b[j1:j2]):
                if re.fullmatch(r"\w+", x) and (x, y) not in pairs \
                        and x not in dict(pairs):
                    pairs.append((x, y))
    return pairs


_WORD = re.compile(r"\w+|\W")


def swapped(text: str, swap: tuple[str, str] | list[tuple[str, str]] | None) -> str:
    """``text`` with each whole word ``old`` read as ``new`` (``shells`` keeps its
    ``shell``), all at once.

    >>> swapped("a shell_hut tile; shells_paid", ("shell_hut", "foot_hut"))
    'a foot_hut tile; shells_paid'
    >>> swapped("a at b", [("a", "b"), ("b", "a")])
    'b at a'
    """
    if not swap:
        return text
    pairs = dict([swap] if isinstance(swap, tuple) else swap)
    pattern = "|".join(re.escape(w) for w in sorted(pairs, key=len, reverse=True))
    return re.sub(rf"(?<!\w)({pattern})(?!\w)", lambda m: pairs[m.group(1)], text)


def family_name(names: list[str]) -> str:
    """The members' common beginning and end around ``…``.

    >>> family_name(["buy_shell_hut", "buy_foot_hut", "buy_lono"])
    'buy_…'
    >>> family_name(["place_upright", "place_turned_90"])
    'place_…'
    """
    first, last = min(names), max(names)
    i = 0
    while i < min(len(first), len(last)) and first[i] == last[i]:
        i += 1
    head = names[0][:i]
    rests = [n[i:] for n in names]
    j = 0
    while all(len(r) > j for r in rests) and len({r[len(r) - 1 - j] for r in rests}) == 1:
        j += 1
    tail = rests[0][len(rests[0]) - j:] if j else ""
    return f"{head}…{tail}"


def _children(rules: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rules:
        if r["parent"]:
            out[r["parent"]].append(r)
    return out


def _match(c: dict[str, Any], shown: list[dict[str, Any]], shown_aid: str, aid: str,
           swap: tuple[str, str] | None) -> dict[str, Any] | None:
    """The shown member's rule a member's rule repeats: the same kind and spec line, and the
    same name once the member's own word is put back (else the same place in its id)."""
    same_line = [s for s in shown if s["kind"] == c["kind"] and s["where"] == c["where"]
                 and s["source"] == c["source"]]
    for s in same_line:
        if s["name"] == c["name"] or swapped(s["name"], swap) == c["name"]:
            return s
    suffix = c["id"][len(aid):]
    return next((s for s in same_line if s["id"][len(shown_aid):] == suffix), None)


def family_key(kind: str, source: str | None, where: str | None) -> tuple | None:
    """What the members of a family share: their kind (action or chance outcome), the
    passage they cite and the spec line that defines them (a helper the spec calls once
    per kind of tile or card). ``info`` and the report group by this one key.

    >>> family_key("action", "§3", "spec.py:40") == family_key("action", "§3", "spec.py:40")
    True
    >>> family_key("action", "§3", None) is None
    True
    """
    return (kind, source, where) if where else None


def family_groups(items: list[Any], key: Any) -> dict[tuple, list[Any]]:
    """``items`` grouped by ``key(item)`` (:func:`family_key`), each group of
    ``FAMILY_MIN`` or more a family, in the order of their first member."""
    by_key: dict[tuple, list[Any]] = defaultdict(list)
    for item in items:
        k = key(item)
        if k is not None:
            by_key[k].append(item)
    return {k: v for k, v in by_key.items() if len(v) >= FAMILY_MIN}


def rule_families(rules: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each family by the id of the member shown in full: its ``name`` (``buy_…``), the
    ``shown`` member and the ``others``, each ``{"rule", "swap", "said", "children"}``
    with each child ``{"rule", "as", "said"}`` (``as``: the shown rule it repeats, or
    None; ``said``: its English when it differs from the shown one's read with its own
    word). ``member_of`` maps every member's id to its family's."""
    kids = _children(rules)
    tops = [r for r in rules if not r["parent"] and r["kind"] in ("action", "chance")]
    families: dict[str, dict[str, Any]] = {}
    for members in family_groups(tops, lambda r: family_key(r["kind"], r["source"],
                                                            r["where"])).values():
        shown = max(members, key=lambda m: len(kids[m["id"]]))   # the first of the largest
        others = []
        word = dict(zip((m["id"] for m in members), name_words([m["name"] for m in members])))
        for m in members:
            if m is shown:
                continue
            swap = word_pairs(shown["english"], m["english"],
                              (word[shown["id"]], word[m["id"]]))
            children = []
            for c in kids[m["id"]]:
                f = _match(c, kids[shown["id"]], shown["id"], m["id"], swap)
                said = None if f is not None and swapped(f["english"], swap) == c["english"] \
                    else c["english"]
                children.append({"rule": c, "as": f, "said": said})
            others.append({"rule": m, "swap": swap,
                           "said": None if swapped(shown["english"], swap) == m["english"]
                           else m["english"], "children": children})
        families[shown["id"]] = {"name": family_name([m["name"] for m in members]),
                                 "shown": shown, "others": others, "word": word[shown["id"]],
                                 "members": [m["name"] for m in members],
                                 "kinds": ("chance outcomes" if shown["kind"] == "chance"
                                           else "actions"),
                                 "size": len(members)}
    return families


def family_members(families: dict[str, dict[str, Any]]) -> dict[str, str]:
    """Every member's id (but the shown one's) and its rules' ids -> the family's id."""
    out: dict[str, str] = {}
    for fid, fam in families.items():
        for m in fam["others"]:
            out[m["rule"]["id"]] = fid
            for c in m["children"]:
                out[c["rule"]["id"]] = fid
    return out


def family_of(families: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every member's id (the shown one's too) -> its family: ``{"id", "name", "size"}``."""
    out: dict[str, dict[str, Any]] = {}
    for fid, fam in families.items():
        info = {"id": fid, "name": fam["name"], "size": fam["size"],
                "kind": fam["kinds"], "members": fam["members"]}
        for m in [fam["shown"], *(o["rule"] for o in fam["others"])]:
            out[m["id"]] = info
    return out


def read_by_family(read_by: list[str], ids: list[str], of: dict[str, dict[str, Any]]
                   ) -> list[dict[str, Any]]:
    """An assumption's readers (``action buy_foot_hut``, ...) as ``{"name", "id"}`` (``id``
    None: no link), the members of a family said once (:func:`by_family`)."""
    groups = []
    for text in read_by:
        rid = "a-" + text[len("action "):] if text.startswith("action ") else None
        if rid in of:
            groups.append({"id": rid, "name": text[len("action "):], "n": 1})
        else:
            groups.append({"id": rid if rid in ids else None, "name": text, "n": 1})
    out = by_family(groups, of)
    fams = {f["id"] for f in of.values()}
    return [{"name": ("action family " + g["name"]) if g["id"] in fams else g["name"],
             "id": g["id"]} for g in out]


def by_family(groups: list[dict[str, Any]], of: dict[str, dict[str, Any]]
              ) -> list[dict[str, Any]]:
    """Elements (``{"id", "name", "n"}``, as ``render.by_element`` gives them) with the
    members of a family said once, where the first of them stands: ``buy_… (3 of 21
    actions: ...)``, linking to the family, ``n`` their rules in all (a few of a large
    family stay each on its own, linking to its entry).

    >>> fam = {"id": "a-x1", "name": "x…", "size": 5, "kind": "actions",
    ...        "members": [f"x{k}" for k in range(1, 6)]}
    >>> of = {f"a-x{k}": fam for k in range(1, 6)}
    >>> by_family([{"id": "a-x2", "name": "x2", "n": 2}, {"id": "a-y", "name": "y", "n": 1},
    ...            {"id": "a-x1", "name": "x1", "n": 1}], of)  # doctest: +NORMALIZE_WHITESPACE
    [{'id': 'a-x2', 'name': 'x2', 'n': 2}, {'id': 'a-y', 'name': 'y', 'n': 1},
     {'id': 'a-x1', 'name': 'x1', 'n': 1}]
    >>> by_family([{"id": f"a-x{k}", "name": f"x{k}", "n": 1} for k in range(1, 6)], of)
    [{'id': 'a-x1', 'name': 'x… (all 5 actions)', 'n': 5}]
    >>> by_family([{"id": f"a-x{k}", "name": f"x{k}", "n": 1} for k in range(1, 5)], of)
    [{'id': 'a-x1', 'name': 'x… (4 of 5 actions: all but x5)', 'n': 4}]
    """
    count: dict[str, int] = defaultdict(int)
    for g in groups:
        if g["id"] in of:
            count[of[g["id"]]["id"]] += 1
    out: list[dict[str, Any]] = []
    merged: dict[str, dict[str, Any]] = {}
    for g in groups:
        fam = of.get(g["id"])
        if fam is None or count[fam["id"]] <= FEW < fam["size"]:
            out.append(g)
            continue
        m = merged.get(fam["id"])
        if m is None:
            m = merged[fam["id"]] = {"id": fam["id"], "fam": fam, "names": [], "n": 0}
            out.append(m)
        m["names"].append(g["name"])
        m["n"] += g["n"]
    for m in merged.values():
        fam, names = m.pop("fam"), m.pop("names")
        if len(names) == fam["size"]:
            m["name"] = f"{fam['name']} (all {fam['size']} {fam['kind']})"
        else:   # the shorter list: those named, or those not
            lacking = [n for n in fam["members"] if n not in names]
            said = ("all but " + ", ".join(lacking) if len(lacking) < len(names)
                    else ", ".join(names))
            m["name"] = f"{fam['name']} ({len(names)} of {fam['size']} {fam['kind']}: {said})"
    return [{"id": g["id"], "name": g["name"], "n": g["n"]} for g in out]


def family_rules(families: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every member's id (but the shown one's) and its rules' ids that repeat a shown rule
    -> ``{"as": the shown rule, "of": the shown member's name, "said": its own English or
    None, "swap": the member's word for the shown one's (on the member only)}``."""
    out: dict[str, dict[str, Any]] = {}
    for fam in families.values():
        for m in fam["others"]:
            out[m["rule"]["id"]] = {"as": fam["shown"], "said": m["said"], "swap": m["swap"],
                                    "of": fam["shown"]["name"]}
            for c in m["children"]:
                if c["as"] is not None:
                    out[c["rule"]["id"]] = {"as": c["as"], "said": c["said"], "swap": None,
                                            "of": fam["shown"]["name"]}
    return out
