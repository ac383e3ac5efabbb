"""The parser driver: lexpy.parse, lexpy.parse_fragment and lexpy.Parser.

Checks the arguments, turns the input into UTF-8 (DESIGN.md decision 1) and
runs one TreeConstruction (tokenizer + tree builder, without the GIL) over
it. Until the encoding stage is wired in, bytes are taken as UTF-8 (a BOM
is dropped, invalid sequences become U+FFFD) unless `encoding` names a
codec.
"""
from __future__ import annotations

import codecs
import re
from typing import List, Optional, Union

from lexpy.dom import dom as _dom
from lexpy.treebuilder.treebuilder import NAMESPACES, TreeConstruction

__all__ = ["ParseError", "Parser", "parse", "parse_fragment"]

Input = Union[str, bytes, bytearray, memoryview]


class ParseError:
    """A parse error: the standard's kebab-case code (or the tree builder's
    own for tree-construction errors) and the 1-based line and column (in
    code points) where it was found."""

    __slots__ = ("code", "line", "column")

    def __init__(self, code: str, line: int, column: int) -> None:
        self.code = code
        self.line = line
        self.column = column

    @property
    def message(self) -> str:
        """The code as a sentence."""
        return self.code.replace("-", " ").capitalize()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ParseError):
            return NotImplemented
        return (self.code, self.line, self.column) == (other.code, other.line, other.column)

    def __hash__(self) -> int:
        return hash((self.code, self.line, self.column))

    def __repr__(self) -> str:
        return "ParseError(%r, line=%d, column=%d)" % (self.code, self.line, self.column)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _utf8_of_str(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        # Lone surrogates cannot be stored as UTF-8.
        return _SURROGATE.sub("\ufffd", text).encode("utf-8")


def _check_flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError("%s must be a bool, not %s" % (name, type(value).__name__))
    return value


def _check_input(data: object) -> None:
    if not isinstance(data, (str, bytes, bytearray, memoryview)):
        raise TypeError("data must be str or bytes, not %s" % type(data).__name__)


# Python text codecs that the Encoding Standard does not have (and HTML
# forbids: UTF-7, UTF-32).
_NOT_WHATWG = frozenset(["utf-7", "utf-32", "utf-32-le", "utf-32-be"])


def _byte_decoder(encoding: Optional[str]):
    """An incremental decoder of bytes input (WHATWG labels become codecs;
    the encoding stage replaces this)."""
    if encoding is None:
        return codecs.getincrementaldecoder("utf-8-sig")("replace"), "UTF-8"
    if not isinstance(encoding, str):
        raise TypeError("encoding must be a str, not %s" % type(encoding).__name__)
    label = encoding.strip().lower()
    try:
        from lexpy.encoding import lookup  # the encoding stage, once it lands
        name = lookup(label).name
    except ImportError:
        name = None
    except (LookupError, AttributeError, TypeError):
        name = None
    try:
        info = codecs.lookup(name or label)
    except (LookupError, ValueError):        # ValueError: a NUL in the label
        info = None
    if info is None or not info._is_text_encoding or info.name in _NOT_WHATWG:
        raise LookupError("unknown encoding: %r" % encoding) from None
    if info.name == "utf-8":
        return codecs.getincrementaldecoder("utf-8-sig")("replace"), "UTF-8"
    return info.incrementaldecoder("replace"), name or info.name


class _Input:
    """Chunks of str or bytes in, chunks of UTF-8 out."""

    def __init__(self, encoding: Optional[str]) -> None:
        self._encoding = encoding
        self._decoder = None
        self.encoding = "UTF-8"
        if encoding is not None:
            self._decoder, self.encoding = _byte_decoder(encoding)

    def convert(self, chunk: Input, final: bool = False) -> bytes:
        if isinstance(chunk, str):
            return _utf8_of_str(chunk)
        if self._decoder is None:
            self._decoder, self.encoding = _byte_decoder(self._encoding)
        return _utf8_of_str(self._decoder.decode(bytes(chunk), final))

    def finish(self) -> bytes:
        if self._decoder is None:
            return b""
        return _utf8_of_str(self._decoder.decode(b"", True))


def _errors(construction: TreeConstruction) -> List[ParseError]:
    return [ParseError(code, line, column) for code, line, column in construction.errors()]


def parse(data: Input, *, encoding: Optional[str] = None, scripting: bool = True,
          processing_instructions: bool = True, collect_errors: bool = False):
    """Parse a whole document.

    `data` is str (already decoded) or bytes (decoded as `encoding` says,
    UTF-8 by default). `scripting` is the standard's scripting flag
    (<noscript> content is raw text when it is on, markup when it is off);
    `processing_instructions` turns the parsing of ``<?target data?>`` into
    ProcessingInstruction nodes on (the current standard) or off (bogus
    comments, as before 2026). With `collect_errors` the Document's
    `errors` lists every parse error. Returns a Document.
    """
    parser = Parser(encoding=encoding, scripting=scripting,
                    processing_instructions=processing_instructions,
                    collect_errors=collect_errors)
    _check_input(data)
    if encoding is None and isinstance(data, bytes):
        parser._feed_utf8(data)
    else:
        parser.feed(data)
    return parser.close()


def parse_fragment(data: Input, context="body", *, namespace: str = "html",
                   scripting: bool = True, processing_instructions: bool = True,
                   collect_errors: bool = False, encoding: Optional[str] = None):
    """Parse `data` as the children of a context element (the standard's
    fragment parsing algorithm, as innerHTML does).

    `context` is an Element, or a local name in `namespace` ("html", "svg"
    or "math"): "td", "title", "foreignObject". Returns a DocumentFragment
    holding the parsed nodes; with `collect_errors` its owner document's
    `errors` lists the parse errors.
    """
    _check_input(data)
    if context is None:
        raise TypeError("context must be a str or an Element, not None")
    parser = Parser(encoding=encoding, scripting=scripting,
                    processing_instructions=processing_instructions,
                    collect_errors=collect_errors, context=context,
                    namespace=namespace)
    parser.feed(data)
    return parser.close()


class Parser:
    """An incremental parser: feed() chunks of str or bytes, split anywhere,
    then close() for the same Document as lexpy.parse() of the whole input.


    With a `context` (an Element, or a local name in `namespace`) it parses
    a fragment as lexpy.parse_fragment() does, and close() returns the
    DocumentFragment.
    """

    def __init__(self, *, encoding: Optional[str] = None, scripting: bool = True,
                 processing_instructions: bool = True, collect_errors: bool = False,
                 context=None, namespace: str = "html") -> None:
        _check_flag("scripting", scripting)
        _check_flag("processing_instructions", processing_instructions)
        _check_flag("collect_errors", collect_errors)
        self._input = _Input(encoding)
        self._collect_errors = collect_errors
        self._construction = TreeConstruction(scripting, processing_instructions,
                                              collect_errors)
        self._fragment = context is not None
        if self._fragment:
            _set_context(self._construction, context, namespace)
        self._kind = None
        self._result = None

    def feed(self, chunk: Input) -> None:
        """Parse a chunk of the input."""
        _check_input(chunk)
        if self._result is not None:
            raise ValueError("the parser is closed")
        kind = str if isinstance(chunk, str) else bytes
        if self._kind is None:
            self._kind = kind
        elif kind is not self._kind:
            raise TypeError("cannot mix str and bytes chunks in one parse")
        data = self._input.convert(chunk)
        if data:
            self._construction.feed(data)

    def _feed_utf8(self, data: bytes) -> None:
        """The whole input as bytes taken as UTF-8: valid UTF-8 goes to the
        tokenizer as it is (only a BOM dropped), anything else through the
        replacing decoder."""
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            self.feed(data)     # the decoder drops the BOM (one, not two)
            return
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        self._kind = bytes
        if data:
            self._construction.feed(data)

    def close(self):
        """End of input: returns the Document (the DocumentFragment with a
        context)."""
        if self._result is None:
            rest = self._input.finish()
            if rest:
                self._construction.feed(rest)
            if self._fragment:
                self._result = self._construction.finish_fragment()
            else:
                self._result = self._construction.finish()
            document = self._construction.document_object()
            document.errors = _errors(self._construction) if self._collect_errors else []
            document.encoding = self._input.encoding
        return self._result


def _set_context(construction: TreeConstruction, context, namespace: str) -> None:
    if not isinstance(namespace, str):
        raise TypeError("namespace must be a str, not %s" % type(namespace).__name__)
    ns = NAMESPACES.get(namespace)
    if ns is None:
        raise ValueError("unknown namespace %r: expected 'html', 'svg' or 'math'" % namespace)
    if isinstance(context, str):
        if not context:
            raise ValueError("the context element needs a name")
        name = context.lower() if ns == NAMESPACES["html"] else context
        construction.set_fragment_context(name, ns, None)
    elif isinstance(context, _dom.Node):
        construction.set_fragment_context("", ns, context)
    else:
        raise TypeError("context must be a str or an Element, not %s" % type(context).__name__)
