#!/usr/bin/env python3
"""Benchmark lexpy against the HTML parsers installed beside it, in one run.

Each (parser, mode) runs in a fresh process so peak RSS is its own. Modes:

  bytes      parse from bytes
  str        parse from str (every parser gets the same decoded text)
  serialize  parse from bytes + serialize back to HTML

For each: throughput in MB/s of the best of N passes over the corpus, the
median per-document time, peak RSS (and its growth over the process's
baseline after loading the corpus), and the ratio lexpy / peer. Ratios are
what we quote: these machines are noisy.

  python tools/bench.py [FOLDER] [--passes N] [--parsers a,b] [--modes m,n] [--json]
  python tools/bench.py --threads          # lexpy on 1 and 2 threads
  python tools/bench.py --hostile          # time growth per doubling of input

Peers (the `bench` extra): selectolax (Lexbor), turbohtml, lxml, html5lib,
justhtml. A peer that is not installed is reported as such.
"""
import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FOLDER = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "corpus", "pages"))
PARSERS = ["lexpy", "selectolax", "turbohtml", "lxml", "html5lib", "justhtml"]
MODES = ["bytes", "str", "serialize"]
SLOW = {"html5lib": 1, "justhtml": 1}   # passes for the pure-Python peers


# ---------------------------------------------------------------------------
# Adapters: (parse_bytes, parse_str, parse_and_serialize) per parser
# ---------------------------------------------------------------------------

def adapter(name):
    if name == "lexpy":
        import lexpy
        return (lexpy.parse, lexpy.parse, lambda b: lexpy.parse(b).to_html())
    if name == "selectolax":
        from selectolax.lexbor import LexborHTMLParser
        return (LexborHTMLParser, LexborHTMLParser, lambda b: LexborHTMLParser(b).html)
    if name == "turbohtml":
        import turbohtml
        return (turbohtml.parse, turbohtml.parse, lambda b: turbohtml.parse(b).serialize())
    if name == "lxml":
        import lxml.html
        return (lxml.html.document_fromstring, lxml.html.document_fromstring,
                lambda b: lxml.html.tostring(lxml.html.document_fromstring(b)))
    if name == "html5lib":
        import html5lib
        return (html5lib.parse, html5lib.parse,
                lambda b: html5lib.serialize(html5lib.parse(b)))
    if name == "justhtml":
        from justhtml import JustHTML
        return (JustHTML, JustHTML, lambda b: JustHTML(b).to_html())
    raise ValueError("unknown parser %r" % name)


def load_pages(folder):
    names = sorted(n for n in os.listdir(folder) if n.endswith((".html", ".htm")))
    if not names:
        raise SystemExit("no .html/.htm pages in %s" % folder)
    pages = []
    for n in names:
        with open(os.path.join(folder, n), "rb") as f:
            pages.append(f.read())
    return pages


def decode_page(data):
    """The same str for every parser: BOM, else a <meta charset>, else UTF-8
    when valid, else windows-1252 (a simplified sniff, only for the str mode)."""
    for bom, enc in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"),
                     (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(enc, "replace")
    m = re.search(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""",
                  data[:4096], re.I)
    if m:
        try:
            return data.decode(m.group(1).decode("ascii"), "replace")
        except LookupError:
            pass
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


# ---------------------------------------------------------------------------
# Worker: one parser, one mode, in this process
# ---------------------------------------------------------------------------

def worker(name, mode, folder, passes):
    pages = load_pages(folder)
    inputs = [decode_page(p) for p in pages] if mode == "str" else pages
    size = sum(len(p) for p in pages)   # MB/s always over the bytes of the pages
    fn = adapter(name)[MODES.index(mode)]
    fn(inputs[0])                        # warm up imports and caches
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    best_total = None
    best_per_doc = [float("inf")] * len(inputs)
    clock = time.perf_counter
    for _ in range(passes):
        total = 0.0
        for i, doc in enumerate(inputs):
            t0 = clock()
            result = fn(doc)
            t = clock() - t0
            del result
            total += t
            if t < best_per_doc[i]:
                best_per_doc[i] = t
        if best_total is None or total < best_total:
            best_total = total
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "parser": name, "mode": mode, "documents": len(inputs), "bytes": size,
        "passes": passes, "seconds": best_total,
        "mb_per_s": size / best_total / 1e6,
        "median_ms": statistics.median(best_per_doc) * 1e3,
        "peak_rss_kb": peak, "rss_growth_kb": peak - baseline,
    }


def run_worker(name, mode, folder, passes):
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", name,
           "--modes", mode, "--passes", str(passes), folder]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        err = proc.stderr.strip().splitlines()
        return {"parser": name, "mode": mode,
                "error": err[-1] if err else "exit %d" % proc.returncode}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def report(results, as_json):
    if as_json:
        print(json.dumps(results, indent=1))
        return
    by_mode = {}
    for r in results:
        by_mode.setdefault(r["mode"], []).append(r)
    for mode, rows in by_mode.items():
        lexpy_row = next((r for r in rows if r["parser"] == "lexpy" and "error" not in r), None)
        print("\n== %s" % {"bytes": "parse from bytes", "str": "parse from str",
                           "serialize": "parse + serialize"}[mode])
        print("  %-11s %9s %10s %12s %12s %14s" % (
            "parser", "MB/s", "median ms", "peak RSS MB", "RSS growth", "lexpy / peer"))
        for r in rows:
            if "error" in r:
                print("  %-11s unavailable: %s" % (r["parser"], r["error"]))
                continue
            ratio = ("%.2fx" % (lexpy_row["mb_per_s"] / r["mb_per_s"])) if lexpy_row else "-"
            print("  %-11s %9.1f %10.3f %12.1f %12.1f %14s" % (
                r["parser"], r["mb_per_s"], r["median_ms"], r["peak_rss_kb"] / 1024,
                r["rss_growth_kb"] / 1024, ratio))


# ---------------------------------------------------------------------------
# Threads: lexpy on 1 and 2 threads over the corpus
# ---------------------------------------------------------------------------

def bench_threads(folder, passes):
    from concurrent.futures import ThreadPoolExecutor
    import lexpy
    pages = load_pages(folder)
    size = sum(len(p) for p in pages)
    out = {}
    for threads in (1, 2):
        best = None
        with ThreadPoolExecutor(threads) as pool:
            for _ in range(passes):
                t0 = time.perf_counter()
                # Each thread parses a share of the corpus; the corpus is
                # repeated so each thread has enough work.
                work = pages * 4
                list(pool.map(lexpy.parse, work, chunksize=8))
                t = time.perf_counter() - t0
                best = t if best is None else min(best, t)
        out[threads] = size * 4 / best / 1e6
    print("lexpy parse from bytes: 1 thread %.1f MB/s, 2 threads %.1f MB/s, "
          "speedup %.2fx" % (out[1], out[2], out[2] / out[1]))
    return out


# ---------------------------------------------------------------------------
# Hostile shapes: time at N and 2N
# ---------------------------------------------------------------------------

def hostile_shapes():
    return {
        "nested div": lambda n: "<div>" * n,
        "unclosed b": lambda n: "<b>" * n,
        "misnested a/p": lambda n: "<a><p>" * n,
        "many attributes": lambda n: "<p " + " ".join("a%d=%d" % (i, i) for i in range(n)) + ">",
        "long attribute value": lambda n: '<p title="' + "x" * (n * 100) + '">',
        "table cells": lambda n: "<table><tr>" + "<td>x" * n + "</table>",
        "nested tables": lambda n: "<table><tr><td>" * (n // 10),
        "deep svg": lambda n: "<svg>" + "<g>" * n,
        "deep math": lambda n: "<math>" + "<mrow>" * n,
        "character references": lambda n: "&amp;" * (n * 2),
        "nested a in div": lambda n: "<a><div>" * (n // 2),
        "distinct formatting": lambda n: "".join("<b id=%d>" % i for i in range(n // 4)),
        "formatting then blocks": lambda n: "<b>" + "<div>x" * (n // 2),
        "formatting closed by blocks": lambda n: "<span>" * (n // 4) + "<div><a></div><a>" * (n // 4),
    }


def bench_hostile(base_n):
    import lexpy
    rows = []
    for name, make in hostile_shapes().items():
        n = base_n
        while True:
            doc = make(n)
            t0 = time.perf_counter()
            lexpy.parse(doc)
            t1 = time.perf_counter() - t0
            if t1 >= 0.05 or n >= base_n * 64:
                break
            n *= 2
        doc2 = make(2 * n)
        times = []
        for d in (doc, doc2):
            best = None
            for _ in range(3):
                t0 = time.perf_counter()
                lexpy.parse(d)
                t = time.perf_counter() - t0
                best = t if best is None else min(best, t)
            times.append(best)
        ratio = times[1] / times[0]
        rows.append((name, n, times[0], times[1], ratio))
        print("  %-22s N=%-8d %8.1f ms  2N %8.1f ms  ratio %.2f%s" % (
            name, n, times[0] * 1e3, times[1] * 1e3, ratio,
            "  <-- superlinear" if ratio > 2.3 else ""))
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folder", nargs="?", default=DEFAULT_FOLDER)
    p.add_argument("--passes", type=int, default=5)
    p.add_argument("--parsers", default=",".join(PARSERS))
    p.add_argument("--modes", default=",".join(MODES))
    p.add_argument("--json", action="store_true")
    p.add_argument("--threads", action="store_true", help="lexpy on 1 vs 2 threads")
    p.add_argument("--hostile", action="store_true", help="growth per doubling")
    p.add_argument("--hostile-n", type=int, default=100000)
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)

    if args.worker:
        print(json.dumps(worker(args.worker, args.modes, args.folder, args.passes)))
        return 0
    if args.threads:
        bench_threads(args.folder, args.passes)
        return 0
    if args.hostile:
        bench_hostile(args.hostile_n)
        return 0
    results = []
    for mode in args.modes.split(","):
        for name in args.parsers.split(","):
            passes = min(args.passes, SLOW.get(name, args.passes))
            results.append(run_worker(name, mode, args.folder, passes))
            if not args.json:
                r = results[-1]
                print("  %s/%s: %s" % (name, mode, "%.1f MB/s" % r["mb_per_s"]
                                       if "mb_per_s" in r else r["error"]),
                      file=sys.stderr)
    report(results, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
