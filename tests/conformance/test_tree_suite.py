"""The html5lib-tests tree-construction suite with the WPT overlay, compared
exactly with lexpy.dump: every case as a pytest item with its stable id
(tree/FILE:N:script-on|script-off). tests/api/test_chunk_invariance.py feeds the
same cases in pieces (one character at a time, every split, random chunks)
and checks that the tree does not change.

lexpy's own regression cases (tests/data/tree-construction/*.dat, ids
house/FILE:N:...) and the cases past the suites
(../shared/conformance-extra/*.dat, ids extra/FILE:N:..., the minimised
disagreements of differential runs judged against the standard) run the
same way.

The scripted/ cases run their scripts through a JavaScript engine
(tests/conformance/javascript.py, QuickJS) driving lexpy's on_script hook;
nothing is skipped.
"""
import pytest

from tests.conformance import data, runners
from tests.conformance.xfail import pytest_params

# The upstream cases, then lexpy's own regression cases (tests/data/), then
# the cases past the suites (../shared/conformance-extra/).
CASES = (list(data.tree_cases()) + list(data.house_tree_cases())
         + list(data.extra_tree_cases()))


@pytest.mark.parametrize("case", pytest_params(CASES))
def test_tree_construction(case):
    problem = runners.run_tree_case(case)
    assert problem is None, problem


def test_every_case_is_collected():
    # 1,944 tests; a test without #script-on/#script-off runs in both modes.
    upstream = [case for case in CASES if case.id.startswith("tree/")]
    assert len(upstream) == 3848
    assert len({case.id for case in CASES}) == len(CASES)
    # differential.dat: 35 cases (F* are fragments), each in both modes
    # unless it names one.
    extra = [case for case in CASES if case.id.startswith("extra/differential.dat:")]
    assert len({case.index for case in extra}) == 35
