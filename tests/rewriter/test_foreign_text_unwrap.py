"""remove_and_keep_content of a foreign element whose tags the parser
reads otherwise than an ordinary element's (an integration point such as
<mi>, or an <svg>/<math> in HTML), when its content is text alone
(Element._unwrap_text_only, Rewriter._text_only_end): the text is read
the same with the parent as the current node, and the element's own end
tag did nothing else. Content with markup (a tag, a comment, a CDATA
section) or a NUL (foreign content and "in body" read it differently),
an element closed otherwise than by its own end tag, one whose start tag
implied the body, and one in an integration point stay refused."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused

ACCEPTED = [
    ("<math><mi>foo</mi><mi>bar</mi></math>", "mi", 0),
    ("<math><mi>foo</mi><mi>bar</mi></math>", "mi", 1),
    ("<!DOCTYPE html><body><table><math><mi>foo</mi><mi>bar</mi></math></table>", "mi", 0),
    ("<p>x<svg>a &amp; b</svg>c", "svg", 0),
    ("<div>x<math>1 &lt; 2</math></div>", "math", 0),
    ("<p>x<math><mtext> t </mtext></math>", "mtext", 0),
    ("<p>x<math><mi></mi></math>", "mi", 0),
]


@pytest.mark.parametrize("data,name,nth", ACCEPTED)
def test_text_alone_is_unwrapped(data, name, nth):
    assert_accepted(data, name, "remove_and_keep_content", nth)


REFUSED = [
    # (a NUL: dropped in <mi> ("in body"), U+FFFD in <math>)
    ("<!DOCTYPE html><p>x<math><mi>a\x00b</mi></math>", "mi", 0),
    # (markup inside)
    ("<p>x<math><mi>x<b>y</b></mi></math>", "mi", 0),
    # (in an integration point: its text would be read by "in body")
    ("<p>x<math><mi><mglyph>x</mglyph></mi></math>", "mglyph", 0),
    # (closed by the end of input, not by its own end tag)
    ("<p>x<math><mi>ab", "mi", 0),
]


@pytest.mark.parametrize("data,name,nth", REFUSED)
def test_other_content_still_refused(data, name, nth):
    assert_refused(data, name, "remove_and_keep_content", "", nth)
