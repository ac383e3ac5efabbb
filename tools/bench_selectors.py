#!/usr/bin/env python3
"""Benchmark lexpy's selector engine against its peers, in one run.

Every corpus page is parsed beforehand by each engine's own parser (not
timed); then each selector runs from the document of every page:

  lexpy       doc.query_selector_all(selector)
  selectolax  LexborHTMLParser(page).css(selector)      (Lexbor's selectors)
  soupsieve   BeautifulSoup(page, "lxml").select(selector)
  cssselect   lxml.etree.XPath(HTMLTranslator().css_to_xpath(selector))(tree)
              on lxml.html.fromstring(page), the XPath compiled beforehand

Per selector: the best of --rounds rounds over the whole corpus (rounds of
all engines interleaved, so a burst of load hurts all alike), the number of
elements found (a check that the engines answer alike; they differ where
their parsers build different trees), and the ratio peer time / lexpy time
(above 1: lexpy is faster). Totals are over the selectors every engine
ran. Then compile time: compiling every selector once (lexpy
compile_selector, soupsieve.compile, cssselect's translation and XPath
compilation; selectolax has no separate compile step).

  python tools/bench_selectors.py [FOLDER] [--rounds R] [--engines a,b] [--json]
  python tools/bench_selectors.py --threads [FOLDER] [--rounds R] [--json]

--threads: lexpy alone, every selector over every page on one thread, then
on two threads at once, each querying documents of its own (the corpus
parsed once per thread); scaling = 2 x one thread's time / the two threads'
time (2.0: both ran all the time). A control row runs a GIL-free C loop
(hashlib over a large buffer) the same way, to show what the machine gave
to a second thread during this run.

Peers come from the `bench` extra; one that is not installed is reported.
"""
import argparse
import gc
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..")))

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


class Engine:
    """Parses the pages once; run(selector) queries every document."""
    name = ""

    def __init__(self, pages):
        self.docs = [self.parse(page) for page in pages]

    def compile_all(self, selectors):
        pass

    def prepare(self, selector):
        return selector

    def run(self, prepared):
        count = 0
        query = self.query
        for doc in self.docs:
            count += len(query(doc, prepared))
        return count


class Lexpy(Engine):
    name = "lexpy"

    def parse(self, page):
        import lexpy
        return lexpy.parse(page)

    def query(self, doc, selector):
        return doc.query_selector_all(selector)

    def compile_all(self, selectors):
        import lexpy
        for s in selectors:
            lexpy.compile_selector(s)


class Selectolax(Engine):
    name = "selectolax"

    def parse(self, page):
        from selectolax.lexbor import LexborHTMLParser
        return LexborHTMLParser(page)

    def query(self, doc, selector):
        return doc.css(selector)


class Soupsieve(Engine):
    name = "soupsieve"

    def parse(self, page):
        from bs4 import BeautifulSoup
        return BeautifulSoup(page, "lxml")

    def prepare(self, selector):
        import soupsieve
        return soupsieve.compile(selector)

    def query(self, doc, compiled):
        return compiled.select(doc)

    def compile_all(self, selectors):
        import soupsieve
        soupsieve.purge()
        for s in selectors:
            soupsieve.compile(s)


class Cssselect(Engine):
    name = "cssselect"

    def parse(self, page):
        import lxml.html
        return lxml.html.fromstring(page)

    def prepare(self, selector):
        from cssselect import HTMLTranslator
        from lxml import etree
        return etree.XPath(HTMLTranslator().css_to_xpath(selector))

    def query(self, doc, xpath):
        return xpath(doc)

    def compile_all(self, selectors):
        from cssselect import HTMLTranslator
        from lxml import etree
        for s in selectors:
            etree.XPath(HTMLTranslator().css_to_xpath(s))


CLASSES = {"lexpy": Lexpy, "selectolax": Selectolax, "soupsieve": Soupsieve,
           "cssselect": Cssselect}


def best_time(engine, prepared, rounds_done, times, counts, key):
    gc.disable()
    try:
        start = time.perf_counter()
        count = engine.run(prepared)
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    if key not in times or elapsed < times[key]:
        times[key] = elapsed
    counts[key] = count


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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--threads", action="store_true",
                        help="lexpy on 1 and 2 threads (scaling)")
    args = parser.parse_args(argv)
    pages = load_pages(args.folder)
    if args.threads:
        return bench_threads(args, pages)
    engines = []
    missing = []
    for name in args.engines.split(","):
        try:
            engines.append(CLASSES[name](pages))
        except ImportError as exc:
            missing.append("%s (%s)" % (name, exc))
    if not engines or engines[0].name != "lexpy":
        raise SystemExit("lexpy must come first")
    prepared = {}
    errors = {}
    for engine in engines:
        for s in SELECTORS:
            try:
                p = engine.prepare(s)
                engine.query(engine.docs[0], p)
                prepared[engine.name, s] = p
            except Exception as exc:  # noqa: BLE001 - a peer that cannot run it
                errors[engine.name, s] = "%s: %s" % (type(exc).__name__, str(exc)[:60])
    times, counts = {}, {}
    for _ in range(args.rounds):
        for s in SELECTORS:
            for engine in engines:
                if (engine.name, s) in prepared:
                    best_time(engine, prepared[engine.name, s], _, times, counts,
                              (engine.name, s))
    compile_times = {}
    for engine in engines:
        if engine.name == "selectolax":
            continue
        best = None
        for _ in range(args.rounds):
            start = time.perf_counter()
            engine.compile_all(SELECTORS)
            elapsed = time.perf_counter() - start
            best = elapsed if best is None or elapsed < best else best
        compile_times[engine.name] = best

    names = [e.name for e in engines]
    common = [s for s in SELECTORS if all((n, s) in times for n in names)]
    totals = {n: sum(times[n, s] for s in common) for n in names}
    result = {"pages": len(pages), "selectors": SELECTORS, "common": common,
              "times": {"%s|%s" % k: v for k, v in times.items()},
              "counts": {"%s|%s" % k: v for k, v in counts.items()},
              "errors": {"%s|%s" % k: v for k, v in errors.items()},
              "totals": totals, "compile": compile_times, "missing": missing}
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print("%d pages, %d selectors, best of %d rounds; ratio = peer time / lexpy time"
          % (len(pages), len(SELECTORS), args.rounds))
    header = "%-36s %9s" % ("selector", "lexpy ms")
    for n in names[1:]:
        header += " %12s" % (n + " x")
    print(header + "   found (lexpy / peers)")
    for s in SELECTORS:
        line = "%-36s %9.2f" % (s[:36], times["lexpy", s] * 1e3)
        found = [str(counts["lexpy", s])]
        for n in names[1:]:
            if (n, s) in times:
                line += " %12.2f" % (times[n, s] / times["lexpy", s])
                found.append(str(counts[n, s]))
            else:
                line += " %12s" % "error"
                found.append("-")
        print(line + "   " + " / ".join(found))
    line = "%-36s %9.2f" % ("TOTAL (selectors all engines ran)", totals["lexpy"] * 1e3)
    for n in names[1:]:
        line += " %12.2f" % (totals[n] / totals["lexpy"])
    print(line)
    print()
    print("compile every selector once: " + ", ".join(
        "%s %.3f ms" % (n, t * 1e3) for n, t in compile_times.items()))
    for (n, s), message in sorted(errors.items()):
        print("  %s cannot run %r: %s" % (n, s, message))
    for m in missing:
        print("  not installed: %s" % m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
