"""A title or textarea of the body renamed to an ordinary element, or
unwrapped (remove_and_keep_content): its RCDATA text is written escaped,
as the new element's text or as the parent's (Element._rcdata_renamable,
_escape_raw_text). Refused where the parent would not take that text as it
is (head, table, select, a start tag that closed or reconstructed
elements), and for foreign elements of those names."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import (_dom_remove_and_keep, _dom_rename, _normalized_dump, check,
                                   elements_in_order)
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

ACCEPTED = [
    ("<p>a<textarea>t</textarea>b", "textarea"),
    ("<textarea><p></textarea>", "textarea"),
    ("<textarea><!--</textarea>--></textarea>", "textarea"),
    ("<!doctype html><textarea>&lt;/textarea></textarea>", "textarea"),
    ("<textarea>\nX&lt;b>&amp;</textarea>Y", "textarea"),
    ("<textarea>\n\nX</textarea>", "textarea"),
    ("<textarea>&#10;x</textarea>", "textarea"),
    ("<div><textarea>\r\nX<p>\r\n", "textarea"),
    ("<textarea></textarea><frameset>", "textarea"),
    ("<body><title>a&b<i>x</i></title>y", "title"),
    ("<!DOCTYPE html><body><title>test</body></title>", "title"),
    ("<body><title></title><frameset>", "title"),
    ("<b>x<p>y</b><textarea>z</textarea>", "textarea"),
]


def _edit(data, name, operation, chunk=None):
    done = [False]

    def handler(element):
        if not done[0] and element.local_name == name:
            done[0] = True
            if operation == "rename":
                element.tag_name = "abbr"
            else:
                element.remove_and_keep_content()
    out = rewrite_in_chunks(data, Rewriter().on("*", element=handler), chunk)
    assert done[0]
    return out


def _dom_edit(data, name, operation):
    doc = lexpy.parse(data)
    element = next(e for e in elements_in_order(doc) if e.local_name == name)
    (_dom_rename if operation == "rename" else _dom_remove_and_keep)(element)
    return _normalized_dump(doc)


@pytest.mark.parametrize("data, name", ACCEPTED)
@pytest.mark.parametrize("operation", ["rename", "remove_and_keep_content"])
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_rcdata_element_loses_its_name(data, name, operation, chunk):
    out = _edit(data, name, operation, chunk)
    assert _normalized_dump(lexpy.parse(out)) == _dom_edit(data, name, operation)
    assert "<%s" % name not in out.lower()


def test_text_that_would_be_markup_is_escaped():
    assert _edit("<textarea><p>&amp;</textarea>", "textarea", "rename") == \
        "<abbr>&#60;p&gt;&amp;</abbr>"


def test_frameset_ok_stays_not_ok():
    # (The textarea's start tag set frameset-ok to "not ok"; the empty
    # <abbr> would not: a <body> tag is written before the <frameset>.)
    out = _edit("<textarea></textarea><frameset>", "textarea", "rename")
    assert lexpy.dump(lexpy.parse(out)) == lexpy.dump(lexpy.parse("<abbr></abbr>"))


@pytest.mark.parametrize("data, name, operation", [
    (data, name, operation)
    for data, name in [("<head><title>x</title></head>", "title"), ("<title>x</title>", "title"),
                       ("<select><textarea>x</textarea>", "textarea"),
                       ("<table><textarea>x</textarea>", "textarea"),
                       ("<p><b>x<p><textarea>y</textarea>", "textarea")]
    for operation in ("rename", "remove_and_keep_content")
] + [("<svg><title>x</title></svg>", "title", "rename")])
@pytest.mark.parametrize("chunk", [None, 2])
def test_near_cases_are_refused(data, name, operation, chunk):
    with pytest.raises(RewriteError):
        _edit(data, name, operation, chunk)


@pytest.mark.parametrize("data, name", ACCEPTED)
def test_oracle_on_these_inputs(data, name):
    for operation in ("rename", "remove_and_keep_content"):
        figures = check(data, False, operation)
        assert not figures.mismatches, figures.mismatches[0]
        chunked = check(data, False, operation, chunked=True)
        assert not chunked.mismatches and chunked.accepted == figures.accepted
