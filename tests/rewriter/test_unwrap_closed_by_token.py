"""remove_and_keep_content of an element that a token other than its own
end tag closes:

- an HTML formatting element that a token closed before the end of input,
  its entry left on the list of active formatting elements
  (`<a>1<b>2</a>3</b>`: the parser reconstructs a copy of the <b> for
  "3"): without its start tag the token closes the same elements but it
  (formatting elements are neither special nor scope boundaries), and the
  copy is written as a start tag with its attributes where the parser
  reconstructs it (Rewriter._unwrap_unlisted, _copies_of_unlisted);
- an element whose start tag closed elements (`<p>foo<div>bar`: the <div>
  closes the <p>) and that the end of input closes: the end tags written in
  place of its start tag close them in the output, which is then where the
  input was but for it (Rewriter._unwrap_start_closed, _eof_unwrap).

Refused: copies in another order than the start tags would make them, an
entry a later token takes off the input's list first, an entry of its name
after it on the list, and an element closed by another token than its own
end tag before the end of input."""
import pytest

from lexpy.rewriter import RewriteError
from tests.rewriter.oracle import check
from tests.rewriter.test_unlist_copies import _edit, _expected

UNWRAP = "remove_and_keep_content"

ACCEPTED = [
    # (input, element index)
    ("<a>1<b>2</a>3</b>", 4),
    ("<p><b>x</p>y", 4),
    ('<p><b id="1" class=c>x</p>y<i>z</i>', 4),
    # the inner <b>: the outer one's copy is made by the start tag's own
    # reconstruction.
    ("<p><b><b>x</p>y", 5),
    ("<p><b><i>x</p>y", 5),
    ("<!doctype html><p>foo<div>bar<p>baz", 4),
    ("<!doctype html><p>foo<ul>bar<li>baz", 4),
    ("<!doctype html><p>foo<div>bar<b>baz", 4),
    ("<dl><dt>a<dd>b<p>c", 5),
]


@pytest.mark.parametrize("data,index", ACCEPTED)
@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_unwrapped_where_a_token_closes_it(data, index, chunk):
    # (The oracle accepts it, whole and in 7-byte chunks, and its output
    # reparses to the DOM edit.)
    _expected(data, index, UNWRAP)
    chunked = check(data, False, UNWRAP, chunked=True, indexes=[index])
    assert chunked.accepted == 1 and not chunked.mismatches, chunked
    assert _edit(data, index, UNWRAP, chunk) == _edit(data, index, UNWRAP)


def test_the_copy_gets_a_start_tag():
    assert _edit('<p><b id="1">x</p>y', 4, UNWRAP) == '<p>x</p><b id="1">y'
    assert _edit("<!doctype html><p>foo<div>bar<p>baz", 4, UNWRAP) == \
        "<!doctype html><p>foo</p>bar<p>baz"


REFUSED = [
    # the copies would be <i> then <b> in the output: <b> then <i> in the
    # input.
    ("<p><b><i>x</p>y", 4),
    # </b> takes the entry off the input's list before a copy is made.
    ("<p><b>x</p></b>y", 4),
    # the inner <b>'s entry is after it: the output's start tag would come
    # after the inner one's copy.
    ("<p><b><b>x</p>y", 4),
    # </dl> closes the <dd> (whose start tag closed the <dt>) and the <p>
    # in it, before the end of input: without the <dd>, it would close
    # the <p> as the <dl>'s child.
    ("<dl><dt>a<dd>b<p>c</dl>x", 5),
]


@pytest.mark.parametrize("data,index", REFUSED)
@pytest.mark.parametrize("chunk", [None, 1])
def test_what_the_output_cannot_express_is_refused(data, index, chunk):
    with pytest.raises(RewriteError):
        _edit(data, index, UNWRAP, chunk)
    figures = check(data, False, UNWRAP, indexes=[index])
    assert figures.tried == 1 and figures.refused and not figures.mismatches
