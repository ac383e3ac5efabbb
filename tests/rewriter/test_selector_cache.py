"""on()'s compiled selectors are kept by their text (lexpy/rewriter
_decidable_selector, through lexpy.selectors' cache): a rewriter per
response with the same handlers compiles each selector once; the Selector
is shared, each rewriter runs its own matchers over it, and undecidable or
invalid selectors are refused every time."""
import pytest

from lexpy.rewriter import Rewriter
from lexpy.selectors import SelectorSyntaxError


def _selector(rw):
    return rw._element_handlers[0][0]


def test_the_same_text_gives_the_same_selector():
    a = Rewriter().on("a[href] > b:first-child", element=lambda e: None)
    b = Rewriter().on("a[href] > b:first-child", element=lambda e: None)
    assert _selector(a) is _selector(b)
    assert _selector(Rewriter().on("a[href]>b", element=lambda e: None)) is not _selector(a)


@pytest.mark.parametrize("text", ["p:last-child", "p::before", "p:has(b)", "p[", ""])
def test_refused_selectors_are_refused_every_time(text):
    for _ in range(3):
        with pytest.raises(SelectorSyntaxError):
            Rewriter().on(text, element=lambda e: None)


def test_rewriters_sharing_a_selector_match_on_their_own():
    """Two rewriters over one Selector, their feeds interleaved: each
    matches its own document (:nth-child and the ancestors it reads)."""
    text = "li:nth-child(2n+1) > i, div b"
    first = b"<ul><li><i>1</i><li><i>2</i><li><i>3</i></ul><div><b>x</b></div>"
    second = b"<div><p><b>y</b></p></div><ol><li>a<li><i>b</i><li><i>c</i></ol>"

    def make():
        return Rewriter().on(text, element=lambda e: e.set_attribute("data-m", "1"))

    alone = [make(), make()]
    expected = [alone[0].feed(first) + alone[0].close(),
                alone[1].feed(second) + alone[1].close()]
    one, two = make(), make()
    assert _selector(one) is _selector(two)
    out_one = one.feed(first[:20])
    out_two = two.feed(second[:31])
    out_one += one.feed(first[20:])
    out_two += two.feed(second[31:]) + two.close()
    out_one += one.close()
    assert [out_one, out_two] == expected
    assert out_one.count(b"data-m") == 3 and out_two.count(b"data-m") == 2
