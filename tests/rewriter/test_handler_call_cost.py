"""The cost of a Python handler per element and per text chunk on the
engine's fast paths (issue 39 point 8), and what it must not change.

- With text, comment or doctype handlers, Rewriter._frameset_watch returns
  False before it reads anything else (no hold for a <frameset> then), and
  those handlers are fixed from the first feed on: _start_fast does not
  call it (RewriterCore.frameset_never). With a text handler on `p` it was
  a Python call for every <p> of the body (about 6,000 instructions each).
- on_token calls the owner without taking the GIL again when the thread
  that feeds the parse holds it (RewriterCore._owner_calls_held counts
  those calls; owner_call_held): with handlers, _accept feeds without
  releasing it. A feed that releases it (the end of input) takes it.
- quiet_level reads the length of a record's text and comment handler
  lists in C (has_items): the same levels as their truth value.
"""
import threading
import time

import pytest

import lexpy
from lexpy.rewriter import Rewriter, rewrite
from lexpy.rewriter.engine import ElementRecord
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

BODY_PAGES = [
    "<!DOCTYPE html><p>a</p><p>b<b>c</b></p><div><p>d</div><frameset><frame>",
    "<html><head></head><body><p>x<p>y<!-- z --><p>w</body></html>",
    "<p>one<table><tr><td><p>two</table><p>three",
    "<!DOCTYPE html><title>t</title><p>a&amp;b<pre>\nc</pre><p>d",
]


class Counting(Rewriter):
    """A Rewriter counting its _frameset_watch calls."""

    def __init__(self, **options):
        super().__init__(**options)
        self.watch_calls = 0

    def _frameset_watch(self, node):
        self.watch_calls += 1
        return super()._frameset_watch(node)


@pytest.mark.parametrize("page", BODY_PAGES)
@pytest.mark.parametrize("setup", [
    lambda rw: rw.on("p", text=lambda t: t.text),
    lambda rw: rw.on("p", comments=lambda c: c.text),
    lambda rw: rw.on("*", element=lambda e: None).on("p", text=lambda t: t.text),
    lambda rw: rw.on("*", element=lambda e: None).on("li, p", text=lambda t: t.text),
])
def test_no_watch_call_with_text_or_comment_handlers(page, setup):
    # (on_document's text, comment and doctype handlers send their tokens
    # through _handle_token, whose Python path (_pushed) still calls it.)
    rw = setup(Counting())
    assert rewrite(page, rw) == page
    assert rw.watch_calls == 0


@pytest.mark.parametrize("page", BODY_PAGES)
def test_element_handlers_alone_still_watch(page):
    # (Without them the hold for a <frameset> is still looked for: the
    # body's elements are handed to _frameset_watch until it settles.)
    rw = Counting().on("p", element=lambda e: None)
    assert rewrite(page, rw) == page
    assert rw.watch_calls >= 1


ELEMENTS_PAGE = ("<!DOCTYPE html><html><head><title>t</title></head><body>"
                 + "<div class=a><p>x<a href=/y>y</a></p><ul><li>1<li>2</ul></div>" * 20
                 + "</body></html>")


def test_owner_called_without_taking_the_gil():
    names = []
    rw = Rewriter().on("*", element=lambda e: names.append(e.local_name))
    assert rewrite(ELEMENTS_PAGE, rw) == ELEMENTS_PAGE
    # (Every start tag with a handler came to the owner inside feed; only
    # the end of input, in close(), takes the GIL.)
    assert rw._owner_calls_held() >= len(names) - 3 > 100


def test_owner_calls_from_bytes_in_chunks():
    rw = Rewriter().on("a[href]", element=lambda e: e.set_attribute("href", "/z"))
    out = rewrite_in_chunks(ELEMENTS_PAGE, rw, 7)
    assert out == ELEMENTS_PAGE.replace("href=/y", 'href="/z"')
    assert rw._owner_calls_held() >= 20


def test_no_owner_call_without_handlers():
    rw = Rewriter()
    assert rewrite(ELEMENTS_PAGE, rw) == ELEMENTS_PAGE
    assert rw._owner_calls_held() == 0


def _threaded_rewrite(page):
    """A rewrite whose handlers let other threads run (time.sleep(0)
    releases the GIL inside the parse)."""
    def element(e):
        time.sleep(0)
        if e.local_name == "a":
            e.set_attribute("href", e.get_attribute("href") + "?t")

    def text(t):
        time.sleep(0)
        t.text

    rw = Rewriter().on("*", element=element).on("li", text=text)
    return rewrite_in_chunks(page, rw, 64)


def test_threads_each_with_a_rewriter():
    # (The thread state is compared, not a flag: a handler that releases
    # the GIL lets another thread's rewriter run, and each calls its owner
    # with the GIL held by its own thread.)
    expected = _threaded_rewrite(ELEMENTS_PAGE)
    assert expected.count("/y?t") == 20
    results = [None] * 4
    errors = []

    def run(i):
        try:
            results[i] = [_threaded_rewrite(ELEMENTS_PAGE) for _ in range(3)]
        except BaseException as error:      # pragma: no cover (reported below)
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(out == expected for outs in results for out in outs)


def test_handler_error_inside_the_parse():
    def boom(e):
        if e.local_name == "li":
            raise KeyError("li")
    rw = Rewriter().on("*", element=boom)
    with pytest.raises(KeyError):
        rw.feed(ELEMENTS_PAGE.encode())
    with pytest.raises(ValueError):
        rw.feed(b"<p>")


@pytest.mark.parametrize("handlers", [None, [], (), [print], (print,)])
def test_quiet_level_of_text_and_comment_handlers(handlers):
    for field in ("text_handlers", "comment_handlers"):
        r = ElementRecord(lexpy.parse("<p>").body.first_child, False, False, (0, 3))
        setattr(r, field, handlers)
        assert r._quiet_level() == (0 if handlers else 2), (field, handlers)   # LOUD, QUIET


@pytest.mark.parametrize("name", ["href", "HREF", "Href", "data-x", "DATA-X", "data-X", "x1",
                                  "xlink:href", "viewbox", "viewBox", "", "1a", "a_b"])
def test_get_attribute_names(name):
    # (A plain name (lower-case ASCII letters, digits, '-', a letter
    # first) is looked up as it is; any other lowered first, as before.)
    page = ('<a href=/h data-x=d a_b=u 1a=n x1=o>l</a>'
            '<svg viewBox="0 0 1 1"><a xlink:href=/s>s</a></svg>')
    seen = []

    def handler(e):
        seen.append((e.get_attribute(name), e.has_attribute(name)))
        pairs = dict(e.attributes)
        assert e.get_attribute(name) == pairs.get(name.lower())

    rewrite(page, Rewriter().on("a, svg", element=handler))
    assert len(seen) == 3


def test_get_attribute_after_set_attribute():
    def handler(e):
        assert e.get_attribute("href") == "/h"
        e.set_attribute("href", "/z")
        assert e.get_attribute("href") == e.get_attribute("HREF") == "/z"
        e.set_attribute("title", "t")
        assert e.get_attribute("title") == "t"
    out = rewrite("<a href=/h>l</a>", Rewriter().on("a", element=handler))
    assert lexpy.parse(out).body.first_child.get_attribute("href") == "/z"


def test_get_attribute_of_other_types():
    def handler(e):
        with pytest.raises(AttributeError):
            e.get_attribute(3)
    rewrite("<a href=/h>l</a>", Rewriter().on("a", element=handler))


TEXT_PAGE = ("<p>a<b>b</b>c</p><div>d<p>e<span>f</span></p>g</div><p>h<!-- i --><li>j"
             "<table><tr><td><p>k</table>")


def dom_text(page, names):
    """The DOM's text inside elements of these names (None: all of it), in
    document order."""
    out = []

    def walk(node, inside):
        for child in node.child_nodes:
            if child.node_type == 3 and inside:
                out.append(child.data)
            elif child.node_type == 1:
                walk(child, inside or child.local_name in names)
    walk(lexpy.parse(page), names is None)
    return "".join(out)


@pytest.mark.parametrize("setup", [
    lambda rw, seen: rw.on("p", text=lambda t: seen.append(("p", t.text))),
    lambda rw, seen: rw.on("p", text=lambda t: seen.append(("p", t.text))).on(
        "div", text=lambda t: seen.append(("div", t.text))),
    lambda rw, seen: rw.on("p", text=lambda t: seen.append(("p", t.text))).on_document(
        text=lambda t: seen.append(("doc", t.text))),
    lambda rw, seen: rw.on("p", text=lambda t: seen.append(("p", t.text))).on(
        "p", text=lambda t: seen.append(("p2", t.text))),
    lambda rw, seen: rw.on("p", text=lambda t: seen.append(("p", t.text)),
                           element=lambda e: e.set_attribute("x", "y")),
])
@pytest.mark.parametrize("chunk", [None, 1, 5])
def test_text_handlers(setup, chunk):
    # (Each chunk to the handlers of the elements open around it, in the
    # order they were registered; on_document's too: the DOM's text.)
    seen = []
    rewrite_in_chunks(TEXT_PAGE, setup(Rewriter(), seen), chunk)
    texts = {}
    for kind, text in seen:
        texts[kind] = texts.get(kind, "") + text
    assert texts["p"] == dom_text(TEXT_PAGE, ("p",))
    if "div" in texts:
        assert texts["div"] == dom_text(TEXT_PAGE, ("div",))
    if "doc" in texts:
        assert texts["doc"] == dom_text(TEXT_PAGE, None)
    if "p2" in texts:
        assert texts["p2"] == texts["p"]
        assert [kind for kind, _ in seen][:2] == ["p", "p2"]
