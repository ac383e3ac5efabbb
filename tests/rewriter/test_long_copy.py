"""The input copied as it is once output is in the output buffer (after an
edit): the flush (engine.pyx flush_kept) and copy_to append a span of any
length in C, as Rewriter._copy_to does, without going through it. The
output is the same in any chunking and reparses to the DOM edit."""
import lexpy
from lexpy.rewriter import Rewriter
from tests.rewriter.edit_checks import edit_with_source, expected_dump
from tests.rewriter.oracle import _normalized_dump

BODY = "".join("<p class=c%d>text %d &amp; more</p>\r\n<pre>\r\n%d</pre>" % (i, i, i)
               for i in range(900))
PAGES = [
    "<script>var a = 1;</script>" + BODY,
    "<title>t</title><style>p {}</style>" + BODY + "<script>x</script><div>end</div>",
    "<pre>\r" + "\n" + BODY,
]


class _Counting(Rewriter):
    """Counts the spans Rewriter._copy_to copies of 4 KiB or more."""
    long_spans = 0

    def _copy_to(self, position):
        if position - self._emitted >= 4096:
            _Counting.long_spans += 1
        super()._copy_to(position)


def _rewrite(data, name, chunk, cls=Rewriter):
    seen = [0]

    def handler(element):
        if element.local_name == name and seen[0] == 0:
            seen[0] += 1
            if name == "pre":
                element.set_attribute("data-x", "1")
            else:
                element.remove()
    rw = cls(scripting=False).on("*", element=handler)
    raw = data.encode("utf-8")
    out = b"".join(rw.feed(raw[i:i + chunk]) for i in range(0, len(raw), chunk))
    return (out + rw.close()).decode("utf-8")


def test_long_spans_after_an_edit_are_copied_in_c():
    for data, name in ((PAGES[0], "script"), (PAGES[1], "style"), (PAGES[2], "pre")):
        _Counting.long_spans = 0
        whole = _rewrite(data, name, len(data) + 1, _Counting)
        chunked = _rewrite(data, name, 16384, _Counting)
        assert _Counting.long_spans == 0
        assert whole == chunked
        for chunk in (5000, 4097, 777):
            assert _rewrite(data, name, chunk) == whole


def test_long_spans_after_an_edit_reparse_to_the_dom_edit():
    for data in PAGES[:2]:
        for chunk in (None, 16384, 4099):
            out = edit_with_source(data, "script" if data is PAGES[0] else "style",
                                   "remove", chunk)
            assert _normalized_dump(lexpy.parse(out, scripting=False)) == expected_dump(
                data, "script" if data is PAGES[0] else "style", "remove")
