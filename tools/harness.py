"""The one timing harness of tools/: lexpy against its peers, engine by
engine, scenario by scenario, with ratios.

How it measures:

- every engine x scenario runs in a fresh process of its own (this script
  run again with --harness-worker), so its peak RSS and its imports are its
  own; the inputs are made once in the parent and handed over in a pickle
  file, so a worker imports nothing but its engine;
- --rounds rounds, each running every scenario of every engine once, in
  turn (interleaved: a burst of load on a shared machine hurts all alike);
  a worker makes --passes passes over the inputs;
- kept per engine x scenario: the best pass (throughput: MB/s of the
  inputs, calls/s) and the median pass over all rounds, the median per-item
  time (each item's best), peak RSS (VmHWM), its growth over the RSS with
  the inputs loaded, and the RSS that importing the engine took;
- ratios lexpy / peer: speed (above 1: lexpy faster; from the best passes,
  and from the medians) and peak RSS (below 1: lexpy smaller);
- a peer that is not installed (its factory raises ImportError) is reported
  as "not installed", a scenario an engine lacks (its factory returns None)
  as "n/a"; neither stops the run;
- engines listed in `slow` (pure Python parsers) get one pass in one round.

A benchmark declares engines and scenarios; an engine is a factory
`factory(scenario)` called in the worker, which imports what it needs and
returns the function to time on each input (or a Case, or None):

    #!/usr/bin/env python3
    '''Rewrite every link of a page: lexpy against selectolax.'''
    import os, sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import harness

    def lexpy_engine(scenario):
        import lexpy                         # imported in the worker only
        if scenario == "parse":
            return lexpy.parse               # timed on every input
        if scenario == "links":
            # prepare is applied to every input before the clock starts
            return harness.Case(prepare=lexpy.parse,
                                run=lambda doc: doc.query_selector_all("a[href]"))
        return None                          # "n/a"

    def selectolax_engine(scenario):
        from selectolax.lexbor import LexborHTMLParser   # ImportError: "not installed"
        if scenario == "parse":
            return LexborHTMLParser
        return harness.Case(prepare=LexborHTMLParser, run=lambda t: t.css("a[href]"))

    BENCH = harness.Bench(
        "rewrite",
        engines={"lexpy": lexpy_engine, "selectolax": selectolax_engine},
        scenarios={"parse": "parse from bytes", "links": "find the links"})

    if __name__ == "__main__":
        sys.exit(harness.main(BENCH))

Several measurements over the same prepared items, in one process (every
selector over the same parsed pages): Case(prepare=..., parts={name: run},
count=len); the report adds a table part by part (each peer's time over
lexpy's, and what each found), and the scenario's ratio is over the parts
both engines ran. Bench(disable_gc=True) turns the cyclic collector off
while the clock runs. Bench(min_pass_seconds=S) runs the items of a pass
that takes less than S seconds several times over (the count from a timed
warm-up pass), the pass's time divided by that count: a pass of a few
milliseconds measures the timer and the CPU's clock ramp more than the
engine. On a loaded shared machine --clock cpu (the worker's
CPU time) is the steadier clock.

Its command line (harness.main):

    python tools/bench_rewrite.py [FOLDER] [--engines a,b] [--scenarios s,t]
                                  [--passes N] [--rounds R] [--clock wall|cpu]
                                  [--json]

FOLDER defaults to $LEXPY_CORPUS, then ../shared/corpus/pages; the inputs
are its pages as bytes (Bench(inputs=...) changes that: a function
(folder, scenario) -> list of items, or Inputs(items, nbytes); items must
pickle). Keep the script's top-level imports light (no lexpy, no peer):
each worker runs it, and its imports would count in every engine's RSS.

--json prints one document: {"bench", "folder", "passes", "rounds",
"clock", "order": [[round, scenario, engine], ...], "results": [...]},
each result with engine, scenario, items, bytes, seconds (best pass),
median_seconds, mb_per_s, median_mb_per_s, calls_per_s, median_item_ms,
peak_rss_kb, corpus_rss_kb, import_rss_kb, rss_growth_kb, rounds, pids,
speed_ratio, median_speed_ratio, rss_ratio (found, with a Case's count;
parts: {name: {seconds, median_seconds, found, speed_ratio} or {error}}
and common_parts); or engine, scenario and error (with "missing": true
when not installed, "unsupported": true for n/a).

A script with its own options (tools/bench.py) calls the pieces:
`worker_requested(argv)` and `worker_main(bench, argv)` first thing in its
main, then `document = run(bench, ...)` and `report(bench, document)` or
`as_json(document)`; or add_arguments(parser, bench) and
run_from_args(bench, args). On it today: bench.py (the corpus modes),
bench_selectors.py, bench_text.py, bench_dom.py, bench_bridges.py.
"""
import argparse
import gc
import json
import os
import pickle
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))

# The workers import lexpy from this source tree (an installed lexpy is used
# only when the tree has no build).
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

# wall: elapsed time; cpu: this process's CPU time (user + system), which
# time spent waiting for a core on a loaded machine does not inflate.
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}

WORKER_FLAG = "--harness-worker"


class Case:
    """What an engine's factory returns for a scenario: `run(item)` is timed
    on every item; `prepare(item)`, when given, makes the item `run` gets,
    before the clock starts (parse a page to time a query on its tree);
    `calls` is how many operations one `run` does (for calls/s).

    `parts` instead of `run`: {name: run} timed one after the other in the
    same process over the same prepared items (26 selectors over the same
    parsed pages), each part's best kept and compared with lexpy's part of
    the same name; a part that raises on the first item is reported as an
    error and left out (the scenario's ratio is over the parts both ran).
    `count(result)`, when given, is summed over the items of the first pass
    ("found": a check that the engines answer alike)."""

    def __init__(self, run=None, prepare=None, calls=1, parts=None, count=None):
        if (run is None) == (parts is None):
            raise ValueError("a Case has either run or parts")
        self.run = run
        self.prepare = prepare
        self.calls = calls
        self.parts = dict(parts) if parts is not None else None
        self.count = count


class Inputs:
    """Items and the number of bytes MB/s is counted over (the pages' bytes
    when the items are their decoded text, say)."""

    def __init__(self, items, nbytes=None):
        self.items = list(items)
        self.nbytes = sum(map(_size, self.items)) if nbytes is None else nbytes


def _size(item):
    if isinstance(item, (bytes, bytearray)):
        return len(item)
    if isinstance(item, str):
        return len(item.encode("utf-8", "surrogatepass"))
    return 0


class Bench:
    """A benchmark: `engines` maps a name to its factory (in report order;
    `reference`, lexpy, is the numerator of the ratios), `scenarios` a name
    to its title. `inputs(folder, scenario)` makes the items in the parent
    (default: the folder's .html/.htm pages as bytes). `slow` engines run one
    pass in one round. `script` is the file the workers run (default: the
    file of the first factory's module). `engine_option`/`scenario_option`
    name the command-line options (bench.py: parsers, modes), `engine_label`
    the report's first column."""

    def __init__(self, name, engines, scenarios, inputs=None, slow=(),
                 reference="lexpy", passes=5, rounds=3, clock="wall", script=None,
                 engine_option="engines", scenario_option="scenarios",
                 engine_label="engine", aliases=None, note=None, disable_gc=False,
                 min_pass_seconds=0.0):
        self.name = name
        self.engines = dict(engines)
        self.scenarios = dict(scenarios)
        self.inputs = inputs or corpus_inputs
        self.slow = set(slow)
        self.reference = reference
        self.passes = passes
        self.rounds = rounds
        self.clock = clock
        if script is None:
            first = next(iter(self.engines.values()))
            script = sys.modules[first.__module__].__file__
        self.script = os.path.abspath(script)
        self.engine_option = engine_option
        self.scenario_option = scenario_option
        self.engine_label = engine_label
        # Extra keys for each result: {"engine": "parser"} copies engine to parser.
        self.aliases = dict(aliases or {})
        self.note = note
        # The collector off while the clock runs (results full of proxies).
        self.disable_gc = disable_gc
        # A pass whose items take less than this runs them several times
        # over (as many as the warm-up's timing says), its time divided by
        # that: a pass of a few milliseconds measures the timer, the CPU's
        # clock ramp and the caches' state more than the engine.
        self.min_pass_seconds = min_pass_seconds


# ---------------------------------------------------------------------------
# Inputs and memory
# ---------------------------------------------------------------------------

def default_folder():
    from tests.conformance.data import corpus_dir
    return str(corpus_dir())


def load_pages(folder):
    """The folder's .html/.htm files as bytes, by name."""
    names = sorted(n for n in os.listdir(folder) if n.endswith((".html", ".htm")))
    if not names:
        raise SystemExit("no .html/.htm pages in %s" % folder)
    pages = []
    for n in names:
        with open(os.path.join(folder, n), "rb") as f:
            pages.append(f.read())
    return pages


def corpus_inputs(folder, scenario):
    return Inputs(load_pages(folder))


def current_rss_kb():
    """Resident set size now (Linux /proc; else the peak so far)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except (OSError, ValueError):
        return peak_rss_kb()


def peak_rss_kb():
    """The high-water mark of this process's RSS. Linux: VmHWM, which
    belongs to the process image (getrusage's ru_maxrss would count the
    parent's RSS at fork, carried over exec)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak


# ---------------------------------------------------------------------------
# Worker: one engine, one scenario, in this process
# ---------------------------------------------------------------------------

def worker_requested(argv=None):
    return WORKER_FLAG in (sys.argv[1:] if argv is None else argv)


def worker_main(bench, argv=None):
    """Run the worker named on the command line; print its result as the
    last line of stdout."""
    argv = sys.argv[1:] if argv is None else argv
    job = json.loads(argv[argv.index(WORKER_FLAG) + 1])
    try:
        result = measure(bench, **job)
    except ImportError as e:
        result = {"error": "not installed (%s)" % e, "missing": True}
    result.update(engine=job["engine"], scenario=job["scenario"])
    print(json.dumps(result))
    return 0


def measure(bench, engine, scenario, inputs, passes, clock):
    with open(inputs, "rb") as f:
        items, nbytes = pickle.load(f)
    gc.collect()
    loaded = current_rss_kb()
    case = bench.engines[engine](scenario)
    if case is None:
        return {"error": "n/a", "unsupported": True}
    if not isinstance(case, Case):
        case = Case(case)
    imported = current_rss_kb()
    if case.prepare is not None:
        items = [case.prepare(item) for item in items]
    parts = case.parts if case.parts is not None else {None: case.run}
    errors, found = {}, {}
    for name, run in list(parts.items()):
        try:
            result = run(items[0])       # warm up lazy imports and caches
        except Exception as e:  # noqa: BLE001 - an engine that cannot run this part
            errors[name] = "%s: %s" % (type(e).__name__, str(e)[:80])
            del parts[name]
            continue
        if case.count is not None:
            found[name] = case.count(result) + sum(case.count(run(item))
                                                   for item in items[1:])
        del result
    now = CLOCKS[clock]
    repeats = 1
    if bench.min_pass_seconds and parts:
        t0 = now()
        for run in parts.values():
            for item in items:
                result = run(item)
                del result
        once = now() - t0
        if once > 0:
            repeats = max(1, min(1000, int(bench.min_pass_seconds / once + 0.999)))
    totals = []
    part_totals = {name: [] for name in parts}
    best_item = [float("inf")] * len(items)
    for _ in range(passes):
        if bench.disable_gc:
            gc.disable()
        try:
            per_item = [0.0] * len(items)
            for name, run in parts.items():
                total = 0.0
                for _ in range(repeats):
                    for i, item in enumerate(items):
                        t0 = now()
                        result = run(item)
                        t = now() - t0
                        del result
                        total += t
                        per_item[i] += t / repeats
                part_totals[name].append(total / repeats)
        finally:
            gc.enable()
        totals.append(sum(per_item))
        best_item = [min(a, b) for a, b in zip(best_item, per_item)]
    peak = peak_rss_kb()
    out = {"items": len(items), "bytes": nbytes, "repeats": repeats,
           "calls": len(items) * case.calls * max(1, len(parts) if case.parts else 1),
           "passes": passes, "pass_seconds": totals, "pid": os.getpid(),
           "median_item_ms": statistics.median(best_item) * 1e3,
           "peak_rss_kb": peak, "corpus_rss_kb": loaded,
           "import_rss_kb": imported - loaded, "rss_growth_kb": peak - loaded}
    if case.parts is not None:
        out["parts"] = {name: {"pass_seconds": part_totals[name]} for name in parts}
        for name, message in errors.items():
            out["parts"][name] = {"error": message}
        for name, n in found.items():
            out["parts"][name]["found"] = n
    else:
        if errors:
            raise RuntimeError(errors[None])
        if found:
            out["found"] = found[None]
    return out


# ---------------------------------------------------------------------------
# Parent: rounds of workers, the best and the median, ratios
# ---------------------------------------------------------------------------

def run_worker(bench, engine, scenario, inputs_file, passes, clock):
    job = {"engine": engine, "scenario": scenario, "inputs": inputs_file,
           "passes": passes, "clock": clock}
    cmd = [sys.executable, bench.script, WORKER_FLAG, json.dumps(job)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        err = proc.stderr.strip().splitlines()
        result = {"error": err[-1] if err else "exit %d" % proc.returncode}
    else:
        result = json.loads(proc.stdout.strip().splitlines()[-1])
    result.update(engine=engine, scenario=scenario)
    return result


def combine(runs):
    """One row from an engine's runs of a scenario in several rounds: the
    best pass and the median pass over all of them, the best median item
    time, the median of the RSS figures."""
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return dict(runs[-1])
    row = {k: ok[0][k] for k in ("engine", "scenario", "items", "bytes", "calls", "passes")}
    passes = [t for r in ok for t in r["pass_seconds"]]
    row["seconds"] = min(passes)
    row["median_seconds"] = statistics.median(passes)
    for key, seconds in (("", row["seconds"]), ("median_", row["median_seconds"])):
        row[key + "mb_per_s"] = row["bytes"] / seconds / 1e6 if seconds else 0.0
        row[key + "calls_per_s"] = row["calls"] / seconds if seconds else 0.0
    row["median_item_ms"] = min(r["median_item_ms"] for r in ok)
    for key in ("peak_rss_kb", "rss_growth_kb", "import_rss_kb", "corpus_rss_kb"):
        row[key] = int(statistics.median(r[key] for r in ok))
    row["rounds"] = len(ok)
    row["pids"] = [r["pid"] for r in ok]
    if "found" in ok[0]:
        row["found"] = ok[0]["found"]
    if "parts" in ok[0]:
        row["parts"] = {}
        for name, first in ok[0]["parts"].items():
            if "error" in first:
                row["parts"][name] = dict(first)
                continue
            passes = [t for r in ok for t in r["parts"][name]["pass_seconds"]]
            part = {"seconds": min(passes), "median_seconds": statistics.median(passes)}
            if "found" in first:
                part["found"] = first["found"]
            row["parts"][name] = part
    return row


def add_ratios(bench, results):
    """lexpy / peer: speed (of the best passes, and of the medians; above 1:
    lexpy faster) and peak RSS (below 1: lexpy smaller)."""
    for scenario in {r["scenario"] for r in results}:
        rows = [r for r in results if r["scenario"] == scenario and "error" not in r]
        ours = next((r for r in rows if r["engine"] == bench.reference), None)
        if ours is None:
            continue
        for r in rows:
            r["rss_ratio"] = ours["peak_rss_kb"] / r["peak_rss_kb"]
            if "parts" not in r:
                r["speed_ratio"] = r["seconds"] / ours["seconds"]
                r["median_speed_ratio"] = r["median_seconds"] / ours["median_seconds"]
                continue
            # Parts: each part's best against lexpy's; the scenario's ratio
            # over the parts both ran.
            common = [n for n, p in r["parts"].items()
                      if "seconds" in p and "seconds" in ours["parts"].get(n, {})]
            for n in common:
                r["parts"][n]["speed_ratio"] = (r["parts"][n]["seconds"]
                                                / ours["parts"][n]["seconds"])
            r["common_parts"] = len(common)
            for key, ratio in (("seconds", "speed_ratio"),
                               ("median_seconds", "median_speed_ratio")):
                theirs = sum(r["parts"][n][key] for n in common)
                mine = sum(ours["parts"][n][key] for n in common)
                r[ratio] = theirs / mine if mine else float("nan")


def run(bench, folder=None, engines=None, scenarios=None, passes=None, rounds=None,
        clock=None, progress=False):
    """Every engine x scenario in its own process, in interleaved rounds.
    Returns the document --json prints."""
    folder = folder or default_folder()
    engines = list(engines or bench.engines)
    scenarios = list(scenarios or bench.scenarios)
    passes = bench.passes if passes is None else passes
    rounds = bench.rounds if rounds is None else rounds
    clock = clock or bench.clock
    for e in engines:
        if e not in bench.engines:
            raise SystemExit("unknown %s %r (expected %s)" % (
                bench.engine_label, e, ", ".join(bench.engines)))
    for s in scenarios:
        if s not in bench.scenarios:
            raise SystemExit("unknown scenario %r (expected %s)" % (
                s, ", ".join(bench.scenarios)))
    runs, order = {}, []
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for s in scenarios:
            made = bench.inputs(folder, s)
            if not isinstance(made, Inputs):
                made = Inputs(made)
            if not made.items:
                raise SystemExit("no inputs for scenario %r in %s" % (s, folder))
            files[s] = os.path.join(tmp, "inputs-%d.pickle" % len(files))
            with open(files[s], "wb") as f:
                pickle.dump((made.items, made.nbytes), f, protocol=pickle.HIGHEST_PROTOCOL)
            del made
        for round_number in range(rounds):
            for s in scenarios:
                for e in engines:
                    if e in bench.slow and round_number > 0:
                        continue
                    known = runs.get((s, e))
                    if known and ("missing" in known[0] or "unsupported" in known[0]):
                        continue
                    r = run_worker(bench, e, s, files[s],
                                   1 if e in bench.slow else passes, clock)
                    order.append([round_number + 1, s, e])
                    runs.setdefault((s, e), []).append(r)
                    if progress:
                        print("  round %d %s/%s: %s" % (
                            round_number + 1, e, s,
                            "%.1f MB/s, %.1f calls/s" % (
                                r["bytes"] / max(min(r["pass_seconds"]), 1e-12) / 1e6,
                                r["calls"] / max(min(r["pass_seconds"]), 1e-12))
                            if "error" not in r else r["error"]), file=sys.stderr)
    results = [combine(runs[(s, e)]) for s in scenarios for e in engines]
    add_ratios(bench, results)
    for r in results:
        for key, alias in bench.aliases.items():
            if key in r:
                r[alias] = r[key]
    return {"bench": bench.name, "folder": folder, "passes": passes, "rounds": rounds,
            "clock": clock, "order": order, "results": results}


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

def _mega(kb):
    return "%.1fM" % (kb / 1024)


def report(bench, document, out=None):
    """The table: per scenario, one line per engine."""
    out = out or sys.stdout
    results = document["results"]
    label = bench.engine_label
    width = max([len(label)] + [len(r["engine"]) for r in results])
    for scenario, title in bench.scenarios.items():
        rows = [r for r in results if r["scenario"] == scenario]
        if not rows:
            continue
        print("\n== %s" % title, file=out)
        print("  %-*s %8s %8s %10s %10s %9s %9s %9s %10s %10s %8s" % (
            width, label, "MB/s", "med MB/s", "calls/s", "item ms", "peak RSS", "growth",
            "import", "speed l/p", "median l/p", "RSS l/p"), file=out)
        for r in rows:
            if "error" in r:
                print("  %-*s %s" % (width, r["engine"], r["error"] if r.get("missing")
                                     or r.get("unsupported")
                                     else "unavailable: %s" % r["error"]), file=out)
                continue
            print("  %-*s %8.1f %8.1f %10.1f %10.3f %9s %9s %9s %10s %10s %8s" % (
                width, r["engine"], r["mb_per_s"], r["median_mb_per_s"], r["calls_per_s"],
                r["median_item_ms"], _mega(r["peak_rss_kb"]), _mega(r["rss_growth_kb"]),
                _mega(r["import_rss_kb"]),
                "%.2fx" % r["speed_ratio"] if "speed_ratio" in r else "-",
                "%.2fx" % r["median_speed_ratio"] if "median_speed_ratio" in r else "-",
                "%.2fx" % r["rss_ratio"] if "rss_ratio" in r else "-"), file=out)
    for scenario, title in bench.scenarios.items():
        rows = [r for r in results if r["scenario"] == scenario and "parts" in r]
        if rows:
            report_parts(bench, title, rows, out)
    print("\nEach %s x scenario in a process of its own; best of %d pass(es) in %d "
          "interleaved round(s), %s clock.\nMB/s, calls/s: over the best pass "
          "(med: the median pass); item ms: the median item's best time;\ngrowth: "
          "peak RSS over the RSS with the inputs loaded (import: the engine's modules "
          "alone);\nl/p: %s / peer (speed above 1: %s faster; RSS below 1: %s smaller)."
          % (label, document["passes"], document["rounds"], document["clock"],
             bench.reference, bench.reference, bench.reference), file=out)
    if bench.note:
        print(bench.note, file=out)


def report_parts(bench, title, rows, out):
    """Per part: the reference's best ms, each peer's time over it, and
    what each found."""
    ours = next((r for r in rows if r["engine"] == bench.reference), rows[0])
    names = list(ours["parts"])
    for r in rows:
        names += [n for n in r["parts"] if n not in names]
    width = max(len(n) for n in names + ["part"])
    width = min(width, 40)
    print("\n== %s, part by part (%s ms; peers: their time / %s's)" % (
        title, ours["engine"], ours["engine"]), file=out)
    print("  %-*s %10s" % (width, "part", ours["engine"] + " ms") + "".join(
        " %12s" % (r["engine"] + " x") for r in rows if r is not ours)
        + "   found (%s)" % " / ".join(r["engine"] for r in rows), file=out)
    for n in names:
        mine = ours["parts"].get(n, {})
        line = "  %-*s %10s" % (width, n[:width], "%.2f" % (mine["seconds"] * 1e3)
                                if "seconds" in mine else "error")
        for r in rows:
            if r is ours:
                continue
            p = r["parts"].get(n, {})
            line += " %12s" % ("%.2f" % p["speed_ratio"] if "speed_ratio" in p
                               else "error" if "error" in p else "-")
        found = [str(r["parts"].get(n, {}).get("found", "-")) for r in rows]
        print(line + "   " + " / ".join(found), file=out)
    for r in rows:
        for n, p in r["parts"].items():
            if "error" in p:
                print("  %s cannot run %r: %s" % (r["engine"], n, p["error"]), file=out)


def as_json(document):
    return json.dumps(document, indent=1)


def add_arguments(parser, bench):
    parser.add_argument("folder", nargs="?",
                        help="the pages (default: $LEXPY_CORPUS, then ../shared/corpus/pages)")
    parser.add_argument("--" + bench.engine_option, default=None,
                        help="comma-separated of %s (default: all)" % ", ".join(bench.engines))
    parser.add_argument("--" + bench.scenario_option, default=None,
                        help="comma-separated of %s (default: all)" % ", ".join(bench.scenarios))
    parser.add_argument("--passes", type=int, default=None,
                        help="passes per worker, best kept (default %d)" % bench.passes)
    parser.add_argument("--rounds", type=int, default=None,
                        help="interleaved rounds (default %d)" % bench.rounds)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default=None,
                        help="wall or cpu (process CPU time) (default %s)" % bench.clock)
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")


def run_from_args(bench, args):
    def split(value):
        return value.split(",") if value else None
    document = run(bench, args.folder, split(getattr(args, bench.engine_option)),
                   split(getattr(args, bench.scenario_option)), args.passes, args.rounds,
                   args.clock, progress=not args.json)
    if args.json:
        print(as_json(document))
    else:
        report(bench, document)
    return 0


def main(bench, argv=None, description=None):
    """The command line of a benchmark made of a Bench alone."""
    if worker_requested(argv):
        return worker_main(bench, argv)
    if description is None:
        doc = sys.modules["__main__"].__doc__ or bench.name
        description = doc.strip().split("\n\n")[0]
    parser = argparse.ArgumentParser(description=description)
    add_arguments(parser, bench)
    return run_from_args(bench, parser.parse_args(argv))
