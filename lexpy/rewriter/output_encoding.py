"""Inserted content in the document's encoding (issue 39 point 5), for the
rewriter's core to call when it writes a handler's content into output
whose untouched bytes stay in the input's encoding.

    encode_inserted(content, encoding, context="text") -> bytes

`content` is what the rewriter writes (already escaped for its context:
text with &amp;/&lt;, an attribute value with &quot;). A character the
document's encoding cannot represent becomes a numeric character
reference (`&#NNNN;`, as the Encoding Standard's encoders do in their
"html" error mode) where the tokenizer decodes references: in text (data
and RCDATA) and in attribute values. Where it does not — raw text
(script, style, xmp, iframe, noembed, noframes, noscript, plaintext),
comments, tag and attribute names — the character cannot be written, and
RewriteError says so. A reference is not the character either for the C1
controls that the numeric character reference end state maps to other
characters (U+0080 -> U+20AC, ...), for U+0000 and for surrogates: those
raise RewriteError too.

Contexts: "text" (text and attribute values: references allowed), "raw"
(raw text and comments: no references), "markup" (content inserted with
html=True: each character is placed by a scan of the markup — text and
attribute values take references; tag names, attribute names, comments,
doctypes and the contents of raw text elements do not).

The bytes: each run of characters the encoding represents is encoded and
checked by decoding it back with lexpy's own Encoding Standard decoder
(the decoder the reparse uses), so what is written always decodes to the
characters given; single-byte encodings (and x-user-defined) use the
inverse of the Standard's decoder table exactly. ISO-2022-JP output ends
in its ASCII state (the caller inserts only where the input's decoder is
in that state). UTF-16LE/BE take every scalar value. The replacement
encoding has no output: RewriteError.
"""
from __future__ import annotations

import codecs
import re
from functools import lru_cache
from typing import Dict, List, Optional, Tuple

from lexpy.encoding import encoding as _encoding
from lexpy.rewriter import RewriteError

__all__ = ["encode_inserted"]

# Python codecs to try, in order, for the Encoding Standard's multi-byte
# and Unicode encodings; every result is checked by lexpy's decoder.
_CODECS: Dict[str, Tuple[str, ...]] = {
    "UTF-8": ("utf-8",),
    "UTF-16LE": ("utf-16-le",),
    "UTF-16BE": ("utf-16-be",),
    "gb18030": ("gb18030",),
    "GBK": ("gbk", "gb18030"),
    "Big5": ("big5hkscs", "cp950", "big5"),
    "EUC-JP": ("euc_jp", "euc_jis_2004"),
    "ISO-2022-JP": ("iso2022_jp", "iso2022_jp_ext"),
    "Shift_JIS": ("cp932", "shift_jis"),
    "EUC-KR": ("cp949", "euc_kr"),
}

# The numeric character reference end state's replacements (HTML
# "Numeric character reference end state"): a reference to one of these
# is read as another character.
_C1_REPLACED = frozenset([0x80] + list(range(0x82, 0x8D)) + [0x8E]
                         + list(range(0x91, 0x9D)) + [0x9E, 0x9F])

_CONTEXTS = ("text", "raw", "markup")


@lru_cache(maxsize=None)
def _single_byte_table(name: str) -> Optional[Dict[str, bytes]]:
    """The inverse of a single-byte decoder (None for the others)."""
    if name in _CODECS or name == "replacement":
        return None
    data = bytes(range(256))
    text = _encoding.decode(data, name, bom=False)
    if len(text) != 256:
        return None
    table: Dict[str, bytes] = {}
    for byte, char in zip(data, text):
        if char != "\ufffd":
            table.setdefault(char, bytes([byte]))
    return table


def _decodes_to(data: bytes, name: str, text: str) -> bool:
    try:
        return _encoding.decode(data, name, bom=False) == text
    except (ValueError, LookupError):
        return False


def _encode_run(text: str, name: Optional[str]) -> Optional[bytes]:
    """`text` in the encoding, or None when a character is not
    representable."""
    if name is None:
        return text.encode("ascii") if text.isascii() else None
    if name == "UTF-8":
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:
            return None
    table = _single_byte_table(name)
    if table is not None:
        try:
            return b"".join(table[c] for c in text)
        except KeyError:
            return None
    for codec in _CODECS.get(name, ()):
        try:
            data = codecs.encode(text, codec)
        except (UnicodeEncodeError, LookupError):
            continue
        if _decodes_to(data, name, text):
            return data
    return None


def _reference(char: str, where: str) -> str:
    code = ord(char)
    if code == 0 or code in _C1_REPLACED or 0xD800 <= code <= 0xDFFF:
        raise RewriteError("U+%04X in %s: not representable in the document's encoding, and a "
                           "character reference to it is read as another character"
                           % (code, where))
    return "&#%d;" % code


_RAW_ELEMENTS = ("script", "style", "xmp", "iframe", "noembed", "noframes", "noscript",
                 "plaintext")
_TOKEN = re.compile(r"""
    (?P<comment><!--.*?(?:-->|--!>|$)|<![^>]*(?:>|$)|<\?[^>]*(?:>|$)|</[^>]*(?:>|$))
  | (?P<start><[A-Za-z][^\t\n\f\r />]*)
  """, re.S | re.X)
_ATTRIBUTE = re.compile(r"""
    [\t\n\f\r /]*
    (?:(?P<end>/?>)
     |(?P<name>[^\t\n\f\r />][^\t\n\f\r /=>]*)
      (?:[\t\n\f\r ]*=[\t\n\f\r ]*
         (?:"(?P<dq>[^"]*)"?|'(?P<sq>[^']*)'?|(?P<uq>[^\t\n\f\r >]*)))?)
  """, re.S | re.X)


def _markup_spans(markup: str) -> List[Tuple[int, int, bool]]:
    """(start, end, references allowed) over the whole markup: text and
    attribute values allow them; names, comments and raw text do not."""
    spans: List[Tuple[int, int, bool]] = []
    pos = 0
    n = len(markup)
    while pos < n:
        match = _TOKEN.search(markup, pos)
        if match is None:
            spans.append((pos, n, True))
            break
        if match.start() > pos:
            spans.append((pos, match.start(), True))
        if match.group("comment") is not None:
            spans.append((match.start(), match.end(), False))
            pos = match.end()
            continue
        name = match.group("start")[1:].lower()
        spans.append((match.start(), match.end(), False))
        pos = match.end()
        while pos < n:
            attribute = _ATTRIBUTE.match(markup, pos)
            if attribute is None or attribute.end() == pos:
                spans.append((pos, n, False))
                pos = n
                break
            if attribute.group("end") is not None:
                spans.append((pos, attribute.end(), False))
                pos = attribute.end()
                break
            for group in ("dq", "sq", "uq"):
                if attribute.group(group) is not None:
                    begin, end = attribute.span(group)
                    spans.append((pos, begin, False))
                    spans.append((begin, end, True))
                    spans.append((end, attribute.end(), False))
                    break
            else:
                spans.append((pos, attribute.end(), False))
            pos = attribute.end()
        if name in _RAW_ELEMENTS and pos < n:
            close = re.search(r"</%s[\t\n\f\r />]" % name, markup[pos:] + " ", re.I)
            end = n if close is None or name == "plaintext" else pos + close.start()
            spans.append((pos, end, False))
            pos = end
    return spans


def encode_inserted(content: str, encoding: Optional[str], context: str = "text") -> bytes:
    """`content` encoded in `encoding` (a label of the Encoding Standard;
    None: not known yet, ASCII only, as every encoding but UTF-16 reads
    it) for the given context ("text", "raw" or "markup"; see the
    module's docstring); RewriteError for a character that cannot be
    written."""
    if not isinstance(content, str):
        raise TypeError("content must be a str")
    if context not in _CONTEXTS:
        raise ValueError("context must be one of %s" % ", ".join(_CONTEXTS))
    name = _encoding.lookup(encoding).name if encoding is not None else None
    if name == "replacement":
        raise RewriteError("a document in the replacement encoding has no output encoding")
    if content.isascii() and name not in ("UTF-16LE", "UTF-16BE"):
        # (every other encoding of the Standard is ASCII-compatible; ISO-2022-JP
        # output starts and ends in its ASCII state)
        return content.encode("ascii")
    whole = _encode_run(content, name)
    if whole is not None:
        return whole
    if context == "markup":
        spans = _markup_spans(content)
    else:
        spans = [(0, len(content), context == "text")]
    pieces: List[str] = []
    where = {"text": "text", "raw": "raw text or a comment",
             "markup": "markup"}[context]
    for begin, end, references in spans:
        run: List[str] = []
        for char in content[begin:end]:
            if _encode_run(char, name) is not None:
                run.append(char)
                continue
            if not references:
                raise RewriteError("U+%04X in %s: the document's encoding (%s) cannot represent "
                                   "it, and character references are not decoded there"
                                   % (ord(char), "a name, a comment or raw text"
                                      if context == "markup" else where,
                                      name or "not decided yet: ASCII only"))
            run.append(_reference(char, where))
        pieces.append("".join(run))
    out = _encode_run("".join(pieces), name)
    if out is None:     # (each character was checked alone)
        out = b"".join(_encode_run(c, name) or b"" for c in "".join(pieces))
    return out
