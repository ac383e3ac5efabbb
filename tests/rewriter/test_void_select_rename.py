"""A void element whose parent is a select, an option or an optgroup
(<hr>, <img>, ...) renamed to an ordinary element
(Element._void_in_select_renamable): it has no content, the other start
tag inserts its element at the same place, and the new element's end
tag, written at once, pops it alone; what its own start tag closed (an
<hr> the current <option>) gets end tags written before it. Refused where
a token after it reads the select's content otherwise."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import _dom_rename, _normalized_dump, check, elements_in_order
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

ACCEPTED = [
    ("<select><hr>", "hr"),
    ("<select><hr></select>x", "hr"),
    ("<select><option><hr>", "hr"),
    ("<select><optgroup><option>a<hr>b", "hr"),
    ("<select><option>a<hr><option>b</select>", "hr"),
    ("<select><img>", "img"),
    ("<select><option>a<img>b", "img"),
    ("<p><select><hr>", "hr"),
    ("<select><b><option>x<hr>y", "hr"),
]


def _rename(data, name, chunk=None):
    done = [False]

    def handler(element):
        if not done[0] and element.local_name == name:
            done[0] = True
            element.tag_name = "abbr"
    out = rewrite_in_chunks(data, Rewriter().on("*", element=handler), chunk)
    assert done[0]
    return out


def _dom(data, name):
    doc = lexpy.parse(data)
    _dom_rename(next(e for e in elements_in_order(doc) if e.local_name == name))
    return _normalized_dump(doc)


@pytest.mark.parametrize("data, name", ACCEPTED)
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_void_in_select_renamed(data, name, chunk):
    out = _rename(data, name, chunk)
    assert _normalized_dump(lexpy.parse(out)) == _dom(data, name)
    assert "<%s" % name not in out.lower()


@pytest.mark.parametrize("data, name", [
    # (An option or optgroup in its select is renamed under other
    # conditions: test_option_in_select_rename.)
    ("<select><button><selectedcontent></button><option>X<img>", "img"),   # (mirrored)
])
@pytest.mark.parametrize("chunk", [None, 2])
def test_near_cases_are_refused(data, name, chunk):
    with pytest.raises(RewriteError):
        _rename(data, name, chunk)


@pytest.mark.parametrize("data, name", ACCEPTED)
def test_oracle_on_these_inputs(data, name):
    for scripting in (False, True):
        figures = check(data, scripting, "rename")
        assert not figures.mismatches, figures.mismatches[0]
        chunked = check(data, scripting, "rename", chunked=True)
        assert not chunked.mismatches and chunked.accepted == figures.accepted
