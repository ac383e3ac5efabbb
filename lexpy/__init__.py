"""lexpy: a WHATWG-conformant HTML parser (Lexbor's architecture, in Cython).

Bytes go in, the encoding is sniffed, the tokenizer emits one unified token
at a time into a tree constructor with every insertion mode of the current
standard, and a real DOM comes out that serializes back to HTML::

    import lexpy
    doc = lexpy.parse(b"<p class=x>Hello <b>world")
    doc.body.get_elements_by_tag_name("b")[0].text_content   # 'world'
    doc.body.inner_html      # '<p class="x">Hello <b>world</b></p>'

parse(), parse_fragment() and Parser (incremental) build trees;
extract_text() gives a tree's readable text (or its main content only) and
to_markdown() its CommonMark (lexpy.text; Element.inner_text is the
standard's innerText); node.xpath() and compile_xpath() are XPath 1.0
(lexpy.xpath; lexpy.parsel is parsel's Selector on it); dump()
gives the html5lib test format of a tree and serialize() the HTML with
html5lib's serializer options; to_etree() and to_lxml() convert a tree to
ElementTree and lxml (lexpy.etree); lexpy.bs4 and lexpy.html5lib are the
bridges to BeautifulSoup and html5lib, imported only when asked for; the
node classes and the DOM's exceptions
(HierarchyRequestError, NotFoundError, ... -- all ValueErrors) are those of
lexpy.dom, SerializerError is serialize()'s, ParserBusyError (a
RuntimeError) a Parser's when two threads use it at once.
"""
from typing import TYPE_CHECKING, Any

# The extension modules a build compiles; a source tree without them (a
# checkout never built, or one found on sys.path before the installed
# lexpy) fails here with one error that says so.
_COMPILED_MODULES = ("lexpy.core.core", "lexpy.tokenizer.tokenizer", "lexpy.dom.dom",
                     "lexpy.encoding.encoding", "lexpy.treebuilder.treebuilder",
                     "lexpy.driver.driver", "lexpy.selectors.selectors",
                     "lexpy.xpath.xpath")


def _missing_compiled_module(error: ModuleNotFoundError) -> ImportError:
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    return ImportError(
        "lexpy's compiled module %s is missing from %s: this is a source "
        "tree that was not built. If lexpy is installed (pip install .), "
        "Python found this source tree first (it is in the current directory "
        "or on sys.path): run from another directory. To use the source tree "
        "itself, build it: python -m pip install -e . (or python setup.py "
        "build_ext --inplace)." % (error.name, here))


try:
    import lexpy.dom.dom  # noqa: F401
except ModuleNotFoundError as _error:
    if _error.name in _COMPILED_MODULES:
        raise _missing_compiled_module(_error) from None
    raise

from lexpy.dom import (
    Attributes,
    CharacterData,
    ClassList,
    Comment,
    Document,
    DocumentFragment,
    DocumentType,
    Element,
    HierarchyRequestError,
    InvalidCharacterError,
    NamespaceError,
    Node,
    NotFoundError,
    NotSupportedError,
    ProcessingInstruction,
    Text,
    dump,
)
from lexpy.dom.errors import ParseError
from lexpy.dom.source_span import SourceSpan
from lexpy.parser import (
    MAX_SCRIPT_NESTING, Parser, ParserBusyError, ScriptNestingError, ScriptWriter, parse,
    parse_fragment)
from lexpy.selectors import Selector, SelectorSyntaxError, compile_selector
from lexpy.text import extract_text, to_markdown
from lexpy.xpath import XPath, XPathEvalError, XPathString, XPathSyntaxError, compile_xpath

__all__ = [
    "Attributes",
    "CharacterData",
    "ClassList",
    "Comment",
    "Document",
    "DocumentFragment",
    "DocumentType",
    "Element",
    "HierarchyRequestError",
    "InvalidCharacterError",
    "MAX_SCRIPT_NESTING",
    "NamespaceError",
    "Node",
    "NotFoundError",
    "NotSupportedError",
    "ParseError",
    "Parser",
    "ParserBusyError",
    "ProcessingInstruction",
    "ScriptNestingError",
    "ScriptWriter",
    "Selector",
    "SelectorSyntaxError",
    "SerializerError",
    "SourceSpan",
    "Text",
    "XPath",
    "XPathEvalError",
    "XPathString",
    "XPathSyntaxError",
    "__version__",
    "compile_selector",
    "compile_xpath",
    "dump",
    "extract_text",
    "minify",
    "parse",
    "parse_fragment",
    "serialize",
    "to_etree",
    "to_lxml",
    "to_markdown",
    # lexpy.extract (issue 36), loaded on first use
    "compile_extractor", "extract_records", "iter_links", "make_links_absolute",
    "microdata_json", "read_tables", "structured_data", "table_grid",
    # the streaming rewriter (lexpy.rewriter, loaded on first use)
    "RewriteError",
    "Rewriter",
    "rewrite",
    "rewrite_stream",
]
# the HTML Sanitizer API (lexpy.sanitizer)
__all__ += ["Sanitizer", "parse_html", "parse_html_unsafe", "sanitize"]


if TYPE_CHECKING:
    from lexpy.dom.options_serializer import SerializerError, serialize
    from lexpy.etree import to_etree, to_lxml
    from lexpy.extract import (
        compile_extractor, extract_records, iter_links, make_links_absolute, microdata_json, read_tables, structured_data,
        table_grid)
    from lexpy.rewriter import RewriteError, Rewriter, rewrite
    from lexpy.rewriter import rewrite_stream
    from lexpy.sanitizer import Sanitizer, parse_html, parse_html_unsafe, sanitize
    __version__: str


def __getattr__(name: str) -> Any:
    # Loaded on first use, not at import: importlib.metadata and the
    # html5lib-options serializer (html.entities, re) would add megabytes
    # of RSS to every process that only parses.
    value: Any
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version
        try:
            value = version("lexpy")
        except PackageNotFoundError:  # running from a source tree without install
            value = "0+unknown"
    elif name == "serialize":
        from lexpy.dom.options_serializer import serialize as value
    elif name == "SerializerError":
        from lexpy.dom.options_serializer import SerializerError as value
    elif name in ("structured_data", "microdata_json", "table_grid", "read_tables",
                  "iter_links", "make_links_absolute", "extract_records",
                  "compile_extractor"):
        # lexpy.extract (issue 36): loaded on first use
        from lexpy import extract
        value = getattr(extract, name)
    elif name in ("to_etree", "to_lxml"):
        # lexpy.etree imports neither xml.etree nor lxml until called.
        from lexpy import etree
        value = getattr(etree, name)
    elif name in ("Rewriter", "RewriteError", "rewrite", "rewrite_stream"):
        from lexpy import rewriter
        value = getattr(rewriter, name)
    elif name in ("Sanitizer", "parse_html", "parse_html_unsafe", "sanitize"):
        # lexpy.sanitizer (its configuration model, options and walk; ~16 ms
        # of imports): loaded on first use
        from lexpy import sanitizer
        value = getattr(sanitizer, name)
    else:
        raise AttributeError("module 'lexpy' has no attribute %r" % name)
    globals()[name] = value
    return value


class _SanitizerOnFirstUse:
    """Element.set_html / set_html_unsafe before lexpy.sanitizer is
    imported: importing it registers the real layer, which then serves this
    call and every later one."""

    @staticmethod
    def set_html(element: Any, html: Any, sanitizer: Any, safe: bool) -> None:
        from lexpy.sanitizer.api import _Layer
        _Layer.set_html(element, html, sanitizer, safe)


lexpy.dom.dom.register_sanitizer_layer(_SanitizerOnFirstUse)


_MINIFY_PARSE_OPTIONS = ("encoding", "default_encoding", "detect_encoding",
                         "scripting", "processing_instructions")


def minify(html: "str | bytes", **options: Any) -> str:
    """Parse a whole document and return its minified HTML as str:
    ``parse(html, ...).to_html(minify=True, ...)``. Bytes are decoded as
    parse() decodes them (encoding sniffing); the result is always a str
    (encode it in the document's encoding, ``parse(html).encoding``, or in
    UTF-8 with a <meta charset> that says so). Options: parse()'s encoding,
    default_encoding, detect_encoding, scripting and
    processing_instructions, and to_html()'s minify options
    (keep_closing_tags, keep_comments, keep_conditional_comments,
    keep_html_and_head_opening_tags, allow_removing_spaces_between_attributes,
    keep_spaces_between_attributes, remove_processing_instructions, and the
    minify_js / minify_css hooks)."""
    parse_options = {name: options.pop(name) for name in _MINIFY_PARSE_OPTIONS
                     if name in options}
    return parse(html, **parse_options).to_html(minify=True, **options)


# Node.make_links_absolute (issue 36): the DOM calls up through a hook;
# lexpy.extract.links (and ada-url) load on its first call, not here.
def _make_links_absolute(node: Node, base_url: "str | None") -> None:
    from lexpy.extract.links import make_links_absolute
    make_links_absolute(node, base_url)


from lexpy.dom.dom import _register_links_layer  # noqa: E402

_register_links_layer(_make_links_absolute)
