"""remove_and_keep_content on an element whose tags cannot be dropped with
its content kept (foreign, raw text, RCDATA, a template, special elements
the parser's end tag handling depends on): with no content it is a
removal (issue 39's refusals, part B). Taken as one; an element that
turns out to have content (anything between its start tag and the token
that ends it) raises RewriteError at its end."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import check, _normalized_dump, elements_in_order
from tests.rewriter.test_adoption_edits import rewrite_in_chunks
from tests.rewriter.edit_checks import assert_accepted, assert_refused

EMPTY = [
    ("<svg></svg>", "svg"),
    ("<!DOCTYPE html><body><math></math>", "math"),
    ("<!doctype html><svg/><foo>", "svg"),
    ("<!doctype html><svg>", "svg"),
    ("<!DOCTYPE html><math><mi></mi></math>x", "mi"),
    ("<p>a<textarea></textarea>b", "textarea"),
    ("<body><template></template>x", "template"),
    ("<div><svg></svg><p>x</div>", "svg"),
]


def _unwrap(data, name, chunk=None):
    done = [False]

    def handler(element):
        if not done[0] and element.local_name == name:
            done[0] = True
            element.remove_and_keep_content()
    out = rewrite_in_chunks(data, Rewriter().on("*", element=handler), chunk)
    assert done[0]
    return out


def _dom_unwrap(data, name):
    doc = lexpy.parse(data)
    element = next(e for e in elements_in_order(doc) if e.local_name == name)
    holder = element.content if name == "template" else element
    assert holder.first_child is None
    element.remove()
    return _normalized_dump(doc)


@pytest.mark.parametrize("data, name", EMPTY)
@pytest.mark.parametrize("chunk", [None, 1, 5])
def test_an_empty_element_is_unwrapped_as_removed(data, name, chunk):
    out = _unwrap(data, name, chunk)
    assert _normalized_dump(lexpy.parse(out)) == _dom_unwrap(data, name)
    assert "<%s" % name not in out.lower()


@pytest.mark.parametrize("data, name", [
    ("<svg><g/></svg>", "svg"),
    # (An <svg> holding text alone, CDATA sections included, is unwrapped:
    # test_foreign_root_rename_content.)
    ("<!DOCTYPE html><math><mi>a\x00b</mi></math>", "mi"),
    # (A template holding text alone is unwrapped: test_template_text_unwrap;
    # comments too: test_template_comment_unwrap.)
    ("<body><template><b>x</b></template>", "template"),
    ("<body><template><!--c--><b>x</b></template>", "template"),
])
@pytest.mark.parametrize("chunk", [None, 2])
def test_content_found_later_is_refused_at_the_element_end(data, name, chunk):
    with pytest.raises(RewriteError, match="later end tags|parsed differently"):
        _unwrap(data, name, chunk)


@pytest.mark.parametrize("data", [d for d, _ in EMPTY])
def test_oracle_on_these_inputs(data):
    figures = check(data, False, "remove_and_keep_content")
    assert not figures.mismatches, figures.mismatches[0]
    chunked = check(data, False, "remove_and_keep_content", chunked=True)
    assert not chunked.mismatches and chunked.accepted == figures.accepted


@pytest.mark.parametrize("data", [
    "<table><template></template></table>",
    "<table>a<template></template>b</table>",
    "<table><tbody><template></template></tbody>",
    "<table><tr><template></template><td>x",
    "<table><template></template><template></template></table>",
])
def test_an_empty_template_of_a_table_is_unwrapped_as_removed(data):
    # (Element._empty_template_unwrap: the ignored end tag goes in its
    # place, as for its removal: the text around it stays two runs.)
    assert_accepted(data, "template", "remove_and_keep_content")


@pytest.mark.parametrize("data", [
    "<table><template><thead></template></table>",
    "<table><template><td></template></table>",
    "<table><template>a</template></table>",
    "<table><template><!--x--></template></table>",
])
def test_a_template_of_a_table_with_content_is_refused_at_its_end(data):
    assert_refused(data, "template", "remove_and_keep_content",
                   "would treat later end tags differently")
