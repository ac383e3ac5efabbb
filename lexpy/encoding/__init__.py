"""Encoding sniffing (BOM, transport label, <meta> prescan) and decoders to
the UTF-8 core (DESIGN.md decision 1), as the WHATWG Encoding Standard and
the HTML standard's "determining the character encoding" say.

The parser driver uses the C API of encoding.pxd; this is the Python face.
"""
from lexpy.encoding.encoding import (
    CERTAIN,
    ENCODINGS,
    TENTATIVE,
    Decoder,
    Encoding,
    SniffResult,
    can_switch_on_the_fly,
    change_encoding,
    decode,
    lookup,
    meta_content_encoding,
    prescan,
    sniff,
    utf8_valid_prefix,
)

__all__ = [
    "CERTAIN",
    "ENCODINGS",
    "TENTATIVE",
    "Decoder",
    "Encoding",
    "SniffResult",
    "can_switch_on_the_fly",
    "change_encoding",
    "decode",
    "lookup",
    "meta_content_encoding",
    "prescan",
    "sniff",
    "utf8_valid_prefix",
]
