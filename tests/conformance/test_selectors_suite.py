"""The CSS selectors conformance suite (../shared/selectors/, see its
README.md): every case a pytest item with its stable id
(selectors/FILE:CASE-ID). A valid case checks query_selector_all against
`expect`, query_selector against its first element and matches() on every
element of the context; an invalid one checks that compile_selector,
query_selector_all and matches raise SelectorSyntaxError.

The data's disputed[] entries are not requirements and are not run. The
few source expectations that the current standards contradict run against
the standard's answer, each with the rule that decides it
(tests/conformance/corrections.py); nothing is skipped.
"""
import json

import pytest

from tests.conformance import data, runners
from tests.conformance.xfail import pytest_params

CASES = list(data.selector_cases())


@pytest.mark.parametrize("case", pytest_params(CASES))
def test_selectors(case):
    problem = runners.run_selectors_case(case)
    assert problem is None, problem


def test_every_case_is_collected():
    base = data.selectors_dir()
    total = 0
    for name in data.SELECTOR_FILES:
        with open(base / name, encoding="utf-8") as f:
            doc = json.load(f)
        total += len(doc["cases"]) + len(doc["invalid"])
    assert len(CASES) == total == 1186
    assert len({case.id for case in CASES}) == len(CASES)


def test_each_correction_replaces_an_expectation_of_the_data():
    """A correction names a case of the data and changes what it expects (one
    that changes nothing, or names no case, must go)."""
    from tests.conformance.corrections import CORRECTIONS
    written = {case.id: case for case in data._selector_cases_as_written()}
    for case_id, (reason, fields) in CORRECTIONS.items():
        assert case_id in written, case_id
        assert reason
        assert any(getattr(written[case_id], key) != value for key, value in fields.items()), \
            case_id
    assert sum(1 for case in CASES if case.corrected) == len(CORRECTIONS)
