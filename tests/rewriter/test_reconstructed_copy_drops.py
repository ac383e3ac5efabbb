"""Wrong acceptances around the copies the parser reconstructs of formatting
elements (issue 39, session 15's findings): a removed copy whose entry a
later token takes off, content replaced in a copy whose start tag pushed
more entries, and end tags written for copies the output's list does not
hold. Each case runs whole and in chunks of 1 and 7 bytes."""
import pytest

from tests.rewriter.oracle import check, check_pair

CHUNKINGS = (False, 1, 7)
# Elements handed over in order: html 0, head 1, body 2, then the input's.
TABLE_COPY = "<a><table><td><a><table></table><a></tr><a></table><b>X</b>C<a>Y"
P_COPIES = "<div><p><b><i>x</p><b>y</div>z"
P_COPIES_A = "<div><p><b><i>x</p><a>y</div>z"
NOBR = "<p><nobr>x</p>y<nobr>z"


def _pair(data, first, second, chunked):
    figures = check_pair(data, True, first, second, chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.tried == 1, figures.summary()
    return figures


@pytest.mark.parametrize("chunked", CHUNKINGS)
@pytest.mark.parametrize("second", ["before_text", "before_markup", "rename",
                                    "remove_and_keep_content"])
def test_content_where_a_removed_copy_ended_is_refused(second, chunked):
    # The copy of the <a> made at <b> (12) removed: the output's list still
    # holds the <a> it copied until the last <a> start tag (14) takes it
    # off; text written before that tag, or that tag dropped or renamed,
    # would leave it to reconstruct.
    figures = _pair(TABLE_COPY, (12, "remove"), (14, second), chunked)
    assert figures.accepted == 0, figures.summary()


def test_refused_at_the_call():
    from lexpy.rewriter import Rewriter, RewriteError
    seen, refusals = [0], []

    def handler(element):
        index = seen[0]
        seen[0] += 1
        if index == 12:
            element.remove()
        elif index == 14:
            try:
                element.before("T")
            except RewriteError as error:
                refusals.append(str(error))

    rw = Rewriter().on("*", element=handler)
    output = rw.feed(TABLE_COPY.encode()) + rw.close()
    assert refusals and "reconstructs around that content" in refusals[0]
    assert output == b"<a><table><td><a><table></table><a></tr><a></table><a>Y"


@pytest.mark.parametrize("chunked", CHUNKINGS)
@pytest.mark.parametrize("second", ["after_text", "prepend_text", "append_text",
                                    "set_attribute", "set_inner_content"])
def test_near_cases_after_a_removed_copy_stay_accepted(second, chunked):
    # (Content after the <a> start tag: the tag took the entry off in both.)
    figures = _pair(TABLE_COPY, (12, "remove"), (14, second), chunked)
    assert figures.accepted == 1, figures.summary()


@pytest.mark.parametrize("chunked", CHUNKINGS)
def test_removed_copy_alone_stays_accepted(chunked):
    for data, index in ((TABLE_COPY, 12), ("<p><a>x</p>y<a>z", 5)):
        figures = check(data, True, "remove", chunked=chunked, indexes=[index])
        assert not figures.mismatches, figures.mismatches[0]
        assert figures.accepted == 1, figures.summary()


@pytest.mark.parametrize("chunked", CHUNKINGS)
def test_copy_closed_by_nobr_removal_is_refused(chunked):
    # The <nobr> start tag reconstructs before its adoption agency step: in
    # the output it would make an empty copy of the first <nobr>.
    figures = check(NOBR, True, "remove", chunked=chunked, indexes=[5])
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.tried == 1 and figures.accepted == 0, figures.summary()
    assert any("start tag closed: without it" in reason for reason in figures.refused), \
        figures.summary()


@pytest.mark.parametrize("chunked", CHUNKINGS)
@pytest.mark.parametrize("data", [P_COPIES, P_COPIES_A])
def test_replaced_content_of_a_copy_with_an_entry_after_it(data, chunked):
    # The <i> copy made at the second <b> (or <a>), 8, its content replaced:
    # the dropped <b>y took that tag's entry off the output's list; a start
    # tag is written for its copy where the parser reconstructs it at z.
    figures = check(data, True, "set_inner_content", chunked=chunked, indexes=[8])
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.accepted == 1, figures.summary()


@pytest.mark.parametrize("chunked", CHUNKINGS)
@pytest.mark.parametrize("first, second", [
    ("append_text", "set_attribute"), ("append_markup", "before_text"),
    ("set_inner_content", "set_attribute"), ("append_text", "rename"),
    ("set_inner_content", "prepend_text"), ("append_text", "before_markup"),
])
def test_copy_edited_after_its_inner_entry_was_unlisted(first, second, chunked):
    # The end tag written before the content appended to the first <i>
    # copy (8) takes the inner <b> off the output's list; the <i> copy made
    # at z (11), edited, gets end tags only for the entries the output
    # holds (no </b> that would take the outer <b> off instead).
    figures = _pair(P_COPIES, (8, first), (11, second), chunked)
    assert figures.accepted == 1, figures.summary()
