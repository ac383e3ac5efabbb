#!/usr/bin/env python3
"""Benchmark lexpy's text layer against the text extractors installed beside
it, in one run (the `eval` extra): ratios are what we quote.

  python tools/bench_text.py [FOLDER] [--rounds R] [--threads-only]

Over the corpus (../shared/corpus/pages, or FOLDER):

  text      extraction from a parsed tree, each library's own: lexpy
            extract_text(doc), selectolax body.text(separator="\\n"),
            Resiliparse extract_plain_text(tree, main_content=False)
  main      the same with main content: lexpy extract_text(doc,
            main_content=True), Resiliparse extract_plain_text(tree,
            main_content=True)
  markdown  HTML to Markdown from the page's text (each given the same str,
            parse included): lexpy to_markdown(parse(html)), markdownify,
            html2text
  threads   lexpy extract_text + to_markdown over the parsed corpus on one
            thread, then on two (each thread its own documents)

Each measurement is the best of --rounds rounds, the rounds of all libraries
interleaved so that a burst of load on a shared machine hurts all alike.
"""
import argparse
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.conformance.data import corpus_dir  # noqa: E402

import lexpy  # noqa: E402


def load(folder):
    pages = [p.read_bytes() for p in sorted(folder.glob("*.htm*"))]
    texts = [lexpy.parse(page).to_html() for page in pages]   # the same str for all
    return pages, texts


def timed(function, items):
    start = time.perf_counter()
    for item in items:
        function(item)
    return time.perf_counter() - start


def contenders(pages, texts):
    """name -> (kind, function, items), the items prepared (parsed) outside
    the timing where the measurement is of extraction from a tree."""
    found = {}
    lexpy_docs = [lexpy.parse(page) for page in pages]
    found["lexpy extract_text"] = ("text", lexpy.extract_text, lexpy_docs)
    found["lexpy extract_text(main_content)"] = (
        "main", lambda d: lexpy.extract_text(d, main_content=True), lexpy_docs)
    found["lexpy to_markdown (parse included)"] = (
        "markdown", lambda t: lexpy.to_markdown(lexpy.parse(t)), texts)
    try:
        from selectolax.lexbor import LexborHTMLParser
        trees = [LexborHTMLParser(page) for page in pages]
        found["selectolax body.text"] = (
            "text", lambda t: t.body.text(separator="\n") if t.body else "", trees)
    except ImportError:
        print("selectolax: not installed", file=sys.stderr)
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.html import HTMLTree
        trees = [HTMLTree.parse_from_bytes(page) for page in pages]
        found["resiliparse extract_plain_text"] = (
            "text", lambda t: extract_plain_text(t, main_content=False), trees)
        found["resiliparse extract_plain_text(main_content)"] = (
            "main", lambda t: extract_plain_text(t, main_content=True), trees)
    except ImportError:
        print("resiliparse: not installed", file=sys.stderr)
    try:
        import markdownify
        found["markdownify"] = ("markdown", markdownify.markdownify, texts)
    except ImportError:
        print("markdownify: not installed", file=sys.stderr)
    try:
        import html2text
        found["html2text"] = ("markdown", html2text.html2text, texts)
    except ImportError:
        print("html2text: not installed", file=sys.stderr)
    return found, lexpy_docs


def text_work(items):
    for doc in items:
        lexpy.extract_text(doc)
        lexpy.to_markdown(doc)


def serializer_work(items):
    for doc in items:
        doc.to_html()


def bench_threads(docs, rounds, work=text_work):
    # Each thread gets its own documents: the corpus, twice over, split.
    items = docs * 2
    best_one = best_two = float("inf")
    cpu_per_wall = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        work(items)
        best_one = min(best_one, time.perf_counter() - start)
        halves = [items[0::2], items[1::2]]
        threads = [threading.Thread(target=work, args=(half,)) for half in halves]
        start = time.perf_counter()
        cpu = time.process_time()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - start
        if wall < best_two:
            best_two = wall
            cpu_per_wall = (time.process_time() - cpu) / wall
    return best_one / best_two, cpu_per_wall


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads-only", action="store_true")
    args = parser.parse_args(argv)
    folder = Path(args.folder) if args.folder else corpus_dir()
    pages, texts = load(folder)
    megabytes = sum(len(p) for p in pages) / 1e6
    found, docs = contenders(pages, texts)
    if not args.threads_only:
        best = {name: float("inf") for name in found}
        for _ in range(args.rounds):
            for name, (kind, function, items) in found.items():
                best[name] = min(best[name], timed(function, items))
        print("%d pages, %.1f MB; best of %d rounds" % (len(pages), megabytes, args.rounds))
        for kind in ("text", "main", "markdown"):
            lexpy_name = [n for n, v in found.items() if v[0] == kind and n.startswith("lexpy")][0]
            print("\n%s" % kind)
            for name, (k, _, _) in found.items():
                if k != kind:
                    continue
                ratio = best[name] / best[lexpy_name]
                print("  %-46s %8.1f MB/s   lexpy is %6.2fx" % (
                    name, megabytes / best[name], ratio))
    # CPU seconds per wall-clock second of the two-thread run: near 2 when
    # both threads ran at once, near 1 (or below) when the machine had no
    # second core to give.
    print("\nthreads: lexpy extract_text + to_markdown, 2 threads vs 1: %.2fx "
          "(CPU time per wall-clock second: %.2f)" % bench_threads(docs, max(3, args.rounds)))
    # The same measurement of the DOM's serializer (known to scale): when it
    # does not scale either, the machine had no second core to give.
    print("threads: lexpy to_html (control), 2 threads vs 1: %.2fx "
          "(CPU time per wall-clock second: %.2f)"
          % bench_threads(docs, max(3, args.rounds), serializer_work))
    return 0


if __name__ == "__main__":
    sys.exit(main())
