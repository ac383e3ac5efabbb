"""Pickling and deep copies of trees (lexpy/dom/pickling.pxi): a binary
encoding of the tree, not HTML text, so every tree comes back identical --
including those the serializer cannot round-trip (a <p> inside a <p> made
by the adoption agency, text in a <table>, a DOCTYPE's identifiers,
attributes in foreign namespaces, API-made prefixes and names)."""
import copy
import pickle

import pytest

import lexpy
from lexpy.dom import Document
from tests.conformance import data, runners
from tests.corpus.test_corpus import PAGES

CASES = (list(data.tree_cases()) + list(data.house_tree_cases())
         + list(data.extra_tree_cases()))


def same_document(a, b):
    """Everything of a Document that pickling keeps, compared."""
    assert lexpy.dump(b) == lexpy.dump(a)
    assert b.to_html() == a.to_html()
    assert (b.encoding, b.quirks_mode, b.scripting, b.errors) \
        == (a.encoding, a.quirks_mode, a.scripting, a.errors)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_tree_case_pickles_identically(case):
    tree = runners.parse_for_tree_case(case)
    again = pickle.loads(pickle.dumps(tree))
    assert lexpy.dump(again) == lexpy.dump(tree) == case.document
    assert lexpy.dump(copy.deepcopy(tree)) == lexpy.dump(tree)
    if isinstance(tree, Document):
        same_document(tree, again)
    else:
        assert again.owner_document.quirks_mode == tree.owner_document.quirks_mode


def test_every_tree_case_is_collected():
    assert len(CASES) > 3848


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_corpus_page_pickles_identically(page):
    doc = lexpy.parse(page.read_bytes(), collect_errors=True)
    data_ = pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL)
    same_document(doc, pickle.loads(data_))
    same_document(doc, copy.deepcopy(doc))
    # the tree alone is no larger than the HTML it was parsed from
    assert len(pickle.dumps(lexpy.parse(page.read_bytes()))) <= len(page.read_bytes())


def api_made_document():
    doc = Document(scripting=True)
    doc.quirks_mode = "limited-quirks"
    doc.append_child(doc.create_document_type("html", "-//W3C//DTD X//EN", ""))
    root = doc.create_element_ns("urn:x", "x:root")
    doc.append_child(root)
    root.set_attribute_ns("urn:y", "y:attr", "v")
    root.set_attribute_ns(None, "plain", "")
    root.set_attribute_ns("http://www.w3.org/XML/1998/namespace", "xml:lang", "de")
    root.append_child(doc.create_element("my-element"))
    root.append_child(doc.create_text_node("a"))
    root.append_child(doc.create_text_node(""))
    root.append_child(doc.create_text_node("b\x00\ud800"))      # adjacent, empty, lone surrogate
    root.append_child(doc.create_processing_instruction("php", "echo 1"))
    root.append_child(doc.create_comment("--"))
    template = doc.create_element("template")
    template.content.append_child(doc.create_element("td"))
    template.append_child(doc.create_text_node("own child"))    # a template's own child
    root.append_child(template)
    none_ns = doc.create_element_ns(None, "bare")
    root.append_child(none_ns)
    return doc


def test_api_made_trees_come_back_whole():
    doc = api_made_document()
    again = pickle.loads(pickle.dumps(doc))
    same_document(doc, again)
    root, root_again = doc.document_element, again.document_element
    assert (root_again.namespace_uri, root_again.prefix, root_again.local_name) \
        == ("urn:x", "x", "root")
    assert root_again.attribute_nodes() == root.attribute_nodes()
    assert ("urn:y", "y", "attr", "v") in root_again.attribute_nodes()
    assert [n.node_type for n in root_again.child_nodes] == [n.node_type for n in root.child_nodes]
    assert root_again.child_nodes[3].data == "b\x00\ud800"
    assert root_again.child_nodes[4].target == "php"
    assert again.doctype.public_id == "-//W3C//DTD X//EN" and again.doctype.system_id == ""
    template_again = root_again.get_elements_by_tag_name("template")[0]
    assert template_again.content.first_child.local_name == "td"
    assert template_again.first_child.data == "own child"
    assert root_again.last_child.namespace_uri is None


def test_detached_nodes_and_fragments():
    doc = lexpy.parse("<!DOCTYPE html PUBLIC 'p' 's'><table><tr><td>x<template>t</template>")
    doc.quirks_mode = "quirks"
    td = doc.get_elements_by_tag_name("td")[0]
    again = pickle.loads(pickle.dumps(td))
    assert again.parent is None and again.outer_html == td.outer_html
    assert again.owner_document.quirks_mode == "quirks"
    assert again.owner_document.child_nodes == []
    fragment = lexpy.parse_fragment("<tr><td>1</td></tr>", "tbody")
    assert lexpy.dump(pickle.loads(pickle.dumps(fragment))) == lexpy.dump(fragment)
    content = doc.get_elements_by_tag_name("template")[0].content
    copied = pickle.loads(pickle.dumps(content))
    assert copied.host is None and copied.to_html() == "t"
    for node in (doc.doctype, td.first_child, doc.create_comment("c"),
                 doc.create_processing_instruction("t", "d")):
        again = pickle.loads(pickle.dumps(node))
        assert type(again) is type(node) and again.parent is None
        assert lexpy.dump(doc.create_document_fragment()) == ""
    assert pickle.loads(pickle.dumps(doc.doctype)).system_id == "s"
    # a doctype without identifiers keeps them missing, not empty
    bare = lexpy.parse("<!DOCTYPE x>").doctype
    assert lexpy.dump(pickle.loads(pickle.dumps(bare)).owner_document) == ""


def test_deep_trees_do_not_recurse():
    doc = lexpy.parse("<div>" * 200000 + "x")
    again = pickle.loads(pickle.dumps(doc))
    assert again.to_html() == doc.to_html()     # (dump's indentation is quadratic)


def test_deepcopy_keeps_errors_and_encoding():
    doc = lexpy.parse(b"<meta charset=latin1><p>\xe9</b>", collect_errors=True)
    same_document(doc, copy.deepcopy(doc))


@pytest.mark.parametrize("cut", [0, 1, 3, 5, 6, 10, 50])
def test_truncated_data_is_a_value_error(cut):
    payload = pickle.dumps(lexpy.parse("<p class=a>text<!--c--><svg><g/></svg>"))
    function, args = lexpy.parse("x").__reduce__()
    tree = lexpy.parse("<p class=a>text<!--c--><svg><g/></svg>").__reduce__()[1][0]
    assert payload
    with pytest.raises(ValueError, match="corrupt lexpy pickle"):
        function(tree[:cut] if cut < len(tree) else tree + b"\x00")


def test_corrupt_data_never_crashes():
    import random
    function, (tree, *_) = lexpy.parse(PAGES[0].read_bytes()).__reduce__()
    rng = random.Random(18)
    for _ in range(300):
        damaged = bytearray(tree)
        for _ in range(rng.randint(1, 8)):
            damaged[rng.randrange(5, len(damaged))] = rng.randrange(256)
        try:
            function(bytes(damaged))
        except ValueError:
            pass
    with pytest.raises(TypeError):
        function("not bytes")
    with pytest.raises(ValueError):
        function(b"")
