"""The parser driver: lexpy.parse, lexpy.parse_fragment and lexpy.Parser.

Checks the arguments, turns the input into UTF-8 (DESIGN.md decision 1) and
runs one TreeConstruction (tokenizer + tree builder, without the GIL) over
it. Until the encoding stage is wired in, bytes are taken as UTF-8 (a BOM
is dropped, invalid sequences become U+FFFD) unless `encoding` names a
codec.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, List, NamedTuple, Optional, Union

from lexpy.dom import dom as _dom
from lexpy.encoding.encoding import utf8_valid_prefix
from lexpy.treebuilder.treebuilder import NAMESPACES, TreeConstruction

if TYPE_CHECKING:
    from lexpy.dom import Document, DocumentFragment, Element

__all__ = ["ParseError", "Parser", "parse", "parse_fragment"]

Input = Union[str, bytes, bytearray, memoryview]


class ParseError(NamedTuple):
    """A parse error, as data (parsing never raises for bad markup).

    `code` is the standard's kebab-case code ("unexpected-null-character";
    tree-construction errors have descriptive codes of lexpy's own),
    `line` and `column` are 1-based (columns count UTF-16 code units, as
    the standard's tests do). `message` is the code as a sentence.
    """

    code: str
    line: int
    column: int

    @property
    def message(self) -> str:
        """The code as a sentence: "Unexpected null character"."""
        return self.code.replace("-", " ").capitalize()

    def __str__(self) -> str:
        return "%d:%d: %s" % (self.line, self.column, self.code)


def _utf8_of_str(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        # Lone surrogates cannot be stored as UTF-8.
        # (re is imported here, not at import time: issue 7's RSS budget.)
        import re
        return re.sub("[\ud800-\udfff]", "\ufffd", text).encode("utf-8")


def _type_name(value: object) -> str:
    return type(value).__name__


def _check_flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError("%s must be a bool, not %s" % (name, _type_name(value)))
    return value


def _check_input(data: object, what: str = "data") -> None:
    if not isinstance(data, (str, bytes, bytearray, memoryview)):
        raise TypeError("%s must be str or bytes, not %s" % (what, _type_name(data)))


def _check_encoding(encoding: object) -> Optional[str]:
    """The label as given (checked: a str naming a WHATWG encoding), or None."""
    if encoding is None:
        return None
    if not isinstance(encoding, str):
        raise TypeError("encoding must be a str (an encoding label) or None, not %s"
                        % _type_name(encoding))
    from lexpy.encoding import lookup
    lookup(encoding)
    return encoding


class _ByteInput:
    """Chunks of bytes in, chunks of UTF-8 out, through the Encoding
    Standard's decoders of lexpy.encoding (UTF-8 unless `encoding` names
    another; a BOM wins). Sniffing is wired in separately."""

    def __init__(self, encoding: Optional[str]) -> None:
        from lexpy.encoding import Decoder, lookup
        found = lookup("utf-8" if encoding is None else encoding)
        self._decoder = Decoder(found)
        self.encoding = found.name

    def convert(self, chunk: Union[bytes, bytearray, memoryview]) -> bytes:
        return self._decoder.decode(bytes(chunk), False)

    def finish(self) -> bytes:
        return self._decoder.decode(b"", True)

    def buffered(self) -> int:
        """Bytes held here between feeds: none counted (the decoder keeps
        at most the 3 bytes of a sequence split between chunks)."""
        return 0


def parse(data: Input, *, encoding: Optional[str] = None, scripting: bool = True,
          processing_instructions: bool = True,
          collect_errors: bool = False) -> "Document":
    """Parse a whole HTML document.

    Args:
        data: the document, as str (already decoded) or bytes (decoded as
            the encoding sniffing algorithm decides).
        encoding: for bytes, the encoding label the transport layer gave
            (as in a Content-Type charset); a byte order mark still wins.
        scripting: the standard's scripting flag: with it on, <noscript>
            holds raw text; with it off, markup.
        processing_instructions: parse ``<?target data?>`` into
            ProcessingInstruction nodes (the current standard); False
            gives bogus comments, as before 2026.
        collect_errors: keep every parse error in the Document's `errors`.

    Returns:
        The Document.

    Raises:
        TypeError: `data` is not str or bytes, or an option has the wrong
            type.
        LookupError: `encoding` is not a label of the Encoding Standard.
    """
    _check_input(data)
    parser = Parser(encoding=encoding, scripting=scripting,
                    processing_instructions=processing_instructions,
                    collect_errors=collect_errors)
    if encoding is None and isinstance(data, (bytes, bytearray, memoryview)):
        parser._feed_utf8(bytes(data))
    else:
        parser.feed(data)
    return parser.close()


def parse_fragment(data: Input, context: Union[str, "Element"] = "body", *,
                   namespace: str = "html", scripting: bool = True,
                   processing_instructions: bool = True,
                   collect_errors: bool = False,
                   encoding: Optional[str] = None) -> "DocumentFragment":
    """Parse `data` as the content of a context element (the standard's
    fragment parsing algorithm, as setting innerHTML does).

    Args:
        data: the markup, as str, or bytes in `encoding` (UTF-8 when None;
            a fragment has no encoding sniffing).
        context: the context element: an Element of any document, or its
            local name in `namespace` ("td", "title", "foreignObject").
        namespace: the context name's namespace: "html", "svg" or "math".
        scripting, processing_instructions, collect_errors: as for
            parse(); the errors are in the owner document's `errors`.

    Returns:
        A DocumentFragment holding the parsed nodes.

    Raises:
        TypeError, ValueError: a bad argument (the message says which).
        LookupError: `encoding` is not a label of the Encoding Standard.
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
    """An incremental parser: feed() the input in chunks, then close().

    Chunks are str or bytes (not both in one parse) of any size, split
    anywhere: inside a tag, a character reference, a UTF-8 sequence or a
    CRLF. close() returns the same Document as parse() of the whole input.
    With a `context` (an Element, or a local name in `namespace`) it parses
    a fragment as parse_fragment() does, and close() returns the
    DocumentFragment.

    Between feeds the parser holds only what it cannot settle yet: the
    unfinished token (a long comment is passed on in pieces), a split
    character, bytes waiting for the encoding to be decided. The
    `buffered_bytes` property tells how many.

    The keyword arguments are those of parse() and parse_fragment().
    """

    def __init__(self, *, encoding: Optional[str] = None, scripting: bool = True,
                 processing_instructions: bool = True, collect_errors: bool = False,
                 context: Union[None, str, "Element"] = None,
                 namespace: str = "html") -> None:
        _check_flag("scripting", scripting)
        _check_flag("processing_instructions", processing_instructions)
        _check_flag("collect_errors", collect_errors)
        self._encoding = _check_encoding(encoding)
        self._collect_errors = collect_errors
        self._construction = TreeConstruction(scripting, processing_instructions,
                                              collect_errors)
        self._fragment = context is not None
        if self._fragment:
            _set_context(self._construction, context, namespace)
        elif not isinstance(namespace, str) or namespace not in NAMESPACES:
            _check_namespace(namespace)
        self._bytes: Optional[_ByteInput] = None
        self._kind: Optional[type] = None
        self._result = None

    @property
    def closed(self) -> bool:
        """Whether close() was called."""
        return self._result is not None

    @property
    def buffered_bytes(self) -> int:
        """How many bytes of input the parser holds between feeds (the
        unfinished token, a split character, bytes waiting for the
        encoding to be decided); 0 once closed."""
        if self._result is not None:
            return 0
        held = self._construction.buffered()[0]
        if self._bytes is not None:
            held += self._bytes.buffered()
        return held

    def feed(self, chunk: Input) -> None:
        """Parse the next chunk of the input.

        Raises:
            TypeError: `chunk` is not str or bytes, or is str after bytes
                (or bytes after str) in the same parse.
            ValueError: the parser is closed.
        """
        _check_input(chunk, "chunk")
        if self._result is not None:
            raise ValueError("the parser is closed: feed() after close()")
        kind = str if isinstance(chunk, str) else bytes
        if self._kind is None:
            self._kind = kind
        elif kind is not self._kind:
            raise TypeError("cannot mix str and bytes chunks in one parse (this "
                            "parse was fed %s first)" % self._kind.__name__)
        if isinstance(chunk, str):
            data = _utf8_of_str(chunk)
        else:
            if self._bytes is None:
                self._bytes = _ByteInput(self._encoding)
            data = self._bytes.convert(chunk)
        if data:
            self._construction.feed(data)

    def _feed_utf8(self, data: bytes) -> None:
        """The whole input as bytes taken as UTF-8: valid UTF-8 goes to the
        tokenizer as it is (only a BOM dropped), anything else through the
        replacing decoder."""
        # Validated in C without the GIL, with no str made (issue 7).
        if utf8_valid_prefix(data) != len(data):
            self.feed(data)     # the decoder drops the BOM (one, not two)
            return
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        self._kind = bytes
        if data:
            self._construction.feed(data)

    def close(self):
        """End of input: returns the Document (the DocumentFragment with a
        context). Calling it again returns the same object."""
        if self._result is None:
            encoding = "UTF-8"
            if self._bytes is not None:
                rest = self._bytes.finish()
                if rest:
                    self._construction.feed(rest)
                encoding = self._bytes.encoding
            if self._fragment:
                self._result = self._construction.finish_fragment()
            else:
                self._result = self._construction.finish()
            document = self._construction.document_object()
            document.errors = _errors(self._construction) if self._collect_errors else []
            document.encoding = encoding
        return self._result


def _errors(construction: TreeConstruction) -> List[ParseError]:
    return [ParseError(code, line, column) for code, line, column in construction.errors()]


def _check_namespace(namespace: object) -> int:
    if not isinstance(namespace, str):
        raise TypeError("namespace must be a str, not %s" % _type_name(namespace))
    ns = NAMESPACES.get(namespace)
    if ns is None:
        raise ValueError("unknown namespace %r: expected 'html', 'svg' or 'math'"
                         % namespace)
    return ns


def _set_context(construction: TreeConstruction, context: object,
                 namespace: object) -> None:
    ns = _check_namespace(namespace)
    if isinstance(context, str):
        if not context:
            raise ValueError("the context element needs a name")
        name = context.lower() if ns == NAMESPACES["html"] else context
        construction.set_fragment_context(name, ns, None)
    elif isinstance(context, _dom.Element):
        construction.set_fragment_context("", ns, context)
    else:
        raise TypeError("context must be a str (a local name) or an Element, not %s"
                        % _type_name(context))
