"""Special elements whose parent is a heading, renamed (to the oracle's
<abbr>: Element._in_heading_renamable): a heading's start tag pops the
current node only when it is a heading, and a heading's end tag looks for
any heading in scope: neither reads the special element otherwise than the
ordinary one. Unwrapped, the parent heading is the current node where the
element was: a heading start tag there is refused; near cases reparse
equal or are refused."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_reparses


@pytest.mark.parametrize("data,name", [
    ("<!doctype html><h3><li>abc</h2>foo", "li"),
    ("<h1><div>a<h2>b</h2>c</div>d</h1>", "div"),
    ("<h2><ul><li>x</ul>y</h2>", "ul"),
    ("<h1><section>a</h1>b", "section"),
    ("<h4><p>a</h4>b", "p"),
])
def test_renamed_in_a_heading(data, name):
    assert_accepted(data, name, "rename")


@pytest.mark.parametrize("data,name", [
    ("<h1><div>a<span>b</span>c</div>d</h1>", "div"),
    ("<h2><ul><li>x</li></ul>y</h2>", "ul"),
    ("<h3><section>a</section></h3>b", "section"),
])
def test_unwrapped_in_a_heading(data, name):
    assert_accepted(data, name, "remove_and_keep_content")


@pytest.mark.parametrize("data", [
    "<h1><div><h2>x</div>y",
    "<h1><div>a</h1>b</div>c",
    "<h1><div>a</div></h1><h2>b",
    "<h1><p>a<h2>b</h2></p></h1>",
    "<h1><li>a<li>b</h1>",
    "<h1><button>a<p>b</button></h1>",
    "<h1><div>a<h2>b</h2>c</div></h1>",
    "<h1><div>a</h2>b</div>c",
    "<h1><div><p>a</div>b</h1>",
])
@pytest.mark.parametrize("operation", ["rename", "remove_and_keep_content"])
def test_no_accepted_edit_reparses_otherwise(data, operation):
    assert_reparses(data, operation)
    assert_reparses(data, operation, chunked=True)
