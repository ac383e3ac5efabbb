"""Markup content that starts with a comment, written where the parser is
after </body> or </html> (found by the widened markup set of the oracle,
tests/rewriter/oracle.py's MARKUP_OPERATIONS): the parser puts that
comment on the html element or the document, not into the element the DOM
edit puts it in. The rewriter refuses it (Rewriter._check_after_body);
markup that starts otherwise takes the parser back into the body and is
written as before."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import check, _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

# (input, selector, operation, markup): each an edit the rewriter wrote
# into a reparse with the comment outside its element.
CASES = [
    ("<html><head></head><body></body>", "body", "append", "<!--c-->"),
    ("<html><body></html>", "body", "append", "<!--c-->"),
    ("<!doctype html><div></body><!--foo-->", "div", "append", "<!--c-->"),
    ("<!DOCTYPE html><menuitem></body>", "menuitem", "append", "<!--c-->"),
    ("<html>\n<dl>\n<dt><b>Boo\n<dd>Goo?\n</dl>\n</html>", "body > b", "append", " <!--c-->"),
    ("<!doctype html></body><title>X</title>", "title", "before", "<!--c-->"),
    ("<!DOCTYPE html>X</html><p>X", "p", "before", "<?pi>x"),
    ("<!doctype html><math></html>", "math", "after", "<!--c--><b>x</b>"),
    ("<body></body><template>", "template", "before", "</ c>"),
]


def _edit(operation, markup):
    return lambda element: getattr(element, operation)(markup, html=True)


@pytest.mark.parametrize("chunk", [None, 1, 5])
@pytest.mark.parametrize("data,selector,operation,markup", CASES)
def test_refused(data, selector, operation, markup, chunk):
    rw = Rewriter(scripting=False).on(selector, element=_edit(operation, markup))
    with pytest.raises(RewriteError, match="after </body> or </html>"):
        rewrite_in_chunks(data, rw, chunk)


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", sorted({case[0] for case in CASES}))
def test_the_oracle_finds_no_difference(data, chunked):
    for operation in ("append_markup <!--c-->", "before_markup <!--c-->",
                      "after_markup <!--c-->", "prepend_markup <!--c-->",
                      "append_markup <div>M</div>", "before_markup <div>M</div>"):
        assert not check(data, False, operation, chunked=chunked).mismatches


@pytest.mark.parametrize("chunk", [None, 3])
def test_other_markup_is_written_after_body(chunk):
    # A start tag first takes the parser back into the body: written at
    # the end as before, and the comment after it goes into the body.
    data = "<p>a</p></body></html>"
    markup = "<span>s</span><!--c-->"
    out = rewrite_in_chunks(data, Rewriter().on("body", element=_edit("append", markup)),
                            chunk)
    assert out == data + markup
    dom = lexpy.parse(data)
    dom.body.append(*lexpy.parse_fragment(markup, "body").child_nodes)
    assert _normalized_dump(lexpy.parse(out)) == _normalized_dump(dom)


@pytest.mark.parametrize("chunk", [None, 3])
def test_a_comment_inside_the_body_is_written(chunk):
    # Without </body> the parser is in the body at the end: no refusal.
    data = "<p>a</p>"
    out = rewrite_in_chunks(data, Rewriter().on("body", element=_edit("append", "<!--c-->")),
                            chunk)
    assert out == data + "<!--c-->"
