"""Linear time on hostile input (issue 34 'Must show'): sanitize() of each
hostile shape at N and 2N, with the harness of
tests/robustness/test_linearity.py (process CPU time, medians, retries),
under the default and the most permissive configuration, without a depth
limit too; and no exception or recursion limit at a million levels."""
import pytest

from lexpy.sanitizer import Sanitizer
from tests.robustness.test_linearity import BOUND, ratio_per_doubling

SHAPES = {
    "nested-div": (200000, lambda n: "<div>" * n),
    "nested-svg-style": (100000, lambda n: "<svg>" + "<style>" * n + "x"),
    "nested-math-text": (100000, lambda n: "<math><mi>" * n),
    "attributes": (100000, lambda n: "<p " + " ".join("a%d=x" % i for i in range(n)) + ">"),
    "event-attributes": (100000, lambda n: "<p " + " ".join("on%d=x" % i for i in range(n))
                         + ">"),
    "mxss-repetitions": (20000, lambda n: "<math><mtext><table><mglyph><style>" * n),
    "text": (1 << 22, lambda n: "a&amp;<" * (n // 7)),
    "unwrap-chain": (100000, lambda n: "<u>" * n + "x"),
    "table-soup": (20000, lambda n: "<table><td><svg><foreignObject><p>" * n),
}
POLICIES = {
    "default": Sanitizer(),
    "permissive": Sanitizer({}),
    "permissive-unlimited": Sanitizer({}, max_depth=None),
    "escape-unlimited": Sanitizer({"elements": ["b"]}, on_disallowed="escape",
                                  max_depth=None),
}


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_sanitize_time_grows_linearly(shape, policy):
    size, make = SHAPES[shape]
    sanitizer = POLICIES[policy]
    n, ratio = ratio_per_doubling(lambda text: text, sanitizer.sanitize, make, size)
    assert ratio <= BOUND, "%s under %s: time x%.2f from N=%d to 2N" % (shape, policy,
                                                                       ratio, n)


def test_a_million_levels_and_bad_text_give_a_result():
    deep = "<b>" * 1000000 + "x"
    assert Sanitizer().sanitize(deep).count("<b>") == 256
    assert Sanitizer({}, max_depth=None).sanitize(deep).count("<b>") == 1000000
    # A lone surrogate is U+FFFD in the tree (the DOM's UTF-8), a NUL in text
    # is dropped by the parser.
    assert Sanitizer().sanitize("a\ud800b\x00c") == "a\ufffdbc"
