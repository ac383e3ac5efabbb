"""Linear cost on hostile input (DESIGN.md performance budget, issue 7).

Each of issue 7's hostile shapes (tools/bench.py hostile_shapes: deep
nesting, unclosed and misnested formatting elements, a huge attribute list,
a huge attribute value, long tables, nested tables, deep SVG and MathML,
many character references) is timed at a size N and at 2N, and the time
per doubling must stay under BOUND. Linear code doubles (ratio 2), quadratic
code quadruples (ratio 4), so a quadratic regression fails here.

Sizes are smaller than the benchmark's (N doubles from a sixteenth of the
issue's size until one run takes MIN_SECONDS, up to half the issue's size),
so the suite stays fast and the memory system's own growth (caches, page
faults, malloc's switch to mmap past its threshold) stays out of it. Noise
is kept out by measuring process CPU time, the best of several interleaved
runs, and a second and third attempt before a ratio above the bound counts.
`python tools/bench.py --hostile` gives the full-size figures.

The tree dump is timed on shallow shapes only: its format indents each line
by the node's depth, so its output (and time) for a tree nested N deep
grows as N squared by definition.
"""
import importlib.util
import os
import time

import pytest

import lexpy

HERE = os.path.dirname(os.path.abspath(__file__))
BOUND = 3.0
MIN_SECONDS = 0.006
REPEATS = 3
ATTEMPTS = 3


def _hostile_shapes():
    spec = importlib.util.spec_from_file_location(
        "lexpy_bench", os.path.join(HERE, "..", "tools", "bench.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench.hostile_shapes()


SHAPES = _hostile_shapes()


def _cpu_seconds(operation, argument):
    start = time.process_time()
    operation(argument)
    return time.process_time() - start


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
}
CASES = [("parse", shape) for shape in SHAPES] + \
        [("to_html", shape) for shape in SHAPES] + \
        [("feed", shape) for shape in ("attribute-value", "attributes", "nested-div")] + \
        [("dump", shape) for shape in ("table-cells", "attributes", "char-refs")]


def ratio_per_doubling(prepare, operation, make, issue_size):
    """Time at N and 2N (best of REPEATS, interleaved): the ratio."""
    n = max(1, issue_size // 16)
    while n < issue_size // 2 and _cpu_seconds(operation, prepare(make(n))) < MIN_SECONDS:
        n *= 2
    small, large = prepare(make(n)), prepare(make(2 * n))
    ratio = None
    for _ in range(ATTEMPTS):
        best_small = best_large = float("inf")
        for _ in range(REPEATS):
            best_small = min(best_small, _cpu_seconds(operation, small))
            best_large = min(best_large, _cpu_seconds(operation, large))
        ratio = best_large / max(best_small, 1e-9)
        if ratio <= BOUND:
            break
    return n, ratio


@pytest.mark.parametrize("operation,shape", CASES, ids=["%s-%s" % case for case in CASES])
def test_time_grows_linearly(operation, shape):
    prepare, run = OPERATIONS[operation]
    issue_size, make = SHAPES[shape]
    n, ratio = ratio_per_doubling(prepare, run, make, issue_size)
    assert ratio <= BOUND, "%s of %s: time x%.2f from N=%d to 2N" % (
        operation, shape, ratio, n)


def test_a_quadratic_operation_fails_the_check():
    """The check itself tells linear from quadratic."""
    def quadratic(data):
        total = 0
        for i in range(0, len(data), 8):
            total += data.count(b"<", 0, i)
        return total
    _, ratio = ratio_per_doubling(lambda data: data, quadratic, lambda n: b"<b>" * n, 4000)
    assert ratio > BOUND
