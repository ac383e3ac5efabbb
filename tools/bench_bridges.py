#!/usr/bin/env python3
"""Benchmark lexpy's bridges (lexpy.bs4, lexpy.html5lib, lexpy.to_lxml)
against what users run today, in one run over a folder of pages.

The pairs (lexpy's side first; every side parses the pages from bytes):

  bs4 / lxml        BeautifulSoup(page, "lexpy")  vs  BeautifulSoup(page, "lxml")
  bs4 / html5lib    BeautifulSoup(page, "lexpy")  vs  BeautifulSoup(page, "html5lib")
  bs4 / html.parser BeautifulSoup(page, "lexpy")  vs  BeautifulSoup(page, "html.parser")
  html5lib etree    lexpy.html5lib.parse(page)    vs  html5lib.parse(page)
  html5lib lxml     lexpy.to_lxml(lexpy.parse(page))  vs  html5lib.parse(page, treebuilder="lxml")
  lxml.html         lexpy.to_lxml(lexpy.parse(page))  vs  lxml.html.document_fromstring(page)

Each side's time is the best of --rounds passes over the corpus, the passes
of all sides interleaved round by round (a burst of load on a shared
machine hurts everyone alike), the cyclic garbage collector as the user has
it (on). The ratios (peer time / lexpy time: above 1, lexpy is faster) are
what to quote, never the absolute times. A page a peer fails on (html5lib's
lxml builder raises ValueError on characters lxml refuses) is left out of
that pair on both sides, and counted.

  python tools/bench_bridges.py [FOLDER] [--rounds R] [--json]

Needs the `bench` and `test` extras (beautifulsoup4, html5lib, lxml).
"""
import argparse
import json
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.conformance.data import corpus_dir  # noqa: E402


def load_pages(folder):
    names = sorted(n for n in os.listdir(folder) if os.path.isfile(os.path.join(folder, n)))
    pages = []
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            pages.append((name, f.read()))
    return pages


def contenders():
    """name -> function(page bytes)."""
    import html5lib
    import lxml.html
    from bs4 import BeautifulSoup

    import lexpy
    import lexpy.bs4  # noqa: F401 - registers "lexpy"
    import lexpy.html5lib

    return {
        "bs4 lexpy": lambda page: BeautifulSoup(page, "lexpy"),
        "bs4 lxml": lambda page: BeautifulSoup(page, "lxml"),
        "bs4 html5lib": lambda page: BeautifulSoup(page, "html5lib"),
        "bs4 html.parser": lambda page: BeautifulSoup(page, "html.parser"),
        "lexpy.html5lib.parse": lambda page: lexpy.html5lib.parse(page),
        "html5lib.parse": lambda page: html5lib.parse(page),
        "lexpy.to_lxml": lambda page: lexpy.to_lxml(lexpy.parse(page)),
        "html5lib.parse lxml": lambda page: html5lib.parse(page, treebuilder="lxml"),
        "lxml.html": lambda page: lxml.html.document_fromstring(page),
    }


PAIRS = [
    ("BeautifulSoup(page, 'lexpy') vs 'lxml'", "bs4 lexpy", "bs4 lxml", 1.5),
    ("BeautifulSoup(page, 'lexpy') vs 'html5lib'", "bs4 lexpy", "bs4 html5lib", 5.0),
    ("BeautifulSoup(page, 'lexpy') vs 'html.parser'", "bs4 lexpy", "bs4 html.parser", None),
    ("lexpy.html5lib.parse vs html5lib.parse (etree)", "lexpy.html5lib.parse",
     "html5lib.parse", 20.0),
    ("lexpy.to_lxml(lexpy.parse) vs html5lib.parse(treebuilder='lxml')",
     "lexpy.to_lxml", "html5lib.parse lxml", 10.0),
    ("lexpy.to_lxml(lexpy.parse) vs lxml.html.document_fromstring",
     "lexpy.to_lxml", "lxml.html", None),
]


def usable_pages(function, pages):
    """The pages `function` parses without an exception."""
    ok = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, page in pages:
            try:
                function(page)
            except Exception:  # noqa: BLE001 - the peer's failure, counted
                continue
            ok.append((name, page))
    return ok


def time_pass(function, pages):
    start = time.perf_counter()
    for _, page in pages:
        function(page)
    return time.perf_counter() - start


def run(folder, rounds):
    pages = load_pages(folder)
    functions = contenders()
    # Per pair: the pages both sides parse.
    subsets = {}
    for _, mine, peer, _ in PAIRS:
        if peer not in subsets:
            subsets[peer] = usable_pages(functions[peer], pages)
    jobs = []                      # (side, pair peer) timed on the same pages
    for _, mine, peer, _ in PAIRS:
        for side in (mine, peer):
            if (side, peer) not in jobs:
                jobs.append((side, peer))
    best = {job: float("inf") for job in jobs}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(rounds):
            for side, peer in jobs:
                best[(side, peer)] = min(best[(side, peer)],
                                         time_pass(functions[side], subsets[peer]))
    results = []
    for title, mine, peer, target in PAIRS:
        subset = subsets[peer]
        size = sum(len(page) for _, page in subset)
        ratio = best[(peer, peer)] / best[(mine, peer)]
        results.append({
            "pair": title, "pages": len(subset), "left_out": len(pages) - len(subset),
            "megabytes": round(size / 1e6, 2),
            "lexpy_mb_s": round(size / 1e6 / best[(mine, peer)], 1),
            "peer_mb_s": round(size / 1e6 / best[(peer, peer)], 1),
            "ratio": round(ratio, 2), "target": target,
            "meets_target": None if target is None else ratio >= target,
        })
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", help="pages (default: the corpus)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    folder = args.folder or str(corpus_dir())
    results = run(folder, args.rounds)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print("%-66s %6s %9s %9s %7s %7s" % ("pair", "pages", "lexpy", "peer", "ratio", "target"))
    for r in results:
        print("%-66s %6s %6.1f MB/s %6.1f MB/s %6.2fx %7s" % (
            r["pair"], "%d%s" % (r["pages"], "*" if r["left_out"] else ""),
            r["lexpy_mb_s"], r["peer_mb_s"], r["ratio"],
            "" if r["target"] is None else "%.1fx %s" % (
                r["target"], "ok" if r["meets_target"] else "MISSED")))
    if any(r["left_out"] for r in results):
        print("* pages the peer fails on are left out of that pair on both sides")
    return 0


if __name__ == "__main__":
    sys.exit(main())
