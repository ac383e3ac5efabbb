"""A form the parser closes without its end tag (an ancestor's end tag,
the end of input) where content is written after it, or after an element
inside it: a </form> is written for it (issue 39's refusals "<form> ends
without an end tag where content is written" and "its end is implied and
an end tag cannot be written for it"). It closes the form where the form
element pointer is that form (or the form is in a template's contents,
where </form> leaves the pointer alone); the input's pointer stays set, so
a later form tag is written as after a form unwrapped (_form_tag), or
refused. Checked with the DOM-equivalence oracle on the element with
id="r", whole and in 7-byte chunks."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.test_form_pointer import _figures

WRITTEN = [
    ('<form id="r"><isindex>', "after_text"),
    ('<!doctype html><p><button><form id="r">', "after_text"),
    ('<div><form id="r"></div>X', "after_text"),
    ('<div id="r"><form><span></div>X', "append_markup"),
    ('<div><form><span id="r"></div>X', "after_text"),
    ('<body id="r"><form><isindex>', "append_text"),
    ('<div id="r"><form><span>a</div>', "append_text"),
    ('<div><form id="r"></div>X<form>Y</form>Z', "after_text"),
    ('<div><form id="r"></div>X</form><form>Y', "after_text"),
    ('<template id="r"><div><form><span></template><form>Y', "append_text"),
]


@pytest.mark.parametrize("data, operation", WRITTEN)
def test_a_form_end_tag_is_written(data, operation):
    figures = _figures(data, operation, False)
    assert (figures.accepted, sum(figures.refused.values())) == (1, 0), figures.refused


def test_the_output():
    rw = Rewriter().on("form", element=lambda e: e.after("Q"))
    assert rewrite("<div><form></div>X<form>Y</form>Z", rw) == \
        "<div><form></form>Q</div>X</form>Y</form>Z"


def test_in_a_template_the_pointer_is_not_used():
    # (A form in a template's contents never set it: </form> pops the form
    # in scope and leaves it alone, and the <form> after the template is
    # taken in both.)
    rw = Rewriter().on("template", element=lambda e: e.append("Q"))
    assert rewrite("<template><div><form><span></template><form>Y", rw) == \
        "<template><div><form><span></span></form></div>Q</template><form>Y"


def test_a_later_form_tag_it_cannot_write_the_same_is_refused():
    # (The input's pointer is still the form: a later form tag must do in
    # the output what it did in the input, or be refused.)
    rw = Rewriter().on("form", element=lambda e: e.after("Q"))
    with pytest.raises(RewriteError, match="form element pointer"):
        rewrite('<div><form></div>X<svg><form>', rw)




def test_a_form_removed_with_content_after_it_is_refused():
    # (Removed: no end tag of its own is written; the pointer its dropped
    # start tag set is not followed for content after it.)
    seen = []

    def edit(element):
        seen.append(element)
        if len(seen) == 1:
            element.remove()
            element.after("Q")

    with pytest.raises(RewriteError, match="its end is implied"):
        rewrite('<div><form></div>X<form>Y', Rewriter().on("form", element=edit))
