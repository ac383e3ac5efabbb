"""A <frameset> start tag after the rewrite changed what sets the parser's
frameset-ok flag (issue 39's refusals): where the parser ignored it,
content and <body> tags the rewrite writes leave it ignored; dropped
content may have held what set the flag, and is refused."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.oracle import OPERATIONS, check

FLAG = "the frameset-ok flag"


@pytest.mark.parametrize("data", ["<!doctype html><p>a<frameset>",
                                  "<html>a\x00a<frameset></frameset>",
                                  "<!doctype html><pre></pre><frameset>"])
def test_written_content_before_an_ignored_frameset_is_accepted(data):
    # (A <body> tag written for the implied body, or text, before it.)
    for operation in ("prepend_text", "set_attribute", "before_markup", "append_text"):
        figures = check(data, False, operation)
        assert not figures.mismatches, figures.mismatches[0]
        assert not any(FLAG in reason for reason in figures.refused), figures.refused


@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_dropped_content_before_an_ignored_frameset_gets_a_body_tag(chunk):
    # The text "a" set frameset-ok to "not ok": without it the reparse
    # would take the frameset; a <body> start tag written before it sets
    # the flag again, and does nothing else in body.
    rw = Rewriter().on("p", element=lambda e: e.remove())
    data = "<!doctype html><body><p>a</p><frameset><b>x"
    if chunk is None:
        out = rewrite(data, rw)
    else:
        raw = data.encode()
        out = (b"".join(rw.feed(raw[i:i + chunk]) for i in range(0, len(raw), chunk))
               + rw.close()).decode()
    assert out == "<!doctype html><body><body><frameset><b>x"


@pytest.mark.parametrize("data", [
    "<!doctype html><body><p>a</p><frameset>",
    "<!doctype html><p>a<frameset>",
    "<html>a\x00a<frameset></frameset>",
    "<!doctype html><body><p>a</p><table><tr><td><frameset><frameset>",
    "<!doctype html><body><p>a</p><div><frameset></div><frameset>",
    # Dropped with the element around it (a foreign frameset in the svg).
    "<svg>\x00<frameset>"])
@pytest.mark.parametrize("chunked", [False, True])
def test_dropped_content_before_an_ignored_frameset_is_accepted(data, chunked):
    accepted = 0
    for operation in ("remove", "remove_and_keep_content", "set_inner_content"):
        figures = check(data, False, operation, chunked=chunked)
        assert not figures.mismatches, figures.mismatches[0]
        assert not any(FLAG in reason for reason in figures.refused), figures.refused
        accepted += figures.accepted
    assert accepted


@pytest.mark.parametrize("data", [
    # A template open: the <body> tag is ignored there, the reparse would
    # take the frameset.
    "<!doctype html><body><p>a</p><template><frameset>",
    # A column group open: the <body> tag would close it.
    "<!doctype html><body><p>a</p><table><colgroup><frameset>"])
# (Taken by the parser, the frameset drops the edits with the body: the
# output held from the edit on is the input's: test_frameset_hold.py.)
def test_dropped_content_before_a_frameset_is_refused_where_a_body_tag_cannot_do(data):
    rw = Rewriter().on("p, div", element=lambda e: e.remove())
    with pytest.raises(RewriteError, match=FLAG):
        rewrite(data, rw)


def test_every_operation_keeps_the_dom_edit():
    for data in ("<!doctype html><p>a<frameset>", "<!doctype html><div><frameset>",
                 "<svg>\x00<frameset>", "<html><body><frameset>"):
        for operation in OPERATIONS:
            figures = check(data, False, operation)
            assert not figures.mismatches, figures.mismatches[0]
