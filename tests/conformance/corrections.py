"""Expectations of the conformance data that the current standards
contradict, corrected: each maps a case id to the reason (the rule of the
standard the data's expectation goes against) and the fields of the case
that the standard gives instead. The case then runs against the corrected
fields (tools/conformance.py counts it as "corrected"); nothing is skipped.
Keep this list short: every entry is a disagreement with the data's
authors, argued from the standard's text.
"""

# The document the data's validity cases use (runners.run_selectors_case).
VALIDITY_FIXTURE = "<!DOCTYPE html><p id=a>x"

CORRECTIONS = {
    "selectors/soupsieve.json:ss-invalid-l1-pseudo_class-unrecognized_pseudo-0": (
        "CSS Pseudo-Elements 4 keeps the one-colon syntax of CSS 2's pseudo-elements "
        "(:before, :after, :first-line, :first-letter): ':before' is a valid selector that "
        "matches no element, as wpt-dom-qsa.json's wpt-qsa-125 requires",
        dict(invalid=False, html=VALIDITY_FIXTURE, expect=[])),
    "selectors/soupsieve.json:ss-invalid-l4-is-invalid_pseudo_class_start_combinator-0": (
        "Selectors 4: :is() takes a <forgiving-selector-list>, so the unparsable item "
        "'> div' is dropped and ':is()' remains, valid and matching nothing (the data's own "
        "invalid_disputed entry for ':is(div, > div)' says the same)",
        dict(invalid=False, html=VALIDITY_FIXTURE, expect=[])),
    "selectors/soupsieve.json:ss-l3-disabled-disabled_select-0": (
        "HTML: an option is disabled when it has a disabled attribute or is the child of a "
        "disabled optgroup (concept-option-disabled); a disabled select does not disable its "
        "options, and a control in a disabled fieldset's first legend is not disabled "
        "(concept-fe-disabled)",
        dict(expect=["0", "8", "11", "13", "18"])),
    "selectors/soupsieve.json:ss-l3-enabled-enable_select-0": (
        "HTML concept-option-disabled and concept-fe-disabled (see disabled_select): the "
        "options of a disabled select and the select in a disabled fieldset's first legend "
        "are enabled",
        dict(expect=["1", "2", "3", "4", "5", "6", "7", "10"])),
    "selectors/soupsieve.json:ss-l4-indeterminate-indeterminate-0": (
        "HTML :indeterminate matches a checkbox whose indeterminate IDL attribute is true; "
        "there is no indeterminate content attribute, and in a static document the IDL "
        "attribute is false",
        dict(expect=["radio-no-name1", "radio1", "radio4", "radio5", "radio6"])),
}



def corrected(case_id: str):
    """(reason, corrected fields) of a case, or None."""
    return CORRECTIONS.get(case_id)
