"""Linear cost of to_html(minify=True) and to_html(indent=2) on the hostile
shapes of tests/robustness/test_linearity.py (its harness: time per
doubling of the input under a bound), and on shapes that stress the
minifier's look-arounds: runs of dropped comments between optional end
tags, text split by comments, whitespace runs across comments, many
table sections."""
import pytest

import lexpy
from tests.robustness.test_linearity import BOUND, SHAPES, ratio_per_doubling

MODE_SHAPES = {
    "li-and-comments": (100000, lambda n: b"<ul>" + b"<li>x<!---->" * n),
    "li-behind-many-comments": (100000, lambda n: b"<ul><li>x" + b"<!---->" * n + b"<li>y"),
    "text-split-by-comments": (100000, lambda n: b"<p>" + b"a&<!--c-->" * n),
    "whitespace-across-comments": (100000, lambda n: b"<div>" + b" <!----> " * n + b"<div>"),
    "table-sections": (50000, lambda n: b"<table>" + b"<tbody><tr><td>x</td></tr></tbody> " * n),
    "many-inline-children": (100000, lambda n: b"<div>" + b"<b>x</b> " * n),
}

OPERATIONS = {
    "minify": lambda document: document.to_html(minify=True),
    "pretty": lambda document: document.to_html(indent=2),
}

CASES = [(operation, shape) for operation in OPERATIONS
         for shape in list(SHAPES) + list(MODE_SHAPES)]


@pytest.mark.parametrize("operation,shape", CASES, ids=["%s-%s" % case for case in CASES])
def test_time_grows_linearly(operation, shape):
    size, make = {**SHAPES, **MODE_SHAPES}[shape]
    n, ratio = ratio_per_doubling(lexpy.parse, OPERATIONS[operation], make, size)
    assert ratio <= BOUND, "%s of %s: time x%.2f from N=%d to 2N" % (
        operation, shape, ratio, n)
