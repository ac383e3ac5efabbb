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

On tools/harness.py: each side of each pair runs in a process of its own;
each side's time is the best of --rounds passes over the corpus, the
processes of all sides interleaved round by round (a burst of load on a
shared machine hurts everyone alike), the cyclic garbage collector as the
user has it (on). The ratios (peer time / lexpy time: above 1, lexpy is faster) are
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
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

if HERE not in sys.path:
    sys.path.insert(0, HERE)

import harness  # noqa: E402
from tests.conformance.data import corpus_dir  # noqa: E402


def load_pages(folder):
    names = sorted(n for n in os.listdir(folder) if os.path.isfile(os.path.join(folder, n)))
    pages = []
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            pages.append((name, f.read()))
    return pages


def contender(name):
    """The function(page bytes) of one side, importing only what it needs
    (a worker's RSS is its own side's)."""
    if name.startswith("bs4"):
        from bs4 import BeautifulSoup
        if name == "bs4 lexpy":
            import lexpy.bs4  # noqa: F401 - registers "lexpy"
        builder = name.split(" ", 1)[1]
        return lambda page: BeautifulSoup(page, builder)
    if name == "lexpy.html5lib.parse":
        import lexpy.html5lib
        return lambda page: lexpy.html5lib.parse(page)
    if name == "html5lib.parse":
        import html5lib
        return lambda page: html5lib.parse(page)
    if name == "lexpy.to_lxml":
        import lexpy
        return lambda page: lexpy.to_lxml(lexpy.parse(page))
    if name == "html5lib.parse lxml":
        import html5lib
        return lambda page: html5lib.parse(page, treebuilder="lxml")
    if name == "lxml.html":
        import lxml.html
        return lambda page: lxml.html.document_fromstring(page)
    raise ValueError("unknown contender %r" % name)


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


def _side(index):
    """The harness's engine for one side of every pair: 0 lexpy's, 1 the
    peer's; the scenario is the pair's number."""
    def factory(scenario):
        _, mine, peer, _ = PAIRS[int(scenario)]
        warnings.simplefilter("ignore")          # this worker's own process
        return contender((mine, peer)[index])
    return factory


def subsets(folder):
    """Per peer: the pages it parses without an exception (in the parent)."""
    pages = load_pages(folder)
    found = {}
    for _, _, peer, _ in PAIRS:
        if peer not in found:
            found[peer] = usable_pages(contender(peer), pages)
    return pages, found


_SUBSETS = {}


def inputs(folder, scenario):
    if folder not in _SUBSETS:
        _SUBSETS[folder] = subsets(folder)
    _, found = _SUBSETS[folder]
    return harness.Inputs([page for _, page in found[PAIRS[int(scenario)][2]]])


BENCH = harness.Bench(
    "bridges", engines={"lexpy": _side(0), "peer": _side(1)},
    scenarios={str(i): pair[0] for i, pair in enumerate(PAIRS)},
    inputs=inputs, rounds=3, passes=1)


def run(folder, rounds):
    document = harness.run(BENCH, folder, passes=1, rounds=rounds)
    pages, found = _SUBSETS[folder]
    rows = {(r["scenario"], r["engine"]): r for r in document["results"]}
    results = []
    for i, (title, mine, peer, target) in enumerate(PAIRS):
        subset = found[peer]
        ours, theirs = rows[(str(i), "lexpy")], rows[(str(i), "peer")]
        for side in (ours, theirs):
            if "error" in side:
                raise SystemExit("%s: %s" % (title, side["error"]))
        size = sum(len(page) for _, page in subset)
        ratio = theirs["speed_ratio"]
        results.append({
            "pair": title, "pages": len(subset), "left_out": len(pages) - len(subset),
            "megabytes": round(size / 1e6, 2),
            "lexpy_mb_s": round(ours["mb_per_s"], 1),
            "peer_mb_s": round(theirs["mb_per_s"], 1),
            "ratio": round(ratio, 2), "target": target,
            "meets_target": None if target is None else ratio >= target,
            "peak_rss_ratio": round(theirs["rss_ratio"], 2),
        })
    return results


def main(argv=None):
    if harness.worker_requested(argv):
        return harness.worker_main(BENCH, argv)
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
