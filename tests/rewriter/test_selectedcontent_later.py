"""Whether a select holds a <selectedcontent> (Element._check_select_mirror)
is found anew while it holds none: one can come later in the select, and
an option edited after it is copied into it by a reparse (issue 39)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError, rewrite

DATA = ("<select><option>a</option><button><selectedcontent></selectedcontent>"
        "</button><option selected>b</option></select>")


def _edit(e):
    if e.get_attribute("selected") is None:
        e.set_attribute("x", "1")       # (asks before the <selectedcontent>)
    else:
        e.append("X")


@pytest.mark.parametrize("step", [None, 5])
def test_an_option_after_a_later_selectedcontent_is_refused(step):
    rw = Rewriter().on("option", element=_edit)
    with pytest.raises(RewriteError, match="copies the selected option"):
        if step is None:
            rewrite(DATA, rw)
        else:
            data = DATA.encode()
            for i in range(0, len(data), step):
                rw.feed(data[i:i + step])
            rw.close()


def test_what_it_would_write_reparses_otherwise():
    written = DATA.replace("<option>a", '<option x="1">a').replace(">b<", ">bX<")
    dom = lexpy.parse(DATA)
    options = dom.query_selector_all("option")
    options[0].set_attribute("x", "1")
    options[1].append(dom.create_text_node("X"))
    assert lexpy.dump(lexpy.parse(written)) != lexpy.dump(dom)


def test_an_option_before_any_selectedcontent_is_still_edited():
    rw = Rewriter().on("option", element=lambda e: e.set_attribute("x", "1"))
    assert rewrite("<select><option>a</option><option>b</option></select>", rw) == \
        '<select><option x="1">a</option><option x="1">b</option></select>'
