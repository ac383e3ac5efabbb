"""The parser driver: lexpy.parse, lexpy.parse_fragment and lexpy.Parser.

Checks the arguments and runs one TreeConstruction (tokenizer + tree
builder, without the GIL) over the input. str input is encoded to UTF-8
(DESIGN.md decision 1); bytes go through the input byte stream of
lexpy.encoding: the encoding sniffing algorithm (a BOM, then the caller's
`encoding`, then the <meta> prescan of the first 1024 bytes, then -- with
`detect_encoding` -- UTF-8 when the bytes are UTF-8, then `default_encoding`
or windows-1252), the Encoding Standard's decoders, and "changing the
encoding while parsing" when a later <meta> declares another encoding while
the confidence is tentative.
"""
from __future__ import annotations

import functools
from typing import (TYPE_CHECKING, Any, Callable, Dict, Generic, List, Optional, TypeVar, Union,
                    cast, overload)

from lexpy.dom import dom as _dom
from lexpy.dom.errors import ParseError
from lexpy.driver.driver import (
    MAX_SCRIPT_NESTING, NAMESPACES, REPARSE_WINDOW, ParserBusyError, ScriptNestingError,
    ScriptWriter, SourceMap, TreeConstruction)
from lexpy.encoding import lookup

if TYPE_CHECKING:
    from lexpy.dom import Document, DocumentFragment, Element

__all__ = ["MAX_SCRIPT_NESTING", "ParseError", "Parser", "ParserBusyError", "REPARSE_WINDOW",
           "ScriptNestingError", "ScriptWriter", "parse", "parse_fragment"]

Input = Union[str, bytes, bytearray, memoryview]
ScriptCallback = Callable[["Element", ScriptWriter], object]


def _type_name(value: object) -> str:
    return type(value).__name__


def _check_flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError("%s must be a bool, not %s" % (name, _type_name(value)))
    return value


def _check_input(data: object, what: str = "data") -> None:
    if not isinstance(data, (str, bytes, bytearray, memoryview)):
        raise TypeError("%s must be str or bytes, not %s" % (what, _type_name(data)))


def _encoding_id(label: object, what: str) -> int:
    """The Encoding id a label names, or -1 for None; TypeError for a
    non-str, LookupError (naming the label) for an unknown one."""
    if label is None:
        return -1
    if not isinstance(label, str):
        raise TypeError("%s must be a str (an encoding label) or None, not %s"
                        % (what, _type_name(label)))
    return int(lookup(label).id)


def _byte_view(data: Union[bytes, bytearray, memoryview]) -> Union[bytes, memoryview]:
    """A C-contiguous view of bytes (any memoryview format)."""
    if isinstance(data, bytes):
        return data
    view = memoryview(data)
    if not view.c_contiguous:
        return view.tobytes()
    return view.cast("B") if view.format != "B" or view.ndim != 1 else view


def parse(data: Input, *, encoding: Optional[str] = None,
          default_encoding: Optional[str] = None, detect_encoding: bool = True,
          scripting: bool = True, processing_instructions: bool = True,
          collect_errors: bool = False, on_script: Optional[ScriptCallback] = None,
          external_scripts: bool = False, positions: bool = False) -> "Document":
    """Parse a whole HTML document.

    Args:
        data: the document, as str (already decoded) or bytes (decoded as
            the encoding sniffing algorithm decides: a byte order mark, then
            `encoding`, then a <meta> in the first 1024 bytes, then UTF-8 if
            `detect_encoding` finds it, then `default_encoding`; a later
            <meta> may still change a tentative encoding).
        encoding: for bytes, the encoding label the transport layer gave
            (as in a Content-Type charset); a byte order mark still wins.
            Ignored for str.
        default_encoding: for bytes, the label of the encoding to use when
            nothing declares one (windows-1252 when None, as browsers in
            most locales do).
        detect_encoding: for bytes that declare no encoding (no byte order
            mark, no `encoding`, no <meta> in the first 1024 bytes): decode
            them as UTF-8 when the bytes from the first one above 0x7F are
            valid UTF-8 (the first 1024 of them, or all up to the end; the
            autodetection the standard allows), else as `default_encoding`. The encoding stays tentative, so a
            later <meta> may still change it. It never replaces a
            `default_encoding` of UTF-16, ISO-2022-JP, x-user-defined or a
            replacement label. False: nothing is guessed (a BOM, then
            `encoding`, then the prescan, then the default).
        scripting: the standard's scripting flag: with it on, <noscript>
            holds raw text; with it off, markup.
        processing_instructions: parse ``<?target data?>`` into
            ProcessingInstruction nodes (the current standard); False
            gives bogus comments, as before 2026.
        collect_errors: keep every parse error in the Document's `errors`.
        on_script: the script runner: called as ``on_script(script,
            writer)`` where the standard executes a parser-inserted classic
            script (at its end tag, with the tree built so far: the
            callback may read and change it), with a ScriptWriter whose
            write() is document.write at the insertion point. Not called
            with `scripting` off, nor for module, import map or data-block
            scripts, nomodule scripts, scripts in template contents, or an
            empty inline script (SVG scripts are called too). See the
            README's "Running scripts".
        external_scripts: also call `on_script` for scripts with a src
            (the callback fetches and runs them): a parser-blocking one
            where the standard runs it, defer and async ones once the
            parse is over. False (the default): they are not run.
        positions: record where each node came from (`node.source`,
            `element.end_source`, `element.attribute_source()`) and keep
            the input for `to_source()`. Off (the default), parsing costs
            nothing more.

    Returns:
        The Document; its `encoding` names the encoding the bytes were
        decoded from ('UTF-8' for str). From a bytes object (which cannot
        change) the Document keeps the bytes as long as it lives: its text,
        comments and attribute values that read as their bytes point into
        them, not into copies (a change copies first; the bytes never
        change). A bytearray or memoryview is copied.

    Raises:
        TypeError: `data` is not str or bytes, or an option has the wrong
            type.
        LookupError: `encoding` or `default_encoding` is not a label of the
            Encoding Standard.
        ScriptNestingError: document.write nested scripts deeper than
            MAX_SCRIPT_NESTING levels.
        Exception: whatever `on_script` raised.
    """
    if type(data) is bytes and encoding is None and default_encoding is None \
            and detect_encoding is True and scripting is True \
            and processing_instructions is True and collect_errors is False \
            and on_script is None and external_scripts is False and positions is False:
        # Bytes with every option at its default: Parser's steps (nothing
        # to check, nothing to keep) straight on a TreeConstruction, whose
        # per-parse cost in Python is a tenth of a small page's parse.
        construction = TreeConstruction()
        construction.set_byte_input(-1, -1, False)
        return construction.parse_bytes(data)
    _check_input(data)
    parser = Parser(encoding=encoding, default_encoding=default_encoding,
                    detect_encoding=detect_encoding, scripting=scripting,
                    processing_instructions=processing_instructions,
                    collect_errors=collect_errors, on_script=on_script,
                    external_scripts=external_scripts, positions=positions)
    if isinstance(data, str):
        parser.feed(data)
        return parser.close()
    return parser._parse_bytes(_byte_view(data))


def parse_fragment(data: Input, context: Union[str, "Element"] = "body", *,
                   namespace: Optional[str] = None, scripting: bool = True,
                   processing_instructions: bool = True,
                   collect_errors: bool = False,
                   encoding: Optional[str] = None,
                   default_encoding: Optional[str] = None,
                   positions: bool = False) -> "DocumentFragment":
    """Parse `data` as the content of a context element (the standard's
    fragment parsing algorithm, as setting innerHTML does).

    Args:
        data: the markup, as str, or bytes in `encoding` (a byte order mark
            wins; a fragment has no <meta> prescan and no autodetection).
        context: the context element: an Element of any document, or its
            local name in `namespace` ("td", "title", "foreignObject"): a
            valid element name, without spaces or a namespace prefix.
        namespace: the context name's namespace: "html" (when None), "svg"
            or "math". With an Element context, None or the Element's own.
        encoding: for bytes, the label of their encoding.
        default_encoding: for bytes, the label of the encoding to use when
            there is no byte order mark and no `encoding` (UTF-8 when None).
        scripting, processing_instructions, collect_errors, positions: as
            for parse(); the errors are in the owner document's `errors`,
            the offsets count in `data`.

    Returns:
        A DocumentFragment holding the parsed nodes.

    Raises:
        TypeError, ValueError: a bad argument (the message says which).
        LookupError: `encoding` is not a label of the Encoding Standard.
    """
    _check_input(data)
    if context is None:
        raise TypeError("context must be a str or an Element, not None")
    parser = Parser(encoding=encoding, default_encoding=default_encoding,
                    scripting=scripting,
                    processing_instructions=processing_instructions,
                    collect_errors=collect_errors, context=context,
                    namespace=namespace, positions=positions)
    parser.feed(data)
    return parser.close()


_Tree = TypeVar("_Tree", "Document", "DocumentFragment")


class Parser(Generic[_Tree]):
    """An incremental parser: feed() the input in chunks, then close().

    Chunks are str or bytes (not both in one parse) of any size, split
    anywhere: inside a tag, a character reference, a UTF-8 sequence, a byte
    order mark or a CRLF. close() returns the same Document as parse() of
    the whole input. With a `context` (an Element, or a local name in
    `namespace`) it parses a fragment as parse_fragment() does, and close()
    returns the DocumentFragment.

    Between feeds the parser holds only what it cannot settle yet
    (`buffered_bytes`; the README's "Incremental feeding" says what). A
    <meta> past the first REPARSE_WINDOW bytes no longer changes a
    tentative encoding; parse() follows the same rule, so both give the
    same tree.

    The keyword arguments are those of parse() and parse_fragment()
    (`detect_encoding` only matters for a document's bytes: a fragment's
    bytes are never guessed at). `namespace` goes with a context (a name's,
    or an Element's own).

    With `on_script`, feed() and close() run the scripts whose end tags
    they reach (see parse()); the tree after close() is the same for any
    chunking. If the callback raises, the exception propagates and the
    parser is broken: later calls raise ValueError naming it.

    If close() fails (it raises), the parser is broken: feed() and close()
    raise ValueError from then on, naming the first error.

    A Parser is used by one thread at a time: feed() and close() release
    the GIL while they parse, and a call from another thread meanwhile
    raises ParserBusyError (a RuntimeError) without touching the parse.
    """

    @overload
    def __init__(self: "Parser[Document]", *, encoding: Optional[str] = None,
                 default_encoding: Optional[str] = None, detect_encoding: bool = True,
                 scripting: bool = True, processing_instructions: bool = True,
                 collect_errors: bool = False, context: None = None,
                 namespace: None = None, on_script: Optional[ScriptCallback] = None,
                 external_scripts: bool = False, positions: bool = False) -> None: ...

    @overload
    def __init__(self: "Parser[DocumentFragment]", *, encoding: Optional[str] = None,
                 default_encoding: Optional[str] = None, detect_encoding: bool = True,
                 scripting: bool = True, processing_instructions: bool = True,
                 collect_errors: bool = False, context: Union[str, "Element"],
                 namespace: Optional[str] = None, on_script: None = None,
                 external_scripts: bool = False, positions: bool = False) -> None: ...

    def __init__(self, *, encoding: Optional[str] = None,
                 default_encoding: Optional[str] = None, detect_encoding: bool = True,
                 scripting: bool = True, processing_instructions: bool = True,
                 collect_errors: bool = False,
                 context: Union[None, str, "Element"] = None,
                 namespace: Optional[str] = None, on_script: Optional[ScriptCallback] = None,
                 external_scripts: bool = False, positions: bool = False) -> None:
        _check_flag("detect_encoding", detect_encoding)
        _check_flag("positions", positions)
        # positions: the input as given, kept for the source map.
        self._positions = positions
        self._chunks: List[Union[str, bytes]] = []
        # (to_source() checks its output by parsing it with these options)
        self._reparse_options: Dict[str, object] = dict(
            scripting=scripting, processing_instructions=processing_instructions,
            context=context, namespace=namespace)
        _check_flag("external_scripts", external_scripts)
        if on_script is not None and not callable(on_script):
            raise TypeError("on_script must be callable or None, not %s" % _type_name(on_script))
        _check_flag("scripting", scripting)
        _check_flag("processing_instructions", processing_instructions)
        _check_flag("collect_errors", collect_errors)
        self._encoding = _encoding_id(encoding, "encoding")
        self._default_encoding = _encoding_id(default_encoding, "default_encoding")
        self._detect_encoding = detect_encoding
        self._collect_errors = collect_errors
        self._construction = TreeConstruction(scripting, processing_instructions,
                                              collect_errors, positions)
        self._fragment = context is not None
        if self._fragment:
            _set_context(self._construction, context, namespace)
        elif namespace is not None:
            raise ValueError("namespace %r goes with a context name, and there is "
                             "no context: a document is parsed" % (namespace,))
        if on_script is not None:
            if self._fragment:
                raise ValueError("on_script goes with a document: the fragment parsing "
                                 "algorithm runs no scripts")
            self._construction.set_script_hook(on_script, external_scripts)
        self._kind: Optional[type] = None
        self._result: Union[None, "Document", "DocumentFragment"] = None
        self._failure: Optional[BaseException] = None   # close() raised it

    @property
    def closed(self) -> bool:
        """Whether close() returned the result (a close() that raised does
        not count)."""
        return self._result is not None

    def _check_usable(self, method: str) -> None:
        if self._failure is not None:
            raise ValueError("the parser is broken: close() failed (%s: %s); %s() "
                             "cannot go on" % (type(self._failure).__name__,
                                               self._failure, method)
                             ) from self._failure

    @property
    def buffered_bytes(self) -> int:
        """How many bytes of input the parser holds between feeds: the
        unfinished token, bytes waiting for the encoding to be decided or
        kept for a re-parse in another encoding; 0 once closed."""
        if self._result is not None:
            return 0
        return int(self._construction.buffered()[0])

    def feed(self, chunk: Input) -> None:
        """Parse the next chunk of the input.

        Raises:
            TypeError: `chunk` is not str or bytes, or is str after bytes
                (or bytes after str) in the same parse.
            ValueError: the parser is closed.
        """
        _check_input(chunk, "chunk")
        self._check_usable("feed")
        if self._result is not None:
            raise ValueError("the parser is closed: feed() after close()")
        kind = str if isinstance(chunk, str) else bytes
        if self._kind is None:
            self._kind = kind
            if kind is bytes:
                self._start_bytes(keep_input=True)
        elif kind is not self._kind:
            raise TypeError("cannot mix str and bytes chunks in one parse (this "
                            "parse was fed %s first)" % self._kind.__name__)
        if self._positions:
            self._chunks.append(chunk if isinstance(chunk, str) else bytes(chunk))
        if isinstance(chunk, str):
            self._construction.feed_text(chunk)
        else:
            self._construction.feed_bytes(_byte_view(chunk))

    def _start_bytes(self, keep_input: bool) -> None:
        """Bytes go through lexpy.encoding's input byte stream, for
        documents and fragments alike."""
        if self._fragment:
            # The fragment case has no encoding sniffing: a BOM, else the
            # caller's encoding as certain (then no <meta> changes it).
            transport = self._encoding if self._encoding >= 0 else \
                self._default_encoding if self._default_encoding >= 0 else \
                int(lookup("utf-8").id)
            self._construction.set_byte_input(transport, -1, keep_input,
                                              detect_encoding=False)
        else:
            self._construction.set_byte_input(self._encoding, self._default_encoding,
                                              keep_input,
                                              detect_encoding=self._detect_encoding)

    def _parse_bytes(self, data: Union[bytes, memoryview]) -> _Tree:
        """parse(bytes): the whole input at once (the stream need not keep
        the bytes: a re-parse reads them from `data`)."""
        self._kind = bytes
        if self._positions:
            self._chunks.append(data if isinstance(data, bytes) else bytes(data))
        self._start_bytes(keep_input=False)
        self._construction.parse_bytes(data)
        return self.close()

    def _keep_source(self, result: Union["Document", "DocumentFragment"]) -> None:
        _keep_source_of(self, result)

    def close(self) -> _Tree:
        """End of input: returns the Document (the DocumentFragment with a
        context). Calling it again returns the same object.

        Raises:
            MemoryError: out of memory; the parser is then broken (see the
                class) and a later close() raises ValueError.
            ValueError: an earlier close() failed.
        """
        self._check_usable("close")
        if self._result is None:
            result: Union["Document", "DocumentFragment"]
            try:
                # (The construction sets the Document's errors and encoding
                # when the parse ends.)
                if self._fragment:
                    result = self._construction.finish_fragment()
                else:
                    result = self._construction.finish()
            except ParserBusyError:
                raise       # another thread's parse: nothing was done
            except BaseException as error:
                # The construction may be half finished: nothing may use
                # it again, and closed stays False.
                self._failure = error
                raise
            if self._positions:
                self._keep_source(result)
            self._result = result
        # (The overloads of __init__ tie _Tree to the context argument.)
        return cast(_Tree, self._result)


_KEEP_CONTEXT = object()


def _keep_source_of(parser: "Parser[_Tree]", result: Union["Document", "DocumentFragment"]) -> None:
    """positions: the Document's source map over the input as given."""
    doc = result if isinstance(result, _dom.Document) else result.owner_document
    if doc is None:
        return
    text = parser._kind is not bytes
    original: Union[str, bytes] = (
        "".join(cast(List[str], parser._chunks)) if text
        else b"".join(cast(List[bytes], parser._chunks)))
    encoding = None if text else parser._construction.encoding
    info = SourceMap(original, encoding, list(parser._construction.insertions))
    info.reparse = functools.partial(_reparse, parser._reparse_options)
    doc._source_info = info
    parser._chunks = []


def _reparse(options: Dict[str, Any], text: str, positions: bool = False,
             context: Any = _KEEP_CONTEXT) -> Union["Document", "DocumentFragment"]:
    """to_source()'s check: the tree its output parses to (with
    `positions`, `context`: for the characters its encoding has not, where
    each is in the output)."""
    if context is not _KEEP_CONTEXT:
        options = dict(options, context=context, namespace=None)
    parser: Parser[Any] = Parser(positions=positions, **options)
    parser.feed(text)
    return cast(Union["Document", "DocumentFragment"], parser.close())


def _check_namespace(namespace: object) -> int:
    if namespace is None:
        return int(NAMESPACES["html"])
    if not isinstance(namespace, str):
        raise TypeError("namespace must be a str or None, not %s" % _type_name(namespace))
    ns = NAMESPACES.get(namespace)
    if ns is None:
        raise ValueError("unknown namespace %r: expected 'html', 'svg' or 'math'"
                         % namespace)
    return int(ns)


# Characters no element name has (the DOM's valid element local name: the
# HTML parser makes none with them either).
_NOT_IN_NAMES = frozenset("\t\n\x0c\r /\x00>")
_PREFIXES = ("svg", "math", "html", "xlink", "xml", "xmlns")


def _check_context_name(name: str, namespace: object) -> None:
    """ValueError, saying what to write instead, unless `name` is a local
    name a context element can have."""
    if not name:
        raise ValueError("the context element needs a name (context='')")
    for separator in (" ", ":"):
        prefix, found, local = name.partition(separator)
        if found and prefix.lower() in _PREFIXES:
            raise ValueError(
                "context %r: the context is a local name and its namespace a "
                "separate argument: write context=%r, namespace=%r"
                % (name, local, prefix.lower()))
    if _NOT_IN_NAMES.intersection(name):
        raise ValueError("context %r is not an element name (no whitespace, '/', "
                         "'>' or NUL)" % name)
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("context %r is not an element name (a lone surrogate)"
                         % name) from None


def _set_context(construction: TreeConstruction, context: object,
                 namespace: object) -> None:
    if isinstance(context, str):
        ns = _check_namespace(namespace)
        _check_context_name(context, namespace)
        # HTML names are ASCII-lowercased (as the tokenizer does), others kept.
        name = _ascii_lowercase(context) if ns == NAMESPACES["html"] else context
        construction.set_fragment_context(name, ns, None)
    elif isinstance(context, _dom.Element):
        # The Element has its namespace; a `namespace` must name the same.
        if namespace is not None and \
                NAMESPACES.get(context.namespace_uri or "") != _check_namespace(namespace):
            raise ValueError("namespace %r is not the namespace of the context "
                             "Element (%s)" % (namespace, context.namespace_uri))
        construction.set_fragment_context("", NAMESPACES["html"], context)
    else:
        raise TypeError("context must be a str (a local name) or an Element, not %s"
                        % _type_name(context))


_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ASCII_LOWER = str.maketrans(_UPPER, _UPPER.lower())


def _ascii_lowercase(name: str) -> str:
    return name.translate(_ASCII_LOWER)


# Element.inner_html's setter parses through this (the DOM, a layer below,
# does not import the parser).
_dom._register_fragment_parser(parse_fragment)


def _str_fragment_parser(context: str, scripting: bool = True) -> Callable[[Input],
                                                                          "DocumentFragment"]:
    """parse_fragment(text, context, scripting=scripting) for str inputs,
    its arguments checked once: the sanitizer parses every input twice in
    the same context, and the checks and the Parser object cost more than
    parsing a short comment."""
    _check_flag("scripting", scripting)
    probe = TreeConstruction(scripting, True, False)
    _set_context(probe, context, None)          # raises for a bad context
    name = _ascii_lowercase(context)
    html = int(NAMESPACES["html"])

    def parse(text: Input) -> "DocumentFragment":
        if type(text) is not str:
            _check_input(text)
            return parse_fragment(text, context, scripting=scripting)
        construction = TreeConstruction(scripting, True, False)
        construction.set_fragment_context(name, html, None)
        construction.feed_text(text)
        return construction.finish_fragment()
    return parse
