"""XPath on hostile input (lexpy.xpath): nesting is bounded by memory and
a documented limit (5,000 open parentheses, libxml2's bound, predicates or argument
lists; deeper is an XPathSyntaxError), never a RecursionError or a crash; nested predicates and following-axis
tests stay polynomial -- here linear, the existence of a node-set being
all a predicate asks -- and a 1,000,000-deep tree is walked without
recursion.

Growth is counted in instructions (valgrind's callgrind around the XPath
call alone, at N and 2N: tests/robustness/instructions.py): deterministic where time on a shared machine is
not. Without valgrind the same shapes are timed, with the timing harness's
bound (tests/robustness/test_linearity.py)."""
import json
import sys
from typing import Dict, Tuple

import pytest

import lexpy
from tests.robustness import instructions
from tests.robustness.test_linearity import BOUND, ratio_per_doubling

INSTRUCTION_BOUND = 2.3          # the bound per doubling

# name -> (2N, document maker, expression): the sizes for its two
# shapes (a 100,000-node tree, 10,000 links), smaller ones for the others
# (valgrind runs the parse too).
SHAPES = {
    "nested-descendant-predicates-on-deep-tree": (
        100000, lambda n: b"<div>" * n, "//*[.//*[.//*]]"),
    "nested-descendant-predicates-on-lists": (
        40000, lambda n: b"<ul>" + b"<li><a><b>x</b></a></li>" * (n // 4),
        "//*[.//*[.//*]]"),
    "following-links": (10000, lambda n: b"<p><a href=x>x</a></p>" * n, "//a[following::a]"),
    "preceding-links": (4000, lambda n: b"<p><a href=x>x</a></p>" * n, "//a[preceding::a]"),
    "last-following-sibling": (
        4000, lambda n: b"<ul>" + b"<li>x" * n, "//li[following-sibling::li][1]"),
}
# A quadratic expression (every link against every later link), which the
# check must reject.
QUADRATIC = {
    "quadratic-following-count": (
        1000, lambda n: b"<p><a href=x>x</a></p>" * n, "//a[count(following::a) > 0]"),
}

# One valgrind process for every measure (a Python start under callgrind
# costs as much as a shape): each XPath call alone, through the test
# build's measured_call (tests/robustness/instructions.py).
INSTRUCTIONS_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
import lexpy
from lexpy.core._testing import measured_call
from tests.robustness.test_xpath import SHAPES, QUADRATIC
for shape, n in json.loads(sys.argv[2]):
    size, make, text = {**SHAPES, **QUADRATIC}[shape]
    document = lexpy.parse(make(n))
    measured_call(lexpy.compile_xpath(text), document)
    del document
"""
QUADRATIC_SIZES = (200, 400)
_measured: Dict[Tuple[str, int], int] = {}


def xpath_instructions(shape: str, n: int) -> int:
    """Instructions of the shape's XPath call at size n (every shape at N
    and 2N measured in one valgrind run, on first use)."""
    if not _measured:
        pairs = [(name, size // div) for name, (size, _, _) in sorted(SHAPES.items())
                 for div in (2, 1)]
        pairs += [(name, size) for name in QUADRATIC for size in QUADRATIC_SIZES]
        counts = instructions.count_calls(INSTRUCTIONS_SCRIPT, [json.dumps(pairs)])
        assert len(counts) == len(pairs), (len(counts), len(pairs))
        _measured.update(zip(pairs, counts))
    return _measured[(shape, n)]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_xpath_grows_linearly(shape):
    size, make, text = SHAPES[shape]
    xp = lexpy.compile_xpath(text)
    small_doc = lexpy.parse(make(size // 2))
    assert isinstance(xp(small_doc), list)
    if not instructions.available():
        n, ratio = ratio_per_doubling(lexpy.parse, xp, make, size)
        assert ratio <= BOUND, "%r on %s: time x%.2f from N=%d to 2N" % (text, shape, ratio, n)
        return
    n = size // 2
    small, large = xpath_instructions(shape, n), xpath_instructions(shape, 2 * n)
    assert small > 0
    ratio = large / small
    assert ratio <= INSTRUCTION_BOUND, "%r on %s: instructions x%.2f from N=%d to 2N" % (
        text, shape, ratio, n)


def test_the_instruction_check_tells_quadratic_from_linear():
    """A quadratic expression (every link against every later link) fails
    the same measure, so the check above can fail."""
    if not instructions.available():
        pytest.skip("counting instructions needs valgrind (the timed tests run anyway)")
    small = xpath_instructions("quadratic-following-count", QUADRATIC_SIZES[0])
    large = xpath_instructions("quadratic-following-count", QUADRATIC_SIZES[1])
    assert large / small > 3, large / small


# The compiler keeps open parentheses, predicates and argument lists on a
# list of its own (parser.pxi): nesting is bounded by MAX_NESTING, not by
# the C or Python stack.
MAX_NESTING = 5000
DEEP = 4000


@pytest.mark.parametrize("text,expected", [
    ("(" * DEEP + "1" + ")" * DEEP, 1.0),
    ("count(//p" + "[self::p" * DEEP + "]" * DEEP + ")", 1.0),
    ("count(" + "//p[" * DEEP + "1" + "]" * DEEP + ")", 1.0),
    ("count(//p[" + "not(" * DEEP + "1" + ")" * DEEP + "])", 1.0),
    ("string-length(" + "concat(" * DEEP + "'a'" + ", 'b')" * DEEP + ")", DEEP + 1.0),
    ("count(" + "(" * DEEP + "//p" + ")[1]" * DEEP + ")", 1.0),
    ("-" * DEEP + "(" * DEEP + "2" + ")" * DEEP, 2.0),
])
def test_deep_nesting_compiles_and_runs(text, expected):
    """A 4,000-deep nesting of each kind compiles and evaluates (with
    RecursionError impossible: neither the compiler nor the evaluator
    recurses), to the value of its shallow form."""
    document = lexpy.parse(b"<p>x")
    assert lexpy.compile_xpath(text)(document) == expected


@pytest.mark.parametrize("opening,middle,closing", [
    ("(", "1", ")"),
    ("//a[", "1", "]"),
    ("concat(", "'a'", ", 'b')"),
])
def test_nesting_beyond_the_bound_is_a_syntax_error(opening, middle, closing):
    inside = opening * MAX_NESTING + middle + closing * MAX_NESTING
    assert isinstance(lexpy.compile_xpath(inside), lexpy.XPath)
    text = opening + inside + closing
    with pytest.raises(lexpy.XPathSyntaxError) as error:
        lexpy.compile_xpath(text)
    assert "nested more than 5000 deep" in str(error.value)
    assert error.value.offset == len(opening) * (MAX_NESTING + 1) - 1   # the last opening


@pytest.mark.parametrize("text", [
    "(" * 10000 + "1" + ")" * 10000,
    "//p" + "[self::p" * 10000 + "]" * 10000,
    "//p[" * 10000 + "1" + "]" * 10000,
])
def test_a_10000_deep_nesting_is_a_syntax_error(text):
    """Issue 35's hostile case: a 10,000-deep nested predicate or
    parenthesis is an XPathSyntaxError (as lxml rejects it), not a
    RecursionError."""
    with pytest.raises(lexpy.XPathSyntaxError):
        lexpy.parse(b"<p>x").xpath(text)


def test_long_flat_expressions_compile_and_run():
    document = lexpy.parse(b"<p>x")
    assert lexpy.compile_xpath("+".join(["1"] * 100000))(document) == 100000.0
    assert lexpy.compile_xpath("-" * 100001 + "2")(document) == -2.0
    assert document.xpath(" | ".join(["//p"] * 5000)) == [document.body.first_child]
    assert document.xpath("/".join(["."] * 10000)) == [document]


def test_count_on_a_million_deep_tree():
    document = lexpy.parse(b"<div>" * 1000000)
    assert document.xpath("count(//*)") == 1000003.0   # and html, head, body
    assert document.xpath("count(//div[not(*)]/ancestor::*)") == 1000001.0
    deepest = document.xpath("//div[not(*)]")[0]
    assert deepest.xpath("count(preceding::* | ancestor::*)") == 1000002.0   # head
    assert len(document.xpath("//div[last()]")) == 1000000


def test_nested_predicates_run_on_a_small_thread_stack():
    """Predicates within predicates are evaluated on drive()'s explicit
    stack: 500 levels of them in a thread with a 256 KiB C stack."""
    import threading
    depth = 500
    text = "count(//div" + "[div" * depth + "]" * depth + ")"
    text_positional = "count(//div" + "[div[last()]" * depth + "]" * depth + ")"
    document = lexpy.parse(b"<div>" * (depth + 5))
    results = []

    def work():
        results.append(lexpy.compile_xpath(text)(document))
        results.append(lexpy.compile_xpath(text_positional)(document))

    old = threading.stack_size(256 * 1024)
    try:
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old)
    assert results == [5.0, 5.0]             # the 5 top divs have 500 below them


def test_a_change_from_another_thread_while_evaluating_is_refused():
    """The DOM's readers rule: while one thread evaluates (the walk runs
    without the GIL), a change from another thread raises RuntimeError;
    nothing crashes and every evaluation sees the same tree."""
    import threading
    import time
    document = lexpy.parse(b"<p><a href=x>x</a></p>" * 3000)
    xp = lexpy.compile_xpath("count(//a[following::a]) + count(//p[a][last()])")
    expected = xp(document)
    results = []
    started = threading.Event()
    done = threading.Event()

    def read():
        started.set()
        while not done.is_set():
            results.append(xp(document))

    reader = threading.Thread(target=read)
    reader.start()
    started.wait()
    refused = []
    deadline = time.monotonic() + 30
    try:
        while not refused and time.monotonic() < deadline:
            try:
                paragraph = document.create_element("p")
                document.body.append_child(paragraph)
                paragraph.remove()
            except RuntimeError as error:
                refused.append(str(error))
    finally:
        done.set()
        reader.join()
    assert refused, "no change was refused while another thread evaluated"
    assert results and all(value == expected for value in results)
