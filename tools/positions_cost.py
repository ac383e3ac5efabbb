#!/usr/bin/env python3
"""What source positions cost a parse that does not ask for them (issue 37:
`parse(positions=False)` within 0.5% of the instructions without them).

    python tools/positions_cost.py [FOLDER] [--keep DIR] [--top N] [--json]

Method. The parser before positions existed cannot be rebuilt beside
today's (every later change would count too), so the same source is
measured twice: as it is, parsing with positions off (the default), and
with the code that records positions compiled out. For the second, the
working tree is copied (without .git) into a temporary directory, the
substitutions below are applied to the copy (each must match: a pattern
that no longer matches fails the run rather than measuring nothing), the
changed modules are rebuilt there (LEXPY_TEST_BUILD=1), and
tools/profile_parse.py --mode bytes counts the corpus parse from bytes in
both trees (callgrind, deterministic). What is compiled out is every test
of the parse's path that exists only for positions: the tree builder's
`tb.positions.on` and `tb.positions.end_tag != NULL` branches, the node
allocation's room for a source record (`doc.record_sources`, 0 when off)
and the mutation marks' `record_sources` test. The tokenizer and the driver
have no per-token positions code in a parse without positions (the
tokenizer's tokenizer_token_span and the driver's source map are called
only when positions are on).

Prints both totals, the cost (off / compiled out - 1) and the functions
whose counts differ most. Not in any standard.
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
BAR = 0.005                 # issue 37: within 0.5%

# (file, pattern, replacement): every pattern must match at least once.
SUBSTITUTIONS = [
    ("lexpy/treebuilder/*.pxi", r"\bif tb\.positions\.on and ", "if False and "),
    ("lexpy/treebuilder/*.pxi", r"\bif tb\.positions\.on:", "if False:"),
    ("lexpy/treebuilder/*.pxi", r"\bif tb\.positions\.end_tag != NULL:", "if False:"),
    ("lexpy/dom/nodes.pxi", r"cdef size_t prefix = doc\.record_sources\b",
     "cdef size_t prefix = 0"),
    ("lexpy/dom/nodes.pxi",
     r"if node\.owner\.record_sources and not node\.owner\.building:", "if False:"),
]


def files_of(tree, pattern):
    folder, _, name = pattern.rpartition("/")
    regex = re.compile("^" + re.escape(name).replace(r"\*", ".*") + "$")
    base = os.path.join(tree, folder)
    return sorted(os.path.join(base, n) for n in os.listdir(base) if regex.match(n))


def compile_out(tree):
    """Apply SUBSTITUTIONS to the copy; (file, count) of what changed."""
    done = []
    for pattern, regex, replacement in SUBSTITUTIONS:
        total = 0
        for path in files_of(tree, pattern):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            text, count = re.subn(regex, replacement, text)
            if count:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
                done.append((os.path.relpath(path, tree), regex, count))
                total += count
        if total == 0:
            raise SystemExit("positions_cost: %r matches nothing in %s: update "
                             "SUBSTITUTIONS to the current code" % (regex, pattern))
    return done


def copy_tree(destination):
    def ignore(folder, names):
        return [n for n in names if n == ".git" or n == "__pycache__"]
    shutil.copytree(ROOT, destination, ignore=ignore, symlinks=True)


def build(tree):
    env = dict(os.environ, LEXPY_TEST_BUILD="1")
    proc = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"],
                          cwd=tree, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit("build failed in %s:\n%s" % (tree, proc.stderr[-3000:]))


def measure(tree, folder, top):
    proc = subprocess.run([sys.executable, os.path.join(tree, "tools", "profile_parse.py"),
                           folder, "--mode", "bytes", "--json", "--top", str(top)],
                          cwd=tree, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit("profile_parse failed in %s:\n%s" % (tree, proc.stderr[-3000:]))
    data = json.loads(proc.stdout)["modes"]["bytes"]
    functions = {}
    for stage in data["stages"].values():
        for entry in stage.get("top", []):
            functions[entry["function"]] = (functions.get(entry["function"], 0)
                                            + entry["instructions"])
    return data["instructions"], functions


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folder", nargs="?",
                   help="the pages (default: $LEXPY_CORPUS, then ../shared/corpus/pages)")
    p.add_argument("--keep", help="build the compiled-out copy in DIR and keep it")
    p.add_argument("--top", type=int, default=12, help="list the N largest differences")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.folder is None:
        sys.path.insert(0, ROOT)
        from tests.conformance.data import corpus_dir
        args.folder = str(corpus_dir())
    folder = os.path.abspath(args.folder)
    temporary = None
    if args.keep:
        tree = os.path.abspath(args.keep)
        if os.path.exists(tree):
            raise SystemExit("--keep: %s exists" % tree)
    else:
        temporary = tempfile.mkdtemp(prefix="lexpy-positions-out-")
        tree = os.path.join(temporary, "tree")
    try:
        copy_tree(tree)
        changed = compile_out(tree)
        build(tree)
        off, off_functions = measure(ROOT, folder, 400)
        out, out_functions = measure(tree, folder, 400)
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)
    cost = off / out - 1
    differences = sorted(
        ((off_functions.get(k, 0) - out_functions.get(k, 0), k)
         for k in set(off_functions) | set(out_functions)), key=lambda d: -abs(d[0]))
    if args.json:
        print(json.dumps({"positions_off": off, "compiled_out": out, "cost": cost,
                          "bar": BAR, "changed": changed,
                          "differences": differences[:args.top]}, indent=1))
    else:
        for path, regex, count in changed:
            print("compiled out: %-40s %2d x %s" % (path, count, regex))
        print("positions off:          %15s instructions" % "{:,}".format(off))
        print("positions compiled out: %15s instructions" % "{:,}".format(out))
        print("cost of positions when off: %+.2f%% (bar: %.1f%%)" % (100 * cost, 100 * BAR))
        for d, name in differences[:args.top]:
            print("  %+12s  %s" % ("{:,}".format(d), name))
    return 0 if cost <= BAR else 1


if __name__ == "__main__":
    sys.exit(main())
