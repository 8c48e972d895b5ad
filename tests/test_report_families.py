"""A family of actions (one spec line writes one for each kind of tile) is shown once in the
rule index, HTML and Markdown: the member with most rules in full, each other member an
entry that names it and its rules, and every link to a member or a rule of it lands on a
place that names that member."""

import re
from html import escape
from html.parser import HTMLParser

from rulespec.report.families import by_family, family_of, rule_families, word_pairs
from rulespec.report.render import _md


def _rule(rid, parent, kind, name, english, where="spec.py:9", source="§buy"):
    return {"id": rid, "parent": parent, "kind": kind, "name": name, "english": english,
            "where": where, "source": source, "reached": 1, "dead": None,
            "pinned_by": {"scenarios": [], "properties": []}}


def _family(kinds):
    rules = []
    for k in kinds:
        aid = f"a-buy_{k}"
        rules.append(_rule(aid, None, "action", f"buy_{k}", f"Buy a {k} tile at {k}_place.",
                           where="spec.py:1"))
        rules.append(_rule(f"{aid}-pre-0", aid, "precondition", f"a {k} tile is left",
                           f"left[{k}] ≥ 1"))
        rules.append(_rule(f"{aid}-when-x", aid, "branch", "when x", f"when x: take {k}",
                           where="spec.py:12"))
    return rules


def test_a_family_is_its_largest_member_in_full_and_the_others_as_it_with_their_words():
    rules = _family(["shell_hut", "foot_hut", "lono"])
    extra = _rule("a-buy_foot_hut-when-y", "a-buy_foot_hut", "branch", "when y", "when y: z",
                  where="spec.py:20")
    rules.insert(6, extra)                             # foot_hut has one rule more
    rules[-1] = {**rules[-1], "english": "when x: take nothing"}  # lono says otherwise
    fams = rule_families(rules)
    assert list(fams) == ["a-buy_foot_hut"]           # the largest member is shown
    fam = fams["a-buy_foot_hut"]
    assert fam["name"] == "buy_…" and fam["size"] == 3
    others = {m["rule"]["name"]: m for m in fam["others"]}
    assert set(others) == {"buy_shell_hut", "buy_lono"}
    shell = others["buy_shell_hut"]
    assert shell["said"] is None                      # the same, with its own words
    assert [(c["as"]["id"], c["said"]) for c in shell["children"]] == [
        ("a-buy_foot_hut-pre-0", None), ("a-buy_foot_hut-when-x", None)]
    lono = {c["rule"]["name"]: c for c in others["buy_lono"]["children"]}
    assert lono["when x"]["said"] == "when x: take nothing"   # its own reading, shown
    # two members are no family; neither is one member twice the same
    assert rule_families(_family(["shell_hut", "foot_hut"])) == {}


def test_a_members_words_are_whole_words_of_its_description():
    assert word_pairs("Buy a shell_hut at cottages_1.", "Buy a kahuna at kahunas.",
                      ("shell_hut", "kahuna")) == [("shell_hut", "kahuna"),
                                                   ("cottages_1", "kahunas")]


def test_lists_of_rules_name_a_whole_family_once():
    fams = rule_families(_family(["a", "b", "c", "d", "e"]))
    of = family_of(fams)
    groups = [{"id": f"a-buy_{k}", "name": f"buy_{k}", "n": 2} for k in "abcde"]
    assert by_family(groups + [{"id": "score", "name": "score", "n": 1}], of) == [
        {"id": "a-buy_a", "name": "buy_… (all 5 actions)", "n": 10},
        {"id": "score", "name": "score", "n": 1}]
    # a few members of a large family keep their own links
    assert by_family(groups[:2], of) == groups[:2]


class _Ids(HTMLParser):
    """Every element id on a page, with the text of the member entry it sits in."""

    def __init__(self):
        super().__init__()
        self.member_of, self.hrefs, self._stack = {}, [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        member = self._stack[-1] if self._stack else None
        if tag == "div" and "member" in (a.get("class") or "").split():
            member = a["id"]
        if tag == "details" and "family" in (a.get("class") or "").split():
            member = a["id"]
        if "id" in a:
            self.member_of[a["id"]] = member
        if a.get("href", "").startswith("#"):
            self.hrefs.append(a["href"][1:])
        if tag not in ("br", "wbr", "img", "input", "meta", "link", "use", "rect", "path",
                       "circle", "line", "polygon", "polyline", "ellipse", "image"):
            self._stack.append(member)

    def handle_endtag(self, tag):
        if tag not in ("br", "wbr", "img", "input", "meta", "link", "use", "rect", "path",
                       "circle", "line", "polygon", "polyline", "ellipse", "image") \
                and self._stack:
            self._stack.pop()


def test_hawaiis_buy_family_is_shown_once_and_every_link_lands_on_its_member(smoke_reports):
    out, docs = smoke_reports
    html = (out / "hawaii.html").read_text()
    doc = docs["hawaii"]
    buys = [r for r in doc["rules"] if not r["parent"] and r["name"].startswith("buy_")]
    assert len(buys) == 21
    assert html.count('<details class="rule family"') >= 1
    assert re.search(r'<summary><b>action family</b> <code>buy_…</code> 21 actions', html)
    page = _Ids()
    page.feed(html)
    rule_ids = {r["id"] for r in doc["rules"]}
    # every rule keeps its place on the page, and every link to one lands there
    assert rule_ids <= set(page.member_of)
    assert all(h in page.member_of for h in page.hrefs if h in rule_ids)
    shown = rule_families(doc["rules"])
    fid = next(f for f, fam in shown.items() if fam["name"] == "buy_…")
    for m in shown[fid]["others"]:
        rid = m["rule"]["id"]
        assert page.member_of[rid] == rid            # the member's entry, named by it
        for c in m["children"]:
            assert page.member_of[c["rule"]["id"]] == rid, c["rule"]["id"]
    # the rule once: a member's rule that reads as the shown one does is not written again
    again = [c for m in shown[fid]["others"] for c in m["children"]
             if c["said"] is None and len(c["rule"]["english"]) > 30]
    assert len(again) > 200
    assert [c["rule"]["id"] for c in again
            if html.count(escape(c["rule"]["english"])) > 1] == []   # the shown one's only


def test_hawaiis_markdown_reads_each_member_as_the_shown_one(smoke_reports):
    out, docs = smoke_reports
    md = (out / "hawaii.md").read_text()
    assert "(family `buy_…`: 21 actions, shown in full as this one)" in md
    row = next(line for line in md.splitlines()
               if line.startswith('| <a id="a-buy_foot_hut"></a>'))
    assert "as in [buy_" in row and "`foot_hut` for `" in row
    # every rule keeps its anchor; a member's rule that reads as the shown one does is not
    # written again
    rows = {line.split('"')[1]: line for line in md.splitlines()
            if line.startswith('| <a id="')}
    assert {r["id"] for r in docs["hawaii"]["rules"]} <= set(rows)
    fams = rule_families(docs["hawaii"]["rules"])
    again = [c["rule"] for fam in fams.values() for m in fam["others"] for c in m["children"]
             if c["said"] is None and len(c["rule"]["english"]) > 30]
    assert again and [r["id"] for r in again
                      if _md(r["english"].splitlines()[-1]) in rows[r["id"]]] == []
