"""The html5lib tokenizer tests (every test in every initial state it lists)
as pytest items, then the whole suite again with the input fed in pieces:
one character at a time, one UTF-8 byte at a time, and seeded random chunk
sizes. Tokens and errors (code, line, column) must be identical."""
import random

import pytest

from lexpy.tokenizer import tokenize_for_test
from tests.conformance import data, runners
from tests.conformance.xfail import xfail_reason

CASES = list(data.tokenizer_cases())


def test_suite_is_complete():
    # 6,810 tests, each in every initial state it lists.
    assert len(CASES) == 7036
    assert len({case.id for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_tokenizer_case(case):
    problem = runners.run_tokenizer_case(case)
    reason = xfail_reason(case.id)
    if reason is not None:
        assert problem is not None, "an expected failure passes: " + case.id
        pytest.xfail(reason)
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


def _whole_and_bytes(case, sizes):
    args = dict(initial_state=case.initial_state,
                last_start_tag=case.last_start_tag,
                processing_instructions=case.processing_instructions,
                xml_violation_mode=case.file == "xmlViolation.test")
    whole = tokenize_for_test(case.input, **args)
    pieces = tokenize_for_test(case.input.encode("utf-8", "surrogatepass"),
                               chunk_sizes=sizes, **args)
    return whole, pieces


@pytest.mark.parametrize("sizes", [[1], [2, 3], [5, 1, 7]], ids=str)
def test_suite_fed_in_byte_pieces(sizes):
    # Splits inside UTF-8 sequences too. Inputs with lone surrogates are
    # left out: as bytes they are not UTF-8 (they are replaced).
    failures = []
    for case in CASES:
        if any(0xD800 <= ord(ch) <= 0xDFFF for ch in case.input):
            continue
        whole, pieces = _whole_and_bytes(case, sizes)
        if whole != pieces:
            failures.append("%s\n  whole  %r\n  pieces %r" % (case.id, whole, pieces))
    assert not failures, "%d cases differ, first:\n%s" % (len(failures), failures[0])
