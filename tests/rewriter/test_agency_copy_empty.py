"""prepend and set_inner_content of the adoption agency algorithm's copy of
a formatting element, made at the formatting element's end tag for the
children of a furthest block that was empty (Rewriter._agency_copy_empty:
the furthest block is the element the token before the end tag made and
pushed last, the engine's _last_token_pushed): the algorithm's step moves
the furthest block's children, none, into the copy. The content is written
just before the end tag, where it goes into the furthest block (the current
node) and the same step moves it into the copy, as appended content
(Rewriter._adoption_new_closed). Whole input and chunks, with a selector
that matches the copy alone (the furthest block has no record), checked
against the DOM edit.

The same for the copy an <a> or <nobr> start tag's run of the algorithm
makes (an <a> listed, a <nobr> in scope): content written just before the
start tag goes into the furthest block, which the algorithm moves into the
copy, and the start tag's own element goes in after it; appended content
too, the furthest block empty or not.

Refused still: a furthest block with content before the end tag (text, a
comment: the copy takes it too, after what is written), a furthest block
whose start tag drops a newline after it (pre), and the copy's other edits
(set_attribute, rename, remove, remove_and_keep_content)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.edit_checks import assert_reparses
from tests.rewriter.oracle import _normalized_dump, check
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

ACCEPTED = [
    ("<a><p></a>x", "a"),
    ("<b><p></b>TEST", "b"),
    ("<a><div><p></a>", "a"),
    ("<b><button></b></button></b>", "b"),
    ("<table><a><p></a>x", "a"),
    ("<b><em><foo><foo><aside></b>", "b"),
]

# Made at an <a> or <nobr> start tag.
ACCEPTED_AT_START = [
    ("<a><p><a></a></p></a>", "a"),
    ("<nobr><p><nobr>z", "nobr"),
    ("<table><a><p><a>x", "a"),
    ("<!DOCTYPE html><body><b><nobr>1<div><nobr></b><i><nobr>2<nobr></i>3", "nobr"),
]

REFUSED = [
    ("<a>1<p>2</a>3", "a"),
    ("<a><p><!--c--></a>3", "a"),
    ("<a><p> </a>3", "a"),
    ("<a><pre></a>x", "a"),
]


def _copy_index(data, name, first=False):
    """The index of the last (or first) implied `name` (the copy) in
    insertion order."""
    found = []
    rewrite_in_chunks(data, Rewriter(scripting=False).on(
        "*", element=lambda e: found.append((e.local_name, e.implied))), None)
    return (min if first else max)(i for i, (n, implied) in enumerate(found)
                                   if n == name and implied)


def _edit(data, name, ops, chunk=None):
    """The output with `ops` ((method, content, html), in order) on the
    copy (the last implied element of its name), matched by a selector of
    its name alone."""
    implied = []
    rewrite_in_chunks(data, Rewriter(scripting=False).on(
        name, element=lambda e: implied.append(e.implied)), None)
    last = len(implied) - 1
    seen = [0]

    def handler(element):
        if seen[0] == last:
            assert element.implied
            for method, content, html in ops:
                getattr(element, method)(content, html=html)
        seen[0] += 1
    return rewrite_in_chunks(data, Rewriter(scripting=False).on(name, element=handler), chunk)


def _expected(data, name, ops):
    doc = lexpy.parse(data, scripting=False)
    copy = [e for e in doc.query_selector_all(name)][-1]
    for method, content, html in ops:
        nodes = list(lexpy.parse_fragment(content, name).child_nodes) if html else [content]
        if method == "set_inner_content":
            for child in list(copy.child_nodes):
                child.remove()
            copy.append(*nodes)
        else:
            getattr(copy, method)(*nodes)
    return _normalized_dump(doc)


@pytest.mark.parametrize("data,name", ACCEPTED)
@pytest.mark.parametrize("operation", ["prepend_text", "set_inner_content"])
def test_oracle_accepts(data, name, operation):
    index = _copy_index(data, name)
    for chunked in (False, True):
        figures = check(data, False, operation, chunked=chunked, indexes=[index])
        assert not figures.mismatches, figures.mismatches[0]
        assert (figures.tried, figures.accepted) == (1, 1), dict(figures.refused)


@pytest.mark.parametrize("data,name", ACCEPTED_AT_START + [("<a>1<p>2<a>3", "a"),
                                                           ("<nobr>1<p>2<nobr>3", "nobr")])
@pytest.mark.parametrize("operation", ["prepend_text", "set_inner_content", "append_text"])
def test_oracle_at_start_tag(data, name, operation):
    index = _copy_index(data, name, first=True)
    figures = check(data, False, operation, indexes=[index])
    assert not figures.mismatches, figures.mismatches[0]
    accepted = (data, name) in ACCEPTED_AT_START or operation == "append_text"
    assert (figures.tried, figures.accepted) == (1, int(accepted)), dict(figures.refused)
    figures = check(data, False, operation, chunked=True, indexes=[index])
    assert not figures.mismatches and figures.accepted == int(accepted)


@pytest.mark.parametrize("ops", [
    [("prepend", "P1", False), ("append", "A", False), ("prepend", "P2", False)],
    [("append", "A", False), ("set_inner_content", "C", False), ("append", "B", False),
     ("prepend", "P", False)],
    [("prepend", "<i>M</i>", True), ("append", "<span>N</span>", True)],
    [("set_inner_content", "x<img>y", True)],
])
def test_contents_in_order(ops):
    for data, name in ACCEPTED[:3]:
        expected = _expected(data, name, ops)
        whole = _edit(data, name, ops)
        assert _normalized_dump(lexpy.parse(whole, scripting=False)) == expected
        for chunk in (1, 3):
            assert _edit(data, name, ops, chunk) == whole


@pytest.mark.parametrize("data,name", REFUSED)
@pytest.mark.parametrize("method", ["prepend", "set_inner_content"])
def test_refused(data, name, method):
    with pytest.raises(RewriteError):
        _edit(data, name, [(method, "X", False)])


@pytest.mark.parametrize("operation", ["set_attribute", "rename", "remove",
                                       "remove_and_keep_content"])
def test_other_edits_refused(operation):
    data, name = ACCEPTED[0]
    figures = check(data, False, operation, indexes=[_copy_index(data, name)])
    assert not figures.mismatches and figures.accepted == 0


def test_markup_reparses():
    for data, _ in ACCEPTED + ACCEPTED_AT_START + REFUSED:
        for operation in ("prepend_text", "set_inner_content", "append_text"):
            assert_reparses(data, operation)


@pytest.mark.parametrize("operation", ["prepend_text", "set_inner_content", "append_text"])
def test_copy_of_a_later_pass_at_start_tag(operation):
    # (The <a> start tag's run: the first pass's copy takes the <div>'s
    # children, the <address> among them; the second pass's copy, the
    # last implied <a>, is made for the <address>'s, the current node.)
    data = "<a><div><style></style><address><a>"
    figures = check(data, False, operation, indexes=[_copy_index(data, "a")])
    assert not figures.mismatches, figures.mismatches[0]
    assert (figures.tried, figures.accepted) == (1, 1), dict(figures.refused)
