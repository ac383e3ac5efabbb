"""Matching over a stream (issue 39, point 3): for every case of
../shared/selectors/ whose selector a stream can decide, the elements handed
to an element handler are exactly those of query_selector_all on the parsed
document (as a set of elements, compared by their position in tree order);
an undecidable selector raises SelectorSyntaxError naming the construct."""
from collections import Counter

import lexpy
from lexpy.rewriter import Rewriter, rewrite
from tests.conformance import data
from tests.rewriter.oracle import elements_in_order


def _cases():
    for case in data.selector_cases():
        if case.invalid or case.scope != "document" or case.custom or not case.html:
            continue
        yield case


def run_matching():
    outcome = Counter()
    wrong = []
    for case in _cases():
        try:
            found = []
            sources = []
            rw = Rewriter().on(case.selector, element=lambda e: (
                found.append(e._record.node), sources.append((e.source, e.implied))))
        except lexpy.SelectorSyntaxError as error:
            outcome["undecidable" if "stream" in str(error) or "pseudo-element" in str(error)
                    else "rejected by the compiler"] += 1
            continue
        # (The whole document kept, to compare positions in it; the
        # bounded rewriter, which frees closed subtrees, must hand the
        # handler the same elements.)
        rw._bounded = False
        rewrite(case.html, rw)
        bounded = []
        bounded_rw = Rewriter().on(case.selector, element=lambda e: bounded.append(
            (e.local_name, e.source, e.implied)))
        bounded_rw._sweep_min = 1       # (closed subtrees freed after every token)
        rewrite(case.html, bounded_rw)
        if bounded != [(f.local_name, s, i) for f, (s, i) in zip(found, sources)]:
            outcome["different"] += 1
            wrong.append("%s %r: the bounded rewriter matched %s" % (case.id, case.selector,
                                                                       bounded))
            continue
        order = elements_in_order(rw._construction.document_object())
        got = sorted(i for i, element in enumerate(order) if any(element is f for f in found))
        doc = lexpy.parse(case.html)
        expected_elements = doc.query_selector_all(case.selector)
        dom_order = elements_in_order(doc)
        expected = sorted(i for i, element in enumerate(dom_order)
                          if any(element is e for e in expected_elements))
        if got == expected:
            outcome["same"] += 1
        else:
            outcome["different"] += 1
            wrong.append("%s %r: stream %s, query_selector_all %s" % (
                case.id, case.selector, got, expected))
    return outcome, wrong


def test_stream_matches_are_query_selector_all():
    outcome, wrong = run_matching()
    assert outcome["same"] > 450, outcome
    assert not wrong, "\n".join(wrong[:10])
