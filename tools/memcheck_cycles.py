"""Parse and drop a corpus page many times and report the growth of the
resident set (no leaks: the bar is < 5 MB over 100,000 cycles).

    python tools/memcheck_cycles.py                      # 100,000 cycles
    python tools/memcheck_cycles.py --cycles 20000 --page example.com.html
    python tools/memcheck_cycles.py --touch              # also walk the tree,
                                                         # serialize and dump

Each cycle parses the page from bytes (--touch: and makes proxies for every
node, reads attributes and text, runs to_html(), dump() and a Parser.feed in
chunks) and drops everything. RSS is read from /proc/self/statm after a
warm-up (the allocator's pools and Python's caches fill up first) and then
every --every cycles; the report gives the growth after the warm-up and the
slope over the second half of the run (a leak keeps growing; a pool that
settled does not).
"""
import argparse
import gc
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import lexpy  # noqa: E402
from tests.conformance.data import corpus_dir  # noqa: E402

PAGES = str(corpus_dir())             # $LEXPY_CORPUS, then ../shared/corpus/pages
DEFAULT_PAGE = "blog.wordpress.com.diverse.html"   # 79 KB, about the median


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def touch(doc) -> None:
    """Use the tree as a program would: proxies, attributes, text, output."""
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, lexpy.dom.Element):
            dict(node.attributes)
            if node.content is not None:
                stack.append(node.content)
        elif isinstance(node, lexpy.dom.CharacterData):
            node.data
        stack.extend(node.child_nodes)
    doc.to_html()
    lexpy.dump(doc)


def cycle(data: bytes, touching: bool) -> None:
    doc = lexpy.parse(data, collect_errors=touching)
    if touching:
        touch(doc)
        parser = lexpy.Parser()
        for i in range(0, len(data), 4096):
            parser.feed(data[i:i + 4096])
        parser.close()
        fragment = lexpy.parse_fragment(data[:20000].decode("utf-8", "replace"), "td")
        fragment.to_html()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cycles", type=int, default=100_000)
    p.add_argument("--page", default=DEFAULT_PAGE,
                   help="a file name in ../shared/corpus/pages, or a path")
    p.add_argument("--warmup", type=int, default=1000)
    p.add_argument("--every", type=int, default=10_000)
    p.add_argument("--touch", action="store_true",
                   help="also walk, serialize and dump the tree, feed chunks, parse a fragment")
    p.add_argument("--limit-mb", type=float, default=5.0, help="the bar for the growth")
    args = p.parse_args(argv)

    path = args.page if os.path.exists(args.page) else os.path.join(PAGES, args.page)
    with open(path, "rb") as f:
        data = f.read()
    print("page %s, %d bytes, %d cycles%s" % (os.path.basename(path), len(data), args.cycles,
                                              ", touching the tree" if args.touch else ""))
    t0 = time.time()
    for _ in range(args.warmup):
        cycle(data, args.touch)
    gc.collect()
    start = rss_mb()
    samples = [(0, start)]
    print("  after %d warm-up cycles: RSS %.1f MB" % (args.warmup, start), flush=True)
    for i in range(1, args.cycles + 1):
        cycle(data, args.touch)
        if i % args.every == 0 or i == args.cycles:
            gc.collect()
            samples.append((i, rss_mb()))
            print("  %7d cycles: RSS %.1f MB (%+.2f MB)" % (i, samples[-1][1],
                                                          samples[-1][1] - start), flush=True)
    growth = samples[-1][1] - start
    half = [s for s in samples if s[0] >= args.cycles // 2]
    slope = (half[-1][1] - half[0][1]) / max(1, half[-1][0] - half[0][0]) * 100_000
    ok = growth < args.limit_mb
    print("growth %.2f MB over %d cycles (second half: %+.2f MB per 100,000 cycles), "
          "%.0f s: %s" % (growth, args.cycles, slope, time.time() - t0,
                          "OK" if ok else "OVER THE %.0f MB BAR" % args.limit_mb))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
