"""Bounded memory of the streaming rewriter (issue 39, point 6): one
document whose body repeats a 50 KB article-like fragment (links, images,
lists, tables, formatting, comments and character references, every
element closed) streamed through an `a[href]` handler that reads and sets
`href`, in 64 KiB chunks; prints the peak RSS as the input grows.

    python tools/rewrite_memory.py [TOTAL_MB [MARK_MB]]

The issue's figure: TOTAL 1000, MARK 100, peak RSS growing by < 10 MB
between the two (the default). tests/rewriter/test_memory.py runs the same
stream smaller. Peak RSS is the process's VmHWM (Linux)."""
import sys
import time
from typing import Callable, Optional, Tuple

from lexpy.rewriter import Rewriter, rewrite

CHUNK = 65536


def article() -> bytes:
    """A 50 KB article-like fragment: links, images, lists, tables,
    formatting, comments and character references, every element closed."""
    parts = ["<article><h2>Title &amp; more</h2>\n"]
    size = len(parts[0])
    i = 0
    while size < 50000:
        i += 1
        part = ('<p class="c%d">Some <b>bold</b> and <i>italic</i> text &eacute; &#233; '
                'with a <a href="https://example.com/page/%d?x=1&amp;y=2">link %d</a> and '
                '<img src="/img/%d.png" alt="pic"> image.</p>\n' % (i % 7, i, i, i))
        if i % 10 == 0:
            part += ("<ul>" + "".join("<li><a href='/l/%d'>item %d</a></li>" % (j, j)
                                      for j in range(5)) + "</ul>\n"
                     "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td>"
                     "<td><em>2</em></td></tr></table>\n<!-- comment %d -->\n" % i)
        parts.append(part)
        size += len(part)
    parts.append("</article>\n")
    return "".join(parts).encode()


def peak_rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM in /proc/self/status")


def stream(total_mb: float, mark_mb: float,
           report: Optional[Callable[[str], None]] = None) -> Tuple[float, float, int, int]:
    """Stream one document of about total_mb MB through the a[href]
    handler in 64 KiB chunks: (peak RSS at mark_mb, peak RSS at the end,
    links rewritten, subtrees freed)."""
    fragment = article()
    data = fragment * (CHUNK // len(fragment) + 2)
    links = [0]

    def handler(element):
        links[0] += 1
        element.set_attribute("href", element.get_attribute("href") + "#x")

    rw = Rewriter(sink=lambda out: None).on("a[href]", element=handler)
    rw.feed(b"<!DOCTYPE html><html><head><title>t</title></head><body>\n")
    fed = position = 0
    at_mark = None
    next_report = 50e6
    while fed < total_mb * 1e6:
        piece = data[position:position + CHUNK]
        position = (position + CHUNK) % len(fragment)
        rw.feed(piece)
        fed += len(piece)
        if at_mark is None and fed >= mark_mb * 1e6:
            at_mark = peak_rss_mb()
        if report is not None and fed >= next_report:
            report("%.0f MB: peak RSS %.1f MB" % (fed / 1e6, peak_rss_mb()))
            next_report += 50e6
    rw.feed(b"</body></html>")
    rw.close()
    assert at_mark is not None
    return at_mark, peak_rss_mb(), links[0], rw._freed_count()


def check_fragment() -> None:
    """The fragment rewrites as expected (each link's href gets #x)."""
    fragment = article()
    out = rewrite(fragment, Rewriter().on("a[href]", element=lambda e: e.set_attribute(
        "href", e.get_attribute("href") + "#x")))
    assert out.count(b"#x") == fragment.count(b"href=")


def main(argv) -> int:
    total = float(argv[1]) if len(argv) > 1 else 1000.0
    mark = float(argv[2]) if len(argv) > 2 else 100.0
    check_fragment()
    start = time.perf_counter()
    at_mark, at_end, links, freed = stream(total, mark, report=print)
    seconds = time.perf_counter() - start
    growth = at_end - at_mark
    print("peak RSS %.1f MB at %g MB of input, %.1f MB at %g MB: growth %.1f MB "
          "(required < 10 MB); %d links rewritten, %d subtrees freed; %.0f s, %.1f MB/s"
          % (at_mark, mark, at_end, total, growth, links, freed, seconds,
             total / seconds))
    return 0 if growth < 10 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
