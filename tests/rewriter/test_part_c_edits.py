"""Renames, unwraps and table edits that issue 39's part C accepts where
the rewriter refused them before: each rule's accepted cases (whole input
and in small chunks: the output must not depend on chunking, and must
reparse to the DOM edit: the oracle's check) and the near cases it must
still refuse."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.oracle import check


def _rewrite(data, selector, edit, chunk=None):
    rw = Rewriter().on(selector, element=edit)
    if chunk is None:
        return rewrite(data, rw)
    raw = data.encode()
    return (b"".join(rw.feed(raw[i:i + chunk]) for i in range(0, len(raw), chunk))
            + rw.close()).decode()


def _index(data, name, scripting=False):
    """The index of the first <name> among the elements a `*` handler sees
    (the oracle's `indexes`)."""
    names = []
    rewrite(data, Rewriter(scripting=scripting).on(
        "*", element=lambda e: names.append(e.tag_name)))
    return names.index(name)


def _accepted(data, name, operation, chunked=False, scripting=False):
    """check() on the first <name> alone: whether the operation on it was
    accepted (and, accepted, reparses to the DOM edit)."""
    figures = check(data, scripting, operation, chunked=chunked,
                    indexes=[_index(data, name, scripting)])
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.tried == 1
    return figures.accepted == 1


def _rename(element):
    element.tag_name = "abbr"


# -- plaintext: its text is written escaped, as the new element's --------

@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_plaintext_renamed_keeps_its_text_as_text(chunk):
    out = _rewrite("<div>a<plaintext>b<i>&amp;</plaintext>", "plaintext", _rename, chunk)
    assert out == "<div>a<abbr>&#98;&lt;i&gt;&amp;amp;&lt;/plaintext&gt;</abbr>"


@pytest.mark.parametrize("chunk", [None, 2])
def test_plaintext_unwrapped_keeps_its_text_as_text(chunk):
    out = _rewrite("<div>a<plaintext><b>x", "plaintext",
                   lambda e: e.remove_and_keep_content(), chunk)
    assert out == "<div>a&#60;b&gt;x"


@pytest.mark.parametrize("data", ["<plaintext>\x00filler\x00text\x00",
                                  "<plaintext></plaintext>",
                                  "<!DOCTYPE html><div><plaintext>a&amp;<b>c",
                                  "<p>a</p><plaintext>\n<p>"])
@pytest.mark.parametrize("operation", ["rename", "remove_and_keep_content"])
@pytest.mark.parametrize("chunked", [False, True])
def test_plaintext_edits_reparse_to_the_dom_edit(data, operation, chunked):
    assert _accepted(data, "plaintext", operation, chunked)


@pytest.mark.parametrize("data", [
    "<p>a<plaintext>b",                    # its start tag closed the <p>
    "<table><td><plaintext></plaintext>",  # in a table cell: text of a table's
    "<!doctype html><html><noscript><plaintext></plaintext>"])
def test_plaintext_edits_still_refused(data):
    for operation in ("rename", "remove_and_keep_content"):
        assert not _accepted(data, "plaintext", operation)


def test_plaintext_renamed_with_content_after_is_refused():
    def edit(element):
        element.tag_name = "abbr"
        element.after("x")
    with pytest.raises(RewriteError):
        _rewrite("<plaintext>a", "plaintext", edit)


# -- pre and listing: dropped as a div is, with the newline the parser
# drops after their start tag dropped from the output ----------------------

@pytest.mark.parametrize("chunk", [None, 1, 4])
def test_pre_renamed_drops_the_newline_the_parser_dropped(chunk):
    out = _rewrite("<div><pre>\nfoo\n</pre>", "pre", _rename, chunk)
    assert out == "<div><abbr>foo\n</abbr>"


@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_listing_unwrapped_drops_a_newline_written_as_a_reference(chunk):
    out = _rewrite("<div><listing>&#10;\nx</listing>", "listing",
                   lambda e: e.remove_and_keep_content(), chunk)
    assert out == "<div>\nx"


@pytest.mark.parametrize("data", ["<!doctype html><p>foo<pre>bar</pre><p>baz",
                                  "<!doctype html><pre><p>foo</pre>bar",
                                  "<div><pre>\r\n\r\nx</pre>",
                                  "<div><pre>&NewLine;y<b>z</b></pre>",
                                  "<pre></pre><frameset>"])
@pytest.mark.parametrize("name", ["pre", "listing"])
@pytest.mark.parametrize("operation", ["rename", "remove_and_keep_content"])
@pytest.mark.parametrize("chunked", [False, True])
def test_pre_and_listing_edits_reparse_to_the_dom_edit(data, name, operation, chunked):
    data = data.replace("pre>", name + ">")
    assert _accepted(data, name, operation, chunked)


@pytest.mark.parametrize("chunked", [False, True])
def test_pre_that_closed_a_p_renamed(chunked):
    # (The </p> its start tag implied is written before the new one.)
    assert _accepted("<!doctype html><p>foo<pre>\nbar<p>baz", "pre", "rename", chunked)


@pytest.mark.parametrize("data", [
    "<ul><li><pre><li>x",           # the <li> loop stopped at it
    "<pre><frameset>",              # no content to set frameset-ok but the newline
    "<table><td><pre>\n</td>"])
def test_pre_edits_near_cases_stay_exact(data):
    # Accepted or refused, never a reparse that differs from the DOM edit.
    for operation in ("rename", "remove_and_keep_content"):
        figures = check(data, False, operation)
        assert not figures.mismatches, figures.mismatches[0]


def test_pre_renamed_before_a_frameset_refuses_or_keeps_it_ignored():
    out = _rewrite("<pre></pre><frameset>", "pre", _rename)
    assert out == "<abbr></abbr><body><frameset>"


def test_pre_whose_li_loop_stopped_is_refused():
    with pytest.raises(RewriteError):
        _rewrite("<ul><li><pre><li>x", "pre", _rename)


# -- a template whose contents a table's insertion modes read ------------

@pytest.mark.parametrize("chunk", [None, 1, 5])
def test_append_to_a_table_template_that_is_the_current_node(chunk):
    out = _rewrite("<template><tr><td>a</td></tr></template>", "template",
                   lambda e: e.append("X&"), chunk)
    assert out == "<template><tr><td>a</td></tr>X&amp;</template>"


@pytest.mark.parametrize("data", ["<template><tr></tr>  </template>",
                                  "<table><template><caption>c</caption></template></table>",
                                  "<template><colgroup></colgroup></template>",
                                  "<template><td></td><!--c--></template>"])
@pytest.mark.parametrize("operation", ["append_text", "append_markup", "append_head_markup"])
@pytest.mark.parametrize("chunked", [False, True])
def test_table_template_appends_reparse_to_the_dom_edit(data, operation, chunked):
    assert _accepted(data, "template", operation, chunked)


@pytest.mark.parametrize("data", [
    "<template><td></template>",            # the cell is open: text goes into it
    "<template><tr></template>",            # the row is open
    "<template><col></template>",           # "in column group" ignores text
    "<template><tr></tr>"])                 # no end tag of its own
def test_table_template_appends_still_refused(data):
    for operation in ("append_text", "append_markup"):
        assert not _accepted(data, "template", operation)


def test_table_template_append_of_table_markup_is_refused():
    with pytest.raises(RewriteError):
        _rewrite("<template><tr></tr></template>", "template",
                 lambda e: e.append("<td>x</td>", html=True))


# -- the <p> a </p> made (no <p> in button scope): renamed, written as the
# new name's start and end tags in place of the </p> -----------------------

def _rename_implied(element):
    if element.implied:
        element.tag_name = "abbr"


@pytest.mark.parametrize("chunk", [None, 1, 2])
def test_implied_p_renamed_where_the_end_tag_made_it(chunk):
    out = _rewrite("<div>a</p>b</div>", "p", _rename_implied, chunk)
    assert out == "<div>a<abbr></abbr>b</div>"


@pytest.mark.parametrize("data", ["<p><hr></p>",
                                  "<p><b><div><marquee></p></b></div>X",
                                  "<b></p>x",
                                  "<button><p></button></p>"])
@pytest.mark.parametrize("chunked", [False, True])
def test_implied_p_renames_reparse_to_the_dom_edit(data, chunked):
    figures = check(data, False, "rename", chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]
    implied = [i for i, e in enumerate(_elements(data)) if e == ("p", True)]
    assert implied
    for index in implied:
        assert check(data, False, "rename", chunked=chunked, indexes=[index]).accepted == 1


def _elements(data):
    found = []
    rewrite(data, Rewriter(scripting=False).on(
        "*", element=lambda e: found.append((e.tag_name, e.implied))))
    return found


@pytest.mark.parametrize("data", [
    "<p><b>x</p></p>",          # the <b> is to reconstruct: the new start tag would
    "<table></p></table>",      # foster-parented
    "<select></p>"])
def test_implied_p_renames_still_refused(data):
    figures = check(data, False, "rename")
    assert not figures.mismatches, figures.mismatches[0]
    for index, element in enumerate(_elements(data)):
        if element == ("p", True):
            assert check(data, False, "rename", indexes=[index]).accepted == 0


# -- markup before an element the parser foster-parented: written before
# its start tag, in the table, foster-parented to the same place ----------

def _before_markup(markup):
    def edit(element):
        if element.tag_name == "div":
            element.before(markup, html=True)
    return edit


@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_markup_before_a_fostered_element(chunk):
    out = _rewrite("<table> <div>x</div></table>", "div", _before_markup("<em>a</em><br>"), chunk)
    assert out == "<table> <em>a</em><br><div>x</div></table>"


@pytest.mark.parametrize("data", ["<table><div></div></table>",
                                  "<table> <div>x</div></table>",
                                  "<table><tr><div>a</div><td>b</table>",
                                  "<table><tbody><div><p>a</div></tbody></table>"])
@pytest.mark.parametrize("chunked", [False, True])
def test_fostered_before_markup_reparses_to_the_dom_edit(data, chunked):
    assert _accepted(data, "div", "before_markup", chunked)


@pytest.mark.parametrize("markup", [
    "<meta><script></script>",      # a script in a table stays in it
    "x<b>y</b>",                    # text first: joins the table's pending text
    "<span>M</span> ",              # whitespace at the top level stays in the table
    "<!--c--><span></span>",        # a comment stays in the table
    "<a>x</a>",                     # looks for an open <a> past the table
    "<td>x</td>"])
def test_fostered_before_markup_still_refused(markup):
    with pytest.raises(RewriteError):
        _rewrite("<table><div></div></table>", "div", _before_markup(markup))


def test_fostered_before_markup_refused_with_formatting_to_reconstruct():
    # (The <b> is to reconstruct: the markup would go into its copy, and the
    # <div> after it.)
    data = "<table><b><tr><div></div></table>"
    assert not _accepted(data, "div", "before_markup")
    with pytest.raises(RewriteError):
        _rewrite(data, "div", _before_markup("<span>M</span>"))


# -- special elements renamed in an HTML or MathML text integration point
# (the new element is an HTML one there too: the "in body" rules read the
# tokens inside it, as they read them inside the old one) ----------------

@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_div_renamed_in_an_svg_integration_point(chunk):
    out = _rewrite("<svg><desc><div>a</div></desc></svg>", "div", _rename, chunk)
    assert out == "<svg><desc><abbr>a</abbr></desc></svg>"


@pytest.mark.parametrize("data,name", [
    ("<svg><desc><div>a</div></desc></svg>", "div"),
    ("<math><mi><p>x</p></mi></math>", "p"),
    ("<div><svg><path><foreignObject><p></foreignObject><p>", "p"),
    ("<!doctype html><p><math><mi><p><h1>", "h1"),
    ("<svg><title><ul><li>a</ul></title></svg>", "ul")])
@pytest.mark.parametrize("chunked", [False, True])
def test_renames_in_integration_points_reparse_to_the_dom_edit(data, name, chunked):
    assert _accepted(data, name, "rename", chunked)


@pytest.mark.parametrize("data,name", [
    # Unwrapped, its content would be read as foreign content's (a CDATA
    # section, an end tag by the foreign content rules).
    ("<svg><foreignObject><div><![CDATA[foo]]>", "div"),
    ("<div><svg><path><foreignObject><p></foreignObject><p>", "p")])
def test_unwraps_in_integration_points_still_refused(data, name):
    assert not _accepted(data, name, "remove_and_keep_content")


def test_rename_in_an_integration_point_with_an_ignored_end_tag_is_refused():
    # (</title> inside the <h1> was ignored: without it, it would close the title.)
    assert not _accepted("<svg><title><h1>x</title>y", "h1", "rename")
