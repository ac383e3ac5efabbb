"""An <svg> or <math> in body renamed (to the oracle's <abbr>) when it
turns out to hold text alone and to end with its own end tag
(Element._foreign_root_renamable): the "in body" rules insert either
element where the parser is, text in either is inserted at it, and its
end tag pops it. Content the parser reads otherwise as foreign content
(a comment is the same, but markup, CDATA sections and NUL are not:
refused with any "<"), attributes (adjusted for foreign elements), and
an end by another token stay refused or reparse equal."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses


@pytest.mark.parametrize("data,name", [
    ("<svg></svg>", "svg"),
    ("<math></math>x", "math"),
    ("<svg>a</svg><frameset>", "svg"),
    ("<!DOCTYPE html><svg>a&amp;b &#xFFFD;</svg>x", "svg"),
    ("<p><svg>\nx</svg></p>", "svg"),
    ("<div><svg>x</SVG>y</div>", "svg"),
])
def test_renamed(data, name):
    assert_accepted(data, name, "rename")


@pytest.mark.parametrize("data", [
    "<svg>\x00a</svg>",
    "<svg><![CDATA[a]]></svg>",
    "<svg><!--c--></svg>",
    "<svg>a",
    "<svg>x</p>y",
    "<div><svg>x</div>y",
])
def test_refused(data):
    assert_refused(data, "svg", "rename", "a foreign element's name decides")


@pytest.mark.parametrize("data", [
    "<svg/>x",
    "<svg viewBox=1></svg>",
    "<p><b>x</p><svg>y</svg>z",
    "<table><td><svg>x</svg>y</td></table>",
    "<select><svg>x</svg></select>",
    "<a><svg>x</a>y</svg>",
    "<svg>x<svg>y</svg></svg>",
    "<template><svg>x</svg></template>",
])
def test_near_cases_reparse(data):
    assert_reparses(data, "rename")
