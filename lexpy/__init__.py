"""lexpy: a WHATWG-conformant HTML parser (Lexbor's architecture, in Cython).

Bytes go in, the encoding is sniffed, the tokenizer emits one unified token
at a time into a tree constructor with every insertion mode of the current
standard, and a real DOM comes out that serializes back to HTML::

    import lexpy
    doc = lexpy.parse(b"<p class=x>Hello <b>world")
    doc.body.get_elements_by_tag_name("b")[0].text_content   # 'world'
    doc.body.inner_html      # '<p class="x">Hello <b>world</b></p>'

parse(), parse_fragment() and Parser (incremental) build trees; dump()
gives the html5lib test format of a tree and serialize() the HTML with
html5lib's serializer options; the node classes are those of lexpy.dom.
"""
from importlib.metadata import PackageNotFoundError, version as _version

from lexpy.dom import (
    Attributes,
    CharacterData,
    ClassList,
    Comment,
    Document,
    DocumentFragment,
    DocumentType,
    Element,
    Node,
    ProcessingInstruction,
    Text,
    dump,
    serialize,
)
from lexpy.parser import ParseError, Parser, parse, parse_fragment

try:
    __version__ = _version("lexpy")
except PackageNotFoundError:  # running from a source tree without install
    __version__ = "0+unknown"

__all__ = [
    "Attributes",
    "CharacterData",
    "ClassList",
    "Comment",
    "Document",
    "DocumentFragment",
    "DocumentType",
    "Element",
    "Node",
    "ParseError",
    "Parser",
    "ProcessingInstruction",
    "Text",
    "__version__",
    "dump",
    "parse",
    "parse_fragment",
    "serialize",
]
