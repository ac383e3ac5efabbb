"""Content written before a <frameset> the parser takes (issue 39): text
or markup that sets the frameset-ok flag to "not ok" would make the
reparse ignore the <frameset> (a body document), while in the input, and
so in the edit, the frameset replaces the body. Where the output was held
from the edit on (an element handler's edit in the body), the output is
the input's there (the edit is of an element out of the tree:
test_frameset_hold.py); else it is refused at the <frameset>
(Rewriter._sets_frameset_not_ok, _frameset_token)."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

FLAG = "the frameset-ok flag"


@pytest.mark.parametrize("chunk", [None, 1, 4])
@pytest.mark.parametrize("content, html", [("T", False), ("<img>", True), ("<pre></pre>", True),
                                           ('<input type="text">', True)])
@pytest.mark.parametrize("data", ["<div></div><frameset></frameset>",
                                  "<!doctype html><div></div><frameset>"])
def test_content_that_sets_frameset_ok_before_a_taken_frameset_is_dropped(data, content, html,
                                                                          chunk):
    rw = Rewriter().on("div", element=lambda e: e.append(content, html=html))
    assert rewrite_in_chunks(data, rw, chunk) == data


@pytest.mark.parametrize("chunk", [None, 1])
def test_whitespace_and_head_elements_leave_it_taken(chunk):
    rw = Rewriter().on("div", element=lambda e: e.append(" \n"))
    assert rewrite_in_chunks("<div></div><frameset></frameset>", rw, chunk) == \
        "<div> \n</div><frameset></frameset>"
    rw = Rewriter().on("head", element=lambda e: e.append('<meta name="x">', html=True))
    assert rewrite_in_chunks("<head></head><frameset></frameset>", rw, chunk) == \
        '<head><meta name="x"></head><frameset></frameset>'


@pytest.mark.parametrize("chunk", [None, 1])
@pytest.mark.parametrize("data, setup", [
    ("<div> </div><frameset></frameset>",
     lambda rw: rw.on("div", text=lambda t: t.replace("T"))),
    ("<div><!--c--></div><frameset></frameset>",
     lambda rw: rw.on("div", comments=lambda c: c.before("T")))])
def test_text_and_comment_handlers_count_too(data, setup, chunk):
    rw = Rewriter()
    setup(rw)
    with pytest.raises(RewriteError, match=FLAG):
        rewrite_in_chunks(data, rw, chunk)
