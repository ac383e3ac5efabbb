#!/usr/bin/env python3
"""Benchmark lexpy against the HTML parsers installed beside it, in one run.

Every measurement runs in a fresh process of its own (one parser, one mode),
so its peak RSS is its own. Modes over a folder of pages:

  bytes      parse from bytes (each parser sniffs or assumes the encoding
             as it does by default)
  str        parse from str: every parser gets the same text, decoded once
             in the parent by the HTML standard's sniffing (lexpy.encoding)
  serialize  parse from bytes, then serialize the document back to HTML

The corpus modes run on tools/harness.py (the timing harness every
benchmark of tools/ shares). For each: throughput in MB/s (bytes of the
pages over the best of N passes; also over the median pass, and documents
per second), the median per-document time (each document's best), peak RSS,
its growth over the process's RSS with the corpus loaded (before the parser
is imported: the growth counts the parser's modules and working memory), and
the ratios lexpy / peer (speed of the best and of the median passes, peak
RSS). The runs of all parsers are interleaved in --rounds rounds and the
best of each kept, so a burst of load on a shared machine hurts everyone
alike. Ratios are what we quote. (Since the harness: the table has the
columns med MB/s, calls/s and median l/p beside the old ones; --json keeps
its keys, parser, mode, median_ms, speed_ratio, rss_ratio..., and adds the
harness's: engine, scenario, median_mb_per_s, calls_per_s, order, pids.)

  python tools/bench.py [FOLDER] [--passes N] [--rounds R] [--parsers a,b]
                        [--modes m,n] [--json]
  python tools/bench.py --threads [--parsers a,b] [--modes bytes,serialize] [--json]
        parse the corpus from bytes (and serialize it) on 1 and 2 threads
        (speedup, and the CPU time per wall-clock second that shows whether
        threads ran at once)
  python tools/bench.py --hostile [--parsers a,b] [--json] [--instructions]
                        [--malloc keep|default]
        time per doubling of input on the hostile shapes (with
        --instructions: instructions per doubling, counted by callgrind).
        The worker's malloc keeps the memory it frees (--malloc keep, the
        default): glibc gives a freed block of 32 MB or more back to the
        system, and the next parse that needs it takes its pages again, one
        page fault each, while a smaller document reuses what malloc kept;
        N and 2N would then differ by more than the parser's work.
        --malloc default measures under glibc's own policy.

Peers (the `bench` extra): selectolax (Lexbor), turbohtml, lxml, html5lib,
justhtml. A peer that is not installed is reported as such.
"""
import argparse
import ctypes
import gc
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))

PARSERS = ["lexpy", "selectolax", "turbohtml", "lxml", "html5lib", "justhtml"]
MODES = ["bytes", "str", "serialize"]
MODE_TITLES = {"bytes": "parse from bytes", "str": "parse from str",
               "serialize": "parse + serialize"}
SLOW = {"html5lib", "justhtml"}       # pure Python: one pass, one round
# --hostile: the allocator's policy in the worker (keep_freed_memory).
MALLOC_TITLES = {"keep": "keeps freed memory", "default": "glibc's defaults"}

# The worker processes import lexpy from this source tree (an installed
# lexpy is used only when the tree has no build).
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

if HERE not in sys.path:
    sys.path.insert(0, HERE)

import harness  # noqa: E402
from harness import CLOCKS, load_pages  # noqa: E402
from tests.conformance.data import corpus_dir  # noqa: E402


# ---------------------------------------------------------------------------
# Adapters: (parse from bytes, parse from str, parse and serialize) per parser
# ---------------------------------------------------------------------------

def adapter(name):
    """The parser's three operations, each its default way of doing them
    (non-pretty output; justhtml without its sanitizer)."""
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
        parse = lxml.html.document_fromstring
        return (parse, parse, lambda b: lxml.html.tostring(parse(b), encoding="unicode"))
    if name == "html5lib":
        import html5lib
        return (html5lib.parse, html5lib.parse,
                lambda b: html5lib.serialize(html5lib.parse(b)))
    if name == "justhtml":
        from justhtml import JustHTML

        def parse(b):
            return JustHTML(b, sanitize=False)
        return (parse, parse, lambda b: parse(b).to_html(pretty=False))
    raise ValueError("unknown parser %r" % name)


def decode_page(data):
    """The page as text, decoded as lexpy.parse(bytes) decodes it by
    default: the HTML standard's encoding sniffing (BOM, <meta> prescan),
    UTF-8 autodetection when nothing declares an encoding, else
    windows-1252, and the Encoding Standard's decoder."""
    from lexpy.encoding import decode, sniff
    return decode(data, sniff(data, detect_encoding=True).encoding)


def run_subprocess(args):
    """This script with `args` in a process of its own (--threads, --hostile);
    its last line of stdout is the JSON result."""
    cmd = [sys.executable, os.path.abspath(__file__)] + args
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        err = proc.stderr.strip().splitlines()
        return {"error": err[-1] if err else "exit %d" % proc.returncode}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _engine(name):
    def factory(mode):
        return adapter(name)[MODES.index(mode)]
    factory.__name__ = name
    return factory


def corpus_inputs(folder, mode):
    """The pages as bytes; for str, their text decoded here, once, in the
    parent (MB/s still over the pages' bytes)."""
    pages = load_pages(folder)
    if mode == "str":
        return harness.Inputs([decode_page(p) for p in pages], sum(map(len, pages)))
    return harness.Inputs(pages)


# The corpus modes, on tools/harness.py: one process per parser and mode,
# rounds interleaved, the best pass kept.
BENCH = harness.Bench(
    "bench", engines={name: _engine(name) for name in PARSERS},
    scenarios=MODE_TITLES, inputs=corpus_inputs, slow=SLOW,
    engine_option="parsers", scenario_option="modes", engine_label="parser",
    aliases={"engine": "parser", "scenario": "mode", "median_item_ms": "median_ms"})


def bench_corpus(args):
    document = harness.run(BENCH, args.folder, args.parsers.split(","),
                           args.modes.split(","), args.passes, args.rounds, args.clock,
                           progress=not args.json)
    if args.json:
        print(harness.as_json(document))
    else:
        harness.report(BENCH, document)


# ---------------------------------------------------------------------------
# Threads: the corpus parsed from bytes on 1 and 2 threads
# ---------------------------------------------------------------------------

def threads_worker(name, mode, folder, passes):
    import threading
    parse = adapter(name)[MODES.index(mode)]
    pages = load_pages(folder)
    work = pages * 3                    # enough work for each thread
    size = sum(len(p) for p in work)
    for p in pages[:10]:
        parse(p)

    def run(threads):
        position = [0]
        lock = threading.Lock()

        def loop():
            while True:
                with lock:
                    i = position[0]
                    position[0] += 1
                if i >= len(work):
                    return
                parse(work[i])
        pool = [threading.Thread(target=loop) for _ in range(threads)]
        cpu0, t0 = time.process_time(), time.perf_counter()
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        return time.perf_counter() - t0, time.process_time() - cpu0

    best = {1: None, 2: None}
    for _ in range(passes):           # interleaved, so load hits both alike
        for threads in (1, 2):
            wall, cpu = run(threads)
            if best[threads] is None or wall < best[threads][0]:
                best[threads] = (wall, cpu)
    out = {"parser": name, "mode": mode, "bytes": size, "passes": passes}
    for threads, (wall, cpu) in best.items():
        out["mb_per_s_%d" % threads] = size / wall / 1e6
        out["cpu_per_wall_%d" % threads] = cpu / wall
    out["speedup"] = out["mb_per_s_2"] / out["mb_per_s_1"]
    return out


def bench_threads(args):
    results = []
    modes = [m for m in args.modes.split(",") if m != "str"]
    for mode in modes:
        for name in args.parsers.split(","):
            if name in SLOW:
                continue
            r = run_subprocess(["--threads-worker", name, "--modes", mode,
                                "--passes", str(args.passes), args.folder])
            r.setdefault("parser", name)
            r.setdefault("mode", mode)
            results.append(r)
    if args.json:
        print(json.dumps({"folder": args.folder, "results": results}, indent=1))
        return
    for mode in modes:
        print("\n== %s on 1 and 2 threads (cpu/wall: CPU seconds per second, 2.0 when "
              "both threads run all the time)" % MODE_TITLES[mode])
        print("  %-11s %12s %12s %9s %14s" % ("parser", "1 thread", "2 threads",
                                               "speedup", "cpu/wall 1, 2"))
        for r in results:
            if r["mode"] != mode:
                continue
            if "error" in r:
                print("  %-11s unavailable: %s" % (r["parser"], r["error"]))
                continue
            print("  %-11s %7.1f MB/s %7.1f MB/s %8.2fx %9.2f, %.2f" % (
                r["parser"], r["mb_per_s_1"], r["mb_per_s_2"], r["speedup"],
                r["cpu_per_wall_1"], r["cpu_per_wall_2"]))


# ---------------------------------------------------------------------------
# Hostile shapes: time at N and 2N
# ---------------------------------------------------------------------------

_COLLIDING_STAGES = []


def fnv_colliding_names(count, bits=16):
    """`count` distinct lowercase names whose FNV-1a hashes (the static name
    tables' hash, names.h) agree in their low `bits` bits: in a hash table
    of up to 2**bits slots indexed by that hash they all fall on one slot.

    The low bits of FNV-1a after a byte depend only on the low bits before
    it, so names are built in stages: from the common state after the
    stages so far, every three-letter block is tried, and the blocks that
    lead to the most common next state are the stage's choices. Each name
    picks one choice per stage."""
    mask = (1 << bits) - 1
    letters = b"abcdefghijklmnopqrstuvwxyz"
    state = (2166136261 ^ ord("z")) * 16777619 & mask     # after "z"
    for blocks in _COLLIDING_STAGES:
        state = _fnv_low(state, blocks[0], mask)
    total = 1
    for blocks in _COLLIDING_STAGES:
        total *= len(blocks)
    while total < count:
        by_state = {}
        for a in letters:
            for b in letters:
                for c in letters:
                    block = bytes((a, b, c))
                    by_state.setdefault(_fnv_low(state, block, mask), []).append(block)
        state, blocks = max(by_state.items(), key=lambda item: len(item[1]))
        _COLLIDING_STAGES.append(blocks)
        total *= len(blocks)
    names = []
    for k in range(count):
        name = [b"z"]
        for blocks in _COLLIDING_STAGES:
            k, choice = divmod(k, len(blocks))
            name.append(blocks[choice])
        names.append(b"".join(name))
    return names


def _fnv_low(state, block, mask):
    for byte in block:
        state = (state ^ byte) * 16777619 & mask
    return state


def hostile_shapes():
    """The hostile shapes: name -> (N at full size, maker of the document
    for a given N). tests/robustness/test_linearity.py times them at smaller N."""
    return {
        "nested-div": (100000, lambda n: b"<div>" * n),
        "unclosed-b": (100000, lambda n: b"<b>" * n),
        "misnested-a-p": (100000, lambda n: b"<a><p>" * n),
        "attributes": (100000, lambda n: b"<p " + b" ".join(
            b"a%d=%d" % (i, i) for i in range(n)) + b">"),
        "attribute-value": (10 * 2**20, lambda n: b'<p title="' + b"x" * n + b'">'),
        "table-cells": (100000, lambda n: b"<table><tr>" + b"<td>x" * n + b"</table>"),
        "nested-table": (10000, lambda n: b"<table><tr><td>" * n),
        "deep-svg": (100000, lambda n: b"<svg>" + b"<g>" * n),
        "deep-mathml": (100000, lambda n: b"<math>" + b"<mrow>" * n),
        "char-refs": (2**20 // 5, lambda n: b"&amp;" * n),
        # Shapes the robustness work found quadratic once (now linear).
        "nested-a-in-div": (50000, lambda n: b"<a><div>" * n),
        "distinct-formatting": (25000, lambda n: b"".join(
            b"<b id=%d>" % i for i in range(n))),
        "formatting-then-blocks": (50000, lambda n: b"<b>" + b"<div>x" * n),
        "formatting-closed-by-blocks": (25000, lambda n: b"<span>" * n
                                        + b"<div><a></div><a>" * n),
        "unclosed-formatting": (25000, lambda n: b"<b><i><u><s>" * n),
        # Unknown tag names that collide under FNV-1a: the dynamic name
        # table must not use a hash the page can choose collisions for.
        "fnv-colliding-tag-names": (20000, lambda n: b"".join(
            b"<%s></%s>" % (name, name) for name in fnv_colliding_names(n))),
        # A long list of active formatting elements searched for a tag it
        # lacks; <selectedcontent> with options deep in a select, or many
        # selectedcontent elements.
        "distinct-formatting-then-a": (25000, lambda n: b"".join(
            b"<b id=%d>" % i for i in range(n)) + b"<a>x</a>" * n),
        "distinct-formatting-then-stray-i": (25000, lambda n: b"".join(
            b"<b id=%d>" % i for i in range(n)) + b"</i>" * n),
        "selectedcontent-deep-options": (50000, lambda n: b"<select><button>"
                                         b"<selectedcontent></selectedcontent></button>"
                                         + b"<div>" * n + b"<span><option>x</option></span>" * n),
        "selectedcontent-many": (50000, lambda n: b"<select>" + b"<selectedcontent>"
                                 b"</selectedcontent><option>x</option>" * n),
        "marker-then-distinct-formatting-stray-i": (25000, lambda n: b"<i><table><td>"
                                                    + b"".join(b"<b id=%d>" % i for i in range(n))
                                                    + b"</i>" * n),
        # The adoption agency moving the formatting element up a deep stack.
        "formatting-end-tags-around-deep-blocks": (50000, lambda n: b"<b>" + b"<div>" * n
                                                   + b"</b>" * n),
        # ... and taking the elements between out of the stack.
        "formatting-end-tags-removing-between-blocks": (
            50000, lambda n: b"<b>" + b"<span><i><i><i><i><div>" * n + b"</b>" * n),
    }


def keep_freed_memory():
    """glibc's malloc keeps what is freed from now on: no block is mapped
    on its own (M_MMAP_MAX 0) and the heap is not trimmed. False when this
    is not glibc."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    M_TRIM_THRESHOLD, M_MMAP_MAX = -1, -4
    return bool(mallopt(M_TRIM_THRESHOLD, 2**31 - 1)) and bool(mallopt(M_MMAP_MAX, 0))


def hostile_worker(name, mode, passes, min_seconds, clock_name, only=None,
                   malloc="keep"):
    if malloc == "keep" and not keep_freed_memory():
        raise SystemExit("--malloc keep needs glibc's mallopt")
    fn = adapter(name)[0 if mode == "bytes" else 2]
    clock = CLOCKS[clock_name]
    fn(b"<p>warm up")

    def timed(doc, runs=1):
        """Seconds per run of `runs` runs back to back (the documents are
        freed after the clock stops)."""
        results = []
        gc.collect()
        t0 = clock()
        for _ in range(runs):
            results.append(fn(doc))
        t = clock() - t0
        del results
        return t / runs

    rows = []
    for shape, (n, make) in hostile_shapes().items():
        if only and shape not in only:
            continue
        # (The best of two: a first run pays for memory the process has not
        # touched yet.)
        while n < 2**28 and min(timed(make(n)), timed(make(n))) < min_seconds:
            n *= 2
        small, large = make(n), make(2 * n)
        best = [float("inf"), float("inf")]
        for _ in range(passes):
            # N and 2N interleaved, two runs of N against one of 2N: spans
            # of equal length, which a busy machine interrupts alike.
            best[0] = min(best[0], timed(small, 2))
            best[1] = min(best[1], timed(large))
        rows.append({"shape": shape, "n": n, "bytes": len(small),
                     "seconds_n": best[0], "seconds_2n": best[1],
                     "ratio": best[1] / best[0]})
    return {"parser": name, "mode": mode, "rows": rows}


def instructions_worker(name, mode, shape, n, run):
    """Build a hostile document (and parse it when `run`): under callgrind,
    the difference of the two counts is the parse's instructions."""
    fn = adapter(name)[0 if mode == "bytes" else 2]
    fn(b"<p>warm up")
    doc = hostile_shapes()[shape][1](n)
    if run:
        fn(doc)


def count_instructions(name, mode, shape, n, run):
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           sys.executable, os.path.abspath(__file__), "--instructions-worker", name,
           "--modes", mode, "--shapes", shape, "--hostile-n", str(n)]
    if run:
        cmd.append("--run")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise RuntimeError("callgrind failed: %s" % proc.stderr.strip().splitlines()[-1:])
    return int(found.group(1))


def bench_hostile_instructions(args):
    """Instructions per doubling (callgrind; deterministic, unlike time on a
    shared machine), at the shapes' full sizes N and 2N."""
    only = args.shapes.split(",") if args.shapes else list(hostile_shapes())
    results = []
    for name in args.parsers.split(","):
        for mode in args.modes.split(","):
            rows = []
            if not args.json:
                print("\n== %s, %s: instructions per doubling (callgrind, the full N)"
                      % (name, MODE_TITLES[mode]))
            for shape in only:
                n = hostile_shapes()[shape][0]
                counts = []
                for size in (n, 2 * n):
                    base = count_instructions(name, mode, shape, size, False)
                    counts.append(count_instructions(name, mode, shape, size, True) - base)
                rows.append({"shape": shape, "n": n, "instructions_n": counts[0],
                             "instructions_2n": counts[1], "ratio": counts[1] / counts[0]})
                if not args.json:
                    print("  %-16s N=%-9d %14d  2N %14d  ratio %.3f" % (
                        shape, n, counts[0], counts[1], counts[1] / counts[0]))
            results.append({"parser": name, "mode": mode, "rows": rows})
    if args.json:
        print(json.dumps({"measure": "instructions", "results": results}, indent=1))
    worst = max(row["ratio"] for r in results for row in r["rows"])
    return 0 if worst <= args.bound else 1


def bench_hostile(args):
    if args.instructions:
        return bench_hostile_instructions(args)
    results = []
    for name in args.parsers.split(","):
        for mode in args.modes.split(","):
            if mode == "str":
                continue
            cmd = ["--hostile-worker", name, "--modes", mode, "--clock", args.clock,
                   "--passes", str(args.passes), "--min-seconds", str(args.min_seconds),
                   "--malloc", args.malloc]
            if args.shapes:
                cmd += ["--shapes", args.shapes]
            r = run_subprocess(cmd)
            r.setdefault("parser", name)
            r.setdefault("mode", mode)
            results.append(r)
    if args.json:
        print(json.dumps({"bound": args.bound, "clock": args.clock,
                          "malloc": args.malloc, "results": results}, indent=1))
        return 0 if all("error" not in r and all(row["ratio"] <= args.bound
                        for row in r["rows"]) for r in results) else 1
    worst = 0.0
    for r in results:
        print("\n== %s, %s: time per doubling (best of %d at N and 2N, %s clock, "
              "malloc: %s)" % (r["parser"], MODE_TITLES[r["mode"]], args.passes,
                               args.clock, MALLOC_TITLES[args.malloc]))
        if "error" in r:
            print("  unavailable: %s" % r["error"])
            worst = float("inf")
            continue
        for row in r["rows"]:
            worst = max(worst, row["ratio"])
            print("  %-16s N=%-9d %9.1f ms  2N %9.1f ms  ratio %.2f%s" % (
                row["shape"], row["n"], row["seconds_n"] * 1e3,
                row["seconds_2n"] * 1e3, row["ratio"],
                "  <-- above %.1f" % args.bound if row["ratio"] > args.bound else ""))
    return 0 if worst <= args.bound else 1


def main(argv=None):
    if harness.worker_requested(argv):
        return harness.worker_main(BENCH, argv)
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folder", nargs="?",
                   help="the pages (default: $LEXPY_CORPUS, then ../shared/corpus/pages)")
    p.add_argument("--passes", type=int, default=None,
                   help="passes per measurement, best kept (default 5; 3 for --hostile)")
    p.add_argument("--rounds", type=int, default=3,
                   help="interleaved rounds of every parser's runs (default 3)")
    p.add_argument("--parsers", default=None,
                   help="comma-separated (default: all; lexpy for --hostile)")
    p.add_argument("--modes", default=None,
                   help="comma-separated of %s (default: all; bytes for --hostile)"
                   % ", ".join(MODES))
    p.add_argument("--json", action="store_true", help="one JSON document on stdout")
    p.add_argument("--clock", choices=sorted(CLOCKS), default=None,
                   help="wall or cpu (process CPU time) (default: wall; cpu for --hostile)")
    p.add_argument("--threads", action="store_true", help="1 vs 2 threads")
    p.add_argument("--hostile", action="store_true", help="growth per doubling")
    p.add_argument("--shapes", help="comma-separated hostile shapes (default: all)")
    p.add_argument("--min-seconds", type=float, default=0.05,
                   help="--hostile: N doubles until one parse takes this long")
    p.add_argument("--malloc", choices=sorted(MALLOC_TITLES), default="keep",
                   help="--hostile: keep (malloc keeps freed memory; the default) "
                        "or default (glibc's policy)")
    p.add_argument("--bound", type=float, default=2.3,
                   help="--hostile: the highest acceptable ratio per doubling")
    p.add_argument("--instructions", action="store_true",
                   help="--hostile: count instructions with valgrind's callgrind "
                        "at the full N and 2N instead of timing")
    p.add_argument("--hostile-n", type=int, help=argparse.SUPPRESS)
    p.add_argument("--run", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--instructions-worker", help=argparse.SUPPRESS)
    p.add_argument("--threads-worker", help=argparse.SUPPRESS)
    p.add_argument("--hostile-worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.folder is None:
        args.folder = str(corpus_dir())
    hostile = args.hostile or args.hostile_worker or args.instructions_worker
    if args.passes is None:
        args.passes = 3 if hostile else 5
    if args.parsers is None:
        args.parsers = "lexpy" if hostile else ",".join(PARSERS)
    if args.clock is None:
        args.clock = "cpu" if hostile else "wall"
    if args.modes is None:
        args.modes = "bytes" if hostile or args.threads else ",".join(MODES)
    only = set(args.shapes.split(",")) if args.shapes else None
    if only and not only <= set(hostile_shapes()):
        raise SystemExit("unknown shape(s): %s" % ", ".join(sorted(only - set(hostile_shapes()))))

    if args.instructions_worker:
        instructions_worker(args.instructions_worker, args.modes, args.shapes,
                            args.hostile_n, args.run)
        return 0
    if args.threads_worker:
        print(json.dumps(threads_worker(args.threads_worker, args.modes, args.folder,
                                        args.passes)))
        return 0
    if args.hostile_worker:
        print(json.dumps(hostile_worker(args.hostile_worker, args.modes, args.passes,
                                        args.min_seconds, args.clock, only,
                                        args.malloc)))
        return 0
    if args.threads:
        bench_threads(args)
        return 0
    if args.hostile:
        return bench_hostile(args)
    bench_corpus(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
