"""The one reviewed list of expected failures of the conformance suites.

Each entry maps a case id (or a file prefix ending in ':') to its reason.
A reason must name what makes the test unpassable by design: a change of the
standard that supersedes it. Keep this list short; every entry is a debt.
"""

XFAIL = {
}


def xfail_reason(case_id: str):
    """The reason a case is expected to fail, or None."""
    if case_id in XFAIL:
        return XFAIL[case_id]
    for key, reason in XFAIL.items():
        if key.endswith("/") and case_id.startswith(key):
            return reason
        if key.endswith(":") and case_id.startswith(key):
            return reason
    return None


def pytest_params(cases, suffix=""):
    """The cases as pytest params with their stable ids (plus `suffix`); a
    case listed here is a strict xfail: if it passes, the run fails, and
    the entry must go."""
    import pytest
    params = []
    for case in cases:
        reason = xfail_reason(case.id)
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        params.append(pytest.param(case, id=case.id + suffix, marks=marks))
    return params
