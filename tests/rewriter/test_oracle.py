"""The DOM-equivalence oracle (issue 39, point 4) over the tree-construction
suite (html5lib-tests with the WPT overlay, found as tests/conformance
finds them): every document case, every element, every operation of
tests/rewriter/oracle.py, one run each. An accepted operation whose
output reparses to another tree than the DOM edit fails the test; a
refused one (RewriteError) is counted by reason. `python -m
tests.rewriter.test_oracle` prints the figures.
"""
import sys
from collections import defaultdict

import pytest

from tests.conformance import data
from tests.rewriter.oracle import OPERATIONS, Figures, check


def _document_cases():
    seen = set()
    by_file = defaultdict(list)
    for case in data.tree_cases():
        if case.fragment_context is not None or case.scripted:
            continue        # the rewriter rewrites documents, without scripts
        if (case.file, case.index) in seen:
            continue        # (one scripting mode per case)
        seen.add((case.file, case.index))
        by_file[case.file].append(case)
    return by_file


CASES = _document_cases()


def test_the_suite_is_there():
    assert sum(len(cases) for cases in CASES.values()) > 1000


def _run(cases, chunked=False):
    figures = Figures()
    for case in cases:
        for operation in OPERATIONS:
            figures.add(check(case.data, case.scripting, operation, chunked=chunked,
                              label=case.id))
    return figures


@pytest.mark.parametrize("name", sorted(CASES))
def test_accepted_operations_reparse_to_the_dom_edit(name):
    figures = _run(CASES[name])
    assert not figures.mismatches, "\n\n".join(figures.mismatches[:3])


def test_chunked_input_gives_the_same_rewrites():
    # The first file fed in 7-byte chunks: the same acceptances, no mismatch.
    cases = CASES["tests1.dat"][:40]
    whole, chunked = _run(cases), _run(cases, chunked=True)
    assert not chunked.mismatches, "\n\n".join(chunked.mismatches[:3])
    assert chunked.accepted == whole.accepted and chunked.tried == whole.tried


if __name__ == "__main__":
    total = Figures()
    for name in sorted(CASES):
        total.add(_run(CASES[name]))
    print(total.summary())
    sys.exit(1 if total.mismatches else 0)


def _corpus_sample():
    pages = []
    for path in sorted(data.corpus_dir().glob("*.html")):
        raw = path.read_bytes()
        try:
            pages.append((path.name, raw.decode("utf-8")))
        except UnicodeDecodeError:
            continue
    return pages[::12]


SAMPLE_INDEXES = [3, 10, 40, 120, 300, 700]


def run_corpus():
    figures = Figures()
    for name, text in _corpus_sample():
        for operation in OPERATIONS:
            figures.add(check(text, True, operation, label=name, indexes=SAMPLE_INDEXES))
    return figures


def test_corpus_pages_sampled():
    # Every 12th UTF-8 page of the corpus, six elements each, every
    # operation: no accepted operation reparses to another tree.
    figures = run_corpus()
    assert figures.tried > 300
    assert not figures.mismatches, "\n\n".join(m[:2000] for m in figures.mismatches[:2])
