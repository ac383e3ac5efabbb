"""An <svg> or <math> in body renamed to an HTML element (Element.
_foreign_root_renamable) with what the rules for foreign content read
otherwise than "in body": CDATA sections and NULs written as escaped text
(Element._escape_foreign_text, Rewriter._foreign_cdata_out), comments and
doctypes (the same in both), attributes (the parser adjusts a foreign
element's names; the DOM's rename copies them with setAttribute, which
lowercases them and drops their namespace, as the reparse does), and an
end by another token than its own end tag: the end of input, a start tag
or a </p> that breaks out of foreign content, an ancestor's end tag (the
end tag written for the renamed element pops it first, then the token
does what it did)."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses


@pytest.mark.parametrize("data,name", [
    ("<svg><![CDATA[foo\r\nbar]]></svg>", "svg"),
    ("<math><![CDATA[a&b<c>]]>x&amp;y</math>z", "math"),
    ("<svg><![CDATA[</svg><p>]]>a</svg>", "svg"),
    ("<!DOCTYPE html><svg><![CDATA[foo]]]]>", "svg"),
    ("<svg>\x00a<![CDATA[\x00b]]></svg>", "svg"),
    ("<svg><!--c--><!DOCTYPE html>x</svg>", "svg"),
    ("<svg>a", "svg"),
    ("<!DOCTYPE html><svg attributeName=a xlink:href=b xml:lang=c></svg>", "svg"),
    ("<math definitionurl=x XLINK:SHOW=y>z</math>", "math"),
    ("<svg>x</p>y", "svg"),
    ("<div><svg>x</div>y", "svg"),
    ("<abbr><svg>x</abbr>y", "svg"),
    ("<b><svg>x</b>y", "svg"),
    ("<p><svg>x<p>y", "svg"),
    ("<svg>x<font color=red>y", "svg"),
])
def test_renamed(data, name):
    assert_accepted(data, name, "rename")


@pytest.mark.parametrize("data", [
    "<svg>\x00 </svg><frameset>",
    "<svg><![CDATA[]]>x</svg>",
    "<svg><![CDATA[x",
])
def test_refused(data):
    assert_refused(data, "svg", "rename", "a foreign element's name decides")


@pytest.mark.parametrize("data", [
    "<svg><![CDATA[a]]></svg><frameset>",
    "<svg>\x00a</svg><frameset>",
    "<svg>a</html><!--c-->",
    "<svg><body>",
    "<form><svg></form>",
    "<table><caption><svg>x</table>y",
])
def test_near_cases_reparse(data):
    assert_reparses(data, "rename")
