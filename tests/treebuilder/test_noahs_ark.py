"""The Noah's Ark clause of the list of active formatting elements
(https://html.spec.whatwg.org/multipage/parsing.html#push-onto-the-list-of-active-formatting-elements)
against a model of the list, through many signatures that come and go:
the tree builder's count of each signature lives in a hash table that must
drop a signature when its last entry leaves (and find the others still).
"""
import random

import pytest

import lexpy
from lexpy.driver.driver import TreeConstruction
from tests.helpers import require_test_build

driver_testing = require_test_build("lexpy.driver._testing")


def _model(ops):
    """The list of active formatting elements (class values) after `ops`:
    ("push", v) is <b class=v>, ("close",) is </b>."""
    stack, entries = [], []
    serial = 0
    for op in ops:
        if op[0] == "push":
            serial += 1
            element = (serial, op[1])
            same = [e for e in entries if e[1] == op[1]]
            if len(same) >= 3:
                entries.remove(same[0])
            stack.append(element)
            entries.append(element)
        elif stack:
            if stack[-1] not in entries:
                stack.pop()
            elif entries:
                last = entries[-1]
                while stack:
                    if stack.pop() == last:
                        break
                entries.remove(last)
    return [value for _, value in entries]


def _document(ops):
    parts = [b"<p>"]
    for op in ops:
        parts.append(b"<b class=%d>" % op[1] if op[0] == "push" else b"</b>")
    # A new p closes the b elements; its text reopens the whole list.
    parts.append(b"<p>x")
    return b"".join(parts)


def _reopened(document):
    values = []
    node = document.body.children[-1].first_child
    while node is not None and node.node_type == 1:
        values.append(int(node.get_attribute("class")))
        node = node.first_child
    return values


@pytest.mark.parametrize("seed", range(12))
def test_the_list_follows_the_model_through_many_signatures(seed):
    rng = random.Random(seed)
    values = rng.choice([3, 40, 400])
    ops = []
    for _ in range(3000):
        if rng.random() < 0.6:
            ops.append(("push", rng.randrange(values)))
        else:
            ops.append(("close",))
    assert _reopened(lexpy.parse(_document(ops))) == _model(ops)


def test_the_table_keeps_only_the_signatures_in_the_list():
    """n distinct elements come and go: the table holds what the list
    holds, not every signature ever seen."""
    n = 5000
    construction = TreeConstruction(True, True, False)
    construction.feed(b"<b><b><b>" + b"".join(b"<b id=%d>x</b>" % i for i in range(n)))
    entries, signatures = driver_testing.formatting_census(construction)
    assert entries == 3
    assert signatures == 1
    construction.feed(b"<b id=a><b id=b><b id=a>")
    assert driver_testing.formatting_census(construction) == (6, 3)
    construction.feed(b"</b></b></b></b></b></b>")
    assert driver_testing.formatting_census(construction) == (0, 0)


def test_the_list_is_empty_once_the_parse_is_over():
    """Stop parsing leaves no entry (and no tree builder bit) behind."""
    construction = TreeConstruction(True, True, False)
    construction.feed(b"<p><b><i><table><td><a>x")
    assert driver_testing.formatting_census(construction)[0] > 0
    construction.finish()
    assert driver_testing.formatting_census(construction) == (0, 0)


def test_signatures_are_keyed_per_tree_builder():
    """The attribute values go into a signature through a hash keyed per
    tree builder: a page cannot choose values whose signatures collide
    (which would make every push search the whole list)."""
    signatures = []
    for _ in range(2):
        construction = TreeConstruction(True, True, False)
        construction.feed(b"<b id=x>")
        first = driver_testing.last_formatting_signature(construction)
        construction.feed(b"<b id=x>")
        assert driver_testing.last_formatting_signature(construction) == first
        construction.feed(b"<b id=y>")
        assert driver_testing.last_formatting_signature(construction) != first
        signatures.append(first)
    assert signatures[0] != signatures[1]


def test_many_keys_in_a_dense_table_stay_exact():
    """Eight-byte slots (a 48-bit key and a count): 5,000 distinct entries
    and their removal keep the counts what a walk over the list finds."""
    construction = TreeConstruction(True, True, False)
    construction.feed(b"<p>" + b"".join(b"<b id=%d>" % i for i in range(5000)))
    assert driver_testing.formatting_census(construction) == (5000, 5000)
    assert driver_testing.indexes_are_consistent(construction)
    construction.feed(b"<b id=7><b id=7><b id=7>")
    assert driver_testing.formatting_census(construction) == (5002, 5000)
    assert driver_testing.indexes_are_consistent(construction)
