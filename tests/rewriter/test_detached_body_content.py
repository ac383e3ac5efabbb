"""Edits the normal checks refuse, of a body the parser made without a start
tag or of an element inside it, while frameset-ok is "ok": kept until the
end (Element._detached_deferral). When a <frameset> start tag then takes
the body out of the document (and everything in it), the DOM edit changes
nothing and the output is the input's; when the body stays, the refusal
is raised at its pop or at the end of input."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses


@pytest.mark.parametrize("operation", ["remove", "before_text", "after_text",
                                       "before_markup", "before_head_markup"])
@pytest.mark.parametrize("data", ['<input type="hidden"><frameset>',
                                  "<!doctype html><div><frameset>",
                                  "</body><frameset></frameset>"])
def test_body_taken_out_by_a_frameset(data, operation):
    assert_accepted(data, "body", operation)


@pytest.mark.parametrize("data, name, operation", [
    ("<svg><p><frameset>", "p", "remove_and_keep_content"),
    ("<svg><p><frameset>", "p", "rename"),
    ("<svg><p><frameset>", "svg", "append_markup"),
    ("<div><svg><p></div><frameset><frame>", "p", "rename"),
])
def test_content_taken_out_by_a_frameset(data, name, operation):
    assert_accepted(data, name, operation)


@pytest.mark.parametrize("data, name, operation, why", [
    ("<p>x", "body", "remove", "the parser makes <body> again"),
    ('<input type="hidden">', "body", "before_text", "no content between <body>"),
    ("<div>x<frameset>", "body", "after_text", "no content between <body>"),
    ("<svg><p>", "p", "remove_and_keep_content", "its start tag closed"),
    ("<svg><p></p>x<frameset>", "p", "rename", "broke out of foreign content"),
])
def test_staying_in_the_document(data, name, operation, why):
    assert_refused(data, name, operation, why)


@pytest.mark.parametrize("operation", ["remove", "before_markup", "rename",
                                       "remove_and_keep_content", "append_markup"])
@pytest.mark.parametrize("data", ["<svg><p><frameset><frame></frameset>x",
                                  "<div></body><!--x--><frameset>",
                                  "<svg><p><pre>\n<frameset>",
                                  "<template><p></template><frameset>"])
def test_near_cases_reparse(data, operation):
    assert_reparses(data, operation, chunked=True)
