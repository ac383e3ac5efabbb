"""Edits around the adoption agency algorithm (issue 39's refusals).

Content after the copy of the formatting element that the algorithm makes
at an end tag and puts into the furthest block (`<a>1<p>2</a>3`: the <a>
inside the <p>): the algorithm's next step pops the copy from the top of
the stack, so content written right after the end tag lands after it, in
the furthest block. A copy that a later step of the same end tag moves
again, or that the algorithm leaves open, stays refused."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.oracle import TEXT, MARKUP, check, _normalized_dump

CLONED = [
    "<a><p></a></p>",
    "<a>1<p>2</a>3</p>",
    "<a>1<button>2</a>3</button>",
    "<a>1<div>2<div>3</a>4</div>5</div>",
    "<b>1<p>2</b>3</p>",
    "<a><div><p></a>x",
    "<a><p><i>1</a>2</p>",
    "<a><svg><foreignObject><p></a>x",
    "<div><a><b><u><i><code><div></a>",
]


def rewrite_in_chunks(data, rw, chunk):
    """data rewritten whole (chunk None) or fed `chunk` bytes at a time."""
    if chunk is None:
        return rewrite(data, rw)
    encoded = data.encode()
    out = b"".join(rw.feed(encoded[i:i + chunk]) for i in range(0, len(encoded), chunk))
    return (out + rw.close()).decode()


def _copies(data):
    """The indexes (in the order the parser inserts them) of the implied
    formatting elements of `data`."""
    found = []

    def handler(element):
        if element.implied and element.local_name in ("a", "b", "i", "u", "code"):
            found.append(seen[0])
        seen[0] += 1
    seen = [0]
    rewrite(data, Rewriter().on("*", element=handler))
    return found


def _after(data, index, content, html, chunk=None):
    seen = [0]

    def handler(element):
        if seen[0] == index:
            element.after(content, html=html)
        seen[0] += 1
    rw = Rewriter().on("*", element=handler)
    return rewrite_in_chunks(data, rw, chunk)


def _the_copy_in(data, parent):
    """The DOM edit: content after the formatting element copy that is
    the last child of the first `parent` element."""
    dom = lexpy.parse(data)
    elements = [node for node in dom.query_selector(parent).child_nodes if node.node_type == 1]
    return dom, elements[-1]


@pytest.mark.parametrize("chunk", [None, 1, 3])
@pytest.mark.parametrize("html", [False, True])
@pytest.mark.parametrize("data,parent", [("<a><p></a></p>", "p"),
                                         ("<a>1<p>2</a>3</p>", "p"),
                                         ("<a>1<button>2</a>3</button>", "button"),
                                         ("<b>1<p>2</b>3</p>", "p"),
                                         ("<a><p><span>1</a>2</p>", "p")])
def test_content_after_the_copy_goes_after_the_end_tag(data, parent, html, chunk):
    index = _copies(data)[-1]
    content = MARKUP if html else TEXT
    out = _after(data, index, content, html, chunk)
    dom, copy = _the_copy_in(data, parent)
    if html:
        for node in list(lexpy.parse_fragment(content, parent).child_nodes):
            copy.after(node)
    else:
        copy.after(content)
    assert _normalized_dump(lexpy.parse(out)) == _normalized_dump(dom)


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", CLONED)
def test_the_oracle_finds_no_difference(data, chunked):
    figures = check(data, False, "after_text", chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]


def test_a_copy_the_next_step_moves_is_refused():
    # "<a><div><p></a>": the copy made in the <div> is the formatting
    # element of the next step, which moves the <p> out of it; the copy made
    # in the <p> is accepted.
    data = "<a><div><p></a>x"
    copies = _copies(data)
    with pytest.raises(RewriteError, match="adoption agency"):
        _after(data, copies[0], TEXT, False)
    out = _after(data, copies[1], TEXT, False)
    dom = lexpy.parse(data)
    dom.query_selector("p").first_child.after(TEXT)
    assert _normalized_dump(lexpy.parse(out)) == _normalized_dump(dom)


def test_a_copy_left_open_is_refused():
    # Eight steps of the algorithm: the last copy is still open after the
    # end tag (its parent is not the current node).
    data = "<a>" + "<div>" * 10 + "</a>x"
    last = _copies(data)[-1]
    with pytest.raises(RewriteError, match="did not end it at once"):
        _after(data, last, TEXT, False)
    assert not check(data, False, "after_text").mismatches


def test_a_copy_with_formatting_elements_to_reconstruct_after_it_is_refused():
    # "<a><p><i>1</a>2": the <i> inside the copy is reconstructed for "2",
    # which content after the end tag would go into.
    data = "<a><p><i>1</a>2</p>"
    with pytest.raises(RewriteError, match="reconstructed"):
        _after(data, _copies(data)[0], TEXT, False)
    assert not check(data, False, "after_text").mismatches
