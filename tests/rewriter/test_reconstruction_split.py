"""Content before a formatting element the parser reconstructed inside
others at the same token, whose first token would not make the parser
reconstruct the ones around it (a <meta>, a comment): end tags for all of
them take their entries off the list of active formatting elements, start
tags make the ones before it again, then the content, then its start tag
and those of the ones inside it (Rewriter._reconstruction_split). Refused
where one of them is foster-parented, where the first one's end tag
could close its parent, or where another of them is edited too."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.edit_checks import assert_accepted, assert_refused
from tests.rewriter.oracle import _normalized_dump, check
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

WHY = "reconstructed lands inside it"

ACCEPTED = [
    # (input, the name of the reconstructed element edited, which one of that name)
    ("<p><b><i>x</p>y", "i", 1),
    ("<p><b><i><u>x</p>y", "i", 1),
    ("<p><b><i><u>x</p>y", "u", 1),
    ("<p><b id=1><i class=c>x</p><span>y</span>", "i", 1),
    ("<p><b><b><b><b><p>x", "b", 5),
    ("<p><b><b><b><b><p>x", "b", 6),
    ("<div><s><em>x</div>y", "em", 1),
]


@pytest.mark.parametrize("operation", ["before_head_markup", "before_markup"])
@pytest.mark.parametrize("data,name,nth", ACCEPTED)
def test_content_before_an_inner_reconstructed_element(data, name, nth, operation):
    assert_accepted(data, name, operation, nth)


def _both(data, edits, chunk=None):
    """`edits` maps (name, nth) to a function of the element."""
    seen = {}

    def handler(element):
        n = seen[element.local_name] = seen.get(element.local_name, -1) + 1
        edit = edits.get((element.local_name, n))
        if edit is not None:
            edit(element)
    return rewrite_in_chunks(data, Rewriter().on("*", element=handler), chunk)


@pytest.mark.parametrize("chunk", [None, 1, 4])
@pytest.mark.parametrize("markup", ["<!--c-->", '<meta name="x">', "<img><b>z</b>"])
def test_with_its_attributes_edited(markup, chunk):
    data = "<p><b><i><u>x</p>y"
    dom = lexpy.parse(data)
    i = dom.query_selector_all("i")[1]
    for node in list(lexpy.parse_fragment(markup, "b").child_nodes):
        i.before(node)
    i.set_attribute("q", "1")
    out = _both(data, {("i", 1): lambda e: (e.before(markup, html=True),
                                            e.set_attribute("q", "1"))}, chunk)
    assert _normalized_dump(lexpy.parse(out)) == _normalized_dump(dom)
    assert out == _both(data, {("i", 1): lambda e: (e.before(markup, html=True),
                                                    e.set_attribute("q", "1"))})


def test_the_written_tags():
    out = _both("<p><b><i><u>x</p>y", {("u", 1): lambda e: e.before("<!--c-->", html=True)})
    assert out == "<p><b><i><u>x</p></u></i></b><b><i><!--c--><u>y"


@pytest.mark.parametrize("data,name,nth", [
    # The reconstructed ones are foster-parented (the content would be too).
    ("<p><b><i>x</p><table>y</table>", "i", 1),
    # The first one's end tag: its parent has its name.
    ("<b><p><b><i>x</p>y", "i", 1),
])
def test_refused_where_the_tags_would_act_otherwise(data, name, nth):
    assert_refused(data, name, "before_head_markup", WHY, nth)


def test_refused_with_another_of_them_edited():
    data = "<p><b><i><u>x</p>y"
    for chunk in (None, 1):
        with pytest.raises(RewriteError, match=WHY):
            _both(data, {("b", 1): lambda e: e.set_attribute("q", "1"),
                         ("u", 1): lambda e: e.before("<!--c-->", html=True)}, chunk)


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", sorted({case[0] for case in ACCEPTED}))
def test_the_oracle_finds_no_difference(data, chunked):
    for operation in ("before_head_markup", "before_markup", "before_text", "remove",
                      "set_attribute", "rename", "remove_and_keep_content"):
        assert not check(data, False, operation, chunked=chunked).mismatches
