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

from lexpy.sanitizer import Sanitizer, parse_html

from tests.sanitizer.support import load, security_problems

CASES = load("justhtml/cases.json")
POLICIES = load("justhtml/policies.json")
MIN_EXACT = 18
UNSUPPORTED = ("proxy_url", "allowed_hosts", "url_filter")


def _policy(case):
    policy = case["policy"]
    if policy == "DEFAULT":
        policy = POLICIES["DEFAULT"]
    if any(key in policy for key in UNSUPPORTED) or any(
            key in rule for rule in policy.get("url_rules", []) for key in UNSUPPORTED):
        return None
    attributes = dict(policy.get("allowed_attributes", {}))
    generic = sorted(set(attributes.pop("*", [])))
    css = policy.get("allowed_css_properties") or []
    elements = []
    tags = set(policy.get("allowed_tags", []))
    if case["parse"] == "document":
        tags |= {"html", "head", "body"}          # the document's output is the body's
    for tag in sorted(tags):
        local = sorted(set(attributes.get(tag, [])) - set(generic))
        if not css and "style" in local:
            local.remove("style")
        elements.append({"name": tag, "attributes": local})
    schemes, relative = {}, "keep"
    for rule in policy.get("url_rules", []):
        schemes[rule["attr"]] = rule.get("allowed_schemes", [])
        if rule.get("allow_relative") is False:
            relative = "drop"
    handling = policy.get("disallowed_tag_handling", "unwrap")
    return Sanitizer(
        {"elements": elements, "attributes": [g for g in generic if g != "style" or css],
         "comments": not policy.get("drop_comments", True), "dataAttributes": False},
        on_disallowed={"unwrap": "unwrap", "escape": "escape", "drop": "remove"}[handling],
        remove_with_content=policy.get("drop_content_tags", ["script", "style"]),
        style_properties=css or None, link_rel=" ".join(policy.get("force_link_rel", []))
        or None, url_schemes=schemes or None, url_relative=relative, max_depth=None)


def _run(sanitizer, case):
    if case["parse"] == "document":
        document = parse_html(case["input_html"], sanitizer)
        return document.body.inner_html if document.body is not None else ""
    return str(sanitizer.sanitize(case["input_html"],
                                  context=case.get("fragment_context") or "div"))


def _translated():
    for case in CASES:
        if case.get("expected_error"):
            continue
        try:
            sanitizer = _policy(case)
        except (TypeError, ValueError):
            sanitizer = None
        if sanitizer is not None:
            yield case, sanitizer


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
