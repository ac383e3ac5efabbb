"""XPath on hostile input (lexpy.xpath): nesting is an XPathSyntaxError,
never a RecursionError or a crash; nested predicates and following-axis
tests stay polynomial -- here linear, the existence of a node-set being
all a predicate asks -- and a 1,000,000-deep tree is walked without
recursion.

Growth is counted in instructions (valgrind's callgrind around the XPath
call alone, at N and 2N): deterministic where time on a shared machine is
not. Without valgrind the same shapes are timed, with the timing harness's
bound (tests/robustness/test_linearity.py)."""
import os
import re
import shutil
import subprocess
import sys

import pytest

import lexpy
from tests.robustness.test_linearity import BOUND, ratio_per_doubling
from tests.tools import TOOLS

INSTRUCTION_BOUND = 2.3          # the bound per doubling

# name -> (2N, document maker, expression): the sizes for its two
# shapes, smaller ones for the others (valgrind runs the parse too).
SHAPES = {
    "nested-descendant-predicates-on-deep-tree": (
        100000, lambda n: b"<div>" * n, "//*[.//*[.//*]]"),
    "nested-descendant-predicates-on-lists": (
        100000, lambda n: b"<ul>" + b"<li><a><b>x</b></a></li>" * (n // 4),
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

INSTRUCTIONS_SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
import lexpy
from tests.robustness.test_xpath import SHAPES, QUADRATIC
size, make, text = {**SHAPES, **QUADRATIC}[sys.argv[2]]
document = lexpy.parse(make(int(sys.argv[3])))
lexpy.compile_xpath(text)(document)
"""


def xpath_instructions(shape, n):
    proc = subprocess.run(
        [shutil.which("valgrind"), "--tool=callgrind", "--callgrind-out-file=/dev/null",
         "--toggle-collect=__pyx_pw_5lexpy_5xpath_5xpath_*XPath_*__call__",
         sys.executable, "-c", INSTRUCTIONS_SCRIPT, os.fspath(TOOLS.parent), shape, str(n)],
        capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return int(re.search(r"Collected : (\d+)", proc.stderr).group(1))


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_xpath_grows_linearly(shape):
    size, make, text = SHAPES[shape]
    xp = lexpy.compile_xpath(text)
    small_doc = lexpy.parse(make(size // 2))
    assert isinstance(xp(small_doc), list)
    if shutil.which("valgrind") is None:
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
    if shutil.which("valgrind") is None:
        pytest.skip("counting instructions needs valgrind (the timed tests run anyway)")
    small = xpath_instructions("quadratic-following-count", 200)
    large = xpath_instructions("quadratic-following-count", 400)
    assert large / small > 3, large / small


@pytest.mark.parametrize("text", [
    "//a" + "[1" * 10000 + "]" * 10000,
    "(" * 10000 + "1" + ")" * 10000,
    "//a[" * 10000 + "1" + "]" * 10000,
    "concat(" * 10000 + "'a'" + ", 'b')" * 10000,
    "//a[" + "not(" * 10000 + "1" + ")" * 10000 + "]",
])
def test_deep_nesting_is_a_syntax_error(text):
    with pytest.raises(lexpy.XPathSyntaxError) as error:
        lexpy.compile_xpath(text)
    assert "nested" in str(error.value)
    assert 0 < error.value.offset < len(text)


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
    stack: 60 levels of them (near the nesting bound) in a thread with a
    256 KiB C stack."""
    import threading
    depth = 60
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
    assert results == [5.0, 5.0]             # the 5 top divs have 60 below them
