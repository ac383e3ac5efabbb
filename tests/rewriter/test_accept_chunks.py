"""RewriterCore._accept's flush (lexpy/rewriter/engine.pyx): the input kept
(_raw) gets a chunk only when the owner is first called inside its parse,
or after the parse, where the output is cut from the input kept and the
chunk together and only the part kept for later is copied. Output for
every chunking: the input where nothing is edited, the same edits
wherever the chunks end (tokens longer than a chunk, chunks that end
inside a token begun chunks before, a handler called for a token in the
middle of a chunk)."""
import pytest

from lexpy.rewriter import Rewriter, rewrite

LONG = "x" * 20000
PAGE = ("<!DOCTYPE html><title>t</title><!--" + LONG + "-->"
        "<p class='" + LONG + "'>a <a href=/h>link</a> &amp; b</p>"
        + "<ul>" + "<li>item <a href=/i>i</a>" * 400 + "</ul>"
        + "<script>" + LONG + "</script><p>end")
DATA = PAGE.encode("utf-8")
SIZES = [1, 7, 4096, 5000, 16384, 65536]


def _run(rw, size):
    out = [rw.feed(DATA[i:i + size]) for i in range(0, len(DATA), size)]
    return b"".join(out) + rw.close()


@pytest.mark.parametrize("size", SIZES)
def test_untouched_input_passes_through(size):
    assert _run(Rewriter(), size) == DATA
    assert _run(Rewriter().on("nosuchelement", element=lambda e: None), size) == DATA
    assert _run(Rewriter().on("a", element=lambda e: None), size) == DATA


@pytest.mark.parametrize("size", SIZES)
def test_edits_do_not_depend_on_the_chunks(size):
    def setup():
        return (Rewriter().on("a[href]", element=lambda e: e.set_attribute("rel", "x"))
                .on("script", element=lambda e: e.remove()))

    expected = rewrite(DATA, setup())
    assert expected.count(b'rel="x"') == 401 and b"<script>" not in expected
    assert _run(setup(), size) == expected
