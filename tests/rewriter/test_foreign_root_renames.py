"""An <svg> or <math> in body renamed (to the oracle's <abbr>) when it
turns out to hold text alone and to end with its own end tag
(Element._foreign_root_renamable): the "in body" rules insert either
element where the parser is, text in either is inserted at it, and its
end tag pops it. Content the parser reads otherwise as foreign content
(markup, an empty CDATA section, a NUL alone) stays refused; the rest
reparses equal. (CDATA sections, NULs, comments, attributes and ends by
another token: test_foreign_root_rename_content.py.)"""
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
    "<svg>\x00</svg>",
    "<svg><![CDATA[]]></svg>",
    "<svg><![CDATA[a",
    "<svg>x<!--a--!>y</svg>",
    "<svg>x<path/></svg>",
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
