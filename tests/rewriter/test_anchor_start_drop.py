"""The removal of an <a> or <nobr> whose start tag ran no adoption agency
algorithm (Rewriter._start_without_agency): the list of active formatting
elements before it is the one without its entry, as for the other
formatting elements, so entries its dropped content left on the list get
start tags where the parser reconstructs their copies (_drop_unlists:
`<a>1<b>2</a>3</b>` without the <a>: `<b>3</b>`). Still refused where its
start tag ran the algorithm (an open element of its name popped there, or
a closed entry the parser had to reconstruct before it)."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, edited
from tests.rewriter.oracle import check

ACCEPTED = [
    ("<a>1<b>2</a>3</b>", "a", 0),
    ("<!doctype html><a><b></a><basefont>", "a", 0),
    ("<!doctype html><a><b></a><bgsound>", "a", 0),
    ("<nobr>1<b>2</nobr>3</b>", "nobr", 0),
]


@pytest.mark.parametrize("data,name,nth", ACCEPTED)
def test_removed_where_its_start_tag_ran_no_agency(data, name, nth):
    assert_accepted(data, name, "remove", nth)


def test_the_written_tags():
    assert edited("<a>1<b>2</a>3</b>", "a", "remove") == "<body><b>3</b>"


WHY = "the content it drops leaves formatting elements to reconstruct"


@pytest.mark.parametrize("data,name,nth", [
    # The second <a> start tag ran the algorithm for the first (open) one.
    ("<a>1<a>2<b>3</a>4</b>", "a", 1),
    # The second <nobr> ran it for the first one, in scope.
    ("<nobr>1<nobr>2<b>3</nobr>4</b>", "nobr", 1),
])
def test_refused_where_its_start_tag_ran_the_agency(data, name, nth):
    assert_refused(data, name, "remove", WHY, nth)


@pytest.mark.parametrize("chunked", [False, True, 1])
@pytest.mark.parametrize("data", sorted({case[0] for case in ACCEPTED}) + [
    "<a>1<a>2<b>3</a>4</b>", "<nobr>1<nobr>2<b>3</nobr>4</b>", "<p><a>1</p><a>2<b>3</a>4",
    "<div><a>1<i>2</a>3</i></div>"])
def test_the_oracle_finds_no_difference(data, chunked):
    for operation in ("remove", "set_inner_content", "remove_and_keep_content"):
        for scripting in (False, True):
            assert not check(data, scripting, operation, chunked=chunked).mismatches
