#!/usr/bin/env python3
"""The scraping benchmark of issue 36: parse + extract the records of a page
from bytes, lexpy against the libraries scrapers use, on tools/harness.py.

Workloads (pages from tools/gen_listings.py, seeded, with ground truth):

  w1   book listings, about 50 KB, 20 records each (title, price, rating,
       availability, absolute detail URL); every other page mis-nested in
       the ways HTML parsing resolves (gen_listings.py lists them)
  w2   search results, 300-600 KB, 27 records each (asin, title, price,
       rating, URL) among sponsored cards, an SVG sprite, hundreds of nav
       links and a 100 KB JSON state script
  w3   structured data (json-ld, microdata, opengraph) of every page of
       ../shared/scrape/structured-data/extruct: lexpy.structured_data
       against extruct.extract (the reference: lexpy's output must equal it)
  threads  lexpy only: the w1 pages by one thread, then by two

Every engine first reproduces the ground truth: a worker times only the
pages it gets right (its misses are counted and, by --check, shown). Each
engine x workload runs in a process of its own (the harness); two parts
per page: "total" (parse + extract from bytes) and "parse" (the parse
alone); extract = total - parse. Figures: pages/s and records/s over the
pages an engine got right, the split, peak RSS, and lexpy's speed over
each peer's (pages/s over pages/s; above 1: lexpy faster).

lexpy's side: lexpy.parse(bytes) and a compile_extractor() made once. The
peers' own compiled queries where they have them (lxml's CSSSelector);
URLs are resolved with urljoin and text is stripped the same way for all
(gen_listings.normalise).

  python tools/bench_scrape.py [--w1 N] [--w2 N] [--seed S] [--engines a,b]
                               [--scenarios w1,w2,w3,threads] [--passes N]
                               [--rounds R] [--clock wall|cpu] [--check] [--json]

Peers come from the `bench` extra; one that is not installed is reported.
"""
import argparse
import json
import os
import pickle
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import gen_listings  # noqa: E402
import harness  # noqa: E402

# Field selectors as parsel writes them: (item selector, {field: selector}).
# A field selector of "::attr(x)" alone reads the item's own attribute.
QUERIES = {
    "w1": ("article.product_pod",
           {"title": "h3 a::attr(title)", "price": "p.price_color::text",
            "rating": "p.star-rating::attr(class)", "availability": "p.availability::text",
            "url": "h3 a::attr(href)"}),
    "w2": ('div[data-component-type="s-search-result"]',
           {"asin": "::attr(data-asin)", "title": "h2 a span::text",
            "price": "span.a-price > span.a-offscreen::text",
            "rating": "span.a-icon-alt::text", "url": "h2 a::attr(href)"}),
}
BASES = {"w1": gen_listings.W1_BASE, "w2": gen_listings.W2_BASE}
RECORDS_PER_PAGE = {"w1": 20, "w2": 27}
W3_SYNTAXES = ["microdata", "json-ld", "opengraph"]
PEERS_W12 = ("scah", "fast-scrape", "selectolax", "parsel", "bs4-lxml", "lxml", "turbohtml",
             "markupever")
SLOW = ("bs4-lxml",)


def split_field(selector):
    """'h3 a::attr(title)' -> ('h3 a', 'attr', 'title'); 'p::text' -> ('p',
    'text', None); '::attr(x)' -> ('', 'attr', 'x')."""
    if selector.endswith("::text"):
        return selector[:-len("::text")].strip(), "text", None
    css, _, rest = selector.partition("::attr(")
    return css.strip(), "attr", rest[:-1]


def normalised(workload, raw_records):
    base = BASES[workload]
    return [{f: gen_listings.normalise(f, r.get(f), base) for f in QUERIES[workload][1]}
            for r in raw_records]


# ---------------------------------------------------------------------------
# Engines: for a workload, (parse(bytes) -> tree, extract(tree) -> raw records)
# ---------------------------------------------------------------------------

def dom_extractor(select, first, text, attr, workload):
    """extract(tree) for a DOM peer from its select(node, css) -> nodes,
    first(node, css) -> node or None, text(node), attr(node, name)."""
    item_css, fields = QUERIES[workload]
    plan = [(name,) + split_field(sel) for name, sel in fields.items()]

    def extract(tree):
        records = []
        for item in select(tree, item_css):
            record = {}
            for name, css, kind, attribute in plan:
                node = first(item, css) if css else item
                if node is None:
                    record[name] = None
                elif kind == "text":
                    record[name] = text(node)
                else:
                    record[name] = attr(node, attribute)
            records.append(record)
        return records
    return extract


def lexpy_pair(workload):
    import lexpy
    item_css, fields = QUERIES[workload]
    extractor = lexpy.compile_extractor(item_css, fields)
    return lexpy.parse, extractor


def selectolax_pair(workload):
    from selectolax.lexbor import LexborHTMLParser
    return LexborHTMLParser, dom_extractor(
        lambda n, css: n.css(css), lambda n, css: n.css_first(css),
        lambda n: n.text(deep=True), lambda n, a: n.attributes.get(a), workload)


def lxml_pair(workload):
    import lxml.html
    from lxml.cssselect import CSSSelector
    compiled = {}

    def sel(css):
        if css not in compiled:
            compiled[css] = CSSSelector(css, translator="html")
        return compiled[css]
    item_css, fields = QUERIES[workload]
    for css in [item_css] + [split_field(s)[0] for s in fields.values()]:
        if css:
            sel(css)

    def first(node, css):
        found = compiled[css](node)
        return found[0] if found else None
    return lxml.html.document_fromstring, dom_extractor(
        lambda n, css: compiled[css](n), first, lambda n: n.text_content(),
        lambda n, a: n.get(a), workload)


def bs4_pair(workload):
    from bs4 import BeautifulSoup

    return (lambda page: BeautifulSoup(page, "lxml")), dom_extractor(
        lambda n, css: n.select(css), lambda n, css: n.select_one(css),
        lambda n: n.get_text(), lambda n, a: joined(n.get(a)), workload)


def parsel_pair(workload):
    import parsel
    item_css, fields = QUERIES[workload]

    def extract(selector):
        records = []
        for item in selector.css(item_css):
            record = {}
            for name, sel in fields.items():
                if sel.startswith("::attr("):
                    record[name] = item.attrib.get(sel[len("::attr("):-1])
                else:
                    record[name] = item.css(sel).get()
            records.append(record)
        return records
    return (lambda page: parsel.Selector(body=page, encoding="utf-8")), extract


def turbohtml_pair(workload):
    import turbohtml
    return turbohtml.parse, dom_extractor(
        lambda n, css: n.select(css), lambda n, css: n.select_one(css),
        lambda n: n.text, lambda n, a: joined(n.attrs.get(a)), workload)


def joined(value):
    """class as a list (bs4, turbohtml) -> as written."""
    return " ".join(value) if isinstance(value, list) else value


def markupever_pair(workload):
    import markupever
    return (lambda page: markupever.parse(page, markupever.HtmlOptions())), dom_extractor(
        lambda n, css: list(n.select(css)), lambda n, css: n.select_one(css),
        lambda n: n.text(), lambda n, a: n.attrs.get(a), workload)


def fast_scrape_pair(workload):
    from scrape_rs import Soup, compile_selector
    item_css, fields = QUERIES[workload]
    compiled = {css: compile_selector(css)
                for css in [item_css] + [split_field(s)[0] for s in fields.values()] if css}
    return (lambda page: Soup(page.decode("utf-8"))), dom_extractor(
        lambda n, css: n.select_compiled(compiled[css]),
        lambda n, css: n.find_compiled(compiled[css]),
        lambda n: n.text, lambda n, a: n.get(a), workload)


def scah_pair(workload):
    """scah builds no tree: one streaming pass with the item query and its
    field queries nested in it; "parse" has no meaning of its own."""
    import scah
    item_css, fields = QUERIES[workload]
    plan = [(name,) + split_field(sel) for name, sel in fields.items()]
    query = scah.Query.all(item_css, scah.Save.all()).then(
        lambda q: [q.first(css, scah.Save.all())
                   for _, css, _, _ in plan if css]).build()

    def run(page):
        store = scah.parse(page.decode("utf-8"), [query])
        records = []
        for item in store.get(item_css) or []:
            record = {}
            for name, css, kind, attribute in plan:
                node = item if not css else _scah_first(item, css)
                if node is None:
                    record[name] = None
                elif kind == "text":
                    record[name] = node.text
                elif attribute == "class":          # scah keeps class apart
                    record[name] = node.class_name
                else:
                    record[name] = node.attributes.get(attribute)
            records.append(record)
        return records
    return None, run


def _scah_first(item, css):
    found = item.get(css)
    if not found:
        return None
    return found[0] if isinstance(found, list) else found


PAIRS = {"lexpy": lexpy_pair, "scah": scah_pair, "fast-scrape": fast_scrape_pair,
         "selectolax": selectolax_pair, "parsel": parsel_pair, "bs4-lxml": bs4_pair,
         "lxml": lxml_pair, "turbohtml": turbohtml_pair, "markupever": markupever_pair}


def run_of(parse, extract):
    if parse is None:
        return extract
    return lambda page: extract(parse(page))


def records_case(engine, workload):
    """The harness Case of a W1/W2 worker: prepare keeps a page when the
    engine reproduces its ground truth (else None, skipped by the clock)."""
    parse, extract = PAIRS[engine](workload)
    full = run_of(parse, extract)

    def prepare(item):
        page, truth = item
        try:
            return page if normalised(workload, full(page)) == truth else None
        except Exception:  # noqa: BLE001 - a page an engine cannot do is a miss
            return None

    def guard(run):
        return lambda page: None if page is None else run(page)
    parts = {"total": guard(full)}
    if parse is not None:
        parts["parse"] = guard(parse)
    return harness.Case(prepare=prepare, parts=parts,
                        count=lambda r: len(r) if isinstance(r, list) else 0)


def w3_case(engine):
    import warnings
    warnings.simplefilter("ignore")
    if engine == "lexpy":
        import lexpy

        def run(body):
            return lexpy.structured_data(lexpy.parse(body), syntaxes=W3_SYNTAXES)
    elif engine == "extruct":
        import extruct

        def run(body):
            return extruct.extract(body, syntaxes=W3_SYNTAXES)
    else:
        return None

    def prepare(item):
        body, expected = item
        try:
            return body if json.loads(json.dumps(run(body))) == expected else None
        except Exception:  # noqa: BLE001
            return None
    parts = {"total": lambda body: None if body is None else run(body)}
    if engine == "lexpy":                # extruct parses inside extract()
        parts["parse"] = lambda body: None if body is None else lexpy.parse(body)
    return harness.Case(prepare=prepare, parts=parts, count=lambda r: 0 if r is None else 1)


PROCESS_PAGES = []


def _pages_of_half(half):
    """In a forked process: parse + extract one half of PROCESS_PAGES."""
    parse, extract = lexpy_pair("w1")
    middle = len(PROCESS_PAGES) // 2
    pages = PROCESS_PAGES[:middle] if half == 0 else PROCESS_PAGES[middle:]
    return sum(len(extract(parse(p))) for p in pages)


def threads_case():
    """The W1 pages by one thread, by two threads, and by two forked
    processes (the control: on a machine whose cores are busy, two processes
    do no better than two threads, and the GIL is not what limits them)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
    parse, extract = lexpy_pair("w1")
    threads = ThreadPoolExecutor(2)
    processes = []

    def one(pages):
        return sum(len(extract(parse(p))) for p in pages)

    def two(pages):
        half = len(pages) // 2
        return sum(threads.map(one, (pages[:half], pages[half:])))

    def two_processes(pages):
        if not processes:                # forked once the pages are there
            PROCESS_PAGES[:] = pages
            processes.append(ProcessPoolExecutor(
                2, mp_context=multiprocessing.get_context("fork")))
        return sum(processes[0].map(_pages_of_half, (0, 1)))
    return harness.Case(prepare=lambda item: [page for page, _ in item],
                        parts={"1 thread": one, "2 threads": two,
                               "2 processes": two_processes}, count=lambda n: n)


def make_factory(engine):
    def factory(scenario):
        if scenario in ("w1", "w2"):
            return records_case(engine, scenario) if engine in PAIRS else None
        if scenario == "w3":
            return w3_case(engine)
        if scenario == "threads":
            return threads_case() if engine == "lexpy" else None
        return None
    factory.__module__ = __name__
    factory.__name__ = "%s_engine" % engine.replace("-", "_")
    return factory


ENGINES = ["lexpy"] + list(PEERS_W12) + ["extruct"]
OPTIONS = {"w1": 40, "w2": 8, "seed": 0}


def inputs(folder, scenario):
    if scenario in ("w1", "threads"):
        pages = gen_listings.w1_pages(OPTIONS["w1"], OPTIONS["seed"])
        if scenario == "threads":
            return harness.Inputs([pages], sum(len(p) for p, _ in pages))
        return harness.Inputs(pages, sum(len(p) for p, _ in pages))
    if scenario == "w2":
        pages = gen_listings.w2_pages(OPTIONS["w2"], OPTIONS["seed"])
        return harness.Inputs(pages, sum(len(p) for p, _ in pages))
    return harness.Inputs(*w3_items())


def w3_items():
    """Every page of the extruct fixtures with extruct's own output on it."""
    import warnings
    import extruct
    from tests.extract.scrape_data import extruct_entries, scrape_dir
    samples = scrape_dir() / "structured-data" / "extruct" / "samples"
    items = []
    for name in sorted({e["html"] for e in extruct_entries()}):
        body = (samples / name).read_bytes()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = json.loads(json.dumps(extruct.extract(body, syntaxes=W3_SYNTAXES)))
        items.append((body, expected))
    return items, sum(len(b) for b, _ in items)


BENCH = harness.Bench(
    "scrape", engines={e: make_factory(e) for e in ENGINES},
    scenarios={"w1": "W1 book listings: parse + 20 records",
               "w2": "W2 search results: parse + 27 records",
               "w3": "W3 structured data (json-ld, microdata, opengraph) vs extruct",
               "threads": "lexpy: W1 by one thread and by two"},
    inputs=inputs, slow=SLOW, passes=3, rounds=2, script=__file__, disable_gc=True,
    min_pass_seconds=0.25)


# ---------------------------------------------------------------------------
# Correctness (--check) and the report
# ---------------------------------------------------------------------------

def check(engine, workload, pages):
    """The engine's misses on the pages: [(page index, field, got, want)]."""
    parse, extract = PAIRS[engine](workload)
    full = run_of(parse, extract)
    misses = []
    for index, (page, truth) in enumerate(pages):
        try:
            got = normalised(workload, full(page))
        except Exception as e:  # noqa: BLE001
            misses.append((index, "(error)", "%s: %s" % (type(e).__name__, e), None))
            continue
        if got != truth:
            if len(got) != len(truth):
                misses.append((index, "(records)", len(got), len(truth)))
                continue
            for g, t in zip(got, truth):
                bad = [f for f in t if g.get(f) != t[f]]
                if bad:
                    misses.append((index, bad[0], g.get(bad[0]), t[bad[0]]))
                    break
    return misses


def rate(row, part="total"):
    part_row = row.get("parts", {}).get(part, {})
    return part_row.get("seconds"), part_row.get("found")


def summary(document, pages_in):
    rows = []
    by = {(r["scenario"], r["engine"]): r for r in document["results"]}
    for scenario in ("w1", "w2", "w3"):
        ours = by.get((scenario, "lexpy"))
        ours_rate = None
        per_page = RECORDS_PER_PAGE.get(scenario, 1)
        for engine in ENGINES:
            r = by.get((scenario, engine))
            if r is None or r.get("unsupported"):
                continue
            if "error" in r:
                rows.append((scenario, engine, r["error"]))
                continue
            seconds, found = rate(r)
            if not found or not seconds:
                rows.append((scenario, engine, "0 of %d pages right" % pages_in[scenario]))
                continue
            pages = found / per_page if scenario != "w3" else found
            pages_s = pages / seconds
            parse_s = rate(r, "parse")[0]
            if engine == "lexpy":
                ours_rate = pages_s
            rows.append((scenario, engine, {
                "right": int(pages), "pages": pages_in[scenario], "pages_s": pages_s,
                "records_s": found / seconds if scenario != "w3" else None,
                "parse_ms": parse_s / pages * 1e3 if parse_s else None,
                "extract_ms": (seconds - parse_s) / pages * 1e3 if parse_s else None,
                "total_ms": seconds / pages * 1e3, "peak_rss_mb": r["peak_rss_kb"] / 1024}))
        for i, row in enumerate(rows):
            if row[0] == scenario and isinstance(row[2], dict) and ours_rate:
                row[2]["lexpy_speedup"] = ours_rate / row[2]["pages_s"]
        if ours is None:
            continue
    t = by.get(("threads", "lexpy"))
    threads = None
    if document.get("clock") == "cpu":
        # a process's CPU time counts both threads and none of the forked
        # processes' time: only the wall clock compares them
        t = None
    if t and "parts" in t and "seconds" in t["parts"].get("2 threads", {}):
        threads = {k: t["parts"]["1 thread"]["seconds"] / t["parts"][k]["seconds"]
                   for k in ("2 threads", "2 processes") if "seconds" in t["parts"].get(k, {})}
    return rows, threads


def print_summary(rows, threads, checks, out=sys.stdout):
    head = "%-4s %-12s %9s %9s %10s %9s %9s %9s %8s %8s" % (
        "", "engine", "right", "pages/s", "records/s", "parse ms", "extr. ms", "total ms",
        "RSS MB", "lexpy x")
    print(head, file=out)
    for scenario, engine, data in rows:
        if not isinstance(data, dict):
            print("%-4s %-12s %s" % (scenario, engine, data), file=out)
            continue

        def f(v, fmt):
            return fmt % v if v is not None else "-"
        print("%-4s %-12s %9s %9.1f %10s %9s %9s %9.2f %8.1f %8s" % (
            scenario, engine, "%d/%d" % (data["right"], data["pages"]), data["pages_s"],
            f(data["records_s"], "%.0f"), f(data["parse_ms"], "%.2f"),
            f(data["extract_ms"], "%.2f"), data["total_ms"], data["peak_rss_mb"],
            f(data.get("lexpy_speedup"), "%.2f")), file=out)
    if threads:
        print("lexpy, W1 pages/s over one thread's: %s (machine: %d cores, load %.1f)" % (
            ", ".join("%s %.2fx" % kv for kv in threads.items()), os.cpu_count() or 0,
            os.getloadavg()[0]), file=out)
    for (scenario, engine), misses in sorted(checks.items()):
        if misses:
            print("misses %s/%s: %d pages, e.g. page %s field %s: got %r, want %r" % (
                (scenario, engine, len(misses)) + tuple(misses[0])), file=out)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--check-worker" in argv:
        job = json.loads(argv[argv.index("--check-worker") + 1])
        with open(job["file"], "rb") as f:
            pages = pickle.load(f)
        try:
            misses = check(job["engine"], job["workload"], pages)
        except ImportError as e:
            misses = [[-1, "(not installed)", str(e), None]]
        print(json.dumps(misses, default=str))
        return 0
    if harness.worker_requested(argv):
        return harness.worker_main(BENCH, argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--w1", type=int, default=OPTIONS["w1"])
    parser.add_argument("--w2", type=int, default=OPTIONS["w2"])
    parser.add_argument("--seed", type=int, default=OPTIONS["seed"])
    parser.add_argument("--engines")
    parser.add_argument("--scenarios")
    parser.add_argument("--passes", type=int)
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--clock", choices=sorted(harness.CLOCKS))
    parser.add_argument("--check", action="store_true",
                        help="also show each engine's misses (a process per engine)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    OPTIONS.update(w1=args.w1, w2=args.w2, seed=args.seed)
    engines = args.engines.split(",") if args.engines else ENGINES
    scenarios = args.scenarios.split(",") if args.scenarios else list(BENCH.scenarios)
    document = harness.run(BENCH, folder="(generated)", engines=engines, scenarios=scenarios,
                           passes=args.passes, rounds=args.rounds, clock=args.clock,
                           progress=not args.json)
    pages_in = {"w1": args.w1, "w2": args.w2, "w3": None}
    pages_in["w3"] = next((r["items"] for r in document["results"]
                           if r["scenario"] == "w3" and "items" in r), 0)
    checks = {}
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            for scenario in [s for s in scenarios if s in ("w1", "w2")]:
                made = inputs(None, scenario)
                file = os.path.join(tmp, scenario + ".pickle")
                with open(file, "wb") as f:
                    pickle.dump(made.items, f)
                for engine in engines:
                    if engine not in PAIRS:
                        continue
                    job = json.dumps({"engine": engine, "workload": scenario, "file": file})
                    proc = subprocess.run([sys.executable, __file__, "--check-worker", job],
                                          capture_output=True, text=True, cwd=ROOT)
                    lines = proc.stdout.strip().splitlines()
                    checks[(scenario, engine)] = (json.loads(lines[-1]) if lines else
                                                  [[-1, "(crash)", proc.stderr[-200:], None]])
    rows, threads = summary(document, pages_in)
    if args.json:
        document["summary"] = [{"scenario": s, "engine": e, "figures": d} for s, e, d in rows]
        document["two_threads_over_one"] = threads
        document["misses"] = {"%s/%s" % k: v for k, v in checks.items()}
        print(json.dumps(document, indent=1, default=str))
    else:
        print_summary(rows, threads, checks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
