"""Finding elements: iter(), get_elements_by_tag_name, get_element_by_id,
get_elements_by_class_name, children, text_content and class_list."""
import pytest

import lexpy
from lexpy.dom import ClassList, InvalidCharacterError

PAGE = """<!DOCTYPE html><title>T</title>
<div id=a class="x  y"><p id=b>one <b>two</b></p><template><p id=t>in template</p></template>
<svg><foreignObject id=f><DIV class=Y>deep</DIV></foreignObject><path/></svg>
<p class="y x z" id=c>three</p><math><mi id=m>x</mi></math></div>"""


@pytest.fixture
def doc():
    return lexpy.parse(PAGE)


def names(elements):
    return [e.local_name for e in elements]


def test_iter_is_document_order_without_template_contents(doc):
    got = names(doc.iter())
    assert got == ["html", "head", "title", "body", "div", "p", "b", "template",
                   "svg", "foreignObject", "div", "path", "p", "math", "mi"]
    assert names(doc.body.iter()) == got[4:]
    # The same order as a walk over descendants() keeping elements.
    assert list(doc.iter()) == [n for n in doc.descendants() if n.node_type == 1]


def test_iter_with_a_tag_name(doc):
    assert [e.get_attribute("id") for e in doc.iter("p")] == ["b", "c"]
    assert names(doc.iter("DIV")) == ["div", "div"]      # HTML: case-insensitive
    assert names(doc.iter("foreignObject")) == ["foreignObject"]
    assert names(doc.iter("foreignobject")) == []        # SVG: exact
    assert list(doc.iter("nothing-has-this")) == []
    assert list(doc.body.iter("*")) == list(doc.body.iter())


def test_iter_survives_removal_of_the_current_element(doc):
    seen = []
    for element in doc.body.iter():
        seen.append(element.local_name)
        if element.local_name == "p":
            element.remove()
    # Each removed <p>'s subtree is skipped, the walk goes on after it.
    assert seen == ["div", "p", "template", "svg", "foreignObject", "div",
                    "path", "p", "math", "mi"]
    assert names(doc.body.iter("p")) == []


def test_iter_is_iterative_on_deep_trees():
    depth = 100_000
    doc = lexpy.parse("<div>" * depth)
    assert sum(1 for _ in doc.iter("div")) == depth
    assert len(doc.get_elements_by_tag_name("div")) == depth


def test_get_elements_by_tag_name(doc):
    assert [e.id for e in doc.get_elements_by_tag_name("p")] == ["b", "c"]
    assert len(doc.get_elements_by_tag_name("*")) == 15
    assert doc.get_elements_by_tag_name("mi")[0].id == "m"
    assert doc.body.get_elements_by_tag_name("title") == []
    assert [e.id for e in doc.get_element_by_id("a").get_elements_by_tag_name("P")] \
        == ["b", "c"]
    with pytest.raises(TypeError, match="tag name must be a str"):
        doc.get_elements_by_tag_name(None)


def test_get_elements_by_tag_name_with_a_prefix():
    doc = lexpy.dom.Document()
    root = doc.create_element("root")
    doc.append_child(root)
    root.append_child(doc.create_element_ns("urn:x", "x:item"))
    root.append_child(doc.create_element_ns("urn:x", "item"))
    assert [e.qualified_name for e in doc.get_elements_by_tag_name("x:item")] == ["x:item"]
    assert [e.qualified_name for e in doc.get_elements_by_tag_name("item")] == ["item"]


def test_get_element_by_id(doc):
    assert doc.get_element_by_id("c").text_content == "three"
    assert doc.get_element_by_id("f").local_name == "foreignObject"
    assert doc.get_element_by_id("t") is None            # template contents
    template = doc.get_elements_by_tag_name("template")[0]
    assert template.content.get_element_by_id("t").text_content == "in template"
    assert doc.get_element_by_id("") is None
    assert doc.get_element_by_id("missing") is None
    assert doc.body.get_element_by_id("a").id == "a"
    with pytest.raises(TypeError, match="id must be a str"):
        doc.get_element_by_id(3)


def test_get_element_by_id_gives_the_first_in_tree_order():
    doc = lexpy.parse("<p id=x>1</p><div><p id=x>2</p></div>")
    assert doc.get_element_by_id("x").text_content == "1"
    doc.body.first_child.remove()
    assert doc.get_element_by_id("x").text_content == "2"


def test_get_elements_by_class_name(doc):
    assert [e.id for e in doc.get_elements_by_class_name("x")] == ["a", "c"]
    assert [e.id for e in doc.get_elements_by_class_name(" y\tx ")] == ["a", "c"]
    assert [e.id for e in doc.get_elements_by_class_name("z x")] == ["c"]
    assert doc.get_elements_by_class_name("") == []
    assert names(doc.get_elements_by_class_name("Y")) == ["div"]  # case matters
    quirks = lexpy.parse("<p class=Big>a</p>")               # no doctype
    assert quirks.quirks_mode == "quirks"
    assert len(quirks.get_elements_by_class_name("big")) == 1


def test_children_are_elements_only(doc):
    p = doc.get_element_by_id("b")
    assert [n.node_type for n in p.child_nodes] == [3, 1]
    assert names(p.children) == ["b"]
    assert names(doc.children) == ["html"]


def test_text_content(doc):
    assert doc.get_element_by_id("b").text_content == "one two"
    assert doc.get_element_by_id("a").text_content.startswith("one two")
    assert doc.text_content is None
    doc.get_element_by_id("b").text_content = "<new>"
    assert doc.get_element_by_id("b").inner_html == "&lt;new&gt;"


def test_id_and_class_name(doc):
    div = doc.get_element_by_id("a")
    assert div.id == "a" and div.class_name == "x  y"
    div.id = "renamed"
    div.class_name = "k"
    assert div.outer_html.startswith('<div id="renamed" class="k">')
    assert doc.body.id == "" and doc.body.class_name == ""


def test_class_list_reads_the_class_attribute(doc):
    classes = doc.get_element_by_id("a").class_list
    assert isinstance(classes, ClassList)
    assert list(classes) == ["x", "y"] and len(classes) == 2
    assert "x" in classes and "z" not in classes and 3 not in classes
    assert classes.contains("y") and classes[1] == "y"
    assert classes.value == "x  y" and str(classes) == "x  y"
    assert list(doc.body.class_list) == []


def test_class_list_changes_the_attribute():
    doc = lexpy.parse('<p class="a b a">')
    p = doc.get_elements_by_tag_name("p")[0]
    p.class_list.add("c", "a")
    assert p.get_attribute("class") == "a b c"
    p.class_list.remove("a", "missing")
    assert p.get_attribute("class") == "b c"
    assert p.class_list.toggle("b") is False
    assert p.class_list.toggle("d") is True
    assert p.class_list.toggle("d", True) is True
    assert p.class_list.toggle("e", False) is False
    assert p.get_attribute("class") == "c d"
    assert p.class_list.replace("c", "z") is True
    assert p.class_list.replace("nope", "y") is False
    assert p.get_attribute("class") == "z d"
    assert p.class_list.replace("d", "z") is True         # z was first: d goes
    assert p.get_attribute("class") == "z"
    p.class_list.value = " q "
    assert list(p.class_list) == ["q"]


def test_class_list_on_an_element_without_class():
    doc = lexpy.parse("<p>")
    p = doc.get_elements_by_tag_name("p")[0]
    p.class_list.remove("x")
    assert not p.has_attribute("class")          # nothing to update
    p.class_list.add("x")
    assert p.outer_html == '<p class="x"></p>'


@pytest.mark.parametrize("bad, error", [
    ("", ValueError), ("a b", InvalidCharacterError), ("a\tb", InvalidCharacterError),
    (None, TypeError), (1, TypeError)])
def test_class_list_rejects_bad_tokens(bad, error):
    p = lexpy.parse("<p class=a>").body.first_child
    for call in (lambda: p.class_list.add(bad), lambda: p.class_list.remove(bad),
                 lambda: p.class_list.toggle(bad),
                 lambda: p.class_list.replace("a", bad)):
        with pytest.raises(error):
            call()
    assert p.get_attribute("class") == "a"
