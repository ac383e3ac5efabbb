"""Special elements whose parent is a ruby, renamed (to the oracle's
<abbr>: Element._in_ruby_renamable): the ruby parts' start tags generate
implied end tags, which stop at the special element and at the ordinary
one alike. Near cases where a token
reads the element's name stay refused or reparse equal. Unwrapped, the
ruby is the current node there, where the parts' implied end tags stop
as they did at the element."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_reparses


@pytest.mark.parametrize("data,name", [
    ("<!doctype html><ruby><div><span><rp>", "div"),
    ("<!doctype html><ruby><div><p><rt>", "div"),
    ("<html><body><ruby><div><rp>xx</rp></div></ruby></body></html>", "div"),
    ("<ruby>a<section>b<rb>c</section><rt>d</ruby>", "section"),
    ("<ruby><h2>a<rtc>b</h2>c</ruby>", "h2"),
    ("<!doctype html><ruby><p><rt>", "p"),
])
def test_renamed_in_a_ruby(data, name):
    assert_accepted(data, name, "rename")


@pytest.mark.parametrize("data,name", [
    ("<!doctype html><ruby><div><span><rp>", "div"),
    ("<!doctype html><ruby><div><p><rt>", "div"),
    ("<html><body><ruby><div><rp>xx</rp></div></ruby></body></html>", "div"),
    ("<ruby>a<section>b<span>c</span></section><rt>d</ruby>", "section"),
])
def test_unwrapped_in_a_ruby(data, name):
    assert_accepted(data, name, "remove_and_keep_content")


@pytest.mark.parametrize("data", [
    "<ruby><div>a</ruby>b</div>c",
    "<ruby><div><rb>a</div><rt>b</ruby>",
    "<ruby><div><p>a<rt>b</p></div></ruby>",
    "<ruby><ul><li>a<li>b</ul></ruby>",
    "<p><ruby><div>a</p>b</div></ruby>",
    "<ruby><button>a<p>b</button>c</ruby>",
    "<!doctype html><ruby><p><rp>",
    "<ruby><div>a<rb>b</div>c<rt>d</ruby>",
    "<ruby><rb><div>a<rt>b</div></ruby>",
    "<ruby><div><rtc>a<rt>b</div>c</ruby>",
    "<ruby><div><p>a</div>b</ruby>",
    "<ruby><div><rb>a<div>b</div></div></ruby>",
    "<ruby><p>a<rt>b</rt></p></ruby>",
])
@pytest.mark.parametrize("operation", ["rename", "remove_and_keep_content"])
def test_no_accepted_edit_reparses_otherwise(data, operation):
    assert_reparses(data, operation)
    assert_reparses(data, operation, chunked=True)
