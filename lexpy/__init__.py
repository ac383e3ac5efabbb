"""lexpy: a WHATWG-conformant HTML parser (Lexbor's architecture, in Cython).

Bytes go in, the encoding is sniffed, the tokenizer emits one unified token
at a time into a tree constructor with every insertion mode of the current
standard, and a real DOM comes out that serializes back to HTML.
"""
from importlib.metadata import PackageNotFoundError, version as _version

from lexpy.dom import dump, serialize
from lexpy.parser import ParseError, Parser, parse, parse_fragment

try:
    __version__ = _version("lexpy")
except PackageNotFoundError:  # running from a source tree without install
    __version__ = "0+unknown"

__all__ = ["ParseError", "Parser", "__version__", "dump", "parse",
           "parse_fragment", "serialize"]
