"""The selectors layer's sufficient condition for the rewriter's matching
(lexpy.selectors program_matches_every_element): a handler whose selector
matches every element (`*`, `*|*`, or a list with one of them) gets its
elements without the matcher running; any other selector is matched.
Either way a handler sees the elements query_selector_all finds."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, rewrite

PAGE = ("<!DOCTYPE html><title>t</title><p id=a class=c>x<b>y</b>"
        "<svg><circle r=1></circle></svg><math><mi>z</mi></math>"
        "<table><td>c</table><template><i>t</i></template>")


def seen_and_every(selector, page=PAGE):
    seen = []
    rw = Rewriter().on(selector, element=lambda e: seen.append(e.local_name))
    assert rewrite(page, rw) == page
    return seen, rw._every()


@pytest.mark.parametrize("selector", ["*", "*|*", "*, p", "p, *", "b, *|*"])
def test_universal_selectors_skip_the_matcher(selector):
    seen, every = seen_and_every(selector)
    assert every == 1
    expected = [e.local_name for e in lexpy.parse(PAGE).query_selector_all(selector)]
    assert seen == expected


@pytest.mark.parametrize("selector", [
    "p", "*.c", "*#a", "*[id]", ":not(p)", "* b", "body > *", "*:first-child",
    ":is(*)", "*:not(p)",
])
def test_other_selectors_are_matched(selector):
    seen, every = seen_and_every(selector)
    assert every == 0
    expected = [e.local_name for e in lexpy.parse(PAGE).query_selector_all(selector)]
    assert seen == expected


def test_bits_follow_the_handlers():
    rw = Rewriter().on("p", element=lambda e: None).on("*", element=lambda e: None)
    rewrite(PAGE, rw)
    assert rw._every() == 2
