"""A body the parser made without a start tag, renamed (to the oracle's
<abbr>) or unwrapped, when a <frameset> start tag then takes it out of the
document (frameset-ok still "ok": Element._detached_body_edit): the DOM
edit of an element out of the document changes nothing, and the output
is the input's. A body that stays in the document is refused at its end."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses

OPERATIONS = ("rename", "remove_and_keep_content")


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize("data", [
    '<input type="hidden"><frameset>',
    "<html>\x00<frameset></frameset>",
    "<!doctype html><div><frameset>",
    "<svg><p><frameset>",
    "</body><frameset></frameset>",
])
def test_taken_out_by_a_frameset(data, operation):
    assert_accepted(data, "body", operation)


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize("data", ["<p>x", "<div></div>", "<input type=hidden>",
                                  "<p>x<frameset>"])
def test_staying_in_the_document(data, operation):
    assert_refused(data, "body", operation, "the parser makes <body> again")


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize("data", [
    "<div></body><!--x--><frameset>",
    "<div><body><frameset>",
    "<body><frameset>",
    "<div></div></html><!--c--><frameset>",
    "<input type=hidden><frameset><frame></frameset>x",
])
def test_near_cases_reparse(data, operation):
    assert_reparses(data, operation, chunked=True)
