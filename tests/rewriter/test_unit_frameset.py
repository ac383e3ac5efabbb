"""Content a doctype or document comment handler writes before a
<frameset> the parser takes (issue 39): with no element or text handler
no stack events are recorded, so whether the parser took the <frameset>
is read from the tree at its token (Rewriter._frameset_open). Content
that sets frameset-ok to "not ok" would make the reparse ignore it."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

FLAG = "the frameset-ok flag"


@pytest.mark.parametrize("chunk", [None, 1, 5])
@pytest.mark.parametrize("content, html", [("<img>", True), ("T", False)])
def test_doctype_content_before_a_taken_frameset_is_refused(content, html, chunk):
    rw = Rewriter().on_document(doctype=lambda d: d.after(content, html=html))
    with pytest.raises(RewriteError, match=FLAG):
        rewrite_in_chunks("<!doctype html><div></div><frameset>", rw, chunk)


@pytest.mark.parametrize("chunk", [None, 1, 5])
def test_comment_content_before_a_taken_frameset_is_refused(chunk):
    rw = Rewriter().on_document(comments=lambda c: c.after("<img>", html=True))
    # (Refused at the comment already: it is the document's, outside the
    # html element, where the <img> would not go.)
    with pytest.raises(RewriteError, match=FLAG + "|outside the document element"):
        rewrite_in_chunks("<!--c--><div></div><frameset>", rw, chunk)


def test_what_it_would_write_reparses_otherwise():
    # The input's frameset replaces the body; after <img> it is ignored.
    assert "frameset" in lexpy.dump(lexpy.parse("<!doctype html><div></div><frameset>"))
    assert "frameset" not in lexpy.dump(lexpy.parse("<!doctype html><img><div></div><frameset>"))


@pytest.mark.parametrize("chunk", [None, 1, 5])
@pytest.mark.parametrize("data", ["<!doctype html><div></div>x<frameset>",
                                  "<!doctype html><p>x</p>"])
def test_a_frameset_the_parser_ignores_or_none_leaves_it_accepted(data, chunk):
    rw = Rewriter().on_document(doctype=lambda d: d.after("<img>", html=True))
    assert rewrite_in_chunks(data, rw, chunk) == data.replace("html>", "html><img>", 1)
