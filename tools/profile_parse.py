#!/usr/bin/env python3
"""Where a parse spends its instructions: callgrind over the corpus, per stage.

    python tools/profile_parse.py [FOLDER] [--mode bytes|html|both] [--top N]
                                  [--pages N] [--json]
    python tools/profile_parse.py --check      # the guard: tools/instructions.json
    python tools/profile_parse.py --record     # measure and write that file

Method. valgrind's callgrind counts the instructions of a Python process
that loads the pages, imports lexpy and parses one small document (warm-up),
then parses every page from bytes (`lexpy.parse(page)`; --mode html: and
calls `doc.to_html()`), dropping each document before the next. The same
process without the loop is counted too, and the difference, function by
function (self cost: callgrind_annotate --inclusive=no), is the parse's.
Instructions, unlike seconds, repeat exactly for the same binary, inputs and
environment, whatever else the machine is doing; PYTHONHASHSEED is fixed.

Each function goes to a stage by where it is defined: the Cython name
(__pyx_f_5lexpy_9tokenizer_9tokenizer_scan_text) gives the module and
the function, and the function's `cdef` in that package's sources gives the
file (tokenizer/states_data.pxi); plain C functions are found in the
package's headers, Python's and libc's by their library. Build with
LEXPY_TEST_BUILD=1 (a release build strips the symbol tables: everything
would be "unknown"). What an inlined function costs counts for the function
it was inlined into.

Stages:
  sniffing and decoding      lexpy/encoding (BOM, prescan, UTF-8 validation,
                             decoders), the tokenizer's input buffer
  tokenizer states           lexpy/tokenizer: states_*.pxi, the scans, the
                             tokenizer's dispatch
  tokenizer: emit, convert   emitting tokens (emit.pxi) and the data
                             conversion of text and attribute values
                             (convert.pxi: CR/LF, NUL)
  character references       named and numeric references
  tree builder modes         treebuilder/modes/*, the token dispatch
  tree builder: stacks       the stack of open elements, active formatting,
                             adoption agency, foreign content, content
                             patching, selectedcontent
  names                      tag and attribute name lookup and hashing (core)
  nodes and attributes       creating elements, text nodes, attributes
                             (treebuilder/insertion.pxi, dom arena/nodes/
                             elements/strings)
  text appends               inserting characters into text nodes
                             (treebuilder/text.pxi, dom character data)
  serializer                 to_html (dom serializer, its buffer, escaping)
  UTF-8 to Python str        the str to_html returns (dom/strings.pxi,
                             utf8_decode.h)
  freeing the document       the arena and its proxies released
  Python wrapper             libpython (lexpy/parser.py, the loop itself,
                             object allocation, the GC) and Cython's glue
                             (argument parsing, proxies, type slots)
  libc: memory copies        memcpy, memmove, memset, memchr, ...
  libc: malloc and free      malloc, free, realloc, calloc
  other                      what matches none of these (listed with --top)

The guard (issue 38): --check measures the instructions of the corpus
parsed from bytes and of parse + to_html and fails (exit 1) when either is
more than 2% above the figures in tools/instructions.json, which holds the
commit they were measured at, the environment (Python, valgrind, the
build) and the corpus (its page names and bytes) and, for the corpus, the
per-stage counts: the profile of the same pages prints "vs <commit>", each
stage's count over the recorded one (the table before and after a change).
tests/project/test_instructions.py runs --check.
"""
import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
PACKAGE = os.path.join(ROOT, "lexpy")
RECORD = os.path.join(HERE, "instructions.json")
TOLERANCE = 0.02                       # more than 2% above the record fails
WARM_UP = b"<!DOCTYPE html><title>w</title><p class=a>x&amp;y</p>"

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

STAGES = [
    "sniffing and decoding",
    "tokenizer states",
    "tokenizer: emit, convert",
    "character references",
    "tree builder modes",
    "tree builder: stacks",
    "names",
    "nodes and attributes",
    "text appends",
    "serializer",
    "UTF-8 to Python str",
    "freeing the document",
    "Python wrapper",
    "libc: memory copies",
    "libc: malloc and free",
    "other",
]

# (package, source file) -> stage; a file not listed takes its package's.
FILE_STAGES = {
    ("tokenizer", "incoming_buffer.pxi"): "sniffing and decoding",
    ("tokenizer", "emit.pxi"): "tokenizer: emit, convert",
    ("tokenizer", "convert.pxi"): "tokenizer: emit, convert",
    ("tokenizer", "character_references.pxi"): "character references",
    ("tokenizer", "states_character_reference.pxi"): "character references",
    ("tokenizer", "entities.h"): "character references",
    ("treebuilder", "treebuilder.pyx"): "tree builder modes",
    ("treebuilder", "insertion.pxi"): "nodes and attributes",
    ("treebuilder", "text.pxi"): "text appends",
    ("dom", "serializer.pxi"): "serializer",
    ("dom", "buffer.pxi"): "serializer",
    ("dom", "escape.h"): "serializer",
    ("dom", "proxies.pxi"): "Python wrapper",
    ("dom", "strings.pxi"): "UTF-8 to Python str",
    ("dom", "utf8_decode.h"): "UTF-8 to Python str",
}
PACKAGE_STAGES = {
    "encoding": "sniffing and decoding",
    "tokenizer": "tokenizer states",
    "treebuilder": "tree builder: stacks",
    "core": "names",
    "dom": "nodes and attributes",
    "driver": "Python wrapper",
}
# By the function's own name, before its file (a dom function that frees,
# one that appends character data; the tree builder's text-in-body fast
# path, which makes the Text node from the token itself).
NAME_STAGES = [
    (re.compile(r"(^|_)(free|dealloc|release|destroy|clear)(_|$)"), "freeing the document"),
    (re.compile(r"^character_data_|^text_in_body_direct$"), "text appends"),
]
LIBC_COPIES = re.compile(r"mem(cpy|move|set|chr|rchr|cmp)|str(len|chr|cmp|ncmp)|wmem")
LIBC_MALLOC = re.compile(r"malloc|free|realloc|calloc|_int_|tcache|arena_|sbrk|mmap|munmap"
                         r"|madvise|brk|systrim|unlink_chunk|consolidate|aligned_alloc")


# ---------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------

def page_files(folder, count=None):
    names = sorted(n for n in os.listdir(folder) if n.endswith((".html", ".htm")))
    if not names:
        raise SystemExit("no .html/.htm pages in %s" % folder)
    if count:
        # A fixed subset: every k-th page by name, spread over the corpus.
        step = max(1, len(names) // count)
        names = names[::step][:count]
    return [os.path.join(folder, n) for n in names]


def worker(mode, files, run):
    """The measured process: load, import, warm up; then (run) parse."""
    pages = []
    for path in files:
        with open(path, "rb") as f:
            pages.append(f.read())
    import lexpy
    lexpy.parse(WARM_UP).to_html()
    if run:
        for page in pages:
            doc = lexpy.parse(page)
            if mode == "html":
                doc.to_html()
            del doc


def valgrind():
    path = shutil.which("valgrind")
    if path is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    return path


def callgrind(mode, files, run, out_file):
    """The process's total instructions; its profile in out_file."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(files))
        list_file = f.name
    try:
        cmd = [valgrind(), "--tool=callgrind", "--callgrind-out-file=" + out_file,
               sys.executable, os.path.abspath(__file__), "--worker", mode,
               "--files", list_file] + (["--run"] if run else [])
        env = dict(os.environ, PYTHONHASHSEED="0")
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    finally:
        os.unlink(list_file)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise SystemExit("callgrind failed:\n%s" % proc.stderr[-2000:])
    return int(found.group(1))


ANNOTATED = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(.*?):(\S+)(?: \[(.*)\])?\s*$")


def self_costs(out_file):
    """{(function, object file): instructions} of a callgrind profile."""
    proc = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100",
                           out_file], capture_output=True, text=True, check=True)
    costs = {}
    body = proc.stdout.split("file:function", 1)[-1]
    for line in body.splitlines():
        m = ANNOTATED.match(line)
        if not m:
            continue
        function = re.sub(r"'\d+$", "", m.group(3))          # recursion levels
        key = (function, os.path.basename(m.group(4) or "???"))
        costs[key] = costs.get(key, 0) + int(m.group(1).replace(",", ""))
    return costs


_BASELINES = {}


def baseline(files):
    """The process without the loop (the same for every mode): its total
    and its self costs, measured once per set of pages."""
    key = tuple(files)
    if key not in _BASELINES:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "base.out")
            total = callgrind("bytes", files, False, out)
            _BASELINES[key] = (total, self_costs(out))
    return _BASELINES[key]


def measure(mode, files, profile=True):
    """The parse's instructions: total and per function (run - baseline)."""
    base, before = baseline(files)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.out")
        total = callgrind(mode, files, True, out)
        after = self_costs(out) if profile else None
    if not profile:
        return total - base, None
    functions = {}
    for key in set(before) | set(after):
        d = after.get(key, 0) - before.get(key, 0)
        if d:
            functions[key] = d
    return total - base, functions


# ---------------------------------------------------------------------------
# Stages
# ---------------------------------------------------------------------------

def demangle(name):
    """__pyx_f_5lexpy_9tokenizer_9tokenizer_scan_text.isra.0 ->
    (["lexpy", "tokenizer", "tokenizer"], "scan_text"); None when the name
    is no Cython function's."""
    name = name.split(".", 1)[0]
    m = re.match(r"__pyx_(?:f|pw|pf|tp_[a-z]+|getprop|setprop|mp|sq|gb|scope)_(.*)", name)
    if not m:
        return None
    rest, parts = m.group(1), []
    while True:
        n = re.match(r"(\d+)", rest)
        if not n:
            break
        length = int(n.group(1))
        start = len(n.group(1))
        parts.append(rest[start:start + length])
        rest = rest[start + length:].lstrip("_")
    return parts, rest


class Definitions:
    """Where each cdef function and C function of lexpy is defined."""

    def __init__(self):
        self.by_package = {}
        for package in sorted(os.listdir(PACKAGE)):
            folder = os.path.join(PACKAGE, package)
            if not os.path.isdir(folder):
                continue
            found = {}
            for base, _, names in os.walk(folder):
                for n in sorted(names):
                    if not n.endswith((".pyx", ".pxi", ".pxd", ".h")):
                        continue
                    path = os.path.join(base, n)
                    rel = os.path.relpath(path, folder)
                    with open(path, encoding="utf-8", errors="replace") as f:
                        text = f.read()
                    if n.endswith(".h"):
                        # a function, or one a macro defines: F(name, ...)
                        pattern = (r"^(?:[A-Za-z_][\w \t\*]*?\b(\w+)\s*\([^;{]*\)\s*\{"
                                   r"|[A-Z][A-Z0-9_]*DEFINE\w*\((\w+))")
                    else:
                        pattern = r"^\s*c(?:p)?def\s[^=\n(]*?\b(\w+)\s*\("
                    for m in re.finditer(pattern, text, re.M):
                        name = m.group(1) or m.group(2)
                        # a .pxd only declares: a .pyx/.pxi definition wins
                        if name not in found or found[name].endswith(".pxd"):
                            found[name] = rel
            self.by_package[package] = found

    def locate(self, package, function):
        return self.by_package.get(package, {}).get(function)

    def anywhere(self, function):
        for package, found in self.by_package.items():
            if function in found:
                return package, found[function]
        return None


def stage_of(function, obj, definitions):
    """(stage, where) for a function of the profile."""
    if obj.startswith("libc.so") or obj.startswith("libc-"):
        if LIBC_MALLOC.search(function):
            return "libc: malloc and free", "libc"
        if LIBC_COPIES.search(function):
            return "libc: memory copies", "libc"
        return "other", "libc"
    if obj.startswith("libpython") or obj.startswith("python3") or (
            re.match(r"_?Py|\w*(dealloc|richcompare)$", function)):
        return "Python wrapper", "libpython"
    cython = demangle(function)
    lexpy_object = obj.endswith(".so") and "lexpy" in function or obj.split(".")[0] in (
        "tokenizer", "treebuilder", "dom", "encoding", "core", "driver", "selectors",
        "text", "_testing")
    if cython is not None:
        parts, name = cython
        if not function.startswith("__pyx_f_"):
            return "Python wrapper", "cython glue"
        package = parts[1] if len(parts) > 1 and parts[0] == "lexpy" else None
        for pattern, stage in NAME_STAGES:
            if pattern.search(name):
                return stage, "%s (by name)" % package
        where = definitions.locate(package, name) if package else None
        if where is None:
            # a method: the last part is its class
            where = definitions.locate(package, name.split("_", 1)[-1]) if package else None
        if where is not None:
            rel = where.replace(os.sep, "/")
            if package == "treebuilder" and rel.startswith("modes/"):
                return "tree builder modes", "treebuilder/" + rel
            stage = FILE_STAGES.get((package, os.path.basename(rel)),
                                    PACKAGE_STAGES.get(package, "other"))
            return stage, "%s/%s" % (package, rel)
        return PACKAGE_STAGES.get(package, "other"), "%s/?" % package
    if function.startswith("__Pyx") or function.startswith("__pyx"):
        return "Python wrapper", "cython glue"
    base = function.split(".", 1)[0]
    located = definitions.anywhere(base) if lexpy_object else None
    if located is not None:
        package, rel = located
        for pattern, stage in NAME_STAGES:
            if pattern.search(base):
                return stage, "%s (by name)" % package
        stage = FILE_STAGES.get((package, os.path.basename(rel)),
                                PACKAGE_STAGES.get(package, "other"))
        return stage, "%s/%s" % (package, rel)
    return "other", obj


def by_stage(functions):
    definitions = Definitions()
    stages = {s: {"instructions": 0, "functions": []} for s in STAGES}
    for (function, obj), count in functions.items():
        stage, where = stage_of(function, obj, definitions)
        stages[stage]["instructions"] += count
        stages[stage]["functions"].append((count, function, obj, where))
    for s in stages.values():
        s["functions"].sort(reverse=True)
    return stages


# ---------------------------------------------------------------------------
# Reports
# ---------------------------------------------------------------------------

def environment():
    version = subprocess.run([valgrind(), "--version"], capture_output=True,
                             text=True).stdout.strip()
    try:
        compiler = subprocess.run([sysconfig.get_config_var("CC").split()[0], "-dumpfullversion"],
                                  capture_output=True, text=True).stdout.strip()
    except (OSError, AttributeError, IndexError):
        compiler = "unknown"
    return {"python": platform.python_version(), "valgrind": version,
            "machine": platform.machine(),
            "compiler": "%s %s" % (sysconfig.get_config_var("CC").split()[0], compiler),
            "build": "LEXPY_TEST_BUILD=1" if os.environ.get("LEXPY_TEST_BUILD") == "1"
            or _test_build() else "release"}


def _test_build():
    try:
        import lexpy.tokenizer._testing  # noqa: F401  (built by test builds only)
        return True
    except ImportError:
        return False


def recorded_stages(files):
    """The record's per-stage counts when it was measured on these pages."""
    try:
        with open(RECORD) as f:
            record = json.load(f)
    except OSError:
        return None
    corpus = record["sets"].get("corpus", {})
    if "stages" not in corpus or corpus["names"] != [os.path.basename(f) for f in files]:
        return None
    return {"commit": record["commit"], "stages": corpus["stages"],
            "totals": {"bytes": corpus["parse_bytes"], "html": corpus["parse_to_html"]}}


def corpus_summary(files):
    return {"pages": len(files), "bytes": sum(os.path.getsize(f) for f in files),
            "names": [os.path.basename(f) for f in files]}


def profile(args):
    files = page_files(args.folder, args.pages)
    size = sum(os.path.getsize(f) for f in files)
    modes = ["bytes", "html"] if args.mode == "both" else [args.mode]
    document = {"folder": args.folder, "pages": len(files), "bytes": size,
                "environment": environment(), "modes": {}}
    for mode in modes:
        total, functions = measure(mode, files)
        stages = by_stage(functions)
        document["modes"][mode] = {
            "instructions": total, "per_byte": total / size,
            "stages": {name: {"instructions": s["instructions"],
                              "share": s["instructions"] / total,
                              "top": [{"function": f, "object": o, "where": w,
                                       "instructions": c}
                                      for c, f, o, w in s["functions"][:args.top]]}
                       for name, s in stages.items()}}
    recorded = recorded_stages(files)
    if recorded:
        document["recorded"] = recorded
    if args.json:
        print(json.dumps(document, indent=1))
        return 0
    titles = {"bytes": "parse from bytes", "html": "parse + to_html"}
    print("%d pages, %.1f MB (%s); Python %s, %s, %s build" % (
        len(files), size / 1e6, args.folder, document["environment"]["python"],
        document["environment"]["valgrind"], document["environment"]["build"]))
    versus = " vs %s" % recorded["commit"] if recorded else ""
    print("\n%-26s" % "stage" + "".join("%24s%s" % (titles[m], "%12s" % versus if recorded
                                                     else "") for m in modes))

    def against(mode, now, then):
        if not recorded:
            return ""
        return "%11s " % ("%.3fx" % (now / then) if then else "-" if not now else "new")
    for name in STAGES:
        row = "%-26s" % name
        for mode in modes:
            s = document["modes"][mode]["stages"][name]
            row += "%15s %6.1f%% " % ("{:,}".format(s["instructions"]), 100 * s["share"])
            row += against(mode, s["instructions"],
                           recorded and recorded["stages"][mode].get(name, 0))
        print(row)
    row = "%-26s" % "total"
    for mode in modes:
        m = document["modes"][mode]
        row += "%15s %4.1f/B " % ("{:,}".format(m["instructions"]), m["per_byte"])
        row += against(mode, m["instructions"], recorded and recorded["totals"][mode])
    print(row)
    if recorded:
        print("(vs %s: this run / tools/instructions.json, recorded at %s)"
              % (recorded["commit"], recorded["commit"]))
    if args.top:
        for mode in modes:
            print("\n== %s: the top functions of each stage" % titles[mode])
            for name in STAGES:
                top = document["modes"][mode]["stages"][name]["top"]
                if not top:
                    continue
                print("  %s" % name)
                for t in top:
                    print("    %14s  %-60s %s" % ("{:,}".format(t["instructions"]),
                                                  t["function"][:60], t["where"]))
    return 0


# ---------------------------------------------------------------------------
# The guard
# ---------------------------------------------------------------------------

def counts(folder, names=None, pages=None, stages=False):
    """(files, {mode: instructions}[, {mode: {stage: instructions}}])."""
    files = ([os.path.join(folder, n) for n in names] if names is not None
             else page_files(folder, pages))
    missing = [f for f in files if not os.path.isfile(f)]
    if missing:
        raise SystemExit("pages missing from %s: %s" % (folder, ", ".join(missing[:5])))
    totals, per_stage = {}, {}
    for mode in ("bytes", "html"):
        totals[mode], functions = measure(mode, files, profile=stages)
        if stages:
            per_stage[mode] = {name: s["instructions"]
                               for name, s in by_stage(functions).items()}
    return (files, totals, per_stage) if stages else (files, totals)


def record(args):
    files, measured, per_stage = counts(args.folder, stages=True)
    sets = {"corpus": dict(corpus_summary(files), parse_bytes=measured["bytes"],
                           parse_to_html=measured["html"], stages=per_stage)}
    if args.subset:
        files, measured = counts(args.folder, pages=args.subset)
        sets["subset"] = dict(corpus_summary(files), parse_bytes=measured["bytes"],
                              parse_to_html=measured["html"])
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=ROOT).stdout.strip()
    document = {"commit": args.commit or commit, "tolerance": TOLERANCE,
                "measure": "callgrind instructions of the pages parsed from bytes "
                           "(lexpy.parse(page)) and parsed + to_html, less the same "
                           "process without the loop (tools/profile_parse.py)",
                "environment": environment(), "sets": sets}
    with open(args.file, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    print(json.dumps({k: {m: v[m] for m in ("pages", "bytes", "parse_bytes", "parse_to_html")}
                      for k, v in sets.items()}, indent=1))
    return 0


def compare(recorded, set_name, measured):
    """{key: {recorded, measured, ratio, over}} of the two counts against a
    record; `over`: more than its tolerance above it."""
    tolerance = recorded.get("tolerance", TOLERANCE)
    out = {}
    for mode, key in (("bytes", "parse_bytes"), ("html", "parse_to_html")):
        base = recorded["sets"][set_name][key]
        ratio = measured[mode] / base
        out[key] = {"recorded": base, "measured": measured[mode], "ratio": ratio,
                    "over": ratio > 1 + tolerance}
    return out


def environment_differences(recorded):
    here = environment()
    return {k: [recorded["environment"].get(k), v] for k, v in here.items()
            if recorded["environment"].get(k) != v}


def check(args):
    with open(args.file) as f:
        recorded = json.load(f)
    differs = environment_differences(recorded)
    if differs:
        print("the environment differs from the record's (%s): instruction counts are "
              "comparable only in the same one; measure main's again with "
              "`python tools/profile_parse.py --record` in this environment" % differs)
        return 1
    files, measured = counts(args.folder, names=recorded["sets"][args.set]["names"])
    result = compare(recorded, args.set, measured)
    if args.json:
        print(json.dumps({"set": args.set, "pages": len(files), "commit": recorded["commit"],
                          "counts": result}, indent=1))
    else:
        for key, r in result.items():
            print("%-14s %15s  recorded %15s at %s  %.4fx%s" % (
                key, "{:,}".format(r["measured"]), "{:,}".format(r["recorded"]),
                recorded["commit"], r["ratio"], "  <-- more than %g%% above" % (
                    100 * recorded.get("tolerance", TOLERANCE)) if r["over"] else ""))
    return 1 if any(r["over"] for r in result.values()) else 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folder", nargs="?",
                   help="the pages (default: $LEXPY_CORPUS, then ../shared/corpus/pages)")
    p.add_argument("--mode", choices=["bytes", "html", "both"], default="both")
    p.add_argument("--pages", type=int, help="a fixed subset: N pages spread by name")
    p.add_argument("--top", type=int, default=0, help="list each stage's top N functions")
    p.add_argument("--json", action="store_true")
    p.add_argument("--check", action="store_true",
                   help="fail when the counts are more than 2%% above the record")
    p.add_argument("--record", action="store_true", help="write the record")
    p.add_argument("--set", default="corpus", help="--check: corpus or subset")
    p.add_argument("--subset", type=int, default=20,
                   help="--record: also record a subset of N pages (0: none)")
    p.add_argument("--commit", help="--record: the commit measured (default: HEAD)")
    p.add_argument("--file", default=RECORD, help="the record (tools/instructions.json)")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--files", help=argparse.SUPPRESS)
    p.add_argument("--run", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        with open(args.files) as f:
            worker(args.worker, f.read().splitlines(), args.run)
        return 0
    if args.folder is None:
        from tests.conformance.data import corpus_dir
        args.folder = str(corpus_dir())
    if args.record:
        return record(args)
    if args.check:
        return check(args)
    return profile(args)


if __name__ == "__main__":
    sys.exit(main())
