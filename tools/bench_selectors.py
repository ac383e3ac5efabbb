#!/usr/bin/env python3
"""Benchmark lexpy's selector engine against its peers, in one run.

On tools/harness.py: each engine runs in a process of its own, in which
every corpus page is parsed beforehand by the engine's own parser (not
timed); then each selector runs from the document of every page:

  lexpy       doc.query_selector_all(selector)
  selectolax  LexborHTMLParser(page).css(selector)      (Lexbor's selectors)
  soupsieve   BeautifulSoup(page, "lxml").select(selector)
  cssselect   lxml.etree.XPath(HTMLTranslator().css_to_xpath(selector))(tree)
              on lxml.html.fromstring(page), the XPath compiled beforehand

Per selector (the harness's parts): the best of --rounds rounds over the
whole corpus (rounds of all engines interleaved, so a burst of load hurts
all alike; the collector off while the clock runs), the number of elements
found (a check that the engines answer alike; they differ where their
parsers build different trees), and the ratio peer time / lexpy time (above
1: lexpy is faster). The scenario's ratio ("speed l/p") is over the
selectors both engines ran. Then compile time: compiling each selector
(lexpy compile_selector, soupsieve.compile with its cache purged,
cssselect's translation and XPath compilation; selectolax has no separate
compile step).

  python tools/bench_selectors.py [FOLDER] [--rounds R] [--engines a,b]
                                  [--scenarios queries,compile] [--json]
  python tools/bench_selectors.py --threads [FOLDER] [--rounds R] [--json]

--threads: lexpy alone, every selector over every page on one thread, then
on two threads at once, each querying documents of its own (the corpus
parsed once per thread); scaling = 2 x one thread's time / the two threads'
time (2.0: both ran all the time). A control row runs a GIL-free C loop
(hashlib over a large buffer) the same way, to show what the machine gave
to a second thread during this run.

Peers come from the `bench` extra; one that is not installed is reported.
(Since the harness, --json prints the harness's document: results per
engine and scenario, each selector's figures under "parts".)
"""
import argparse
import gc
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..")))
sys.path.insert(0, HERE)

import harness  # noqa: E402

SELECTORS = [
    "a[href]",
    "img[src]",
    'meta[property="og:title"]',
    "link[rel~=canonical]",
    "div.content p",
    "article h2 > a",
    "ul > li:nth-child(2n+1)",
    "table tr td:first-child",
    ":is(h1, h2, h3)",
    "div:has(> img)",
    'a:not([href^="http"])',
    "[data-id]",
    "p:empty",
    "input[type=checkbox]:checked",
    'script[type="application/ld+json"]',
    "*",
    "div p a",
    "#main, #content",
    "li a",
    "p + p",
    "h2 ~ p",
    "[class*=nav]",
    "span:nth-of-type(2)",
    "div > div > div",
    "nav ul li a[href]",
    "body > *",
]

ENGINES = ["lexpy", "selectolax", "soupsieve", "cssselect"]


def load_pages(folder):
    if folder is None:
        from tests.conformance.data import corpus_dir
        folder = corpus_dir()
    pages = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                pages.append(f.read())
    if not pages:
        raise SystemExit("no pages in %s" % folder)
    return pages


def _raises(exc):
    def run(doc):
        raise exc
    return run


def query_parts(compile_one, query):
    """{selector: run(doc)} with each selector compiled beforehand; one an
    engine cannot compile raises (the harness reports it)."""
    parts = {}
    for s in SELECTORS:
        try:
            compiled = compile_one(s)
        except Exception as exc:  # noqa: BLE001 - a peer that cannot run it
            parts[s] = _raises(exc)
        else:
            parts[s] = (lambda c: lambda doc: query(doc, c))(compiled)
    return parts


def lexpy_engine(scenario):
    import lexpy
    if scenario == "compile":
        return lexpy.compile_selector
    return harness.Case(prepare=lexpy.parse, count=len, parts=query_parts(
        lambda s: s, lambda doc, s: doc.query_selector_all(s)))


def selectolax_engine(scenario):
    from selectolax.lexbor import LexborHTMLParser
    if scenario == "compile":
        return None                      # no separate compile step
    return harness.Case(prepare=LexborHTMLParser, count=len, parts=query_parts(
        lambda s: s, lambda doc, s: doc.css(s)))


def soupsieve_engine(scenario):
    import soupsieve
    from bs4 import BeautifulSoup
    if scenario == "compile":
        def compile_cold(s):
            soupsieve.purge()
            return soupsieve.compile(s)
        return compile_cold
    return harness.Case(prepare=lambda page: BeautifulSoup(page, "lxml"), count=len,
                        parts=query_parts(soupsieve.compile, lambda doc, c: c.select(doc)))


def cssselect_engine(scenario):
    import lxml.html
    from cssselect import HTMLTranslator
    from lxml import etree

    def compile_one(s):
        return etree.XPath(HTMLTranslator().css_to_xpath(s))
    if scenario == "compile":
        return compile_one
    return harness.Case(prepare=lxml.html.fromstring, count=len,
                        parts=query_parts(compile_one, lambda doc, xpath: xpath(doc)))


def inputs(folder, scenario):
    if scenario == "compile":
        return harness.Inputs(SELECTORS, 0)
    return harness.Inputs(load_pages(folder))


BENCH = harness.Bench(
    "selectors", engines={"lexpy": lexpy_engine, "selectolax": selectolax_engine,
                          "soupsieve": soupsieve_engine, "cssselect": cssselect_engine},
    scenarios={"queries": "every selector from every page's document",
               "compile": "compiling each selector"},
    inputs=inputs, rounds=5, passes=1, disable_gc=True)


def run_on_threads(work_items, threads):
    """Run work_items[i]() on thread i, for i < threads, all at once:
    (wall seconds, CPU seconds of the process)."""
    import threading
    ready = threading.Barrier(threads + 1)

    def body(work):
        ready.wait()
        work()
    pool = [threading.Thread(target=body, args=(work_items[i],)) for i in range(threads)]
    for t in pool:
        t.start()
    ready.wait()
    cpu0, t0 = time.process_time(), time.perf_counter()
    for t in pool:
        t.join()
    return time.perf_counter() - t0, time.process_time() - cpu0


def scaling(work_items, rounds):
    """Best wall time on 1 and 2 threads (interleaved rounds): a dict."""
    best = {}
    for _ in range(rounds):
        for threads in (1, 2):
            gc.disable()
            try:
                wall, cpu = run_on_threads(work_items, threads)
            finally:
                gc.enable()
            if threads not in best or wall < best[threads][0]:
                best[threads] = (wall, cpu)
    return {"wall_1": best[1][0], "wall_2": best[2][0],
            "cpu_per_wall_1": best[1][1] / best[1][0],
            "cpu_per_wall_2": best[2][1] / best[2][0],
            "scaling": 2 * best[1][0] / best[2][0]}


def bench_threads(args, pages):
    import hashlib
    import lexpy
    selectors = [lexpy.compile_selector(s) for s in SELECTORS]
    doc_sets = [[lexpy.parse(page) for page in pages] for _ in range(2)]

    def query_all(docs):
        def work():
            for selector in selectors:
                for doc in docs:
                    doc.query_selector_all(selector.text)
        return work
    buffer = b"x" * (8 << 20)

    def control():
        for _ in range(8):
            hashlib.sha256(buffer).digest()
    query_all(doc_sets[0])()                 # warm the selector cache
    result = {"pages": len(pages), "selectors": len(SELECTORS), "rounds": args.rounds,
              "query_selector_all": scaling([query_all(d) for d in doc_sets], args.rounds),
              "control": scaling([control, control], args.rounds)}
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print("%d pages x %d selectors, query_selector_all on 1 and 2 threads (each thread "
          "its own documents), best of %d rounds" % (len(pages), len(SELECTORS), args.rounds))
    print("  %-36s %10s %10s %8s %14s" % ("work", "1 thread", "2 threads", "scaling",
                                          "cpu/wall 1, 2"))
    for key, title in (("query_selector_all", "lexpy query_selector_all"),
                       ("control", "control: hashlib.sha256 (no GIL)")):
        r = result[key]
        print("  %-36s %8.1fms %8.1fms %7.2fx %7.2f %6.2f" % (
            title, r["wall_1"] * 1e3, r["wall_2"] * 1e3, r["scaling"],
            r["cpu_per_wall_1"], r["cpu_per_wall_2"]))
    return 0


def main(argv=None):
    if harness.worker_requested(argv):
        return harness.worker_main(BENCH, argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_arguments(parser, BENCH)
    parser.add_argument("--threads", action="store_true",
                        help="lexpy on 1 and 2 threads (scaling)")
    args = parser.parse_args(argv)
    if args.threads:
        args.rounds = BENCH.rounds if args.rounds is None else args.rounds
        return bench_threads(args, load_pages(args.folder))
    return harness.run_from_args(BENCH, args)


if __name__ == "__main__":
    sys.exit(main())
