"""An implied body renamed while output is held for a <frameset>
(Element._body_rename_held): accepted where a later <frameset> takes the
body out of the tree (the DOM edit of an element out of the document
leaves it as it was: the output is the input), refused where the body
stays (no output gives a renamed body), before the held output is
written."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import check
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

TAKEN = [
    '<input type="hidden"><frameset>',
    "<p><frameset>",
    "<!doctype html><p> <frameset><frame>",
    "<template>x</template><p><frameset>",
    "<html>\x00<frameset></frameset>",
    "<div><frameset></div>x<frameset>",
    "<p><frameset><p>",
]


def _rename_body(data, chunk=None):
    seen = []

    def handler(element):
        if element.local_name == "body":
            seen.append(element.implied)
            element.tag_name = "abbr"
    out = rewrite_in_chunks(data, Rewriter().on("body", element=handler), chunk)
    assert seen == [True]
    return out


@pytest.mark.parametrize("data", TAKEN)
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_body_a_frameset_takes_is_renamed_as_written(data, chunk):
    assert _rename_body(data, chunk) == data


@pytest.mark.parametrize("data", ["<p>x", "<div>a</div>", '<input type="hidden">', "<param>",
                                  "<p>x<p>y</body><frameset>", "<p>x</p><frameset>"])
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_body_that_stays_is_refused_and_nothing_held_is_written(data, chunk):
    rw = Rewriter().on("body", element=lambda e: setattr(e, "tag_name", "abbr"))
    out = b""
    encoded = data.encode()
    with pytest.raises(RewriteError, match="no <frameset> took it"):
        for i in range(0, len(encoded), chunk or len(encoded)):
            out += rw.feed(encoded[i:i + (chunk or len(encoded))])
        rw.close()
    # (What was written before the refusal is the input's start, before
    # the hold: nothing of the body's content.)
    assert encoded.startswith(out)


@pytest.mark.parametrize("data", TAKEN)
def test_oracle_on_these_inputs(data):
    for scripting in (False, True):
        figures = check(data, scripting, "rename")
        assert not figures.mismatches, figures.mismatches[0]
        for chunked in (True, 1):
            other = check(data, scripting, "rename", chunked=chunked)
            assert not other.mismatches and other.accepted == figures.accepted
