"""Generated inputs heavy in formatting elements, judged by the oracle of
tests/rewriter/oracle.py (the reparse of every accepted edit equals the
DOM edit).

The suite's sets hold few inputs where formatting end tags, stray end
tags and blocks mix, and that is where the list of active formatting
elements, its reconstruction and the adoption agency algorithm decide
what an edit may write. Two seeded generators of such inputs found about
a hundred wrong acceptances that the suite's sets did not (stop 55); the
inputs they found are in test_agency_removed_range.py and
test_reconstructed_removal_ends.py, and this module runs the generators
themselves, seeded (the same inputs every run), sized for CI.

The first generator writes formatting start tags, then a run of blocks,
then text and a tail of end tags (formatting ones mostly, of names open or
not) with text between; the second mixes formatting and block start and
end tags and text in any order."""
import pytest

from tests.rewriter.edit_checks import assert_refused, assert_reparses, generated_inputs
from tests.rewriter.oracle import check

FORMATTING = ["a", "b", "i", "nobr", "em", "font"]
BLOCKS = ["div", "p", "blockquote", "section", "span", "li"]

OPERATIONS = ["remove", "remove_and_keep_content", "set_inner_content",
              "before_text", "append_text", "rename"]


def nested_then_ends(rnd):
    """Formatting elements, blocks inside them, text, a tail of end tags."""
    formatting = [rnd.choice(FORMATTING) for _ in range(rnd.randint(1, 3))]
    out = ["<%s>%s" % (name, rnd.choice(["", "t"])) for name in formatting]
    blocks = [rnd.choice(BLOCKS) for _ in range(rnd.randint(2, 8))]
    out += ["<%s>%s" % (name, rnd.choice(["", "", "u", "<i>"])) for name in blocks]
    out.append("x")
    for _ in range(rnd.randint(2, 6)):
        r = rnd.random()
        if r < 0.65:
            out.append("</%s>" % rnd.choice(formatting + FORMATTING[:2]))
        elif r < 0.85:
            out.append("</%s>" % rnd.choice(blocks))
        else:
            out.append("<%s>" % rnd.choice(FORMATTING + BLOCKS))
        out.append(rnd.choice(["", "y", "z"]))
    return "".join(out)


def mixed(rnd):
    """Formatting and block start and end tags and text in any order."""
    out = []
    for _ in range(rnd.randint(4, 14)):
        r = rnd.random()
        if r < 0.3:
            out.append("<%s>" % rnd.choice(FORMATTING))
        elif r < 0.5:
            out.append("<%s>" % rnd.choice(BLOCKS))
        elif r < 0.65:
            out.append("</%s>" % rnd.choice(BLOCKS))
        elif r < 0.8:
            out.append("</%s>" % rnd.choice(FORMATTING))
        else:
            out.append(rnd.choice("xyz"))
    return "".join(out)


@pytest.mark.parametrize("generator,seed", [(nested_then_ends, 1), (nested_then_ends, 2),
                                            (mixed, 1), (mixed, 2)])
def test_generated_edits_reparse_to_the_dom_edit(generator, seed):
    mismatches = []
    accepted = 0
    for n, data in enumerate(generated_inputs(generator, seed, 80)):
        for operation in OPERATIONS:
            figures = check(data, False, operation, chunked=n % 2 == 1)
            mismatches += figures.mismatches
            accepted += figures.accepted
    assert not mismatches, "%d mismatches; the first:\n%s" % (len(mismatches), mismatches[0])
    # (The generated inputs are edited, not refused wholesale.)
    assert accepted > 1000


# Found by the second generator (stop 55): the <li>'s dropped content holds
# </i>, which takes the entry of an <i> that is not open off the list of
# active formatting elements. The engine's fast path of the <li>'s start
# tag left the previous token's reconstructed elements in its per-token
# state, and the removal took them for the <li>'s own: it did not note the
# closed entry (Rewriter._drop_took_closed), and the output, without
# </i>, reconstructed an <i> the input does not have.
REMOVED_LI = "<b><p><b><i><div>x</b><li></b></i></li><li><i><b>"


def test_dropped_end_tag_that_took_a_closed_entry_is_refused():
    assert_refused(REMOVED_LI, "li", "remove",
                   "the content it drops leaves formatting elements to reconstruct")


def test_dropped_end_tag_that_took_a_closed_entry_every_element():
    for operation in ("remove", "remove_and_keep_content", "set_inner_content"):
        assert_reparses(REMOVED_LI, operation, chunked=True)
