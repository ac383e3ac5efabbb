"""Edits in a select with a <selectedcontent> that change nothing the
parser copies into it nor which option it copies (Element.
_attribute_outside_mirror, Element._beside_outside_mirror): the parser
clones the selected option's children (not its attributes) when an option
is popped and when a selectedcontent is inserted; which option is selected
reads only the selected, disabled and multiple attributes. So an
attribute other than those on the select, an option, an optgroup, the
selectedcontent or an element in no option, and content before or after
an element whose parent is the select (or an element in no option,
optgroup or selectedcontent), reparse to the DOM edit. The rest stays
refused: an attribute that picks another option, an attribute of an
element inside an option (copied as the input has it), content in an
option."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses

SELECTS = [
    "<select><button><selectedcontent></button><option>X<option selected>Y",
    "<select><button><selectedcontent></button><option>x<i>i<b>ib</i>b",
    "<select><option>X<option>Y<button><selectedcontent></button></select>",
]


@pytest.mark.parametrize("data,name,nth", [
    (SELECTS[0], "select", 0),
    (SELECTS[0], "option", 0),
    (SELECTS[0], "option", 1),
    (SELECTS[0], "selectedcontent", 0),
    (SELECTS[0], "button", 0),
    (SELECTS[2], "option", 1),
])
def test_attribute_accepted(data, name, nth):
    assert_accepted(data, name, "set_attribute", nth)


@pytest.mark.parametrize("data,name,nth,operation", [
    (SELECTS[0], "option", 0, "before_text"),
    (SELECTS[0], "option", 1, "before_text"),
    (SELECTS[0], "option", 0, "after_text"),
    (SELECTS[0], "selectedcontent", 0, "before_text"),
    (SELECTS[0], "selectedcontent", 0, "after_text"),
    (SELECTS[0], "option", 1, "before_markup"),
    (SELECTS[1], "option", 0, "before_head_markup"),
    (SELECTS[2], "option", 1, "after_text"),
])
def test_beside_accepted(data, name, nth, operation):
    assert_accepted(data, name, operation, nth)


@pytest.mark.parametrize("attribute", ["selected", "DISABLED"])
def test_selectedness_attribute_refused(attribute):
    def handler(element):
        if element.local_name == "option" and not element.has_attribute("selected"):
            element.set_attribute(attribute, "")
    with pytest.raises(RewriteError, match="copies the selected option"):
        rw = Rewriter(scripting=False).on("*", element=handler)
        rw.feed(SELECTS[0].encode())
        rw.close()


def test_multiple_refused():
    def handler(element):
        if element.local_name == "select":
            element.set_attribute("multiple", "")
    with pytest.raises(RewriteError, match="copies the selected option"):
        rw = Rewriter(scripting=False).on("*", element=handler)
        rw.feed(SELECTS[0].encode())
        rw.close()


@pytest.mark.parametrize("data,name,operation", [
    (SELECTS[1], "i", "set_attribute"),
    (SELECTS[1], "b", "before_text"),
    (SELECTS[0], "option", "append_text"),
])
def test_inside_an_option_refused(data, name, operation):
    assert_refused(data, name, operation, "copies the selected option")


@pytest.mark.parametrize("data", SELECTS + [
    "<select><div><option>X</div><option>Y<button><selectedcontent></button></select>",
    "<select><selectedcontent><span>a</span></selectedcontent><option><b>X</b></option>",
])
@pytest.mark.parametrize("operation", ["set_attribute", "before_text", "after_text",
                                       "before_markup"])
def test_near_cases_reparse(data, operation):
    assert_reparses(data, operation)
