"""Element.inner_text / outer_text against WPT's innerText getter cases
(../shared/text-extraction/wpt-innertext/getter-tests.json): every case that
needs neither author CSS nor script is a pytest item, read the way WPT's
getter.html harness reads it (the README beside the data says how)."""
import json
import os
from pathlib import Path

import pytest

import lexpy

ROOT = Path(__file__).resolve().parents[2]


def _data_dir() -> Path:
    env = os.environ.get("LEXPY_TEXT_EXTRACTION")
    path = Path(env) if env else ROOT.parent / "shared" / "text-extraction"
    if not (path / "wpt-innertext" / "getter-tests.json").is_file():
        raise RuntimeError("text-extraction data not found at %s; set "
                           "LEXPY_TEXT_EXTRACTION" % path)
    return path


CASES = json.loads((_data_dir() / "wpt-innertext" / "getter-tests.json")
                   .read_text(encoding="utf-8"))["cases"]
IN_SCOPE = [c for c in CASES if not c["needs_css"] and not c["needs_script"]]
# CSS-free cases whose harness script changes the DOM after parsing: the
# changes are simulated (run_script_hooks).
SCRIPTED = [c for c in CASES if not c["needs_css"] and c["needs_script"]]

HARNESS = ('<!DOCTYPE html><html><head></head><body><div id="container"></div>'
           '<svg id="svgContainer"></svg></body></html>')


def run_script_hooks(doc):
    """getter.html's hooks, step 4 of the README: `poke` sets the text
    content to 'abc'; `poke-rp`, `poke-optgroup` and `poke-div` append such
    an element holding 'abc'; `shadow` attaches a shadow tree whose text
    innerText ignores (lexpy has no shadow trees: nothing to do)."""
    for element in list(doc.iter()):
        classes = element.class_list
        if "poke" in classes:
            element.text_content = "abc"
        for name in ("rp", "optgroup", "div"):
            if "poke-" + name in classes:
                added = doc.create_element(name)
                added.text_content = "abc"
                element.append_child(added)


def element_under_test(case):
    """The element getter.html reads: the first id=target in the document,
    else the container's first child (moved into the <svg> for
    testTextInSVG), moving on to the next sibling until an element."""
    doc = lexpy.parse(HARNESS, scripting=True)
    container = doc.get_element_by_id("container")
    container.inner_html = case["html"]
    first = container.first_child
    if case["container"] == "svg":
        svg = doc.get_element_by_id("svgContainer")
        for child in list(container.child_nodes):
            svg.append_child(child)
        first = svg.first_child
    e = doc.get_element_by_id("target") or first
    if case["needs_script"]:
        run_script_hooks(doc)
    while e is not None and not isinstance(e, lexpy.Element):
        e = e.next_sibling
    return doc, e


def test_the_subset_is_the_one_the_readme_counts():
    assert len(CASES) == 261
    assert len(IN_SCOPE) == 126
    assert len(SCRIPTED) == 9


@pytest.mark.parametrize("case", IN_SCOPE, ids=[c["id"] for c in IN_SCOPE])
def test_getter(case):
    doc, e = element_under_test(case)
    assert e.inner_text == case["expected"]
    assert e.outer_text == case["expected"]


@pytest.mark.parametrize("case", SCRIPTED, ids=[c["id"] for c in SCRIPTED])
def test_getter_after_the_harness_script(case):
    doc, e = element_under_test(case)
    assert e.inner_text == case["expected"]
    assert e.outer_text == case["expected"]


def test_setter_replaces_children_with_text_and_br():
    doc = lexpy.parse("<div id=x><b>old</b></div>")
    div = doc.get_element_by_id("x")
    div.inner_text = "a\r\nb\rc\nd"
    assert div.inner_html == "a<br>b<br>c<br>d"
    div.inner_text = ""
    assert div.inner_html == ""
    with pytest.raises(TypeError, match="inner_text"):
        div.inner_text = 3


def test_outer_text_setter_replaces_the_element_and_merges_text():
    doc = lexpy.parse("<p id=p>x<b id=b>old</b>y</p>")
    doc.get_element_by_id("b").outer_text = "1\n2"
    p = doc.get_element_by_id("p")
    assert p.inner_html == "x1<br>2y"
    assert [type(n).__name__ for n in p.child_nodes] == ["Text", "Element", "Text"]
    doc.get_element_by_id("p").first_element_child.outer_text = ""
    assert [n.data for n in p.child_nodes] == ["x12y"]
    with pytest.raises(ValueError):
        doc.create_element("div").outer_text = "x"


def test_not_rendered_gives_text_content():
    doc = lexpy.parse("<div id=x>a <script>b</script></div>")
    detached = doc.create_element("div")
    detached.inner_html = "<p>a</p><p>b</p>"
    assert detached.inner_text == "ab"              # not in a document
    assert doc.get_element_by_id("x").inner_text == "a"
    assert doc.head.inner_text == ""                # display: none: its text


def test_deep_tree_does_not_recurse():
    depth = 1_000_000
    doc = lexpy.parse("<div id=x>" + "<span>" * depth + "deep")
    assert doc.get_element_by_id("x").inner_text == "deep"
    assert lexpy.extract_text(doc) == "deep"
