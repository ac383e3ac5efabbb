"""lexpy.html5lib under html5lib's own tests: the tree-walker test
(html5lib 1.1's tests/tree_construction.py TreeWalkerTest: pprint of the
Lint-checked token stream against the expected tree) on every
tree-construction case of the current html5lib-tests + WPT overlay, and
lexpy.html5lib.parse / parseFragment trees of each type dumped with
html5lib's own testSerializer (ParserTest), from
../shared/peer-tests/html5lib-1.1/tests/ (imported from there).

html5lib's tree model has no template contents and no processing
instructions (html5lib 1.1, the 2020 standard; lexpy.html5lib's docstring):
the expected trees are compared in that model, rewritten by two rules
stated here once: a template's "content" line goes and its subtree moves
up one level (the contents are the template's children), and a
processing instruction "<?target data?>" is the comment
"<!-- ?target data? -->" html5lib's parser makes of the same markup.
"""
import re
import warnings

import pytest

pytest.importorskip("html5lib")  # the test extra installs it

import html5lib  # noqa: E402
from html5lib import treewalkers  # noqa: E402
from html5lib.filters.lint import Filter as Lint  # noqa: E402

import lexpy  # noqa: E402
import lexpy.html5lib  # noqa: E402
from tests.conformance import data, runners  # noqa: E402
from tests.conformance.xfail import xfail_reason  # noqa: E402
from tests.peers import html5lib_tests_module  # noqa: E402

_support = html5lib_tests_module("support")
_tree_construction = html5lib_tests_module("tree_construction")

CASES = list(data.tree_cases())

_PI_LINE = re.compile(r"^\| ( *)<\?([^ ]*) (.*)\?>$")


def html5lib_model(expected):
    """The expected tree (html5lib-tests' format, "| " lines) in
    html5lib's tree model: no template "content" level, PIs as comments
    (lexpy.html5lib.processing_instruction_comment). Lines without "| "
    continue a multi-line text and are left as they are."""
    out = []
    levels = []                  # indents of the "content" lines in force
    for line in expected.split("\n"):
        if not line.startswith("| "):
            out.append(line)
            continue
        indent = len(line) - 2 - len(line[2:].lstrip(" "))
        while levels and indent <= levels[-1]:
            levels.pop()
        if line[2:].strip() == "content":     # (an element would be <content>)
            levels.append(indent)
            continue
        if levels:
            line = "| " + line[2 + 2 * len(levels):]
        match = _PI_LINE.match(line)
        if match:
            line = "| %s<!-- %s -->" % (match.group(1), lexpy.html5lib.processing_instruction_comment(
                match.group(2), match.group(3)))
        out.append(line)
    return "\n".join(out)


# What html5lib's own test tools cannot take in the current trees; strict.
HTML5LIB_LIMITS = {
    "tree/tests25.dat:8:": (
        "html5lib 1.1's voidElements still lists <command>, which the standard "
        "has since made an ordinary element: its Lint filter demands an EmptyTag "
        "for it, which cannot hold the child text the current tree gives it"),
    "tree/webkit02.dat:23:": (
        "html5lib 1.1's pprint sorts the (namespace, name) keys of attributes in "
        "no namespace and in one together, comparing None with str: a TypeError in "
        "html5lib (its own walkers give the same keys)"),
    "tree/webkit02.dat:24:": (
        "html5lib 1.1's pprint sorts the (namespace, name) keys of attributes in "
        "no namespace and in one together, comparing None with str: a TypeError in "
        "html5lib (its own walkers give the same keys)"),
}


def _limit(case_id, limits):
    for key, reason in limits.items():
        if case_id.startswith(key):
            return reason
    return None


def _params(cases, limits=None):
    params = []
    for case in cases:
        reason = xfail_reason(case.id) or (_limit(case.id, limits) if limits else None)
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        params.append(pytest.param(case, id=case.id, marks=marks))
    return params


def _expected(case):
    return _support.convertExpected(html5lib_model(case.document))


@pytest.mark.parametrize("case", _params(CASES, HTML5LIB_LIMITS))
def test_tree_walker(case):
    doc = runners.parse_for_tree_case(case)
    output = treewalkers.pprint(Lint(lexpy.html5lib.TreeWalker(doc)))
    expected = _tree_construction.sortattrs(_expected(case))
    assert _tree_construction.sortattrs(output) == expected


TREE_TYPES = ("etree", "dom", "lxml")

XML_COMMENT = ("an XML comment cannot hold '--' or end in '-': lxml refuses such a "
               "comment, so it is coerced as html5lib's InfosetFilter does ('- -')")
XML_DOCTYPE = ("lxml holds a doctype only as the document's DTD, named after the "
               "root element (docinfo.root_name, which html5lib's lxml testSerializer "
               "prints), and that serializer prints a missing public identifier "
               "beside a system one as 'None'")
XML_CHARACTER = ("a character outside XML's Char production becomes U+FFFD in an "
                 "lxml tree (lxml refuses it)")


def xml_loss(case):
    """Why the case's tree cannot come back unchanged from an lxml tree
    (the rule of XML it breaks), or None."""
    from lexpy.dom.dom import _tree_events
    from lexpy.etree import xml_text
    doc = runners.parse_for_tree_case(case)
    reasons = []
    for event in _tree_events(doc):
        if event is None:
            continue
        kind = event[0]
        if kind in (7, 8):
            text = event[1] if kind == 8 else \
                lexpy.html5lib.processing_instruction_comment(event[1], event[2])
            if "--" in text or text.endswith("-"):
                reasons.append(XML_COMMENT)
            if xml_text(text) != text:
                reasons.append(XML_CHARACTER)
        elif kind == 10:
            if event[1] != "html" or (event[3] is not None and event[2] is None):
                reasons.append(XML_DOCTYPE)
        elif kind == 3:
            if xml_text(event[1]) != event[1]:
                reasons.append(XML_CHARACTER)
        elif kind == 1:
            # (names XML cannot hold come back: the coercion is reversed by
            # html5lib's lxml testSerializer)
            for _, _, _, value in event[3] or ():
                if xml_text(value) != value:
                    reasons.append(XML_CHARACTER)
    return reasons[0] if reasons else None


def _parse_params():
    params = []
    for case in CASES:
        for tree_type in TREE_TYPES:
            reason = xfail_reason(case.id)
            if reason is None and tree_type == "lxml":
                reason = xml_loss(case)
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            params.append(pytest.param(case, tree_type, id="%s-%s" % (case.id, tree_type),
                                       marks=marks))
    return params


def _parse(case, tree_type, namespaced):
    kwargs = {"scripting": case.scripting}
    if case.scripted:
        kwargs["on_script"] = runners.script_runner(True)
    if tree_type == "etree":
        kwargs["fullTree"] = True
    if case.fragment_context is not None:
        return lexpy.html5lib.parseFragment(
            case.data, case.fragment_context, treebuilder=tree_type,
            namespaceHTMLElements=namespaced, **kwargs)
    return lexpy.html5lib.parse(case.data, treebuilder=tree_type,
                                namespaceHTMLElements=namespaced, **kwargs)


@pytest.mark.parametrize("namespaced", [True, False], ids=["namespaced", "void-namespace"])
@pytest.mark.parametrize("case,tree_type", _parse_params())
def test_parse_tree(case, tree_type, namespaced):
    tree = _parse(case, tree_type, namespaced)
    builder = html5lib.treebuilders.getTreeBuilder(
        tree_type, **({"fullTree": True} if tree_type == "etree" else {}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        output = _tree_construction.convertTreeDump(builder(namespaced).testSerializer(tree))
    expected = _expected(case)
    if namespaced:
        expected = _tree_construction.namespaceExpected(r"\1<html \2>", expected)
    assert output == expected
