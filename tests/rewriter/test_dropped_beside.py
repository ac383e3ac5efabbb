"""Markup before or after a child of a <colgroup> or a <frameset> that the
parser drops there whole (issue 39's refusals, session 15): the fragment
parsing algorithm in the parent's context (insertAdjacentHTML's) makes no
nodes of it, so the DOM edit adds nothing and the rewrite writes nothing
(Element._dropped_beside). Content the fragment parse keeps (a <col> in a
colgroup, a <frame> in a frameset, a comment, text) stays refused: written
there, the parser would foster-parent it or put it elsewhere."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.edit_checks import assert_accepted, assert_refused
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

CASES = [
    ("<table><colgroup><template><col>", "template", 0),
    ("<table><colgroup><col><col></table>x", "col", 1),
    ("<frameset><frame><frameset><frame></frameset><noframes></noframes></frameset>",
     "frame", 0),
    ("<frameset><frame><frameset><frame></frameset><noframes></noframes></frameset>",
     "frameset", 1),
    ("<!doctype html><p><frameset><frame>", "frame", 0),
]


@pytest.mark.parametrize("operation", ["before_markup", "before_head_markup"])
@pytest.mark.parametrize("data,name,nth", CASES)
def test_dropped_markup_is_written_as_nothing(data, name, nth, operation):
    assert_accepted(data, name, operation, nth)


def _edit(data, name, content, where, chunk):
    def handler(element):
        getattr(element, where)(content, html=True)
    try:
        return rewrite_in_chunks(data, Rewriter(scripting=False).on(name, element=handler),
                                 chunk)
    except RewriteError as error:
        return error


@pytest.mark.parametrize("chunk", [None, 1, 3])
@pytest.mark.parametrize("where", ["before", "after"])
def test_the_output_is_the_input(where, chunk):
    data = "<table><colgroup><col span=2><col></colgroup><tr><td>a</table>"
    assert _edit(data, "col", "<div>M</div>", where, chunk) == data
    data = "<frameset><frame src=a><frame></frameset>"
    assert _edit(data, "frame", "<b>M</b>text", where, chunk) == data


@pytest.mark.parametrize("content", ["<col>", "<!--c-->", " x ", "<template>t</template>"])
def test_kept_content_still_refuses_in_a_colgroup(content):
    error = _edit("<table><colgroup><col><col></table>", "col", content, "before", None)
    assert isinstance(error, RewriteError) and "table part" in str(error), error


@pytest.mark.parametrize("content", ["<frame>", "<!--c-->", "\n", "<b>M</b> text"])
def test_kept_content_still_refuses_in_a_frameset(content):
    error = _edit("<frameset><frame></frameset>", "frame", content, "after", None)
    assert isinstance(error, RewriteError), error


def test_text_still_refuses():
    # (The DOM inserts a Text node whatever the parent: no fragment parse.)
    assert_refused("<table><colgroup><col></table>", "col", "before_text", "table part")
