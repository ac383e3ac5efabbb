"""Ends of elements around the adoption agency algorithm (issue 39's
refusals, part B).

- Content appended to the element the algorithm makes for the furthest
  block's children (`<b>1<i>2<p>3</b>`: the <b> inside the <p>), which its
  next pass pops at once: written just before the end tag, it goes to the
  end of the furthest block (the current node there) and moves with the
  other children into that element.
- Content after the furthest block, which the algorithm moved out of the
  formatting element into an element still open (`<a><p></a></p>`: the
  <p> into the body), as that element's last child: written after the
  block's end, it goes to the current node, the new parent.
Near cases stay refused: an element above the furthest block (the content
would go into it), the furthest block moved before a table (foster
parenting)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import TEXT, MARKUP, check, _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks


def _edit(data, match, operation, content, chunk=None):
    """data with `operation(content)` on the element `match(element)`
    picks (the first), fed whole or in chunks."""
    done = [False]

    def handler(element):
        if not done[0] and match(element):
            done[0] = True
            getattr(element, operation)(content, html=content == MARKUP)
    rw = Rewriter().on("*", element=handler)
    out = rewrite_in_chunks(data, rw, chunk)
    assert done[0]
    return out


def _implied(name):
    return lambda e: e.implied and e.local_name == name


def _dom(data, find, edit):
    doc = lexpy.parse(data)
    edit(find(doc))
    return _normalized_dump(doc)


def _last_implied(name):
    def find(doc):
        return [e for e in doc.query_selector_all(name)][-1]
    return find


NEW_ELEMENT = [
    ("<b>1<i>2<p>3</b>4", "b"),
    ("<a><p></a></p>", "a"),
    ("<a>1<p>2</a>3</p>", "a"),
    ("<i>A<b>B<p></i>C</b>D", "i"),
]


@pytest.mark.parametrize("data, name", NEW_ELEMENT)
@pytest.mark.parametrize("content", [TEXT, MARKUP])
@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_append_to_the_element_made_for_the_furthest_blocks_children(data, name, content,
                                                                     chunk):
    out = _edit(data, _implied(name), "append", content, chunk)
    if content == MARKUP:
        def edit(el):
            for node in lexpy.parse_fragment(content, name).child_nodes:
                el.append(node)
    else:
        def edit(el):
            el.append(content)
    assert _normalized_dump(lexpy.parse(out)) == _dom(data, _last_implied(name), edit)
    # (Written before the end tag, inside the furthest block.)
    marker = "<span>" if content == MARKUP else "X"
    assert out.index(marker) < out.rindex("</%s>" % name)


@pytest.mark.parametrize("data, index, reason", [
    # An element above the furthest block: content before the end tag
    # would go into it.
    ("<b>1<p>2<span>3</b>4", 6, "closes it at once"),
    # The next pass finds another furthest block above the new element
    # (the <a> made for the <div>'s children; the one made for the
    # <address>'s, the current node, takes it: test_agency_copy_empty.py).
    ("<a><div><style></style><address><a>", 7, "moved this element"),
])
def test_append_refused_where_the_furthest_block_was_not_the_current_node(data, index,
                                                                          reason):
    figures = check(data, False, "append_text", indexes=[index])
    assert not figures.mismatches
    reasons = [r for r in figures.refused if reason in r]
    assert reasons and figures.accepted == 0, figures.summary()


MOVED_BLOCK = [
    ("<a><p></a></p>", "p"),
    ("<a>1<p>2</a>3</p>", "p"),
    ("<a>1<div>2<div>3</a>4</div>5</div>", "div"),
    ("<!doctype html><a><search>x</a>y", "search"),
    ("<b><button>foo</b>bar", "button"),
]


@pytest.mark.parametrize("data, name", MOVED_BLOCK)
@pytest.mark.parametrize("chunk", [None, 1, 4])
def test_after_the_furthest_block_moved_into_an_open_element(data, name, chunk):
    out = _edit(data, lambda e: e.local_name == name, "after", TEXT, chunk)

    def find(doc):
        return doc.query_selector(name)
    assert _normalized_dump(lexpy.parse(out)) == _dom(data, find, lambda el: el.after(TEXT))


def test_after_the_furthest_block_moved_before_a_table_is_refused():
    # (The block went before the table: content after its end tag would
    # go into the table.)
    data = "<table><a>1<p>2</a>3</p>"
    with pytest.raises(RewriteError, match="parent left the stack"):
        _edit(data, lambda e: e.local_name == "p", "after", TEXT)
    assert not check(data, False, "after_text").mismatches


@pytest.mark.parametrize("data", [d for d, _ in NEW_ELEMENT + MOVED_BLOCK])
@pytest.mark.parametrize("operation", ["append_text", "append_markup", "after_text"])
def test_oracle_on_these_inputs(data, operation):
    figures = check(data, False, operation)
    assert not figures.mismatches, figures.mismatches[0]
    chunked = check(data, False, operation, chunked=True)
    assert not chunked.mismatches and chunked.accepted == figures.accepted


@pytest.mark.parametrize("data, name", [
    ("<b><em><foo><foo><aside></b>", "foo"),
    ("<b>A<cite>B<div>C</b>D", "cite"),
    ("<form><div></form>x", "form"),
])
@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_attributes_of_an_element_taken_off_the_stack_from_its_middle(data, name, chunk):
    # (The adoption agency algorithm takes an element that is not in the
    # list of active formatting elements off the stack and leaves it in
    # place: no copy is made from its start tag.)
    done = [False]

    def handler(element):
        if not done[0] and element.local_name == name:
            done[0] = True
            element.set_attribute("data-x", 'v"&<')
    out = rewrite_in_chunks(data, Rewriter().on("*", element=handler), chunk)
    doc = lexpy.parse(data)
    doc.query_selector(name).set_attribute("data-x", 'v"&<')
    assert _normalized_dump(lexpy.parse(out)) == _normalized_dump(doc)


def test_attributes_of_a_cloned_formatting_element_stay_refused():
    # (Its copy is made from its start tag: the output's copy would carry
    # the attribute, the DOM edit's would not.)
    data = "<b><em><foo><foo><aside></b>"
    done = [False]

    def handler(element):
        if not done[0] and element.local_name == "em":
            done[0] = True
            element.set_attribute("data-x", "v")
    with pytest.raises(RewriteError, match="middle of the stack"):
        rewrite_in_chunks(data, Rewriter().on("*", element=handler), None)
    assert not check(data, False, "set_attribute").mismatches
