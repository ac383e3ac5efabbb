"""lexpy.Sanitizer's server options (issue 34, point 2): each one's effect,
its validation at construction, and that every output still passes the
security oracle."""
import pytest

from lexpy.sanitizer import Sanitizer

from tests.sanitizer.support import security_problems

COMMENT = {"elements": ["a", "b", "i", "em", "strong", "p", "br", "ul", "ol", "li",
                        "blockquote", "code", "pre", "span", "img", "style"],
           "attributes": ["href", "title", "class", "style", "src", "srcset"]}


def test_url_schemes_use_the_url_parser():
    s = Sanitizer(COMMENT, url_schemes=["http", "https", "mailto"])
    assert s.sanitize('<a href="ftp://x/">f</a>') == "<a>f</a>"
    assert s.sanitize('<a href=" HTTPS://e.example/">x</a>') == \
        '<a href=" HTTPS://e.example/">x</a>'
    assert s.sanitize('<a href="mailto:a@b">m</a>') == '<a href="mailto:a@b">m</a>'
    assert s.sanitize('<a href="/relative">r</a>') == '<a href="/relative">r</a>'
    assert s.sanitize('<img srcset="a.png 1x, ftp://b/ 2x">') == '<img srcset="a.png 1x">'
    per_attribute = Sanitizer(COMMENT, url_schemes={"href": ["https"], "src": ["data"]})
    assert per_attribute.sanitize('<img src="data:image/png;base64,AA"><a href="http://x">'
                                  'a</a>') == '<img src="data:image/png;base64,AA"><a>a</a>'


def test_url_relative():
    drop = Sanitizer(COMMENT, url_relative="drop")
    assert drop.sanitize('<a href="x/y">a</a><a href="https://e/">b</a>') == \
        '<a>a</a><a href="https://e/">b</a>'
    resolve = Sanitizer(COMMENT, url_relative="resolve", url_base="https://e.example/d/p")
    assert resolve.sanitize('<a href="../x">a</a>') == '<a href="https://e.example/x">a</a>'


def test_link_rel_classes_forced_attributes():
    s = Sanitizer(COMMENT, link_rel="noopener noreferrer", allowed_classes={"span": ["ok"]},
                  set_attributes={"img": {"loading": "lazy"}})
    assert s.sanitize('<a href="https://e/">a</a>') == \
        '<a href="https://e/" rel="noopener noreferrer">a</a>'
    assert s.sanitize('<span class="ok bad">x</span><b class="ok">y</b>') == \
        '<span class="ok">x</span><b>y</b>'
    assert s.sanitize('<img src="https://e/i.png">') == \
        '<img src="https://e/i.png" loading="lazy">'


def test_style_properties_with_a_css_tokenizer():
    s = Sanitizer(COMMENT, style_properties=["color", "margin"])
    assert s.sanitize('<p style="color: red; background: url(x); margin:0">a</p>') == \
        '<p style="color:red;margin:0">a</p>'
    assert s.sanitize('<p style="c\\6flor: blue">a</p>') == '<p style="color:blue">a</p>'
    assert s.sanitize('<p style="color: expression(alert(1))">a</p>') == "<p>a</p>"
    assert s.sanitize("<style>@import url(x); p { color: red; position: fixed }</style>") == \
        "<style>p{color:red}</style>"


def test_attribute_filter_fails_closed():
    def upper(tag, name, value):
        if name == "title":
            return value.upper()
        if name == "class":
            raise RuntimeError("boom")
        return value
    s = Sanitizer(COMMENT, attribute_filter=upper)
    assert s.sanitize('<p title="x" class="c">a</p>') == '<p title="X">a</p>'
    evil = Sanitizer(COMMENT, attribute_filter=lambda t, n, v: "javascript:alert(1)")
    assert evil.sanitize('<a href="https://e/">a</a>') == "<a>a</a>"


def test_on_disallowed():
    html = "<p>a<u>b</u><script>c</script></p>"
    assert Sanitizer(COMMENT).sanitize(html) == "<p>a</p>"
    assert Sanitizer(COMMENT, on_disallowed="unwrap").sanitize(html) == "<p>ab</p>"
    assert Sanitizer(COMMENT, on_disallowed="escape").sanitize(html) == \
        "<p>a&lt;u&gt;b&lt;/u&gt;&lt;script&gt;c&lt;/script&gt;</p>"


def test_max_depth_flattens():
    s = Sanitizer({}, max_depth=3)
    assert s.sanitize("<b>" * 6 + "x") == "<b><b><b>x</b></b></b>"
    deep = Sanitizer({}).sanitize("<span>" * 100000 + "x")
    assert deep.count("<span>") == 256 and deep.endswith("x" + "</span>" * 256)


def test_report():
    s = Sanitizer(COMMENT, report=True)
    result = s.sanitize('<p onclick="x">a<script>b</script><u>c</u></p>')
    assert result == "<p>a</p>"
    kinds = {(r["kind"], r["element"], r["attribute"]) for r in result.report}
    assert ("attribute removed", "p", "onclick") in kinds
    assert ("element removed", "script", None) in kinds
    assert ("element removed", "u", None) in kinds


@pytest.mark.parametrize("keywords,error", [
    ({"url_schemes": ["javascript"]}, ValueError),
    ({"url_schemes": ["not a scheme"]}, ValueError),
    ({"url_schemes": "https"}, TypeError),
    ({"url_relative": "maybe"}, ValueError),
    ({"url_relative": "resolve"}, ValueError),
    ({"link_rel": 1}, TypeError),
    ({"allowed_classes": ["a"]}, TypeError),
    ({"style_properties": "color"}, TypeError),
    ({"set_attributes": {"a": {"onclick": "x"}}}, ValueError),
    ({"attribute_filter": 1}, TypeError),
    ({"on_disallowed": "explode"}, ValueError),
    ({"max_depth": 0}, ValueError),
    ({"report": "yes"}, TypeError),
])
def test_bad_options_raise_at_construction(keywords, error):
    with pytest.raises(error):
        Sanitizer(COMMENT, **keywords)


def test_options_keep_outputs_safe_and_are_part_of_equality():
    a = Sanitizer(COMMENT, link_rel="noopener")
    assert a != Sanitizer(COMMENT) and a == Sanitizer(COMMENT, link_rel="noopener")
    assert a.allow_element("u")._options is a._options
    policies = [Sanitizer({}, on_disallowed="escape"), Sanitizer(COMMENT, on_disallowed="unwrap"),
                Sanitizer({}, style_properties=["color"], url_schemes=["https"],
                          link_rel="nofollow", max_depth=8)]
    vectors = ["<svg><p><style><img src=x onerror=alert(1)>",
               "<math><mtext><table><mglyph><style><!--</style><img title=\"--&gt;&lt;img "
               "src=1 onerror=alert(1)&gt;\">",
               "<a href=\"jav&#x09;ascript:alert(1)\">x</a>",
               "<div>" * 20 + "<table><td><svg><foreignObject><style></style>"]
    for policy in policies:
        for vector in vectors:
            assert security_problems(policy.sanitize, vector) == [], (policy, vector)
