"""A carriage return or a U+0000 in written content (issue 39). The parser
normalizes the input's newlines (CR LF and a lone CR become LF) before it
tokenizes, but not a character reference: a CR in text or an attribute
value is written as &#13; (attribute values the rewriter writes again
included), and refused where nothing is decoded (raw text, comments).
Markup is written with its newlines normalized, as the DOM edit's
fragment parser reads it (a CR at its end would join a LF after it).
U+0000 cannot be written in text, attribute values, raw text or comments
(the parser drops it or reads it as U+FFFD): refused at the call. Each
accepted case is judged against the DOM edit, whole and in chunks of 1
and 7 bytes."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import _fragment_nodes
from tests.rewriter.test_adoption_edits import rewrite_in_chunks
from tests.rewriter.test_leading_newline import (CHUNKS, _element_handler, _first,
                                                 _holder_text, _text_handler,
                                                 assert_reparses_to_the_dom_edit)


def _set(selector, name, value):
    return lambda dom: _first(selector, dom).set_attribute(name, value)


def _after_markup(selector, markup):
    def dom_edit(dom):
        element = _first(selector, dom)
        element.after(*_fragment_nodes(markup, element.parent_node, True))
    return dom_edit


CASES = [
    ("<p>x</p>", _text_handler(lambda t: t.before("a\rb")),
     _holder_text("p", lambda d: "a\rb" + d)),
    ("<p>x\n</p>", _text_handler(lambda t: t.replace("a\r")),
     _holder_text("p", lambda d: "a\r")),
    ("<p>x</p>", _element_handler("p", lambda e: e.append("a\r\nb\r")),
     lambda dom: _first("p", dom).append("a\r\nb\r")),
    ("<textarea>x</textarea>", _element_handler("textarea", lambda e: e.append("a\rb")),
     lambda dom: _first("textarea", dom).append("a\rb")),
    ("<title>x</title>", _text_handler(lambda t: t.after("\r")),
     _holder_text("title", lambda d: d + "\r")),
    ("<svg><desc>x</desc></svg>", _text_handler(lambda t: t.before("\r")),
     _holder_text("desc", lambda d: "\r" + d)),
    ("<p>x</p>", _element_handler("p", lambda e: e.set_attribute("t", "a\rb")),
     _set("p", "t", "a\rb")),
    ('<p a="x&#13;y">z</p>', _element_handler("p", lambda e: e.set_attribute("b", "1")),
     _set("p", "b", "1")),
    ('<svg><path d="x&#13;y"/></svg>', _element_handler("path", lambda e: e.set_attribute("b", "1")),
     _set("path", "b", "1")),
    ("<p>x", lambda rw: rw.on_document(end=lambda end: end.append("\ry")),
     lambda dom: _first("p", dom).append("\ry")),
    ("<p><i></i>\nx", _element_handler("i", lambda e: e.after("<b>a</b>\r", html=True)),
     _after_markup("i", "<b>a</b>\r")),
    ("<p><i></i>\nx", _element_handler("i", lambda e: e.after("<!--c-->\r", html=True)),
     _after_markup("i", "<!--c-->\r")),
    ("<p>x\n</p>", _text_handler(lambda t: t.replace("a\r", html=True)),
     _holder_text("p", lambda d: "a\n")),
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("index", range(len(CASES)))
def test_written_carriage_returns_reparse_to_the_dom_edit(index, chunk):
    assert_reparses_to_the_dom_edit(*CASES[index], chunk)


REFUSED = [
    # (input, the edit, made at the call)
    ("<script>x</script>", lambda rw, edit: rw.on("script", element=edit),
     lambda e: e.append("a\rb")),
    ("<style>x</style>", lambda rw, edit: rw.on_document(text=edit),
     lambda t: t.before("\r")),
    ("<xmp>x</xmp>", lambda rw, edit: rw.on_document(text=edit),
     lambda t: t.replace("a\x00")),
    ("<p>x</p>", lambda rw, edit: rw.on_document(text=edit), lambda t: t.before("\x00")),
    ("<svg>x</svg>", lambda rw, edit: rw.on_document(text=edit), lambda t: t.after("\x00")),
    ("<p>x</p>", lambda rw, edit: rw.on("p", element=edit),
     lambda e: e.set_attribute("t", "a\x00")),
    ("<p>x</p>", lambda rw, edit: rw.on("p", element=edit),
     lambda e: e.set_attribute("T", "a\x00")),
    ("<p>x", lambda rw, edit: rw.on_document(end=edit), lambda end: end.append("\x00")),
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("index", range(len(REFUSED)))
def test_content_no_output_expresses_is_refused_at_the_call(index, chunk):
    data, register, edit = REFUSED[index]
    raised = []

    def handler(unit):
        try:
            edit(unit)
        except RewriteError as error:
            raised.append(error)
    rw = Rewriter()
    register(rw, handler)
    # (Refused at the call: the handler caught it, the input passes through.)
    assert rewrite_in_chunks(data, rw, chunk) == data
    assert len(raised) == 1


@pytest.mark.parametrize("text", ["a\rb", "\x00"])
def test_comment_text_with_cr_or_nul_cannot_round_trip(text):
    raised = []

    def handler(comment):
        try:
            comment.text = text
        except ValueError as error:
            raised.append(error)
    out = rewrite_in_chunks("<p><!--c-->", Rewriter().on_document(comments=handler), None)
    assert out == "<p><!--c-->" and len(raised) == 1
