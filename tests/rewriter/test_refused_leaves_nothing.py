"""What a refused edit leaves (issue 39's review): nothing of it is
written, so it sets no frameset-ok flag and adds no <body> start tag
(Element._undone_if_refused); and asking whether a </form> can be
written for a form changes nothing (Rewriter._form_end_tag)."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.test_adoption_edits import rewrite_in_chunks


def _refused(edit):
    refusals = []

    def handler(e):
        try:
            edit(e)
        except RewriteError as error:
            refusals.append(error)
    return handler, refusals


@pytest.mark.parametrize("chunk", [None, 1, 5])
def test_a_refused_replace_leaves_a_later_frameset_taken(chunk):
    # (<b>x leaves <b> open: refused after the check of the element the
    # body was implied for, which notes a <body> start tag.)
    handler, refusals = _refused(lambda e: e.replace("<b>x", html=True))
    rw = Rewriter().on("div", element=handler)
    assert rewrite_in_chunks("<div></div><frameset>", rw, chunk) == "<div></div><frameset>"
    assert len(refusals) == 1


def test_asking_about_a_form_end_tag_changes_nothing():
    answers = []
    rw = Rewriter()
    rw.on("form", element=lambda e: answers.extend(
        rw._form_end_tag(e._record.node) for _ in range(2)))
    assert rewrite("<form>x", rw) == "<form>x"
    assert answers == [True, True]
