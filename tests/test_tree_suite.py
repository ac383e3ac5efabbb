"""The html5lib-tests tree-construction suite with the WPT overlay, compared
exactly with lexpy.dump: every case as a pytest item with its stable id
(tree/FILE:N:script-on|script-off), then the same cases fed to lexpy.Parser
one character at a time and in seeded random chunks of bytes (split inside
UTF-8 sequences too), which must give the same tree.

lexpy's own regression cases (tests/data/tree-construction/*.dat, ids
house/FILE:N:...) run the same way.

The cases that need a script engine (scripted/) are expected failures with
their reason from tests/conformance/xfail.py; nothing is skipped.
"""
import random

import pytest

import lexpy
from tests.conformance import data, runners
from tests.conformance.xfail import xfail_reason

# The upstream cases, then lexpy's own regression cases (tests/data/).
CASES = list(data.tree_cases()) + list(data.house_tree_cases())


def _params(cases, suffix=""):
    return list(_param_items(cases, suffix))


def _param_items(cases, suffix):
    for case in cases:
        reason = xfail_reason(case.id)
        marks = [pytest.mark.xfail(reason=reason, strict=False)] if reason else []
        yield pytest.param(case, id=case.id + suffix, marks=marks)


def _parser_for(case):
    if case.fragment_context is None:
        # (Bytes chunks are the case's UTF-8: say so, rather than sniff.)
        return lexpy.Parser(scripting=case.scripting, encoding="utf-8")
    context = case.fragment_context
    namespace = "html"
    if context.startswith("svg "):
        namespace, context = "svg", context[4:]
    elif context.startswith("math "):
        namespace, context = "math", context[5:]
    return lexpy.Parser(scripting=case.scripting, context=context, namespace=namespace)


def _chunked_dump(case, chunks):
    parser = _parser_for(case)
    for chunk in chunks:
        parser.feed(chunk)
    return lexpy.dump(parser.close())


def _random_byte_chunks(case):
    raw = case.data.encode("utf-8")
    rng = random.Random(case.id)
    chunks = []
    i = 0
    while i < len(raw):
        size = rng.randint(1, 9)
        chunks.append(raw[i:i + size])
        i += size
    return chunks


@pytest.mark.parametrize("case", _params(CASES))
def test_tree_construction(case):
    problem = runners.run_tree_case(case)
    assert problem is None, problem


@pytest.mark.parametrize("case", _params(CASES, ":one-character-chunks"))
def test_tree_construction_one_character_at_a_time(case):
    got = _chunked_dump(case, list(case.data))
    assert got == case.document, "input %r\nexpected:\n%s\ngot:\n%s" % (
        case.data, case.document, got)


@pytest.mark.parametrize("case", _params(CASES, ":random-byte-chunks"))
def test_tree_construction_random_byte_chunks(case):
    got = _chunked_dump(case, _random_byte_chunks(case))
    assert got == case.document, "input %r\nexpected:\n%s\ngot:\n%s" % (
        case.data, case.document, got)


def test_every_case_is_collected():
    # 1,944 tests; a test without #script-on/#script-off runs in both modes.
    upstream = [case for case in CASES if case.id.startswith("tree/")]
    assert len(upstream) == 3848
    assert len({case.id for case in CASES}) == len(CASES)
