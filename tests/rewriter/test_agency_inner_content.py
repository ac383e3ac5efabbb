"""set_inner_content of an element the adoption agency algorithm moves
whole with the furthest block's children (Rewriter._agency_in_dropped):
the element is inside the furthest block (not the furthest block itself)
and nothing inside it is open or on the list of active formatting
elements at the formatting element's end tag. The reparse runs the same
steps over the same stack and list but for the element's content, which
the algorithm does not walk: the end tag is written as it is when it ends
the element, or, when it is inside the range the edit drops (the element
still open after it: the algorithm stopped at its limit of eight steps),
at the element's end (_agency_dropped_end). Whole input and chunks of 1
and 7 bytes, checked against the DOM edit.

Refused still (near cases): an element open inside it at the end tag (a later step may take it as its
furthest block, or pop it), the element itself on the list of active
formatting elements (reconstructed after it), a second such end tag
inside its dropped range, and content its dropped range leaves to
reconstruct (an unclosed formatting element)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import TEXT, _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

NINE = "<a>" + "<div>" * 9

# (input, the name of the element edited, which of them)
ACCEPTED = [
    # A furthest block of a later step: the steps written out one by one
    # (test_agency_deep_steps.py; the second one's: test_agency_second_step.py).
    ("<a>1<div>2<div>3<div>q</a>4</div>5</div>", "div", 2),
    # The end tag pops it (the algorithm's last step pops its copy of
    # the formatting element and all above it).
    ("<a>1<div>2<span>3</a>4</span>5</div>", "span", 0),
    ("<a>1<div>2<span>3</a>4</span>5</div>6", "span", 0),
    ("<a>1<div>2<span>3<em>4</em></a>5</span>6</div>7", "span", 0),
    ("<a>1<div>2<span>3</a><b>4</span>5</div>", "span", 0),
    ("<b>1<p>2<span>3</b>4</span>5</p>6", "span", 0),
    ("<i>1<blockquote>2<q>3<b>x</b></i>4</q>5</blockquote>", "q", 0),
    # The end tag is inside the range dropped: the algorithm stopped at
    # its limit with the element open; the end tag goes at its end.
    (NINE + "<span>X</a>Y</span>Z", "span", 0),
    (NINE + "<div><span>X</a>Y</span>Z", "span", 0),
    (NINE + "<span>X</a>Y<b>w</b></span>Z", "span", 0),
]

REFUSED = [
    # Open inside it at the end tag.
    ("<a>1<div>2<span><i>3</a>4</span>5</div>", "span", 0),
    ("<a>1<div>2<span>3<p>4</a>5</span>6</div>7", "span", 0),
    # On the list itself: reconstructed after it.
    ("<b>1<p>2<em>3</b>4</em>5</p>6", "em", 0),
    # A second end tag that runs the algorithm inside its dropped range.
    (NINE + "<span>X</a>Y</a>W</span>Z", "span", 0),
]


def _edit(data, name, index, chunk, also=None):
    seen = [0]

    def handler(element):
        if element.local_name == name and element.source is not None:
            if seen[0] == index:
                element.set_inner_content(TEXT)
            seen[0] += 1
        if also is not None and element.local_name == also[0] and element.source is not None:
            element.set_attribute("data-x", "1")
    rw = Rewriter(scripting=False).on("*", element=handler)
    return rewrite_in_chunks(data, rw, chunk)


def _expected(data, name, index, also=None):
    doc = lexpy.parse(data, scripting=False)
    element = [e for e in doc.query_selector_all(name)][index]
    if also is not None:
        doc.query_selector_all(also[0])[0].set_attribute("data-x", "1")
    while element.first_child is not None:
        element.remove_child(element.first_child)
    element.append_child(doc.create_text_node(TEXT))
    return _normalized_dump(doc)


def _dump(html):
    return _normalized_dump(lexpy.parse(html, scripting=False))


@pytest.mark.parametrize("data,name,index", ACCEPTED)
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_replaced_content_of_a_moved_element(data, name, index, chunk):
    # (The element edited is the index-th of its name in tree order and
    # in the order the parser inserts them: none is a copy.)
    out = _edit(data, name, index, chunk)
    assert _dump(out) == _expected(data, name, index), out


@pytest.mark.parametrize("data,name,index", ACCEPTED)
def test_the_output_does_not_depend_on_chunks(data, name, index):
    whole = _edit(data, name, index, None)
    assert _edit(data, name, index, 1) == whole == _edit(data, name, index, 7)


@pytest.mark.parametrize("data,name,index", REFUSED)
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_near_cases_are_refused(data, name, index, chunk):
    with pytest.raises(RewriteError):
        _edit(data, name, index, chunk)


@pytest.mark.parametrize("chunk", [None, 7])
def test_an_edited_formatting_element_is_not_left_behind(chunk):
    # The formatting element's own edit (its copies are made from its
    # start tag): refused, or written so that the reparse is the DOM edit.
    data = "<b>1<p>2<span>3</b>4</span>5</p>6"
    try:
        out = _edit(data, "span", 0, chunk, also=("b",))
    except RewriteError:
        return
    assert _dump(out) == _expected(data, "span", 0, also=("b",)), out
