"""Edits the normal checks refuse for their placement, of a body the parser
made without a start tag or of an element inside it, while frameset-ok is
"ok": kept (Element._detached_deferral). When a <frameset> start tag then
takes the body out of the document (and everything in it), the DOM edit
changes nothing and the output is the input's; when the body stays, the
refusal is raised as soon as that is sure (Rewriter._detached_settle): from
the feed that carries the token setting frameset-ok to "not ok", at the
body's pop, or at close. Refusals of the content itself are raised at the
call (_content_refused, Element._detached_content)."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError
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
    ("<div><svg><p></div><frameset><frame>", "p", "rename"),
])
def test_content_taken_out_by_a_frameset(data, name, operation):
    assert_accepted(data, name, operation)


@pytest.mark.parametrize("data, name, operation, why", [
    ("<p>x", "body", "remove", "the parser makes <body> again"),
    ('<input type="hidden">', "body", "before_text", "no content between <body>"),
    ("<div>x<frameset>", "body", "after_text", "no content between <body>"),
    ("<svg><p>", "p", "remove_and_keep_content", "its start tag closed"),
])
def test_staying_in_the_document(data, name, operation, why):
    assert_refused(data, name, operation, why)


def test_staying_in_the_document_renamed_after_a_breakout():
    # (A <p> that broke out of foreign content is renamed with end tags
    # for the foreign elements it popped written first,
    # Element._foreign_breakout_renamable: accepted where the body stays.)
    assert_accepted("<svg><p></p>x<frameset>", "p", "rename")


@pytest.mark.parametrize("operation", ["remove", "before_markup", "rename",
                                       "remove_and_keep_content", "append_markup"])
@pytest.mark.parametrize("data", ["<svg><p><frameset><frame></frameset>x",
                                  "<div></body><!--x--><frameset>",
                                  "<svg><p><pre>\n<frameset>",
                                  "<template><p></template><frameset>"])
def test_near_cases_reparse(data, operation):
    assert_reparses(data, operation, chunked=True)


def _at_the_call(data, selector, edit):
    """`edit` on the first element of `selector`, in its handler: the
    errors it raised at the call (the handler goes on), and the output."""
    errors = []

    def handler(element):
        if errors or handler.done:
            return
        handler.done = True
        try:
            edit(element)
        except (ValueError, TypeError) as error:     # (RewriteError included)
            errors.append(error)
    handler.done = False
    rw = Rewriter().on(selector, element=handler)
    return errors, (rw.feed(data.encode()) + rw.close()).decode()


@pytest.mark.parametrize("data, selector, edit, why", [
    # (Refused for its content, with its placement passed.)
    ("<div><script></script></div><frameset>", "script",
     lambda e: e.append("</script>"), "would end <script> early"),
    ("<div></div><frameset>", "div", lambda e: e.before("a\0"), "U+0000"),
    ("<div></div><frameset>", "div", lambda e: e.replace("<b>x", html=True),
     "would not keep it whole"),
    ("<svg><p><frameset>", "svg", lambda e: e.append("<p>", html=True),
     "markup in foreign content"),
    # (Refused for its placement too: the content's checks still raise.)
    ("<div><frameset>", "body", lambda e: e.before("a\0"), "U+0000"),
    ("<div><frameset>", "body", lambda e: e.set_attribute("a", "\0"), "U+0000"),
    ("<svg><p><frameset>", "p", lambda e: e.prepend("\0"), "U+0000"),
])
def test_invalid_content_raises_at_the_call(data, selector, edit, why):
    # (Inside a body the parser made without a start tag, frameset-ok
    # "ok": the <frameset> takes the body out, but invalid content is
    # refused at the call, before anything is written.)
    errors, output = _at_the_call(data, selector, edit)
    assert len(errors) == 1 and why in str(errors[0])
    assert output == data


def _feeds(chunks, selector, edit):
    """The chunks fed one by one (then close) with `edit` on the first
    element of `selector`: the index of the call that raised (len(chunks)
    for close), and its error; None, None if none did."""
    done = []

    def handler(element):
        if not done:
            done.append(True)
            edit(element)
    # (The encoding given: the input is not held for the <meta> prescan.)
    rw = Rewriter(encoding="utf-8").on(selector, element=handler)
    for i, chunk in enumerate(chunks + [None]):
        try:
            rw.feed(chunk.encode()) if chunk is not None else rw.close()
        except RewriteError as error:
            with pytest.raises(ValueError):
                rw.feed(b"x")       # (the rewriter is finished)
            return i, error
    return None, None


@pytest.mark.parametrize("chunks, selector, edit, raised_by", [
    # (Text that is not whitespace sets frameset-ok to "not ok": the body
    # stays, the refusal comes from the feed that carries it.)
    (["<svg><p>", "  ", "x<frameset>"], "p", lambda e: e.remove_and_keep_content(), 2),
    (["<p>", "x"], "body", lambda e: e.remove(), 1),
    (["<div>", "<!--c-->", "x"], "body", lambda e: setattr(e, "tag_name", "span"), 2),
    # (A start tag that sets it: <pre>, an <input> not hidden.)
    (["<svg><p>", "<pre>", "<frameset>"], "p", lambda e: e.remove_and_keep_content(), 1),
    (['<input type="hidden">', "<input>"], "body", lambda e: e.before("x"), 1),
    # (None of that: the end of input keeps the body, close raises.)
    (["<svg><p>", "<div>"], "p", lambda e: e.remove_and_keep_content(), 2),
    # (A <frameset> takes the body out: nothing raises.)
    (["<svg><p>", "<frameset>", "x"], "p", lambda e: e.remove_and_keep_content(), None),
])
def test_refused_when_the_body_is_sure_to_stay(chunks, selector, edit, raised_by):
    raised, error = _feeds(chunks, selector, edit)
    assert raised == raised_by
    assert (error is None) == (raised_by is None)
