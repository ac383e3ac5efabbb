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
    # (self-closing: the new name's end tag is written after its start tag)
    ("<p><svg viewBox='0 0 1 1'/>x</p>", "svg"),
    ("<abbr><math/>x</abbr>y", "math"),
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


# remove_and_keep_content of such an <svg> or <math> (Element.
# _foreign_root_unwrap): its text goes into the parent, escaped (the first
# character as a reference, so that it joins nothing before it), and the
# same ends are taken (Rewriter._foreign_root_unwrap_end).
@pytest.mark.parametrize("data,name", [
    ("<svg><![CDATA[foo\r\nbar]]>", "svg"),
    ("<p>a&not<math><![CDATA[in;]]></math>z", "math"),
    ("<div>x<<svg>b<![CDATA[<i>]]></svg>", "svg"),
    ("<svg>\x00a<!--c--></svg><frameset>", "svg"),
    ("<svg> x</svg>", "svg"),
    ("<svg> </svg>", "svg"),
    ("<svg><![CDATA[foo]]>", "svg"),
    ("<p>x<svg><![CDATA[x]]></svg>", "svg"),
    ("<!doctype html><svg>a</svg><frameset><frame>", "svg"),
    ("<p><svg>x</p>y", "svg"),
    ("<b><svg>x</b>y", "svg"),
    ("<svg>x<font size=4>y", "svg"),
])
def test_unwrapped(data, name):
    assert_accepted(data, name, "remove_and_keep_content")


@pytest.mark.parametrize("data", [
    "<p><svg>\x00</svg>",
    "<p><svg><![CDATA[]]>x</svg>",
    "<p><svg>x</path></svg>",
])
def test_unwrap_refused(data):
    assert_refused(data, "svg", "remove_and_keep_content", "later end tags differently")


@pytest.mark.parametrize("data", [
    "<svg> </svg><frameset>",
    "<svg><![CDATA[ ]]></svg><frameset>",
    "<svg></svg><!--c-->",
    "<svg><!--c--></svg><frameset>",
    "<select><svg>x</svg></select>",
    "<table><caption><svg>x</table>",
])
def test_unwrap_near_cases_reparse(data):
    assert_reparses(data, "remove_and_keep_content")
