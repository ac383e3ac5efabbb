"""The index of the stack of open elements (open_elements.pxi) stays what
a walk over the stack finds, through every operation that reorders the
stack: pushes and pops, removals in the middle (the adoption agency's inner
loop), and the adoption agency's move of the new formatting element above
the furthest block (constant-time swaps, so a deep stack above it is not
reindexed). So do the counts kept for the list of active formatting
elements (entries of each tag after the last marker, Noah's Ark counts)."""
import random
import re

import pytest

from lexpy.driver.driver import TreeConstruction
from tests.helpers import require_test_build

driver_testing = require_test_build("lexpy.driver._testing")

TAGS = ["a", "b", "i", "nobr", "em", "font", "div", "p", "span", "table", "td", "tr", "th",
        "li", "ul", "address", "button", "svg", "math", "select", "option", "template",
        "h1", "pre", "object", "marquee", "caption", "tbody", "dd", "form", "textarea",
        "applet", "foreignObject", "desc", "mi", "selectedcontent", "html", "body",
        "form", "head", "frameset", "noscript", "title"]
TOKEN = re.compile(rb"<[^>]*>|[^<]+")


def _document(rng):
    parts = []
    for _ in range(rng.randrange(5, 150)):
        tag = rng.choice(TAGS)
        roll = rng.random()
        if roll < 0.5:
            attribute = " id=%d" % rng.randrange(3) if rng.random() < 0.3 else ""
            parts.append("<%s%s>" % (tag, attribute))
        elif roll < 0.85:
            parts.append("</%s>" % tag)
        else:
            parts.append(rng.choice(["x", " ", "&amp;", "\x00", "y z"]))
    return "".join(parts).encode()


@pytest.mark.parametrize("seed", range(40))
def test_the_index_is_consistent_after_every_token(seed):
    rng = random.Random(seed)
    for _ in range(10):
        construction = TreeConstruction(True, True, False)
        for token in TOKEN.findall(_document(rng)):
            construction.feed(token)
            assert driver_testing.indexes_are_consistent(construction), token
        construction.finish()


def test_the_adoption_agency_keeps_the_index_on_a_deep_stack():
    construction = TreeConstruction(True, True, False)
    construction.feed(b"<b><i>" + b"<div><em>" * 50)
    for _ in range(60):
        construction.feed(b"</b></i></em>")
        assert driver_testing.indexes_are_consistent(construction)


def test_removals_in_the_middle_keep_the_index():
    """The adoption agency's inner loop takes elements out of the middle of
    a deep stack (their places stay empty, then a push closes them)."""
    construction = TreeConstruction(True, True, False)
    construction.feed(b"<b>" + b"<span><span><span><div>" * 40)
    for _ in range(40):
        construction.feed(b"</b>")
        assert driver_testing.indexes_are_consistent(construction)
    construction.feed(b"<p>x" * 5 + b"</div>" * 20 + b"<form><div></form>")
    assert driver_testing.indexes_are_consistent(construction)
    construction.finish()
