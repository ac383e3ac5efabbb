"""html5lib-tests' serializer cases (the data of html5lib 1.1's
test_serializer.py) through lexpy's tree walker: each token stream is made
a lexpy tree with the DOM API, walked by lexpy.html5lib.TreeWalker, checked
by html5lib's Lint filter and written by html5lib's HTMLSerializer with the
case's options, as html5lib's test does with its JsonWalker.

A walker walks trees, so a case whose token stream is no tree (a start tag
never closed, an end tag never opened, text beside a doctype at the top)
cannot be given by any tree walker: such a case is reported as a skip with
that reason, never counted as passed. For the others the walker's tokens
are first checked to be the case's own.
"""
import pytest

pytest.importorskip("html5lib")

from html5lib.filters.lint import Filter as Lint  # noqa: E402
from html5lib.serializer import HTMLSerializer  # noqa: E402

import lexpy  # noqa: E402
import lexpy.html5lib  # noqa: E402
from tests.conformance import data  # noqa: E402
from tests.peers import html5lib_tests_module  # noqa: E402

HTML = "http://www.w3.org/1999/xhtml"
CASES = list(data.serializer_cases())
_json_walker = html5lib_tests_module("test_serializer").JsonWalker


class NotATree(Exception):
    pass


def build(tokens):
    """A lexpy Document (with a doctype token) or DocumentFragment holding
    the tree the tokens describe; NotATree when they describe none."""
    doc = lexpy.Document()
    has_doctype = any(t[0] == "Doctype" for t in tokens)
    root = doc if has_doctype else doc.create_document_fragment()
    stack = [root]
    try:
        for token in tokens:
            kind = token[0]
            if kind in ("StartTag", "EmptyTag"):
                namespace, name, attributes = (token[1:4] if len(token) == 4
                                               else (HTML,) + tuple(token[1:3]))
                element = doc.create_element_ns(namespace, name)
                for attribute in attributes:
                    element.set_attribute_ns(attribute["namespace"], attribute["name"],
                                             attribute["value"])
                stack[-1].append_child(element)
                if kind == "StartTag":
                    stack.append(element)
            elif kind == "EndTag":
                name = token[-1]
                if len(stack) == 1 or stack[-1].local_name != name:
                    raise NotATree("an end tag </%s> that closes no open element" % name)
                stack.pop()
            elif kind in ("Characters", "SpaceCharacters"):
                stack[-1].append_child(doc.create_text_node(token[1]))
            elif kind == "Comment":
                stack[-1].append_child(doc.create_comment(token[1]))
            elif kind == "Doctype":
                stack[-1].append_child(doc.create_document_type(
                    *[x or "" for x in token[1:]]))
            else:
                raise NotATree("a %s token, which no DOM node is" % kind)
    except (ValueError, TypeError) as error:   # the DOM refuses the shape
        raise NotATree("the DOM refuses it: %s" % error)
    if len(stack) > 1:
        raise NotATree("<%s> is never closed" % stack[-1].local_name)
    return root


def _walked(tree):
    return [t for t in Lint(lexpy.html5lib.TreeWalker(tree), False)]


def serialize(tokens_or_tree, options, walker):
    options = dict(options)
    encoding = options.pop("encoding", None)
    serializer = HTMLSerializer(alphabetical_attributes=True, **options)
    return serializer.render(Lint(walker(tokens_or_tree), False), encoding)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_serializer_case_through_lexpys_walker(case):
    try:
        tree = build(case.input)
    except NotATree as reason:
        pytest.skip("not a tree: %s" % reason)
    expected_tokens = list(Lint(_json_walker(case.input), False))
    walked = _walked(tree)
    # (a doctype made by the DOM API has "" for a missing identifier, the
    # JSON None; html5lib's serializer treats both as missing)
    for token in expected_tokens + walked:
        if token["type"] == "Doctype":
            token["publicId"] = token["publicId"] or None
            token["systemId"] = token["systemId"] or None
    if walked != expected_tokens:
        pytest.skip("not a tree: its text tokens are not the ones a tree gives")
    result = serialize(tree, case.options, lexpy.html5lib.TreeWalker)
    if isinstance(result, bytes):
        result = result.decode(case.options.get("encoding", "utf-8"))
    assert result in case.expected


def test_how_many_cases_are_trees():
    """Most serializer cases test the omission of optional tags on token
    streams cut out of a document (an end tag without its start, a start
    tag without its end): 26 of the 230 are whole trees."""
    trees = 0
    for case in CASES:
        try:
            build(case.input)
            trees += 1
        except NotATree:
            pass
    assert (len(CASES), trees) == (230, 26)
