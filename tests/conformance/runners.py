"""Run one conformance case against the installed lexpy.

Each runner returns None when the case passes and a message describing the
difference when it fails. A runner raises only for a broken harness; an
exception from lexpy is a failure of the case (reported with its message).
"""
from __future__ import annotations

import json
from typing import Optional, Sequence

from .data import EncodingCase, SelectorCase, SerializerCase, TokenizerCase, TreeCase


def _exception_message(exc: BaseException) -> str:
    return "%s: %s" % (type(exc).__name__, exc)


# ---------------------------------------------------------------------------
# Tokenizer
# ---------------------------------------------------------------------------

def _xml_text(text):
    """Character data an XML infoset can hold: FF becomes a space, other
    characters outside XML's Char production become U+FFFD."""
    out = []
    for ch in text.replace("\x0c", " "):
        cp = ord(ch)
        if (cp in (0x9, 0xA, 0xD) or 0x20 <= cp <= 0xD7FF
                or 0xE000 <= cp <= 0xFFFD or 0x10000 <= cp <= 0x10FFFF):
            out.append(ch)
        else:
            out.append("\ufffd")
    return "".join(out)


# Coercing an HTML DOM into an infoset
# https://html.spec.whatwg.org/multipage/parsing.html#coercing-an-html-dom-into-an-infoset
def coerce_to_infoset(tokens):
    """The standard's tweaks for an XML infoset (tokenizer/xmlViolation.test
    expects them), applied to html5lib-shaped tokens."""
    result = []
    for token in tokens:
        kind = token[0]
        if kind == "Character":
            token = ["Character", _xml_text(token[1])]
        elif kind == "Comment":
            data = _xml_text(token[1])
            while "--" in data:
                data = data.replace("--", "- -")
            if data.endswith("-"):
                data += " "
            token = ["Comment", data]
        elif kind == "StartTag":
            token = list(token)
            token[2] = {name: _xml_text(value) for name, value in token[2].items()}
        result.append(token)
    return result


def tokenize_case(case: TokenizerCase, data=None,
                  chunk_sizes: Optional[Sequence[int]] = None):
    """(tokens, errors) of a tokenizer case's input (or `data`, the same
    input in another form) as the case says to tokenize it. The cases of
    xmlViolation.test get the infoset coercion and state no errors."""
    from tests.helpers import require_test_build
    tokenize_for_test = require_test_build("lexpy.tokenizer._testing").tokenize_for_test
    tokens, errors = tokenize_for_test(
        case.input if data is None else data,
        initial_state=case.initial_state,
        last_start_tag=case.last_start_tag,
        processing_instructions=case.processing_instructions,
        chunk_sizes=chunk_sizes,
    )
    if case.file == "xmlViolation.test":
        return coerce_to_infoset(tokens), []
    return tokens, errors


def run_tokenizer_case(case: TokenizerCase,
                       chunk_sizes: Optional[Sequence[int]] = None) -> Optional[str]:
    try:
        tokens, errors = tokenize_case(case, chunk_sizes=chunk_sizes)
    except Exception as exc:  # noqa: BLE001 - reported as the case's failure
        return _exception_message(exc)
    problems = []
    if tokens != case.output:
        problems.append("tokens:\n  expected %s\n  got      %s" % (
            json.dumps(case.output, ensure_ascii=False),
            json.dumps(tokens, ensure_ascii=False)))
    expected_errors = [{"code": e["code"], "line": e["line"], "col": e["col"]}
                       for e in case.errors]
    if errors != expected_errors:
        problems.append("errors:\n  expected %s\n  got      %s" % (
            json.dumps(expected_errors), json.dumps(errors)))
    return "\n".join(problems) or None


# ---------------------------------------------------------------------------
# Tree construction
# ---------------------------------------------------------------------------

def require_script_engine():
    """The JavaScript engine of the scripted cases, or an ImportError that
    says how to install it."""
    try:
        import quickjs  # noqa: F401
    except ImportError as error:
        raise ImportError("the scripted conformance cases run through QuickJS: "
                          "python -m pip install quickjs (it is in the test extra, "
                          "lexpy[test])") from error


def script_runner(scripted: bool):
    """The on_script callback of a case: a JavaScript engine
    (tests/conformance/javascript.py) for the scripted/ cases, else None."""
    if not scripted:
        return None
    require_script_engine()
    from tests.conformance.javascript import ScriptEngine
    return ScriptEngine().on_script


def parse_for_tree_case(case: TreeCase, data=None):
    """Parse a tree case's input as the case says (document or fragment;
    the scripted cases with their scripts run)."""
    import lexpy
    data = case.data if data is None else data
    if case.fragment_context is not None:
        context, namespace = case.context_and_namespace()
        return lexpy.parse_fragment(data, context, namespace=namespace,
                                    scripting=case.scripting)
    return lexpy.parse(data, scripting=case.scripting,
                       on_script=script_runner(case.scripted))


def run_tree_case(case: TreeCase) -> Optional[str]:
    try:
        import lexpy
        got = lexpy.dump(parse_for_tree_case(case))
    except Exception as exc:  # noqa: BLE001
        return _exception_message(exc)
    if got != case.document:
        return "input:\n%s\nexpected:\n%s\ngot:\n%s" % (case.data, case.document, got)
    return None


# ---------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------

def run_encoding_case(case: EncodingCase) -> Optional[str]:
    try:
        import lexpy
        from lexpy.encoding import lookup
        got = lexpy.parse(case.data, on_script=script_runner(case.scripted)).encoding
        expected = lookup(case.encoding).name
    except Exception as exc:  # noqa: BLE001
        return _exception_message(exc)
    if got != expected:
        return "expected %s, got %s" % (expected, got)
    return None


# ---------------------------------------------------------------------------
# Serializer
# ---------------------------------------------------------------------------

def run_serializer_case(case: SerializerCase) -> Optional[str]:
    try:
        from lexpy.dom import serialize_tokens
        # html5lib's own harness serializes with alphabetical_attributes=True
        # and the expected outputs assume it; a case's options come on top.
        options = {"alphabetical_attributes": True, **case.options}
        got = serialize_tokens(case.input, **options)
    except Exception as exc:  # noqa: BLE001
        return _exception_message(exc)
    if got not in case.expected:
        return "expected one of %r, got %r" % (case.expected, got)
    return None


# ---------------------------------------------------------------------------
# CSS selectors
# ---------------------------------------------------------------------------

_parsed_documents: dict = {}


def _document(html):
    # Cases share fixtures; matching never changes a document, so one parse
    # serves them all.
    import lexpy
    doc = _parsed_documents.get(html)
    if doc is None:
        if len(_parsed_documents) > 64:
            _parsed_documents.clear()
        doc = _parsed_documents[html] = lexpy.parse(html)
    return doc


def _ids(elements):
    return [e.get_attribute("id") if e.has_attribute("id") else "<%s>" % e.local_name
            for e in elements]


def run_selectors_case(case: SelectorCase) -> Optional[str]:
    """A valid case: query_selector_all gives exactly `expect` (ids, tree
    order), query_selector its first element, and matches() agrees with
    the result on every element of the document (for the context's
    descendants). An invalid case: every entry point raises
    SelectorSyntaxError."""
    import lexpy
    if case.invalid:
        doc = _document("<!DOCTYPE html><p id=a>x")
        problems = []
        for what, call in (("compile_selector", lambda: lexpy.compile_selector(case.selector)),
                           ("query_selector_all", lambda: doc.query_selector_all(case.selector)),
                           ("matches", lambda: doc.body.first_child.matches(case.selector))):
            try:
                call()
            except lexpy.SelectorSyntaxError:
                continue
            except Exception as exc:  # noqa: BLE001
                problems.append("%s raised %s" % (what, _exception_message(exc)))
                continue
            problems.append("%s accepted the invalid selector %r" % (what, case.selector))
        return "\n".join(problems) or None
    try:
        doc = _document(case.html)
        context = doc if case.scope == "document" else doc.query_selector(case.scope)
        if context is None:
            return "the scope %r matches nothing" % case.scope
        if case.custom:
            selector = lexpy.compile_selector(case.selector, custom=case.custom)
            found = selector.select(context)
            first = selector.select_first(context)
            match = selector.match
        else:
            found = context.query_selector_all(case.selector)
            first = context.query_selector(case.selector)
            match = lambda element: element.matches(case.selector)  # noqa: E731
        problems = []
        got = _ids(found)
        if got != case.expect:
            problems.append("query_selector_all(%r): expected %s, got %s" % (
                case.selector, case.expect, got))
        if first is not (found[0] if found else None):
            problems.append("query_selector is not the first of query_selector_all")
        inside = set(map(id, found))
        # matches() takes the element itself as :scope (the DOM's scoping
        # root of matches()), so a selector using :scope answers another
        # question there: its matches() check is left out.
        for element in ([] if ":scope" in case.selector.lower() else context.iter()):
            if bool(match(element)) != (id(element) in inside):
                problems.append("matches() disagrees on %s" % _ids([element]))
                break
    except Exception as exc:  # noqa: BLE001
        return _exception_message(exc)
    return "\n".join(problems) or None


RUNNERS = {
    "tokenizer": run_tokenizer_case,
    "tree": run_tree_case,
    "encoding": run_encoding_case,
    "serializer": run_serializer_case,
    "extra": run_tree_case,
    "selectors": run_selectors_case,
}
