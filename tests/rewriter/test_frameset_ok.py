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


def test_dropped_content_before_an_ignored_frameset_is_refused():
    # The text "a" set frameset-ok to "not ok": without it the reparse
    # would take the frameset.
    rw = Rewriter().on("p", element=lambda e: e.remove())
    with pytest.raises(RewriteError, match="dropped"):
        rewrite("<!doctype html><p>a<frameset>", rw)


def test_every_operation_keeps_the_dom_edit():
    for data in ("<!doctype html><p>a<frameset>", "<!doctype html><div><frameset>",
                 "<svg>\x00<frameset>", "<html><body><frameset>"):
        for operation in OPERATIONS:
            figures = check(data, False, operation)
            assert not figures.mismatches, figures.mismatches[0]
