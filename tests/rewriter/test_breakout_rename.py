"""A rename of an element whose start tag broke out of foreign content
(issue 39, found by a randomized search): `<math><span>` pops the math,
`<math><abbr>` is a MathML element. Written with end tags for the popped
foreign elements before the renamed start tag (`<math></math><abbr>`,
Element._foreign_breakout_renamable), or refused."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.edit_checks import assert_accepted
from tests.rewriter.oracle import check
from tests.rewriter.test_adoption_edits import rewrite_in_chunks


@pytest.mark.parametrize("chunk", [None, 1, 3])
@pytest.mark.parametrize("data", ["<math><span>x</span>", "<svg><desc><math><span>x"])
def test_a_rename_after_a_breakout_closes_the_foreign_elements(data, chunk):
    rw = Rewriter().on("span", element=lambda e: setattr(e, "tag_name", "abbr"))
    assert "</math><abbr>" in rewrite_in_chunks(data, rw, chunk)
    assert_accepted(data, "span", "rename")


@pytest.mark.parametrize("chunk", [None, 1])
def test_a_rename_after_a_breakout_of_a_script_is_refused(chunk):
    # (</script> in SVG runs the script: no end tag is written for it.)
    rw = Rewriter().on("p", element=lambda e: setattr(e, "tag_name", "abbr"))
    with pytest.raises(RewriteError, match="broke out of foreign content"):
        rewrite_in_chunks("<svg><script><p>x", rw, chunk)


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", ["<math><span>", "<b><pre><math><span><math>",
                                  "<svg><span><option selected></selectedcontent>"])
def test_the_oracle_finds_no_difference(data, chunked):
    assert not check(data, True, "rename", chunked=chunked).mismatches


def test_other_renames_are_written():
    rw = Rewriter().on("span", element=lambda e: setattr(e, "tag_name", "abbr"))
    assert rewrite_in_chunks("<p><span>x</span></p>", rw, None) == "<p><abbr>x</abbr></p>"
