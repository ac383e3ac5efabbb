"""A removed element, or one whose content is replaced, whose dropped
content leaves formatting elements on the list of active formatting
elements that the parser reconstructs later (Rewriter._drop_unlists): the
output, without that content, has the list where it began; when the
input's is that list followed by the entries the dropped content added
(none open), start tags written where the parser reconstructs their copies
make them (_copies_of_unlisted). An end tag that closed the element and
took the entry of an element around it off the list (the adoption agency
algorithm without a furthest block) does so in both. Refused: a later
token that takes an added entry off the input's list."""
import pytest

from lexpy.rewriter import RewriteError
from tests.rewriter.oracle import check
from tests.rewriter.test_unlist_copies import _edit


ACCEPTED = [
    # (input, element index, operation, output)
    ('<p>1<s id="A">2<b id="B">3</p>4</s>5</b>', 3, "remove",
     '<body><s id="A"><b id="B">4</s>5</b>'),
    ('<p>1<s id="A">2<b id="B">3</p>4</s>5</b>', 3, "set_inner_content", None),
    # </a> pops <b> and takes <a>'s entry off, in the output too.
    ("<a>1<b>2</a>3</b>", 4, "remove", "<a>1</a><b>3</b>"),
    ("<a>1<b>2</a>3</b>", 4, "set_inner_content", None),
    ("<div><p><i>1</div>2", 4, "remove", None),
    # the removed <i>'s own entry is among those added: its copy stays
    ("<b>1<i>2<s>3</b>4", 4, "remove", "<b>1</b><i><s>4"),
]


@pytest.mark.parametrize("data,index,operation,output", ACCEPTED)
@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_dropped_content_that_leaves_entries_to_reconstruct(data, index, operation, output,
                                                           chunk):
    figures = check(data, False, operation, indexes=[index])
    assert figures.tried == 1 and figures.accepted == 1 and not figures.mismatches, figures
    out = _edit(data, index, operation, chunk)
    assert out == _edit(data, index, operation)
    if output is not None:
        assert out == output


def test_a_later_end_tag_that_takes_the_added_entry_off_is_refused():
    # </b> takes the <b> entry (added by the dropped <p>) off the input's
    # list; the output has none for it.
    data = "<p><b>1</p></b>2"
    with pytest.raises(RewriteError, match="took the entry"):
        _edit(data, 3, "remove")
    figures = check(data, False, "remove", indexes=[3])
    assert figures.tried == 1 and figures.refused and not figures.mismatches
