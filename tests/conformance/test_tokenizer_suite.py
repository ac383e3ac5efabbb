"""The html5lib tokenizer tests (every test in every initial state it lists)
as pytest items, then the whole suite again with the input fed in pieces:
one character at a time, one UTF-8 byte at a time, and seeded random chunk
sizes. Tokens and errors (code, line, column) must be identical.

Lone surrogates (in a few tests' doubleEscaped input) reach the tokenizer as
their generalized UTF-8 (encoded with 'surrogatepass'), in bytes too."""
import random

import pytest

from tests.conformance import data, runners
from tests.conformance.xfail import pytest_params

CASES = list(data.tokenizer_cases())


def test_case_ids_are_unique():
    # (The suite's size: tests/conformance/test_test_data.py.)
    assert len({case.id for case in CASES}) == len(CASES)


def test_lone_surrogate_cases_are_in_the_suite():
    with_surrogates = [case for case in CASES
                       if any(0xD800 <= ord(ch) <= 0xDFFF for ch in case.input)]
    assert with_surrogates


@pytest.mark.parametrize("case", pytest_params(CASES))
def test_tokenizer_case(case):
    problem = runners.run_tokenizer_case(case)
    assert problem is None, problem


def _failures(chunk_sizes_for):
    failures = []
    for case in CASES:
        problem = runners.run_tokenizer_case(case, chunk_sizes=chunk_sizes_for(case))
        if problem is not None:
            failures.append("%s\n%s" % (case.id, problem))
    return failures


def test_suite_fed_one_character_at_a_time():
    failures = _failures(lambda case: [1])
    assert not failures, "%d cases differ, first:\n%s" % (len(failures), failures[0])


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_suite_fed_in_random_chunks(seed):
    rng = random.Random(seed)
    failures = _failures(lambda case: [rng.randint(1, 12) for _ in range(9)])
    assert not failures, "%d cases differ, first:\n%s" % (len(failures), failures[0])


@pytest.mark.parametrize("sizes", [[1], [2, 3], [5, 1, 7]], ids=str)
def test_suite_fed_in_byte_pieces(sizes):
    # Splits inside UTF-8 sequences too (and inside a lone surrogate's
    # three bytes).
    failures = []
    for case in CASES:
        whole = runners.tokenize_case(case)
        pieces = runners.tokenize_case(
            case, data=case.input.encode("utf-8", "surrogatepass"), chunk_sizes=sizes)
        if whole != pieces:
            failures.append("%s\n  whole  %r\n  pieces %r" % (case.id, whole, pieces))
    assert not failures, "%d cases differ, first:\n%s" % (len(failures), failures[0])
