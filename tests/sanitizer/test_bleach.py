"""lexpy.bleach against bleach's vectors (../shared/sanitizer/bleach/
cases.json): every case through the shim passes the security oracle, and
every disagreement with bleach's output falls into a class that explains
it (tools/sanitizer_agreement.py decides the class mechanically: the same
tree written otherwise, html5lib's parse differing from the Standard's,
bleach's tokenizer (disallowed tags as source tokens, references as
written), a URL scheme read otherwise by Python's urlparse, a value judged
with its references undecoded, or lexpy's stricter safe baseline). None
may be left unexplained; the exact agreement is printed."""
import pytest

import lexpy.bleach as bleach

from tests.sanitizer.support import AGREEMENT, load, security_problems

CASES = load("bleach/cases.json")["cases"]


def _kwargs(case):
    return AGREEMENT.bleach_kwargs(case, bleach)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_bleach_case_is_safe(case):
    kwargs = _kwargs(case)
    assert security_problems(lambda text: bleach.clean(text, **kwargs), case["input"]) == []


@pytest.mark.parametrize("case", [c for c in CASES if "property" in c["expected"]],
                         ids=lambda c: c["id"])
def test_bleach_idempotent_cases(case):
    assert case["expected"]["property"] == "idempotent"
    once = bleach.clean(case["input"], **_kwargs(case))
    assert bleach.clean(once, **_kwargs(case)) == once


def _counts(results):
    counts = {}
    for _case, klass, _detail in results:
        counts[klass] = counts.get(klass, 0) + 1
    return counts


def test_every_disagreement_with_bleach_is_explained():
    results = AGREEMENT.bleach_results(bleach.clean)
    counts = _counts(results)
    print("bleach exact: %d of %d; classes %s" % (counts.get("exact", 0), len(results),
                                                 counts))
    assert len(results) == 333
    unexplained = [case["id"] for case, klass, _ in results if klass == "unexplained"]
    assert unexplained == []


@pytest.mark.parametrize("option", AGREEMENT.BROKEN_OPTIONS)
def test_a_broken_shim_option_is_unexplained(option):
    # The classification can fail: the shim with one option broken (strip
    # and strip_comments inverted, the others ignored) leaves cases in the
    # unexplained class.
    counts = _counts(AGREEMENT.bleach_results(AGREEMENT.broken_clean(option)))
    assert counts.get("unexplained", 0) >= 5, counts


def test_linkify_and_linker():
    assert bleach.linkify("see http://example.com") == \
        'see <a href="http://example.com" rel="nofollow">http://example.com</a>'
    assert bleach.linkify("x.com", callbacks=[bleach.target_blank]) == \
        '<a href="http://x.com" target="_blank">x.com</a>'
    assert bleach.linkify("<pre>http://example.com</pre>") == "<pre>http://example.com</pre>"
    linker = bleach.Linker(parse_email=True, skip_tags={"b"})
    assert linker.linkify("<b>a.com</b> me@x.org") == \
        '<b>a.com</b> <a href="mailto:me@x.org">me@x.org</a>'
    assert bleach.linkify("a.com", callbacks=[lambda attrs, new: None]) == "a.com"


def test_bleach_rules_beyond_the_allowlists():
    # bleach's documented rules the shim follows (bleach/sanitizer.py).
    assert bleach.clean("1\x0723") == "1?23"
    assert bleach.clean('<a href="/x">a</a>', protocols=[]) == "<a>a</a>"
    assert bleach.clean('<a href="#x">a</a>', protocols=[]) == '<a href="#x">a</a>'
    assert bleach.clean('<a href="http://example.com]">a</a>') == "<a>a</a>"
    assert bleach.clean('<span style="color: red">a</span>', tags=["span"],
                        attributes={"span": ["style"]}) == '<span style="">a</span>'
    css = bleach.CSSSanitizer(allowed_css_properties=["color"])
    assert bleach.clean('<p style="float: left; color: red;">a</p>', tags=["p"],
                        attributes=["style"], css_sanitizer=css) == \
        '<p style="color: red;">a</p>'
    svg = {"tags": ["svg", "rect", "pattern"], "attributes": {"rect": ["fill"],
                                                             "pattern": ["href"]}}
    assert bleach.clean('<svg><rect fill="url(http://x/#a)"></rect></svg>', **svg) == \
        "<svg><rect></rect></svg>"
    assert bleach.clean('<svg><pattern xlink:href="http://x/p"></pattern></svg>', **svg) == \
        "<svg><pattern></pattern></svg>"
    assert bleach.clean('<svg><pattern xlink:href="#p"></pattern></svg>', **svg) == \
        '<svg><pattern xlink:href="#p"></pattern></svg>'
