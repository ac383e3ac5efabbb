"""Renames and remove_and_keep_content of select, option, optgroup, ruby
and the ruby parts (issue 39's refusals): accepted where what depends on
the element's name is expressed in the output (an end tag written where
the parser closed it without one, end tags written before a start tag
that closed elements by the implied end tags of a ruby or a select in
scope), refused where it is not (a select inside a <p>: a scope boundary;
<selectedcontent>; implied end tags that would go on past an unwrapped
ruby)."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.oracle import check

EXPRESSIBLE = [
    # (input, the element edited: its name, the first of that name)
    ("<ruby>a<rt>b</rt></ruby>c", "ruby"),
    ("<ruby>a<rt>b<rt>c</ruby>d", "ruby"),
    ("<ruby>a<rb>b<rt>c<rp>d</ruby>", "ruby"),
    ("<ruby>a<rb>b<rtc>c<rt>d</ruby>", "ruby"),
    ("<ruby>a<rt>b<rt>c</ruby>d", "rt"),
    ("<ruby>a<rb>b<rt>c<rp>d</ruby>", "rb"),
    ("<div><option>a<option>b</div>", "option"),
    ("<div><option>a</option><optgroup>b</optgroup>c</div>", "optgroup"),
    ("<select><option>a<option>b</select>x", "select"),
    ("<select><optgroup>a<optgroup>b</select>c", "select"),
    ("<select><option>a<optgroup>b<option>c<hr>d</select>", "select"),
    ("<select><hr>x</select>", "select"),
]


def _position(data, name, occurrence):
    """The index of the occurrence-th element `name` in the order the
    parser inserts them."""
    names = []
    rw = Rewriter().on("*", element=lambda e: names.append(e.tag_name))
    rewrite(data, rw)
    return [i for i, found in enumerate(names) if found == name][occurrence]


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("operation", ["rename", "remove_and_keep_content"])
@pytest.mark.parametrize("data,name", EXPRESSIBLE)
def test_accepted_and_reparsed_to_the_dom_edit(data, name, operation, chunked):
    figures = check(data, False, operation, chunked=chunked,
                    indexes=[_position(data, name, 0)])
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.tried == 1 and figures.accepted == 1, dict(figures.refused)


def test_the_end_tags_go_before_the_start_tag_that_closed_them():
    rw = Rewriter().on("ruby", element=lambda e: setattr(e, "tag_name", "span"))
    assert rewrite("<ruby>a<rt>b<rt>c</ruby>", rw) == "<span>a<rt>b</rt><rt>c</span>"
    # (A handler on the new element, which writes its start tag, too.)
    rw = Rewriter().on("ruby", element=lambda e: setattr(e, "tag_name", "span"))
    rw.on("rt", element=lambda e: e.set_attribute("class", "x"))
    assert rewrite("<ruby>a<rt>b<rt>c</ruby>", rw) == \
        '<span>a<rt class="x">b</rt><rt class="x">c</span>'


@pytest.mark.parametrize("data,name,occurrence,operation,why", [
    # A select is a scope boundary: the <hr> would close the <p> without it.
    ("<p><select><hr>x</select>", "select", 0, "rename", "treats"),
    # The parser copies the selected option into <selectedcontent>.
    ("<select><button><selectedcontent></selectedcontent></button><option>a</option>"
     "</select>", "select", 0, "rename", "selectedcontent"),
    # The <rb>'s implied end tags stop at the inner ruby; without it they
    # close the <rtc>.
    ("<ruby><rtc><ruby>a<rb>b<rt></ruby></ruby>", "ruby", 1, "remove_and_keep_content",
     "later end tags"),
    # </select> closes the <div>; </abbr> would stop at it.
    ("<select><div>a</select>b", "select", 0, "rename", "ordinary element"),
    # The <hr> closes the <span> and the <p> (a <p> in button scope), then
    # the implied end tags of the select in scope: end tags are written
    # only for what implied end tags close.
    ("<select><p><span>a<hr>b</select>", "select", 0, "rename", "implied end tags"),
])
def test_refused_where_the_output_cannot_express_it(data, name, occurrence, operation, why):
    seen = []

    def handler(element):
        if element.tag_name == name:
            seen.append(element)
            if len(seen) == occurrence + 1:
                if operation == "rename":
                    element.tag_name = "abbr"
                else:
                    element.remove_and_keep_content()

    with pytest.raises(RewriteError, match=why):
        rewrite(data, Rewriter().on("*", element=handler))
    figures = check(data, False, operation, indexes=[_position(data, name, occurrence)])
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.tried == 1 and figures.accepted == 0


@pytest.mark.parametrize("data", ['<p>1<s id="A">2<b id="B">3</p>4</s>5</b>',
                                  "<div><b>x</div>y", "<p><font><font>a</p>b"])
def test_the_new_end_tag_closes_the_formatting_elements_above_it(data):
    # (The end tag of an ordinary element walks down the stack past them,
    # as the element's own end tag popped them: no end tags are written
    # for them, which would take them off the list of active formatting
    # elements.)
    figures = check(data, False, "rename", indexes=[3])
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.accepted == 1, dict(figures.refused)
    rw = Rewriter().on("p, div", element=lambda e: setattr(e, "tag_name", "abbr"))
    assert rewrite("<p>1<s>2<b>3</p>4", rw) == "<abbr>1<s>2<b>3</abbr>4"
