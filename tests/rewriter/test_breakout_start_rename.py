"""An HTML element whose start tag broke out of foreign content, renamed
(Element._foreign_breakout_renamable): the other name would be a foreign
element there, so end tags for the foreign elements the start tag popped
are written before it (in foreign content an end tag of the current
node's name pops it alone), and the renamed start tag goes by the
insertion mode where the input's did."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_reparses


@pytest.mark.parametrize("data,name", [
    ("<svg><font size=4></font></svg>", "font"),
    ("<!DOCTYPE html><svg><desc><svg><ul>a", "ul"),
    ("<svg><title><svg><div>", "div"),
    ("<svg><g><b>x</b></g>", "b"),
    ("<svg><path><p>x</p></svg>", "p"),
    ("<math><mi><svg><p>x", "p"),
    ("<svg><span>x</span>", "span"),
    ("<!DOCTYPE html><body><table><caption><svg><g>foo</g><g>bar</g><p>baz</table>", "p"),
])
def test_renamed(data, name):
    assert_accepted(data, name, "rename")


@pytest.mark.parametrize("data", [
    "<p><svg><p>x",
    "<svg><g><script></script><p>",
    "<svg><foreignObject><svg><p>x</svg>",
    "<a><svg><a>x",
    "<svg><li>a<li>b",
    "<svg><nobr>x<nobr>",
    "<svg><body>",
    "<svg><pre>\nx</pre>",
    "<svg></p><foo>",
])
def test_near_cases_reparse(data):
    assert_reparses(data, "rename")
