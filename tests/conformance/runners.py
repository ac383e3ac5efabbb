"""Run one conformance case against the installed lexpy.

Each runner returns None when the case passes and a message describing the
difference when it fails. A runner raises only for a broken harness; an
exception from lexpy is a failure of the case (reported with its message).
"""
from __future__ import annotations

import json
from typing import Optional, Sequence

from .data import EncodingCase, SerializerCase, TokenizerCase, TreeCase


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
    from lexpy.tokenizer import tokenize_for_test
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

def parse_for_tree_case(case: TreeCase, data=None):
    """Parse a tree case's input as the case says (document or fragment)."""
    import lexpy
    data = case.data if data is None else data
    if case.fragment_context is not None:
        context, namespace = case.context_and_namespace()
        return lexpy.parse_fragment(data, context, namespace=namespace,
                                    scripting=case.scripting)
    return lexpy.parse(data, scripting=case.scripting)


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
        got = lexpy.parse(case.data).encoding
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


RUNNERS = {
    "tokenizer": run_tokenizer_case,
    "tree": run_tree_case,
    "encoding": run_encoding_case,
    "serializer": run_serializer_case,
    "extra": run_tree_case,
}
