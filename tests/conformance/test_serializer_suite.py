"""html5lib-tests serializer/*.test, one pytest item per case (ids as in the
conformance report: serializer/<file>:<n>)."""
import pytest

from tests.conformance import data, runners
from tests.conformance.xfail import pytest_params

CASES = list(data.serializer_cases())


def test_every_serializer_file_is_collected():
    assert {case.file for case in CASES} == {
        "core.test", "injectmeta.test", "optionaltags.test", "options.test",
        "whitespace.test"}


@pytest.mark.parametrize("case", pytest_params(CASES))
def test_serializer_case(case):
    problem = runners.run_serializer_case(case)
    assert problem is None, problem
