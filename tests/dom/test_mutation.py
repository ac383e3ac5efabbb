"""Tree mutation: the DOM's pre-insertion and replace checks (each error),
moving nodes, adoption across documents, and changes during iteration."""
import gc

import pytest

import lexpy
from lexpy.dom import (Document, HierarchyRequestError, NotFoundError,
                       NotSupportedError)


def html_document():
    doc = Document()
    doc.append_child(doc.create_document_type("html"))
    html = doc.append_child(doc.create_element("html"))
    html.append_child(doc.create_element("head"))
    html.append_child(doc.create_element("body"))
    return doc


def names(node):
    return [child.node_name for child in node.child_nodes]


# -- insertion ----------------------------------------------------------------

def test_append_insert_and_order():
    doc = Document()
    div = doc.create_element("div")
    a, b, c = (doc.create_element(n) for n in "abc")
    assert div.append_child(b) is b
    assert div.insert_before(a, b) is a
    assert div.insert_before(c, None) is c
    assert names(div) == ["A", "B", "C"]
    div.insert_before(c, a)             # moving within the same parent
    assert names(div) == ["C", "A", "B"]
    div.insert_before(a, a)             # before itself: stays
    assert names(div) == ["C", "A", "B"]
    div.append_child(c)
    assert names(div) == ["A", "B", "C"]
    assert (a.previous_sibling, c.next_sibling) == (None, None)


def test_append_moves_between_parents():
    doc = Document()
    first, second = doc.create_element("div"), doc.create_element("div")
    span = first.append_child(doc.create_element("span"))
    second.append_child(span)
    assert first.child_nodes == [] and span.parent is second


def test_fragment_insertion_moves_its_children():
    doc = Document()
    fragment = doc.create_document_fragment()
    for name in ("a", "b"):
        fragment.append_child(doc.create_element(name))
    div = doc.create_element("div")
    div.append_child(doc.create_element("z"))
    div.insert_before(fragment, div.first_child)
    assert names(div) == ["A", "B", "Z"]
    assert fragment.child_nodes == []


def test_append_prepend_before_after_replace_with():
    doc = Document()
    div = doc.create_element("div")
    b = doc.create_element("b")
    div.append(b, "text")
    div.prepend("first", doc.create_element("i"))
    assert div.to_html() == "<div>first<i></i><b></b>text</div>"
    b.before("<", doc.create_element("u"))
    b.after(doc.create_element("s"))
    assert div.inner_html == "first<i></i>&lt;<u></u><b></b><s></s>text"
    b.replace_with("B", b)              # the node itself among the new ones
    assert div.inner_html == "first<i></i>&lt;<u></u>B<b></b><s></s>text"
    b.replace_with()
    assert div.inner_html == "first<i></i>&lt;<u></u>B<s></s>text"
    b.replace_with("nothing happens")   # no parent
    b.before("x")
    b.after("x")
    assert b.parent is None
    with pytest.raises(TypeError):
        div.append(3)


def test_remove_and_remove_child():
    doc = Document()
    div = doc.create_element("div")
    a = div.append_child(doc.create_element("a"))
    b = div.append_child(doc.create_element("b"))
    assert div.remove_child(a) is a
    assert a.parent is None and names(div) == ["B"]
    b.remove()
    b.remove()                          # no parent: nothing
    assert div.child_nodes == []
    with pytest.raises(NotFoundError):
        div.remove_child(a)
    with pytest.raises(TypeError):
        div.remove_child("a")


def test_replace_child():
    doc = Document()
    div = doc.create_element("div")
    a = div.append_child(doc.create_element("a"))
    b = div.append_child(doc.create_element("b"))
    c = doc.create_element("c")
    assert div.replace_child(c, a) is a
    assert names(div) == ["C", "B"] and a.parent is None
    div.replace_child(b, c)             # replace with a sibling
    assert names(div) == ["B"]
    div.replace_child(b, b)
    assert names(div) == ["B"]
    with pytest.raises(NotFoundError):
        div.replace_child(c, a)
    with pytest.raises(TypeError):
        div.replace_child(None, b)


# -- every pre-insertion error -----------------------------------------------

def test_parent_that_cannot_have_children():
    doc = Document()
    for parent in (doc.create_text_node("t"), doc.create_comment("c"),
                   doc.create_processing_instruction("p", "d"),
                   doc.create_document_type("html")):
        with pytest.raises(HierarchyRequestError, match="cannot have children"):
            parent.append_child(doc.create_element("a"))


def test_node_into_itself_or_its_descendant():
    doc = Document()
    div = doc.create_element("div")
    inner = div.append_child(doc.create_element("p")).append_child(
        doc.create_element("span"))
    with pytest.raises(HierarchyRequestError, match="itself"):
        div.append_child(div)
    with pytest.raises(HierarchyRequestError, match="descendants"):
        inner.append_child(div)
    with pytest.raises(HierarchyRequestError):
        doc.append_child(doc)


def test_reference_child_not_a_child():
    doc = Document()
    div = doc.create_element("div")
    stranger = doc.create_element("span")
    with pytest.raises(NotFoundError):
        div.insert_before(doc.create_element("a"), stranger)
    assert isinstance(NotFoundError("x"), ValueError)


def test_document_cannot_be_inserted():
    doc = Document()
    other = Document()
    with pytest.raises(HierarchyRequestError, match="Document cannot be inserted"):
        doc.create_element("div").append_child(other)


def test_text_under_document():
    doc = Document()
    with pytest.raises(HierarchyRequestError, match="Text"):
        doc.append_child(doc.create_text_node("x"))
    # Comments and PIs may go there.
    doc.append_child(doc.create_comment("c"))
    doc.append_child(doc.create_processing_instruction("p", "d"))


def test_doctype_outside_document():
    doc = Document()
    with pytest.raises(HierarchyRequestError, match="DocumentType"):
        doc.create_element("div").append_child(doc.create_document_type("html"))
    with pytest.raises(HierarchyRequestError):
        doc.create_document_fragment().append_child(doc.create_document_type("x"))


def test_fragment_into_document():
    doc = Document()
    two = doc.create_document_fragment()
    two.append_child(doc.create_element("a"))
    two.append_child(doc.create_element("b"))
    with pytest.raises(HierarchyRequestError, match="more"):
        doc.append_child(two)
    text = doc.create_document_fragment()
    text.append_child(doc.create_text_node("t"))
    with pytest.raises(HierarchyRequestError, match="Text"):
        doc.append_child(text)
    one = doc.create_document_fragment()
    one.append_child(doc.create_comment("c"))
    one.append_child(doc.create_element("html"))
    doc.append_child(one)
    assert names(doc) == ["#comment", "HTML"]
    again = doc.create_document_fragment()
    again.append_child(doc.create_element("html"))
    with pytest.raises(HierarchyRequestError, match="document element"):
        doc.append_child(again)


def test_fragment_element_before_doctype():
    doc = Document()
    doctype = doc.append_child(doc.create_document_type("html"))
    fragment = doc.create_document_fragment()
    fragment.append_child(doc.create_element("html"))
    with pytest.raises(HierarchyRequestError, match="doctype"):
        doc.insert_before(fragment, doctype)
    comment = doc.insert_before(doc.create_comment("c"), doctype)
    with pytest.raises(HierarchyRequestError, match="doctype"):
        doc.insert_before(fragment, comment)


def test_second_document_element():
    doc = html_document()
    with pytest.raises(HierarchyRequestError, match="document element"):
        doc.append_child(doc.create_element("html"))


def test_element_before_doctype():
    doc = Document()
    doctype = doc.append_child(doc.create_document_type("html"))
    with pytest.raises(HierarchyRequestError, match="doctype"):
        doc.insert_before(doc.create_element("html"), doctype)
    comment = doc.insert_before(doc.create_comment("c"), doctype)
    with pytest.raises(HierarchyRequestError, match="doctype"):
        doc.insert_before(doc.create_element("html"), comment)


def test_second_doctype():
    doc = html_document()
    with pytest.raises(HierarchyRequestError, match="already has a doctype"):
        doc.insert_before(doc.create_document_type("x"), doc.first_child)


def test_doctype_after_document_element():
    doc = Document()
    html = doc.append_child(doc.create_element("html"))
    with pytest.raises(HierarchyRequestError, match="after the document element"):
        doc.append_child(doc.create_document_type("html"))
    comment = doc.append_child(doc.create_comment("after"))
    with pytest.raises(HierarchyRequestError, match="after the document element"):
        doc.insert_before(doc.create_document_type("html"), comment)
    doc.insert_before(doc.create_document_type("html"), html)
    assert names(doc) == ["html", "HTML", "#comment"]


def test_replace_checks():
    doc = html_document()
    doctype, html = doc.child_nodes
    # Replacing the document element with another element is allowed...
    new_html = doc.create_element("html")
    doc.replace_child(new_html, html)
    assert doc.document_element is new_html
    # ...and the doctype with a doctype.
    doc.replace_child(doc.create_document_type("other"), doctype)
    assert doc.doctype.name == "other"
    comment = doc.insert_before(doc.create_comment("c"), doc.first_child)
    # An element in place of the comment: there already is one.
    with pytest.raises(HierarchyRequestError, match="document element"):
        doc.replace_child(doc.create_element("x"), comment)
    # A doctype in place of the comment: there already is one.
    with pytest.raises(HierarchyRequestError, match="doctype"):
        doc.replace_child(doc.create_document_type("x"), comment)
    # Text in a document.
    with pytest.raises(HierarchyRequestError, match="Text"):
        doc.replace_child(doc.create_text_node("t"), comment)
    # A doctype after the element.
    trailing = doc.append_child(doc.create_comment("end"))
    doc.remove_child(doc.doctype)
    with pytest.raises(HierarchyRequestError, match="after the document element"):
        doc.replace_child(doc.create_document_type("x"), trailing)
    # An element before the doctype.
    doc.insert_before(doc.create_document_type("html"), new_html)
    doc.remove_child(new_html)
    with pytest.raises(HierarchyRequestError, match="doctype"):
        doc.replace_child(doc.create_element("html"), comment)
    fragment = doc.create_document_fragment()
    fragment.append_child(doc.create_element("a"))
    fragment.append_child(doc.create_element("b"))
    with pytest.raises(HierarchyRequestError):
        doc.replace_child(fragment, comment)


def test_errors_leave_the_tree_unchanged():
    doc = html_document()
    before = lexpy.dump(doc)
    for action in (
            lambda: doc.append_child(doc.create_element("x")),
            lambda: doc.append_child(doc.create_text_node("x")),
            lambda: doc.body.append_child(doc.document_element),
            lambda: doc.body.insert_before(doc.create_element("x"), doc.head)):
        with pytest.raises(ValueError):
            action()
        assert lexpy.dump(doc) == before


def test_type_errors():
    doc = html_document()
    for bad in (None, "text", 1, object(), doc.body.attributes):
        with pytest.raises(TypeError):
            doc.body.append_child(bad)
        with pytest.raises(TypeError):
            doc.body.insert_before(bad, None)
    with pytest.raises(TypeError):
        doc.body.insert_before(doc.create_element("a"), "not a node")
    with pytest.raises(TypeError):
        doc.import_node("x")
    with pytest.raises(TypeError):
        doc.adopt_node(None)


# -- iteration during change -------------------------------------------------

def test_removal_while_iterating_children():
    doc = Document()
    div = doc.create_element("div")
    for i in range(10):
        div.append_child(doc.create_element("i%d" % i))
    seen = []
    for child in div:
        seen.append(child.local_name)
        child.remove()
    assert seen == ["i%d" % i for i in range(10)]
    assert div.child_nodes == []


def test_moving_while_iterating_children():
    doc = Document()
    source, target = doc.create_element("div"), doc.create_element("div")
    for i in range(5):
        source.append_child(doc.create_element("i%d" % i))
    for child in source:
        target.append_child(child)
    assert names(target) == ["I%d" % i for i in range(5)]


def test_iterating_child_nodes_snapshot_while_changing():
    doc = Document()
    div = doc.create_element("div")
    for i in range(5):
        div.append_child(doc.create_text_node(str(i)))
    for child in div.child_nodes:
        child.remove()
        div.append_child(child)            # re-insert the removed node
        div.insert_before(doc.create_comment("c"), child)
    assert div.to_html() == "<div>" + "".join(
        "<!--c-->%d" % i for i in range(5)) + "</div>"


def test_descendants_while_removing():
    doc = Document()
    root = doc.create_element("div")
    for i in range(3):
        section = root.append_child(doc.create_element("section"))
        for j in range(3):
            section.append_child(doc.create_element("p")).append_child(
                doc.create_text_node("%d.%d" % (i, j)))
    visited = []
    for node in root.descendants():
        visited.append(node.node_name)
        if node.node_name == "SECTION":
            node.remove()                  # skip its subtree
    assert visited == ["SECTION"] * 3
    assert root.child_nodes == []


def test_descendants_while_adding():
    doc = Document()
    root = doc.create_element("div")
    root.append_child(doc.create_element("a"))
    visited = []
    for node in root.descendants():
        visited.append(node.node_name)
        if len(visited) < 5:
            node.append_child(doc.create_element("a"))
    assert visited == ["A"] * 5


def test_dropping_the_document_mid_iteration():
    doc = html_document()
    for i in range(100):
        doc.body.append_child(doc.create_element("p")).append_child(
            doc.create_text_node(str(i)))
    iterator = iter(doc.body)
    first = next(iterator)
    del doc
    gc.collect()
    texts = [first.text_content] + [p.text_content for p in iterator]
    assert texts == [str(i) for i in range(100)]
    descendants = first.owner_document.body.descendants()
    next(descendants)
    first.owner_document.body.text_content = "gone"
    gc.collect()
    assert [n.node_name for n in descendants] == []


def test_removed_subtrees_keep_working():
    doc = html_document()
    div = doc.body.append_child(doc.create_element("div"))
    span = div.append_child(doc.create_element("span"))
    span.append_child(doc.create_text_node("x"))
    div.remove()
    del div
    gc.collect()
    # span's detached tree stays whole while span is alive
    assert span.parent.local_name == "div"
    assert span.parent.outer_html == "<div><span>x</span></div>"
    doc.body.append_child(span.parent)
    assert doc.body.inner_html == "<div><span>x</span></div>"


def test_reinserting_removed_nodes_many_times():
    doc = html_document()
    body = doc.body
    node = body.append_child(doc.create_element("p"))
    node.append_child(doc.create_text_node("x"))
    for _ in range(1000):
        node.remove()
        body.append_child(node)
    assert body.inner_html == "<p>x</p>"


# -- adoption across documents ---------------------------------------------

def test_moving_a_subtree_to_another_document():
    source = html_document()
    div = source.body.append_child(source.create_element("div"))
    div.set_attribute("data-x", "1")
    span = div.append_child(source.create_element("span"))
    text = span.append_child(source.create_text_node("hello"))
    svg = div.append_child(source.create_element_ns(
        "http://www.w3.org/2000/svg", "foreignObject"))
    custom = div.append_child(source.create_element("x-custom-tag"))
    template = div.append_child(source.create_element("template"))
    template.content.append_child(source.create_element("b"))
    content = template.content
    target = html_document()
    target.body.append_child(div)
    # Every live proxy now points into the target document.
    for node in (div, span, text, svg, custom, template, content):
        assert node.owner_document is target
    assert span.parent is div and text.parent is span
    assert content.host is template and template.content is content
    assert source.body.child_nodes == []
    assert target.body.inner_html == (
        '<div data-x="1"><span>hello</span><foreignObject></foreignObject>'
        '<x-custom-tag></x-custom-tag><template><b></b></template></div>')
    # The source document can go; the moved nodes stay.
    del source
    gc.collect()
    assert text.data == "hello" and custom.local_name == "x-custom-tag"


def test_moving_back_and_forth():
    first, second = html_document(), html_document()
    p = first.body.append_child(first.create_element("p"))
    p.append_child(first.create_text_node("x"))
    for _ in range(200):
        second.body.append_child(p)
        first.body.append_child(p)
    assert p.owner_document is first
    assert first.body.inner_html == "<p>x</p>" and second.body.inner_html == ""


def test_fragment_from_another_document():
    doc, other = html_document(), Document()
    fragment = other.create_document_fragment()
    a = fragment.append_child(other.create_element("a"))
    fragment.append_child(other.create_text_node("t"))
    doc.body.append_child(fragment)
    assert doc.body.inner_html == "<a></a>t"
    assert a.owner_document is doc
    assert fragment.owner_document is other and fragment.child_nodes == []


def test_import_and_adopt_node():
    doc, other = html_document(), html_document()
    p = other.body.append_child(other.create_element("p"))
    p.append_child(other.create_text_node("x"))
    copy = doc.import_node(p, deep=True)
    assert copy.owner_document is doc and copy.parent is None
    assert copy.outer_html == "<p>x</p>" and p.parent is other.body
    assert doc.import_node(p).outer_html == "<p></p>"
    adopted = doc.adopt_node(p)
    assert adopted is p and p.owner_document is doc and p.parent is None
    assert other.body.child_nodes == []
    with pytest.raises(NotSupportedError):
        doc.adopt_node(other)
    with pytest.raises(NotSupportedError):
        doc.import_node(other)
    template = other.create_element("template")
    with pytest.raises(HierarchyRequestError):
        doc.adopt_node(template.content)


def test_cross_document_checks_still_apply():
    doc, other = html_document(), html_document()
    with pytest.raises(HierarchyRequestError):
        doc.append_child(other.create_element("html"))
    with pytest.raises(HierarchyRequestError):
        doc.append_child(other.create_text_node("x"))
    assert other.body is not None
