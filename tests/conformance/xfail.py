"""The one reviewed list of expected failures of the conformance suites.

Each entry maps a case id (or a file prefix ending in ':') to its reason.
A reason must name what makes the test unpassable by design: a change of the
standard that supersedes it, or a feature outside a parser (script
execution). Keep this list short; every entry is a debt.
"""

SCRIPT_ENGINE = ("needs a script engine: the case's expected tree depends on "
                 "document.write() running during the parse")

XFAIL = {
    # html5lib-tests/tree-construction/scripted/ and encoding/scripted/
    "tree/scripted/": SCRIPT_ENGINE,
    "encoding/scripted/": SCRIPT_ENGINE,
    # soupsieve's own expectations that the current standards contradict.
    "selectors/soupsieve.json:ss-invalid-l1-pseudo_class-unrecognized_pseudo-0":
        "CSS Pseudo-Elements 4 keeps the one-colon syntax of CSS 2's pseudo-elements "
        "(:before, :after, :first-line, :first-letter): ':before' is a valid selector that "
        "matches no element, as wpt-dom-qsa.json's wpt-qsa-125 requires",
    "selectors/soupsieve.json:ss-invalid-l4-is-invalid_pseudo_class_start_combinator-0":
        "Selectors 4: :is() takes a <forgiving-selector-list>, so the unparsable item "
        "'> div' is dropped and ':is()' remains, valid and matching nothing (the data's own "
        "invalid_disputed entry for ':is(div, > div)' says the same)",
    "selectors/soupsieve.json:ss-l3-disabled-disabled_select-0":
        "HTML: an option is disabled when it has a disabled attribute or is the child of a "
        "disabled optgroup (concept-option-disabled); a disabled select does not disable its "
        "options, and a control in a disabled fieldset's first legend is not disabled "
        "(concept-fe-disabled)",
    "selectors/soupsieve.json:ss-l3-enabled-enable_select-0":
        "HTML concept-option-disabled and concept-fe-disabled (see disabled_select): the "
        "options of a disabled select and the select in a disabled fieldset's first legend "
        "are enabled",
    "selectors/soupsieve.json:ss-l4-default-default_cached_none-0":
        "the current HTML parser keeps <button> inside <select> (the 2025 select parsing "
        "changes), so b1 and b4 are the first submit buttons of their forms (default-button); "
        "the expectation comes from html5lib's older parser, which drops them",
    "selectors/soupsieve.json:ss-l4-indeterminate-indeterminate-0":
        "HTML :indeterminate matches a checkbox whose indeterminate IDL attribute is true; "
        "there is no indeterminate content attribute, and in a static document the IDL "
        "attribute is false",
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
