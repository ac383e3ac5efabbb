"""Dormant tokens (engine.pyx on_token_gated): when no element with a
static tag id can match any handler's selector, the tokens that cannot go
to the owner skip the owner's bookkeeping; an element with a dynamic id
(a custom element) is still matched, and its edits come out as they do
when every token takes the whole path. The whole path is forced here by
adding a selector on a static name that matches nothing (`p.never`)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError

PAGES = [
    "<!DOCTYPE html><title>t</title><p>a<x-a id=1>b</x-a>c",
    "<x-a id=1>before any tag</x-a><p>x",
    "<form><x-a id=1>f</x-a></form><form><x-a id=2>g</x-a>",
    "<table><x-a id=1>fostered</x-a><tr><td><x-a id=2>cell</x-a></table>",
    "<template><x-a id=1>t</x-a></template><x-a id=2>u</x-a>",
    "<b><i>x<p>y<x-a id=1>z</x-a></b>w</i>",
    "<svg><x-a id=1>s</x-a></svg><math><x-a id=2>m</x-a></math><x-a id=3>h</x-a>",
    "<select><option><x-a id=1>o</x-a></select><x-a id=2>after</x-a>",
    "<body><p>x</body><x-a id=1>after body</x-a></html><x-a id=2>after html</x-a>",
    "<ul><li>a<x-a id=1><li>b</x-a><li>c</ul>",
    "<p>a<x-a id=1>b<x-b id=2>c</x-b>d</x-a>e<plaintext><x-a id=3>",
    "<head><x-a id=1>in head</x-a><meta charset=utf-8></head><x-a id=2>",
]

EDITS = {
    "attribute": lambda e: e.set_attribute("data-e", "1"),
    "append": lambda e: e.append("[+]"),
    "before": lambda e: e.before("<i>b</i>", html=True),
    "after": lambda e: e.after("!"),
    "remove": lambda e: e.remove(),
    "keep": lambda e: e.remove_and_keep_content(),
    "rename": lambda e: setattr(e, "tag_name", "y-z"),
    "nothing": lambda e: None,
}


def run_edit(page, selector, edit, chunk, end=None):
    """The rewriter, its output (or ("refused", message)) and the ids its
    handler saw: `selector`'s handler makes `edit` on custom elements;
    `end`, a document end handler."""
    seen = []

    def handler(element):
        seen.append(element.get_attribute("id"))
        if element.local_name.startswith("x-"):
            EDITS[edit](element)

    rw = Rewriter().on(selector, element=handler)
    if end is not None:
        rw.on_document(end=end)
    data = page.encode("utf-8")
    try:
        out = b"".join(rw.feed(data[i:i + chunk]) for i in range(0, len(data), chunk))
        out += rw.close()
    except RewriteError as error:
        return rw, ("refused", str(error)), seen
    return rw, out.decode("utf-8"), seen


@pytest.mark.parametrize("edit", sorted(EDITS))
@pytest.mark.parametrize("page", PAGES)
def test_dormant_tokens_change_nothing(page, edit):
    expected_ids = [e.get_attribute("id")
                    for e in lexpy.parse(page).query_selector_all("x-a, x-b")]
    for chunk in (len(page.encode("utf-8")), 1, 5):
        dormant, output, seen = run_edit(page, "x-a, x-b", edit, chunk)
        whole, expected, whole_seen = run_edit(page, "x-a, x-b, p.never", edit, chunk)
        assert dormant._static_gate_closed() and not whole._static_gate_closed()
        assert output == expected, (page, edit, chunk)
        assert seen == whole_seen
        if edit == "nothing":
            assert output == page
            assert sorted(seen) == sorted(expected_ids)


@pytest.mark.parametrize("selector, closed", [
    ("nosuchelement", True), ("x-a", True), ("x-a.c > x-b", True), (":is(x-a, x-b)", True),
    ("p", False), ("*", False), (".c", False), ("x-a, p", False), ("body x-a, div", False),
    (":not(x-a)", False),
])
def test_the_gate_is_closed_only_when_no_static_tag_can_match(selector, closed):
    rw = Rewriter().on(selector, element=lambda e: None)
    rw.feed(b"<p>x")
    rw.close()
    assert rw._static_gate_closed() is closed


def test_handlers_that_see_every_token_keep_the_whole_path():
    for rw in (Rewriter().on("x-a", element=lambda e: None).on_document(text=lambda t: None),
               Rewriter().on("x-a", element=lambda e: None).on_document(comments=lambda c: None),
               Rewriter().on("x-a", element=lambda e: None, text=lambda t: None)
               .on_document(doctype=lambda d: None)):
        rw.feed(b"<!DOCTYPE html><p>x<!--c--><x-a>y</x-a>")
        rw.close()
        assert not rw._static_gate_closed()


def test_text_handlers_of_a_custom_element_see_its_text():
    chunks = []
    rw = Rewriter().on("x-a", text=lambda t: chunks.append(t.text))
    out = rw.feed(b"<p>a<x-a>b<b>c</b></x-a>d") + rw.close()
    assert rw._static_gate_closed()
    assert out == b"<p>a<x-a>b<b>c</b></x-a>d"
    assert "".join(chunks) == "bc"
