"""Limits: huge documents, deep nesting, huge tags and text nodes parse,
serialize and free in time linear in their size, without RecursionError or
a crash. Prints one line per step with its time and the peak RSS.

    python tools/limits.py            # the full sizes (about a minute, 2-3 GB)
    python tools/limits.py --scale 0.1

Full sizes: a 100 MB document, 1,000,000-deep nesting, a tag with 1,000,000
attributes, a 100 MB text node. tests/robustness/test_limits.py runs the
same shapes at sizes that take seconds.

The tree dump (lexpy.dump) indents each line by its depth, so its output for
a tree N deep has N*N characters: it is checked at a depth where that fits
in memory (DUMP_DEPTH), not at a million.
"""
import argparse
import gc
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import lexpy  # noqa: E402

DUMP_DEPTH = 5000


def deep(n: int) -> str:
    return "<div>" * n


def many_attributes(n: int) -> str:
    return "<p " + " ".join("a%d=%d" % (i, i) for i in range(n)) + ">x"


def text_node(size: int) -> str:
    return "<p>" + "text " * (size // 5)


def document(size: int) -> str:
    """A document of about `size` bytes: ordinary markup, repeated."""
    unit = ('<div class="row"><p id=x>Some <b>bold</b> and <a href="/x?a=1&amp;b=2">'
            'linked</a> text &copy; 2026.</p><table><tr><td>1<td>2</table>'
            '<ul><li>one<li>two</ul><!-- note --></div>\n')
    return "<!DOCTYPE html><title>big</title>" + unit * (size // len(unit))


def peak_rss_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def step(label: str, function):
    t0 = time.perf_counter()
    result = function()
    elapsed = time.perf_counter() - t0
    print("  %-44s %8.2f s   peak RSS %5d MB" % (label, elapsed, peak_rss_mb()), flush=True)
    return result


def run(scale: float = 1.0) -> None:
    depth = int(1_000_000 * scale)
    attributes = int(1_000_000 * scale)
    megabytes = int(100_000_000 * scale)

    markup = deep(depth)
    doc = step("parse %d-deep <div>" % depth, lambda: lexpy.parse(markup))
    html = step("to_html", lambda: doc.to_html())
    assert html.count("<div>") == depth
    step("text_content", lambda: doc.text_content)
    step("clone_node(deep=True)", lambda: doc.document_element.clone_node(True))
    step("parse it again (Parser, 64 KB chunks)", lambda: _chunked(html, 65536) and None)
    holder = [doc]
    del doc, html, markup
    step("free the document", holder.clear)
    gc.collect()
    shallow = lexpy.parse(deep(DUMP_DEPTH))
    step("dump %d-deep (output %d MB)" % (DUMP_DEPTH, DUMP_DEPTH * DUMP_DEPTH // 10**6),
         lambda: lexpy.dump(shallow))
    del shallow

    markup = many_attributes(attributes)
    doc = step("parse a tag with %d attributes (%d MB)" % (attributes, len(markup) // 10**6),
               lambda: lexpy.parse(markup))
    assert len(doc.body.first_child.attributes) == attributes
    step("to_html", lambda: doc.to_html())
    step("dump", lambda: lexpy.dump(doc))
    del doc, markup
    gc.collect()

    markup = text_node(megabytes)
    doc = step("parse a %d MB text node" % (len(markup) // 10**6), lambda: lexpy.parse(markup))
    step("to_html", lambda: doc.to_html())
    step("dump", lambda: lexpy.dump(doc))
    step("parse it as bytes in 1 MB chunks", lambda: _chunked(markup.encode(), 1 << 20))
    del doc, markup
    gc.collect()

    markup = document(megabytes).encode()
    doc = step("parse a %d MB document (bytes)" % (len(markup) // 10**6),
               lambda: lexpy.parse(markup))
    step("to_html", lambda: doc.to_html())
    step("dump", lambda: lexpy.dump(doc))
    step("parse it in 64 KB chunks", lambda: _chunked(markup, 65536))
    del doc, markup
    gc.collect()


def _chunked(data, size):
    parser = lexpy.Parser()
    for i in range(0, len(data), size):
        parser.feed(data[i:i + size])
    return parser.close()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scale", type=float, default=1.0, help="fraction of the full sizes")
    args = p.parse_args(argv)
    run(args.scale)
    return 0


if __name__ == "__main__":
    sys.exit(main())
