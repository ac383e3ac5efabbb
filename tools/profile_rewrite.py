#!/usr/bin/env python3
"""The streaming rewriter's instructions per scenario (callgrind): the
deterministic counterpart of tools/bench_rewrite.py.

    python tools/profile_rewrite.py [FOLDER] [--scenarios a,b] [--top N]
                                    [--json]

Method (as tools/profile_parse.py): valgrind's callgrind counts the
instructions of a Python process that loads the valid UTF-8 corpus pages
(the inputs of bench_rewrite.py), cuts them into 16 KiB chunks, imports
lexpy and runs one small rewrite (warm-up); then runs the scenario over
every page. The same process without the loop is counted too, and the
difference is the scenario's. One process per scenario; PYTHONHASHSEED is
fixed, so the counts repeat whatever the machine's load.

--keep DIR keeps the profiles (for callgrind_annotate --tree=caller).

Scenarios: those of bench_rewrite.py (its SETUPS, the same handlers) and
`parse`, the chunked `lexpy.Parser.feed` alone (what the rewriter runs
under it). --top N lists the N functions that cost most in each scenario
(self cost, the loop's share).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import bench_rewrite  # noqa: E402
import harness  # noqa: E402
from profile_parse import self_costs  # noqa: E402

SCENARIOS = ["parse", "none", "nomatch", "all", "links", "text-p",
             "remove-script", "append-body"]
WARM_UP = b"<!DOCTYPE html><title>w</title><p class=a>x&amp;y<a href=/x>l</a></p>"


def worker(scenario, folder, run):
    """The measured process: load, cut, import, warm up; then (run) the
    scenario over every page."""
    pages = [bench_rewrite._chunks(p) for p in bench_rewrite.inputs(folder, None).items]
    import lexpy
    from lexpy import RewriteError, Rewriter
    if scenario == "parse":
        p = lexpy.Parser()
        p.feed(WARM_UP)
        p.close()
        if run:
            for chunks in pages:
                p = lexpy.Parser()
                for chunk in chunks:
                    p.feed(chunk)
                p.close()
        return
    setup = bench_rewrite.SETUPS[scenario]
    rw = setup(Rewriter())
    rw.feed(WARM_UP)
    rw.close()
    if run:
        for chunks in pages:
            rw = setup(Rewriter())
            try:
                out = [rw.feed(chunk) for chunk in chunks]
                out.append(rw.close())
            except RewriteError:
                pass


def callgrind(scenario, folder, run, out_file):
    cmd = [shutil.which("valgrind") or "valgrind", "--tool=callgrind",
           "--callgrind-out-file=" + out_file, sys.executable, os.path.abspath(__file__),
           "--worker", scenario, folder] + (["--run"] if run else [])
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise SystemExit("callgrind failed:\n%s" % proc.stderr[-2000:])
    return int(found.group(1))


def measure(scenario, folder, top, tmp):
    base_out = os.path.join(tmp, "base-%s.out" % scenario)
    run_out = os.path.join(tmp, "run-%s.out" % scenario)
    base = callgrind(scenario, folder, False, base_out)
    total = callgrind(scenario, folder, True, run_out)
    functions = []
    if top:
        before, after = self_costs(base_out), self_costs(run_out)
        diff = {k: after.get(k, 0) - before.get(k, 0) for k in set(before) | set(after)}
        functions = sorted(((d, k[0], k[1]) for k, d in diff.items() if d), reverse=True)[:top]
    return total - base, functions


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default=None)
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    ap.add_argument("--top", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--keep", metavar="DIR",
                    help="keep the callgrind profiles in DIR (base-S.out, run-S.out)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--run", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    folder = args.folder or harness.default_folder()
    if args.worker:
        worker(args.worker, folder, args.run)
        return 0
    pages = bench_rewrite.inputs(folder, None).items
    size = sum(map(len, pages))
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            tmp = args.keep
        for scenario in args.scenarios.split(","):
            if scenario not in SCENARIOS:
                raise SystemExit("unknown scenario %r (%s)" % (scenario, ", ".join(SCENARIOS)))
            count, functions = measure(scenario, folder, args.top, tmp)
            results[scenario] = count
            if not args.json:
                print("%-14s %8.1fM  %5.1f per byte" % (scenario, count / 1e6, count / size),
                      flush=True)
                for d, function, obj in functions:
                    print("      %9.2fM  %s [%s]" % (d / 1e6, function, obj))
    if args.json:
        print(json.dumps({"pages": len(pages), "bytes": size, "instructions": results}))
    else:
        print("%d pages, %d bytes, 16 KiB chunks" % (len(pages), size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
