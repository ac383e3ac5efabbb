"""Linear cost on hostile input (DESIGN.md performance budget): the one
harness that times growth per doubling of input.

Each hostile shape (tools/bench.py hostile_shapes: deep nesting, unclosed
and misnested formatting elements, huge attribute lists and values, long
and nested tables, deep SVG and MathML, many character references, unknown
names that collide under FNV-1a), the shapes that repeat a walk down a deep
stack of open elements (WALKS) and the tokenizer's own shapes (TOKENIZER,
timed with count_tokens) is timed at a size N and at 2N, and the time per
doubling must stay under BOUND. Linear code doubles (ratio 2), quadratic
code quadruples (ratio 4), so a quadratic regression fails here.

Sizes are much smaller than the benchmark's (N doubles from a 64th of the
shape's size until one run takes MIN_SECONDS, up to a 16th of it or a
document of MAX_BYTES), so the suite stays fast and the memory system's own
growth (caches shared with a busy neighbour, page faults, malloc's switch
to mmap) stays out of it; a quadratic walk at these sizes still dwarfs the
linear work. Noise is kept out by measuring process CPU time, the median of
several interleaved batches of equal length, and a second and third attempt
before a ratio above the bound counts; and every measurement sets its own
conditions (measuring(): malloc keeps freed memory, no garbage collection
while timing), so that a case times the same alone and after any other
test in the process. `python tools/bench.py --hostile`
gives the full-size figures.

The tree dump is timed on shallow shapes only: its format indents each line
by the node's depth, so its output (and time) for a tree nested N deep
grows as N squared by definition.
"""
import contextlib
import ctypes
import gc
import json
import statistics
import subprocess
import sys
import time

import pytest

import lexpy
from tests.tools import TOOLS, load_tool
from tests.helpers import require_test_build

count_tokens = require_test_build("lexpy.tokenizer._testing").count_tokens

BOUND = 3.0
MIN_SECONDS = 0.001       # one run of the N document, at least
BATCH_SECONDS = 0.004     # a timed batch of runs of it, at least
MAX_BYTES = 1 << 18       # N stops doubling at a document this long
BATCHES = 5               # batches per size, the median kept
ATTEMPTS = 3

SHAPES = load_tool("bench").hostile_shapes()

# More shapes that were quadratic once: each repeats a step the standard
# describes as a walk down the stack of open elements (or the list of
# active formatting elements) on a deep stack (or a long list).
# name -> (N, maker).
WALKS = {
    "foster-parenting-in-nested-tables": (10000, lambda n: b"<table>x<tr><td>" * n),
    "distinct-formatting-elements": (
        20000, lambda n: b"".join(b"<b id=%d>" % i for i in range(n)) + b"<p>x</p>" * n),
    "reconstruct-under-deep-stack": (
        100000, lambda n: b"<b>" + b"<div>" * n + b"x<!---->" * n),
    "p-in-button-scope-behind-object": (100000, lambda n: b"<p><object>" + b"<div>" * n),
    "list-item-scope-end-tags": (
        100000, lambda n: b"<li><object>" + b"<span>" * n + b"</li>" * n),
    "body-end-tags-on-deep-stack": (100000, lambda n: b"<span>" * n + b"</body>" * n),
    "li-after-deep-divs": (100000, lambda n: b"<div>" * n + b"<li></li>" * n),
    "tables-in-deep-spans": (100000, lambda n: b"<span>" * n + b"<table></table>" * n),
    "unknown-end-tags-on-deep-stack": (
        100000, lambda n: b"<x-a>" + b"<span>" * n + b"</x-b>" * n),
    "foreign-end-tags-on-deep-svg": (
        100000, lambda n: b"<svg>" + b"<g>" * n + b"</x>" * n),
    "a-start-tags-on-deep-stack": (100000, lambda n: b"<a>" + b"<span>" * n + b"<a>" * n),
    # An option's select found by walking up a deep select.
    "options-deep-in-select": (
        50000, lambda n: b"<select><selectedcontent></selectedcontent>"
        + b"<div>" * n + b"<option>x</option>" * n),
    # Options in deep elements that the first clone into the selectedcontent
    # took out of the tree: each option's tree root is looked up.
    "options-in-detached-deep-divs": (
        50000, lambda n: b"<select><selectedcontent>" + b"<div>" * n
        + b"<option>x</option>" * n),
    # <template for>: "find markers" is a walk over the scope's descendants
    # for each template, the patched range a walk along siblings.
    "template-for-markers-then-templates": (
        50000, lambda n: b"".join(b'<?marker name="m%d">' % i for i in range(n))
        + b"".join(b'<template for="m%d">x</template>' % i for i in range(n))),
    "template-for-templates-then-markers": (
        50000, lambda n: b"".join(b'<template for="m%d">x</template>' % i for i in range(n))
        + b"".join(b'<?marker name="m%d">' % i for i in range(n))),
    "template-for-interleaved-ranges": (
        50000, lambda n: b"".join(b'<p><?start name="r%d">old<b>x</b><?end></p>'
                                  b'<template for="r%d"><i>new</i></template>' % (i, i)
                                  for i in range(n))),
    "template-for-one-name": (
        50000, lambda n: b'<?marker name="m">' * n + b'<template for="m"><b>x</b></template>' * n),
    "template-for-markers-nested-deep": (
        50000, lambda n: b"".join(b'<div><?marker name="m%d">' % i for i in range(n))
        + b"</div>" * n + b"".join(b'<template for="m%d">x</template>' % i for i in range(n))),
    "template-for-in-deepest-of-marked-divs": (
        50000, lambda n: b"".join(b'<div><?marker name="m%d">' % i for i in range(n))
        + b"".join(b'<template for="m%d">x</template>' % i for i in range(n))),
    "template-for-start-without-end-deep": (
        50000, lambda n: b'<?start name="a">' + b"<div>" * n + b"x" + b"</div>" * n
        + b'<?start name="b">' * n + b'<template for="a">y</template>'),
    "template-for-patching-own-ancestors": (
        50000, lambda n: b'<head></head><?start name="a"><body>' + b"<span>" * n
        + b'<template for="a">' + b"<i>x</i>" * n + b"</template>after"),
}

# The tokenizer's shapes: long tokens and long runs, N in bytes.
TOKENIZER = {
    "long-comment": (1 << 20, lambda n: b"<!--" + b"-a" * (n // 2) + b"-->"),
    "long-attribute-value": (1 << 20, lambda n: b"<a b='" + b"x&amp;" * (n // 6) + b"'>"),
    "many-attribute-names": (
        1 << 20, lambda n: b"<a " + b" ".join(b"a%d" % i for i in range(n // 7)) + b">"),
    "long-numeric-reference": (1 << 20, lambda n: b"&#" + b"0" * n + b"65;"),
    "many-ampersands": (1 << 20, lambda n: b"&a" * (n // 2)),
    "long-tag-name": (1 << 20, lambda n: b"<" + b"a" * n + b">"),
    "script-with-less-than-signs": (
        1 << 20, lambda n: b"<!--<script>" + b"a<b</s" * (n // 6)),
    "unclosed-doctype": (1 << 20, lambda n: b"<!DOCTYPE html PUBLIC '" + b"x" * n),
}


@contextlib.contextmanager
def measuring():
    """The conditions of every timed measurement, whatever ran before it in
    the process (so that a test times the same alone and after others):

    - glibc's malloc keeps what is freed (no trimming of the heap, no block
      mapped on its own under 32 MiB), so that a run does not pay page
      faults to take back pages the run before gave away: a cost per byte
      that is not the code's, and that jumps where a buffer crosses the
      mmap threshold (128 KiB once any mallopt call has fixed it: glibc
      then stops raising it as big blocks are freed, for the life of the
      process, so "its defaults" cannot be put back; the teardown sets the
      eager 128 KiB, which gives memory back to the tests that follow);
    - no cyclic garbage collection during the timing (collected first, then
      disabled, as timeit does): a collection's cost is that of every object
      the process holds, pytest's and earlier tests' included, and comes in
      lumps that land in some batches and not others."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        mallopt = None
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
    EAGER_THRESHOLD = 128 * 1024          # glibc's initial value of both
    if mallopt is not None:
        mallopt(M_TRIM_THRESHOLD, 1 << 30)
        mallopt(M_MMAP_THRESHOLD, 32 << 20)
    collecting = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
        if mallopt is not None:
            mallopt(M_TRIM_THRESHOLD, EAGER_THRESHOLD)
            mallopt(M_MMAP_THRESHOLD, EAGER_THRESHOLD)


def _feed_in_chunks(data, size=4096):
    parser = lexpy.Parser()
    for i in range(0, len(data), size):
        parser.feed(data[i:i + size])
    return parser.close()


# What is timed: a function of the document's bytes, and the step that
# prepares its argument (outside the timing).
OPERATIONS = {
    "parse": (lambda data: data, lexpy.parse),
    "feed": (lambda data: data, _feed_in_chunks),
    "to_html": (lexpy.parse, lambda document: document.to_html()),
    "dump": (lexpy.parse, lexpy.dump),
    "tokenize": (lambda data: data, count_tokens),
    "tokenize-chunked": (lambda data: data, lambda data: count_tokens(data, chunk_size=512)),
    "tokenize-chunked-errors": (
        lambda data: data,
        lambda data: count_tokens(data, chunk_size=512, collect_errors=True)),
}
ALL_SHAPES = {**SHAPES, **WALKS, **TOKENIZER}
CASES = [("parse", shape) for shape in {**SHAPES, **WALKS}] + \
        [("to_html", shape) for shape in SHAPES] + \
        [("feed", shape) for shape in ("attribute-value", "attributes", "nested-div")] + \
        [("dump", shape) for shape in ("table-cells", "attributes", "char-refs")] + \
        [(operation, shape) for shape in TOKENIZER
         for operation in ("tokenize", "tokenize-chunked", "tokenize-chunked-errors")]


def batch_seconds(operation, argument, runs):
    """CPU time of this thread for `runs` runs of operation(argument): the
    operations run in the calling thread, GIL or no GIL, and another thread
    of the process (one a test before left running) that takes the GIL
    while a long text is decoded without it is not counted."""
    start = time.thread_time()
    for _ in range(runs):
        operation(argument)
    return time.thread_time() - start


def ratio_per_doubling(prepare, operation, make, size, settled=lambda ratio: ratio <= BOUND):
    """Time per run at N and at 2N (the median of BATCHES batches, the two
    sizes interleaved): their ratio, and N. A ratio that is not `settled`
    (by default: one above the bound) is measured again, up to ATTEMPTS
    times, so one noisy attempt does not decide a case.
    All of it runs under measuring()'s conditions."""
    with measuring():
        return _ratio_per_doubling(prepare, operation, make, size, settled)


def _ratio_per_doubling(prepare, operation, make, size, settled):
    n = max(1, size // 64)
    while n < size // 16 and len(make(n)) < MAX_BYTES \
            and batch_seconds(operation, prepare(make(n)), 1) < MIN_SECONDS:
        n *= 2
    small, large = prepare(make(n)), prepare(make(2 * n))
    runs = 1
    while runs < 64 and batch_seconds(operation, small, runs) < BATCH_SECONDS:
        runs *= 2
    ratio = None
    for _ in range(ATTEMPTS):
        times_small, times_large = [], []
        for _ in range(BATCHES):
            # Batches of equal length (twice the runs of N as of 2N): a
            # shared machine's interruptions hit both alike.
            times_small.append(batch_seconds(operation, small, 2 * runs))
            times_large.append(batch_seconds(operation, large, runs))
        ratio = 2 * statistics.median(times_large) / max(statistics.median(times_small), 1e-9)
        if settled(ratio):
            break
    return n, ratio


@pytest.mark.parametrize("operation,shape", CASES, ids=["%s-%s" % case for case in CASES])
def test_time_grows_linearly(operation, shape):
    prepare, run = OPERATIONS[operation]
    size, make = ALL_SHAPES[shape]
    n, ratio = ratio_per_doubling(prepare, run, make, size)
    assert ratio <= BOUND, "%s of %s: time x%.2f from N=%d to 2N" % (
        operation, shape, ratio, n)


def test_a_quadratic_operation_fails_the_check():
    """The check itself tells linear from quadratic: an operation whose
    cost is all in a quadratic loop (each step scans the whole prefix)
    gives a ratio near 4. It gets the same retries as the linear cases,
    in its own direction: an attempt at or under the bound is measured
    again."""
    def quadratic(data):
        total = 0
        for i in range(0, len(data), 64):
            total += data.count(b"<", 0, i)
        return total
    n, ratio = ratio_per_doubling(lambda data: data, quadratic,
                                  lambda n: b"<b>" * n, 1 << 20,
                                  settled=lambda ratio: ratio > BOUND)
    assert ratio > BOUND, "x%.2f at N=%d" % (ratio, n)


@pytest.mark.parametrize("malloc", ["keep", "default"])
def test_the_benchmark_times_a_shape_under_either_malloc_policy(malloc):
    """`tools/bench.py --hostile` runs its worker under the allocator
    policy asked for (keep: malloc keeps freed memory, the default) and
    says which in its report."""
    proc = subprocess.run(
        [sys.executable, str(TOOLS / "bench.py"), "--hostile", "--shapes", "nested-div",
         "--min-seconds", "0.001", "--passes", "1", "--bound", "100", "--json",
         "--malloc", malloc],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["malloc"] == malloc
    (result,) = report["results"]
    (row,) = result["rows"]
    assert row["shape"] == "nested-div" and row["seconds_n"] > 0 and row["seconds_2n"] > 0


# Selectors (lexpy.selectors) on deep trees: matching must not go
# exponential or quadratic where a walk can stop early. name -> (N, document
# maker, selector); the document is parsed outside the timing. Timed, as
# the shapes above, with their bound (a quadratic walk measures about 4;
# the 2.3 per doubling is a bound on instructions, which timing on
# a shared machine cannot resolve: a deep tree's walk is bound by memory).
SELECTOR_BOUND = BOUND
SELECTOR_SHAPES = {
    "descendant-chain-on-deep-divs": (
        100000, lambda n: b"<div>" * n + b"<span></span>",
        "div div div div div div div div span"),
    "descendant-chain-on-deep-spans": (
        100000, lambda n: b"<span>" * n, "div div div div div div div div span"),
    "has-descendants-on-deep-divs": (10000, lambda n: b"<div>" * n, ":has(div div div)"),
    # :has() whose argument matches nowhere, asked of every element of a
    # deep tree: each anchor's subtree holds most of the tree.
    "has-failing-everywhere-on-deep-divs": (10000, lambda n: b"<div>" * n, "*:has(x)"),
    "has-chain-failing-everywhere-on-deep-divs": (
        10000, lambda n: b"<div>" * n, "div:has(p > x), div:has(> p x)"),
    "has-on-deep-divs-with-a-leaf": (
        10000, lambda n: b"<div>" * n + b"<x></x>", "*:has(x):not(:has(y))"),
    # Sibling indexes on one long list of siblings (counted once per parent).
    # Each index is asked of every element, but few match: the time is the
    # matcher's, not the making of proxies for half the list.
    "nth-child-on-long-list": (
        100000, lambda n: b"<ul>" + b"<li>x" * n, "li:nth-child(2n+1):nth-last-child(-n+2)"),
    "nth-last-child-on-long-list": (
        100000, lambda n: b"<ul>" + b"<li>x" * n, "li:nth-last-child(3n):nth-child(-n+3)"),
    "nth-of-type-on-long-mixed-list": (
        100000, lambda n: b"<div>" + b"<p>x</p><span>y</span>" * (n // 2),
        ":nth-of-type(odd):nth-last-of-type(-n+1), p:nth-last-of-type(2):first-of-type,"
        " :only-of-type"),
    "nth-child-of-selector-on-long-list": (
        100000, lambda n: b"<ul>" + b"<li class=a>x<li>y" * (n // 2),
        ":nth-child(2n of .a):nth-last-child(-n+2 of .a),"
        " li:nth-last-child(odd of :not(.a)):nth-child(-n+1 of :not(.a))"),
    "child-chain-under-descendants": (
        100000, lambda n: b"<div><p>" * n, "div > p div > p div p"),
}


# Shapes whose every element takes a look-up in a per-query table (the
# :has() records, the sibling indexes) that outgrows the caches as N
# doubles: their time includes that memory latency, so the timed test holds
# them to the harness's BOUND (a quadratic walk still gives 4); their
# instructions are held to SELECTOR_BOUND below.
TABLE_SHAPES = {name for name in SELECTOR_SHAPES if name.startswith(("has-", "nth-"))}


@pytest.mark.parametrize("shape", sorted(SELECTOR_SHAPES))
def test_selector_time_grows_linearly(shape):
    size, make, text = SELECTOR_SHAPES[shape]
    bound = BOUND if shape in TABLE_SHAPES else SELECTOR_BOUND
    selector = lexpy.compile_selector(text)
    n, ratio = 0, None
    for _ in range(ATTEMPTS):
        n, ratio = ratio_per_doubling(lexpy.parse, selector.select, make, size)
        if ratio <= bound:
            break
    assert ratio <= bound, "%r on %s: time x%.2f from N=%d to 2N" % (
        text, shape, ratio, n)


# The same shapes in instructions (the measure, deterministic where
# time is not: on a busy machine, or where the memo and index tables of a
# big tree outgrow the caches), counted by valgrind's callgrind around
# Selector.select alone, at N and 2N.
INSTRUCTIONS_SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
import lexpy
from tests.robustness.test_linearity import SELECTOR_SHAPES
size, make, text = SELECTOR_SHAPES[sys.argv[2]]
document = lexpy.parse(make(int(sys.argv[3])))
lexpy.compile_selector(text).select(document)
"""


def select_instructions(shape, n):
    import os
    import re
    import shutil
    from tests.tools import TOOLS
    proc = subprocess.run(
        [shutil.which("valgrind"), "--tool=callgrind", "--callgrind-out-file=/dev/null",
         "--toggle-collect=__pyx_pw_5lexpy_9selectors_9selectors_8Selector_*select",
         sys.executable, "-c", INSTRUCTIONS_SCRIPT, os.fspath(TOOLS.parent), shape, str(n)],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return int(re.search(r"Collected : (\d+)", proc.stderr).group(1))


@pytest.mark.parametrize("shape", sorted(SELECTOR_SHAPES))
def test_selector_instructions_grow_linearly(shape):
    import shutil
    if shutil.which("valgrind") is None:
        pytest.skip("counting instructions needs valgrind (the timed test above runs anyway)")
    size = SELECTOR_SHAPES[shape][0]
    n = size // 16
    small, large = select_instructions(shape, n), select_instructions(shape, 2 * n)
    assert small > 0
    ratio = large / small
    assert ratio <= SELECTOR_BOUND, "%s: instructions x%.2f from N=%d to 2N" % (shape, ratio, n)
