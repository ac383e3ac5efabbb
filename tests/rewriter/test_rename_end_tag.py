"""A renamed ordinary element and the end tags of its new name inside it
(the oracle renames to <abbr>): an </abbr> the parser ignored would close
the renamed element in the output, so the rename is refused; one that
closes an <abbr> (inside it, or outside it with the element's own end
written before it) is written as it is. Checked with the DOM-equivalence
oracle on the element with id="r", whole and in 7-byte chunks."""
import pytest

from tests.rewriter.test_form_pointer import _figures


@pytest.mark.parametrize("data", [
    '<span id="r">a</abbr>b</span>',
    '<div><em id="r">a</abbr>b</em></div>c',
])
def test_an_ignored_end_tag_of_the_new_name_inside_it_is_refused(data):
    figures = _figures(data, "rename", True)
    assert (figures.accepted, sum(figures.refused.values())) == (0, 1)
    assert "ignored" in next(iter(figures.refused))


@pytest.mark.parametrize("data", [
    '<abbr><span id="r">a</abbr>b</span>',
    '<span id="r">a<abbr>x</abbr>b</span>',
    '<span id="r">a</em>b</span>',
])
def test_other_end_tags_of_the_new_name_are_written_as_they_are(data):
    figures = _figures(data, "rename", True)
    assert (figures.accepted, sum(figures.refused.values())) == (1, 0)
