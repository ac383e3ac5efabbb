"""An option or optgroup in its select renamed to an ordinary element
(Element._option_in_select_renamable): its start tag closed nothing (or
closed elements by implied end tags alone, end tags written for them), an
<option>, <optgroup> or <hr> that closes it gets the new name's end tag
written before it (with those of what it closed above it), and the rest
of the parser passes over it as over an ordinary element. A
<selectedcontent> in the select (which copies the selected option) keeps
it refused."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses


@pytest.mark.parametrize("data,name,nth", [
    ("<table><select><option>3</select></table>", "option", 0),
    ("<!doctype html><select><option><option>", "option", 0),
    ("<!doctype html><select><option><option>", "option", 1),
    ("<select><option><hr>", "option", 0),
    ("<select><optgroup><option><hr>", "optgroup", 0),
    ("<select><optgroup><option><hr>", "option", 0),
    ("<!DOCTYPE html><select><optgroup><option><optgroup>", "optgroup", 1),
    ("<select><option><p>x<option>y", "option", 0),
    ("<select><option><span>a<hr>b", "option", 0),
    ("<select><option>a</select>b", "option", 0),
    ("<select><option>a", "option", 0),
    ("<select><optgroup><option>a", "optgroup", 0),
])
def test_renamed(data, name, nth):
    assert_accepted(data, name, "rename", nth)


def test_refused_with_a_selectedcontent():
    assert_refused("<select><button><selectedcontent></button><option>X", "option", "rename",
                   "copies the selected option")


@pytest.mark.parametrize("data", [
    "<select><option><div>x<option>y</div>z",
    "<select><option>a<b>b<option>c</b>d",
    "<select><option>a<select>b",
    "<select><option>a<input>b",
    "<select><option><li>a<option>b",
    "<select><option><ruby><rb>a<option>b",
    "<select><option>a<button><selectedcontent></button></select>",
    "<select><option>a<datalist><option>b</datalist>c",
    "<div><select><option>a</div>b",
])
def test_near_cases_reparse(data):
    assert_reparses(data, "rename")
