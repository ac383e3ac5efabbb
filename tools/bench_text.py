#!/usr/bin/env python3
"""Benchmark lexpy's text layer against the text extractors installed beside
it, in one run (the `eval` extra): ratios are what we quote.

  python tools/bench_text.py [FOLDER] [--rounds R] [--passes N] [--engines a,b]
                             [--scenarios s,t] [--json] [--threads-only] [--no-threads]

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

text, main and markdown run on tools/harness.py: each library and kind in a
process of its own (the trees parsed before the clock starts), the rounds
of all libraries interleaved so that a burst of load on a shared machine
hurts all alike, the best pass kept (markdownify and html2text, pure
Python: one pass); MB/s over the pages' bytes; "speed l/p" is the peer's
time over lexpy's (above 1: lexpy is faster). A library that is not
installed is reported as such.
"""
import argparse
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import harness  # noqa: E402


def lexpy_engine(kind):
    import lexpy
    if kind == "text":
        return harness.Case(prepare=lexpy.parse, run=lexpy.extract_text)
    if kind == "main":
        return harness.Case(prepare=lexpy.parse,
                            run=lambda d: lexpy.extract_text(d, main_content=True))
    return lambda t: lexpy.to_markdown(lexpy.parse(t))


def selectolax_engine(kind):
    from selectolax.lexbor import LexborHTMLParser
    if kind != "text":
        return None
    return harness.Case(prepare=LexborHTMLParser,
                        run=lambda t: t.body.text(separator="\n") if t.body else "")


def resiliparse_engine(kind):
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree
    if kind == "markdown":
        return None
    main = kind == "main"
    return harness.Case(prepare=HTMLTree.parse_from_bytes,
                        run=lambda t: extract_plain_text(t, main_content=main))


def markdownify_engine(kind):
    import markdownify
    return markdownify.markdownify if kind == "markdown" else None


def html2text_engine(kind):
    import html2text
    return html2text.html2text if kind == "markdown" else None


def inputs(folder, kind):
    """The pages as bytes; for markdown the same str for all (lexpy's
    to_html of each page, made here in the parent). MB/s over the pages'
    bytes."""
    pages = harness.load_pages(folder)
    if kind != "markdown":
        return harness.Inputs(pages)
    import lexpy
    return harness.Inputs([lexpy.parse(page).to_html() for page in pages],
                          sum(map(len, pages)))


BENCH = harness.Bench(
    "text", engines={"lexpy": lexpy_engine, "selectolax": selectolax_engine,
                     "resiliparse": resiliparse_engine, "markdownify": markdownify_engine,
                     "html2text": html2text_engine},
    scenarios={"text": "text: extraction from a parsed tree",
               "main": "main: main content from a parsed tree",
               "markdown": "markdown: HTML to Markdown from str (parse included)"},
    inputs=inputs, rounds=5, passes=1, slow={"markdownify", "html2text"})


def text_work(items):
    import lexpy
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
    if harness.worker_requested(argv):
        return harness.worker_main(BENCH, argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_arguments(parser, BENCH)
    parser.add_argument("--threads-only", action="store_true")
    parser.add_argument("--no-threads", action="store_true")
    args = parser.parse_args(argv)
    if not args.threads_only:
        harness.run_from_args(BENCH, args)
    if args.no_threads or args.json:
        return 0
    import lexpy
    from tests.conformance.data import corpus_dir
    folder = Path(args.folder) if args.folder else corpus_dir()
    docs = [lexpy.parse(page) for page in harness.load_pages(str(folder))]
    rounds = max(3, args.rounds or BENCH.rounds)
    # CPU seconds per wall-clock second of the two-thread run: near 2 when
    # both threads ran at once, near 1 (or below) when the machine had no
    # second core to give.
    print("\nthreads: lexpy extract_text + to_markdown, 2 threads vs 1: %.2fx "
          "(CPU time per wall-clock second: %.2f)" % bench_threads(docs, rounds))
    # The same measurement of the DOM's serializer (known to scale): when it
    # does not scale either, the machine had no second core to give.
    print("threads: lexpy to_html (control), 2 threads vs 1: %.2fx "
          "(CPU time per wall-clock second: %.2f)"
          % bench_threads(docs, rounds, serializer_work))
    return 0


if __name__ == "__main__":
    sys.exit(main())
