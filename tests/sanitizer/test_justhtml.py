"""justhtml's policy cases (../shared/sanitizer/justhtml/cases.json),
translated to lexpy.Sanitizer options where the policy's features have a
counterpart (tags, attributes, drop_content_tags, disallowed_tag_handling,
comments, inline CSS, force_link_rel, URL schemes and relative URLs per
attribute), and compared exactly; justhtml parses per the Standard, so the
trees agree where the policies do. The agreement is counted and held as a
floor; policies using proxies, host lists or url_filter are not translated.
Most disagreements are justhtml's escape mode, which writes a disallowed
token's source text ("x<y and y>z" stays text), where lexpy escapes the
element the Standard's tokenizer made of it.
Every case passes the security oracle under its translation."""
import pytest

from tests.sanitizer.support import AGREEMENT, load, security_problems

CASES = load("justhtml/cases.json")
MIN_EXACT = 18


_run = AGREEMENT.justhtml_run
_translated = AGREEMENT.justhtml_translated


@pytest.mark.parametrize("case,sanitizer", list(_translated()),
                         ids=[c["name"] for c, _ in _translated()])
def test_justhtml_case_is_safe(case, sanitizer):
    context = case.get("fragment_context") or "div"
    assert security_problems(lambda html: str(sanitizer.sanitize(html, context=context)),
                             case["input_html"], context) == []


def test_exact_agreement_with_justhtml():
    agree, translated = 0, list(_translated())
    for case, sanitizer in translated:
        if _run(sanitizer, case) == case["expected_html"]:
            agree += 1
    print("justhtml exact: %d of %d translated (%d cases)" % (agree, len(translated),
                                                              len(CASES)))
    assert agree >= MIN_EXACT
