"""The newline right after the start tag of pre, listing and textarea
(issue 39): the parser ignores a newline that comes first in the token
after such a start tag (a LF, a CR LF, a lone CR, or a character
reference to LF: it is a LF character token too). Output that differs from
the input there (content written, or input left out) gets a newline first,
which the parser ignores, and the input's own ignored newline is left
out (Rewriter._newline_first); a text chunk's text is the DOM's, without
the ignored newline. Each case is judged against the DOM edit on
lexpy.parse(input), whole and in chunks of 1 and 7 bytes."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter
from tests.rewriter.oracle import _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

CHUNKS = [None, 1, 7]


def _first(selector, dom):
    return dom.query_selector_all(selector)[0]


def _holder_text(selector, edit):
    """A DOM edit of the first Text child of the first `selector`."""
    def dom_edit(dom):
        node = _first(selector, dom).first_child
        node.data = edit(node.data)
    return dom_edit


def _text_handler(edit):
    return lambda rw: rw.on_document(text=lambda t: edit(t) if t.text else None)


def _element_handler(selector, edit):
    return lambda rw: rw.on(selector, element=edit)


def _remove(selector):
    return lambda dom: _first(selector, dom).remove()


def _unwrap(selector):
    def dom_edit(dom):
        element = _first(selector, dom)
        for child in list(element.child_nodes):
            element.parent_node.insert_before(child, element)
        element.remove()
    return dom_edit


def _append(selector, text):
    return lambda dom: _first(selector, dom).append(text)


CASES = [
    # (input, rewriter setup, DOM edit)
    ("<textarea>\nfoo</textarea>", _text_handler(lambda t: t.before("Q")),
     _holder_text("textarea", lambda d: "Q" + d)),
    ("<textarea>&#10;foo</textarea>", _text_handler(lambda t: t.before("Q")),
     _holder_text("textarea", lambda d: "Q" + d)),
    ("<pre>&#x0A;foo</pre>", _text_handler(lambda t: t.before("Q")),
     _holder_text("pre", lambda d: "Q" + d)),
    ("<pre>&#10foo</pre>", _text_handler(lambda t: t.before("Q")),
     _holder_text("pre", lambda d: "Q" + d)),
    ("<pre>\r\nfoo", _text_handler(lambda t: t.before("Q")),
     _holder_text("pre", lambda d: "Q" + d)),
    ("<listing>\rfoo", _text_handler(lambda t: t.before("Q")),
     _holder_text("listing", lambda d: "Q" + d)),
    ("<pre>\nfoo", _text_handler(lambda t: t.replace("\nbar")),
     _holder_text("pre", lambda d: "\nbar")),
    ("<pre>x", _text_handler(lambda t: t.before("\n")),
     _holder_text("pre", lambda d: "\n" + d)),
    ("<textarea>x</textarea>", _text_handler(lambda t: t.before("\nQ")),
     _holder_text("textarea", lambda d: "\nQ" + d)),
    ("<pre><b></b>\nx", _element_handler("b", lambda e: e.remove()), _remove("b")),
    ("<pre><b>\ny</b>", _element_handler("b", lambda e: e.remove_and_keep_content()),
     _unwrap("b")),
    ("<pre><b></b>\nx", _element_handler("b", lambda e: e.before("\n")),
     lambda dom: _first("b", dom).before("\n")),
    ("<pre></pre>", _element_handler("pre", lambda e: e.append("\nx")), _append("pre", "\nx")),
    ("<pre></pre>", _element_handler("pre", lambda e: e.on_end_tag(lambda end: end.before("\nx"))),
     _append("pre", "\nx")),
    ("<pre><pre>\nx</pre>\ny</pre>", _element_handler("pre pre", lambda e: e.before("\nz")),
     lambda dom: dom.query_selector_all("pre pre")[0].before("\nz")),
    ("<listing><!--c-->\nx", lambda rw: rw.on_document(comments=lambda c: c.remove()),
     lambda dom: _first("listing", dom).first_child.remove()),
    ("<pre><!--c-->\nx", lambda rw: rw.on_document(comments=lambda c: c.replace("\n")),
     lambda dom: _first("pre", dom).first_child.replace_with("\n")),
    ("<pre>", lambda rw: rw.on_document(end=lambda end: end.append("\nx")),
     _append("pre", "\nx")),
    # near cases: the input's own newline, edits after it, edits elsewhere
    ("<pre>\nfoo", _text_handler(lambda t: t.after("Q")),
     _holder_text("pre", lambda d: d + "Q")),
    ("<pre>\nfoo<b></b>", _element_handler("b", lambda e: e.remove()), _remove("b")),
    ("<pre>\nfoo", _element_handler("pre", lambda e: e.prepend("\n")),
     lambda dom: _first("pre", dom).prepend("\n")),
    ("<pre>\nfoo", _element_handler("pre", lambda e: e.prepend("Q")),
     lambda dom: _first("pre", dom).prepend("Q")),
    ("<div>\nfoo", _text_handler(lambda t: t.before("Q")),
     _holder_text("div", lambda d: "Q" + d)),
    ("<pre><b>y</b>\nx", _element_handler("b", lambda e: e.after("\n")),
     lambda dom: _first("b", dom).after("\n")),
]


def assert_reparses_to_the_dom_edit(data, setup, dom_edit, chunk):
    """The rewrite of `data` with the handlers `setup` registers, fed in
    chunks of `chunk` bytes (None: whole), reparses to lexpy.parse(data)
    edited by `dom_edit`."""
    rw = Rewriter()
    setup(rw)
    output = rewrite_in_chunks(data, rw, chunk)
    expected = lexpy.parse(data)
    dom_edit(expected)
    assert _normalized_dump(lexpy.parse(output)) == _normalized_dump(expected), output


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("index", range(len(CASES)))
def test_edits_next_to_the_ignored_newline_reparse_to_the_dom_edit(index, chunk):
    assert_reparses_to_the_dom_edit(*CASES[index], chunk)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("data", ["<pre>\nfoo</pre>", "<textarea>&#10;foo</textarea>",
                                  "<listing>\r\nfoo", "<pre>&#10;&#10;foo"])
def test_text_chunks_are_the_dom_text(data, chunk):
    texts = []
    rewrite_in_chunks(data, Rewriter().on_document(text=lambda t: texts.append(t.text)), chunk)
    element = lexpy.parse(data).body.first_child
    assert "".join(texts) == element.text_content


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("data", ["<pre>\nfoo</pre>", "<textarea>&#10;foo</textarea>",
                                  "<listing>\r\n<b>x</b>", "<pre><!--c-->\nx"])
def test_untouched_input_passes_through(data, chunk):
    rw = Rewriter().on("*", element=lambda e: None).on_document(
        text=lambda t: None, comments=lambda c: None)
    assert rewrite_in_chunks(data, rw, chunk) == data
