"""html5lib-tests serializer/*.test, one pytest item per case (ids as in the
conformance report: serializer/<file>:<n>)."""
import pytest

from tests.conformance import data, runners
from tests.conformance.xfail import xfail_reason

CASES = list(data.serializer_cases())


def test_every_serializer_file_is_collected():
    assert {case.file for case in CASES} == {
        "core.test", "injectmeta.test", "optionaltags.test", "options.test",
        "whitespace.test"}
    assert len(CASES) == 230


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_serializer_case(case):
    reason = xfail_reason(case.id)
    if reason is not None:
        pytest.xfail(reason)
    problem = runners.run_serializer_case(case)
    assert problem is None, problem
