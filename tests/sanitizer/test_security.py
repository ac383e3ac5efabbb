"""The security oracle (../shared/sanitizer/README.md: inert with scripting
on and off, stable, idempotent, no exception) over every vector of every
set, under three policies: lexpy's default (the Standard's safe default
configuration), the most permissive one (an empty SanitizerConfig: every
element, attribute, comment and processing instruction allowed, so only
lexpy's safe baseline stands), and the set's own allowlist where the set
names one (DOMPurify's default lists, html5lib's policy, ammonia's
defaults)."""
import pytest

from lexpy.sanitizer import Sanitizer

from tests.sanitizer.support import HTML, MATHML, SVG, XLINK, load, security_problems


def _vectors():
    vectors = []
    for case in load("dompurify/expect.json")["cases"]:
        vectors.append(("dompurify", case["id"], case["payload"], "div"))
    for case in load("bleach/cases.json")["cases"]:
        vectors.append(("bleach", case["id"], case["input"], "div"))
    for case in load("html5lib/cases.json")["cases"]:
        vectors.append(("html5lib", case["id"], case["input"], "div"))
    for case in load("justhtml/cases.json"):
        context = case.get("fragment_context") or "div"
        vectors.append(("justhtml", case["name"], case["input_html"], context))
    for case in load("ammonia/cases.json")["cases"]:
        text = case["input"]
        if text is None and case.get("input_repeat"):
            repeat = case["input_repeat"]
            text = repeat["unit"] * min(repeat["times"], 2000)
        if isinstance(text, str):
            vectors.append(("ammonia", case["id"], text, "div"))
    for case in load("wpt/cases.json")["cases"]:
        vectors.append(("wpt", case["id"], case["input"], "div"))
    return vectors


VECTORS = _vectors()


def _names_policy(tags, attributes):
    """A Sanitizer allowing each of `tags` in the HTML, SVG and MathML
    namespaces and each of `attributes` on every element."""
    elements = []
    for tag in sorted(set(tags)):
        for namespace in (HTML, SVG, MATHML):
            elements.append({"name": tag, "namespace": namespace})
    names = [{"name": a, "namespace": None} for a in sorted(set(attributes))]
    names.append({"name": "href", "namespace": XLINK})
    return Sanitizer({"elements": elements, "attributes": names, "comments": True})


def _set_policies():
    dompurify = load("dompurify/default-config.json")
    html5lib = load("html5lib/policy.json")
    ammonia = load("ammonia/defaults.json")
    ammonia_attributes = set(ammonia.get("generic_attributes", []))
    for names in ammonia.get("tag_attributes", {}).values():
        ammonia_attributes.update(names)
    return {
        "dompurify": _names_policy([t for t in dompurify["ALLOWED_TAGS"] if t != "#text"],
                                   dompurify["ALLOWED_ATTR"]),
        "html5lib": _names_policy([name for _, name in html5lib["allowed_elements"]],
                                  [name for _, name in html5lib["allowed_attributes"]]),
        "ammonia": _names_policy(ammonia["tags"], ammonia_attributes),
    }


POLICIES = {"default": Sanitizer(), "permissive": Sanitizer({})}
POLICIES.update(_set_policies())


def _items():
    for set_name, case_id, text, context in VECTORS:
        for policy in ("default", "permissive", set_name):
            if policy in POLICIES:
                yield pytest.param(policy, text, context, id="%s:%s:%s" % (set_name, case_id,
                                                                           policy))


@pytest.mark.parametrize("policy,text,context", list(_items()))
def test_security_oracle(policy, text, context):
    sanitizer = POLICIES[policy]
    problems = security_problems(lambda html: sanitizer.sanitize(html, context=context), text,
                                 context)
    assert problems == []


def test_every_set_has_vectors():
    counts = {}
    for set_name, _, _, _ in VECTORS:
        counts[set_name] = counts.get(set_name, 0) + 1
    assert counts["dompurify"] == 178 and counts["bleach"] == 342
    assert counts["html5lib"] == 85 and counts["justhtml"] == 62
    assert counts["ammonia"] > 150 and counts["wpt"] == 343
