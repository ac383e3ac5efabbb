"""tools/differential.py, the standing differential test: a short run with
the peers that are installed (html5lib at least: the test extra pulls it
in), the minimiser on synthetic predicates, and the normalisers that write
each peer's tree in lexpy.dump's format, checked on known trees."""
import sys

import lexpy
import pytest

from tests.conformance import data
from tests.tools import TOOLS

# Imported by name (not tests.tools.load_tool): its dataclasses and the
# worker processes of --jobs look the module up in sys.modules.
sys.path.insert(0, str(TOOLS))
import differential  # noqa: E402


def test_html5lib_is_a_peer():
    # The test extra installs html5lib, so that every run has a peer.
    assert "html5lib" in [peer.name for peer in differential.available_peers()]


def test_a_run_of_200_inputs():
    report = differential.run(seed=3, count=200, jobs=1, examples=1)
    peers = report["peers"]
    assert "html5lib" in peers
    assert report["count"] == 200
    assert set(report["per_peer_disagreements"]) == set(peers)
    assert 0 <= report["disagreeing_inputs"] <= 200
    assert all(0 <= n <= report["disagreeing_inputs"]
               for n in report["per_peer_disagreements"].values())
    # Every disagreeing input is in exactly one cluster.
    assert sum(c["inputs"] for c in report["clusters"]) == report["disagreeing_inputs"]
    # html5lib (2020) predates selectedcontent, relaxed <select> and PIs:
    # 200 inputs biased to those areas always find it apart.
    assert report["per_peer_disagreements"]["html5lib"] > 0
    patterns = [c["pattern"] for c in report["clusters"]]
    assert len(set(patterns)) == len(patterns)
    for cluster in report["clusters"]:
        groups = cluster["pattern"].split(" | ")
        assert groups[0].split("+")[0] == "lexpy" and len(groups) >= 2
        members = [name for group in groups for name in group.split("+")]
        assert sorted(members) == sorted(set(members))
        assert set(members) <= set(peers) | {"lexpy"}
        assert cluster["examples"], cluster["pattern"]
        for example in cluster["examples"]:
            # The minimised input keeps the pattern and is no longer.
            assert example["still_matches"]
            assert example["pattern"] == cluster["pattern"]
            assert len(example["input"]) <= len(example["original"])
            assert "lexpy" in example["dumps"]
    text = differential.format_report(report)
    assert text.startswith("differential run: seed 3, 200 inputs")
    for n, cluster in enumerate(report["clusters"], 1):
        assert "cluster %d: %s" % (n, cluster["pattern"]) in text


def test_runs_are_reproducible():
    first = [differential.generate(7, i) for i in range(50)]
    again = [differential.generate(7, i) for i in range(50)]
    assert first == again
    assert [c.data for c in first] != [differential.generate(8, i).data for i in range(50)]
    # Every area and both kinds of input come up.
    cases = [differential.generate(7, i) for i in range(2000)]
    assert {c.area for c in cases} == set(differential.AREAS)
    assert any(c.context for c in cases) and any(not c.context for c in cases)
    assert {c.scripting for c in cases} == {True, False}


def test_jobs_do_not_change_the_result():
    one = differential.run(seed=5, count=60, jobs=1, examples=1)
    two = differential.run(seed=5, count=60, jobs=2, examples=1)
    for key in ("disagreeing_inputs", "per_peer_disagreements"):
        assert one[key] == two[key]
    assert [c["pattern"] for c in one["clusters"]] == [c["pattern"] for c in two["clusters"]]


# ---------------------------------------------------------------------------
# The minimiser
# ---------------------------------------------------------------------------

def test_minimiser_finds_a_one_minimal_input():
    def keeps(text):
        return "<b>" in text and "x" in text.split("<b>", 1)[-1]

    small = differential.minimise("aaa<p>zz<b>yy<i>x</i>q", keeps)
    assert small == "<b>x"


def test_minimiser_keeps_a_disagreement_predicate():
    # A synthetic disagreement: "parsers" that part when a <table> follows
    # an open <p>; the smallest input that keeps them apart is found.
    def pattern(text):
        return "a | b" if "<p>" in text and "<table>" in text.split("<p>", 1)[1] else None

    target = pattern("<div>x<p>y<b>z<table><tr><td>1</table>")
    assert target == "a | b"
    small = differential.minimise("<div>x<p>y<b>z<table><tr><td>1</table>",
                                  lambda text: pattern(text) == target)
    assert small == "<p><table>"
    # Every character is needed.
    for i in range(len(small)):
        assert pattern(small[:i] + small[i + 1:]) != target


def test_minimiser_leaves_a_non_failing_input_and_keeps_its_budget():
    calls = []

    def keeps(text):
        calls.append(text)
        return False

    assert differential.minimise("<b>abc</b>", keeps) == "<b>abc</b>"
    assert len(calls) == 1
    calls.clear()
    differential.minimise("x" * 500 + "y", lambda t: calls.append(t) or "y" in t,
                          budget=50)
    assert len(calls) <= 50


# ---------------------------------------------------------------------------
# The normalisers
# ---------------------------------------------------------------------------

class LexpyAdapter(differential.Adapter):
    """lexpy's own DOM through the tool's formatter: its output must be
    lexpy.dump's, byte for byte, on every tree of the suites."""

    def children(self, node):
        return node.child_nodes

    def kind(self, node):
        return {1: "element", 3: "text", 7: "pi", 8: "comment", 10: "doctype"}.get(
            node.node_type)

    def element(self, node):
        return node.namespace_uri, node.local_name, node.attribute_nodes()

    def text(self, node):
        return node.data

    def pi(self, node):
        return node.target, node.data

    def doctype(self, node):
        return node.name, node.public_id, node.system_id

    def template_content(self, node):
        return node.content


def _parse(case, **options):
    if case.fragment_context:
        name, ns = case.context_and_namespace()
        return lexpy.parse_fragment(case.data, name, namespace=ns,
                                    scripting=case.scripting, **options)
    return lexpy.parse(case.data, scripting=case.scripting, **options)


def test_the_formatter_writes_lexpy_dump_format():
    cases = [c for c in data.tree_cases() if not c.scripted]
    assert len(cases) > 3000
    for case in cases:
        node = _parse(case)
        assert differential.format_tree(node.child_nodes, LexpyAdapter()) == \
            lexpy.dump(node), case.id


# Trees that exercise every part of the format (DOCTYPE identifiers,
# attribute namespaces and their sorting, SVG/MathML case adjustment,
# template contents, comments, PIs, foreign and table fragment contexts):
# each peer's normalised dump must be lexpy's, which the suites pin.
KNOWN_TREES = [
    ('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" '
     '"http://www.w3.org/TR/html4/strict.dtd"><p id=a class=b data-z=1>x<!--c-->', None),
    ('<svg viewbox="0 0 1 1" xlink:href=a xml:lang=b xmlns:xlink=c xmlns=d '
     'clippathunits=e><clippath/><foreignObject><p>x</p></foreignObject></svg>'
     '<math definitionurl=d><mi>y</mi><annotation-xml encoding=text/html><div>z'
     '</div></annotation-xml></math>', None),
    ("<table>x<tr><td>y</table>", None),
    # (html5lib 1.1 predates template in head and in table-row contexts.)
    ("<body><template><b>1</b><template><i>2</i></template></template>", None),
    ("<td>1<svg><path/></svg>", ("tr", "html")),
    ("<path/><foreignObject><p>2</p></foreignObject>", ("svg", "svg")),
    ("a<b>x</b>b<p>y", ("div", "html")),
    ("text only", ("p", "html")),
]
PI_TREES = [("<p>a<?target some data?>b<?x?>", None)]


def _peers():
    return differential.available_peers()


@pytest.mark.parametrize("peer", _peers(), ids=lambda peer: peer.name)
def test_each_peer_normalised_on_known_trees(peer):
    trees = KNOWN_TREES + (PI_TREES if peer.processing_instructions else [])
    checked = 0
    for markup, context in trees:
        case = differential.Case(0, markup, "known", context, True)
        if not peer.supports(case):
            continue
        expected = differential.Lexpy(peer.processing_instructions).parse(case)
        got = differential._run_parser(peer, case)
        if got is None:          # a context the peer does not know
            continue
        assert got == expected, (peer.name, markup)
        checked += 1
    # html5lib sits out the svg context only.
    assert checked >= len(KNOWN_TREES) - 1


def test_pattern_and_pi_setting():
    peers = [p for p in _peers() if p.name == "html5lib"]
    # html5lib has no PIs: with "<?" in the input it is held against lexpy
    # with PIs off, and agrees.
    case = differential.Case(0, "<p><?a b?>x", "pis", None, True)
    dumps = differential.compare(case, peers)
    assert dumps["lexpy"] != dumps["lexpy-no-pi"]
    assert differential.agreement_pattern(dumps, peers) is None
    # A forged disagreement is named by its groups.
    dumps["html5lib"] = "| <html>"
    assert differential.agreement_pattern(dumps, peers) == "lexpy | html5lib"
    assert differential.lexpy_in_minority("lexpy | a+b")
    assert not differential.lexpy_in_minority("lexpy+a | b")
