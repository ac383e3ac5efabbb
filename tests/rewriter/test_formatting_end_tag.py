"""A formatting element the parser closes without its end tag at a token
that takes it off the list of active formatting elements too (the <a> and
<nobr> start tags' adoption agency, clearing the list to the last marker)
or when it had no entry there (Noah's Ark): content written after it (or
after an element inside it) gets its end tag written first (issue 39's
refusals "<x> ends without an end tag where content is written" and "its
end is implied and an end tag cannot be written for it"). The end tag
runs the adoption agency algorithm for its name, which pops it as the
current node and takes its entry off the list: the same list after the
token. Refused where the list keeps its entry (the parser reconstructs a
copy later), where the token reconstructed or implied elements or pushed
a marker, where an element of its name is inside it (the end tag could
take that one's entry) or open around it. Checked with the
DOM-equivalence oracle on the element with id="r", whole and in 7-byte
chunks."""
import pytest

from lexpy.rewriter import Rewriter, rewrite
from tests.rewriter.oracle import OPERATIONS, check
from tests.rewriter.test_form_pointer import _figures

WRITTEN = [
    ('<nobr id="r"><table><marquee></table><nobr>', "after_text"),
    ('<nobr id="r">1<nobr>2', "after_text"),
    ('<a id="r">1<a>2', "after_text"),
    ('<b><table><td><i id="r"></table>', "after_text"),
    ('<b><table><td id="r"><i>a</table>', "append_text"),
    ('<table><tr><td id="r"><a href="foo">br</td></tr>x</table>aoe', "append_text"),
]


@pytest.mark.parametrize("data, operation", WRITTEN)
def test_its_end_tag_is_written(data, operation):
    figures = _figures(data, operation, False)
    assert (figures.accepted, sum(figures.refused.values())) == (1, 0), figures.refused


def test_the_output():
    rw = Rewriter().on("nobr", element=lambda e: e.after("Q") if e.has_attribute("id") else None)
    assert rewrite('<nobr id="r"><table><marquee></table><nobr>', rw) == \
        '<nobr id="r"><table><marquee></table></nobr>Q<nobr>'


REFUSED = [
    # (its entry stays on the list: the parser reconstructs a copy of it
    # for the "3", which a written end tag would take off)
    '<a>1<b id="r">2</a>3</b>',
    # (an element of its name inside it, closed and still listed: the end
    # tag would take that one's entry and leave it open)
    '<table><td><b id="r"><p><b></p></td></table>',
    # (the token reconstructed it: the copy took its entry)
    '<a X>0<b id="r">1<a Y>2',
    # (an <i> inside it stays listed: the parser reconstructs it for "3")
    '<a id="r">1<i>2<a>3',
]


@pytest.mark.parametrize("data", REFUSED)
def test_refused_where_the_end_tag_would_do_otherwise(data):
    figures = _figures(data, "after_text", False)
    assert figures.accepted == 0 and sum(figures.refused.values()) == 1, figures.refused


@pytest.mark.parametrize("data", [
    '<table><a>1<td>2</td>3</table>',        # (implied tbody, tr, a marker)
    '<p><b><b><b><b><p>x',                   # (Noah's Ark)
    '<a X>0<b>1<a Y>2',
])
def test_every_operation_on_every_element(data):
    for operation in OPERATIONS:
        for chunked in (False, True):
            figures = check(data, False, operation, chunked=chunked)
            assert not figures.mismatches, figures.mismatches[0]
