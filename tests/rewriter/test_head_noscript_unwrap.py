"""A noscript in the head, scripting off, unwrapped (remove_and_keep_content:
Element._head_noscript_unwrap, Rewriter._head_noscript_end): "in head
noscript" hands whitespace, comments and the head's void and raw text
elements to the "in head" rules, which put them into the head without
it. Anything else inside (a <noscript> or <head> tag, </head>, </body>,
text, a comment that ends at "--!>") is refused or reparses equal."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_reparses


@pytest.mark.parametrize("data", [
    "<head><noscript><!doctype html><!--foo--></noscript>",
    "<head><noscript>   </noscript>",
    "<head><noscript><!--foo--></noscript>",
    "<head><noscript><meta><!--foo--></noscript>",
    "<head><noscript><link rel=a>\n<META name=b></noscript><title>t</title>",
])
def test_unwrapped_in_the_head(data):
    assert_accepted(data, "noscript", "remove_and_keep_content")


@pytest.mark.parametrize("data", [
    "<head><noscript><noscript class=foo><!--foo--></noscript>",
    "<head><noscript></p><!--foo--></noscript>",
    "<head><noscript></head><meta></noscript><link>",
    "<head><noscript></body><meta></noscript><link>",
    "<head><noscript></html><meta></noscript><link>",
    "<head><noscript><head><meta></noscript><link>",
    "<head><noscript><!-- a --!><noscript><!-- --></noscript>x",
    "<head><noscript><!--><noscript>--></noscript>",
    "<head><noscript><!---><noscript>--></noscript>",
    "<head><noscript><link rel=a><style>a</b></style></noscript><meta>",
    "<head><noscript><style>a</style x><noscript></style></noscript>",
    "<head><noscript><meta title='>'><noscript></noscript>",
    "<head><noscript>x</noscript>",
    "<head><noscript><meta>",
    "<body><noscript><meta></noscript>",
    "<head><noscript><?pi><meta></noscript>",
])
def test_no_accepted_unwrap_reparses_otherwise(data):
    assert_reparses(data, "remove_and_keep_content")
    assert_reparses(data, "remove_and_keep_content", chunked=True)
