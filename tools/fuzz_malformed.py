"""A seeded generator of malformed HTML, and the invariants every case must
keep (nothing crashes, hangs, leaks or loses data).

    python tools/fuzz_malformed.py --count 100000 --start 0      # run cases
    python tools/fuzz_malformed.py --show 1234                   # print a case
    python tools/fuzz_malformed.py --count 1000000 --supervise   # long run

A case is a pure function of its seed (`generate(seed)`): markup soup built
from the shapes that stress an HTML parser (misnesting, unclosed formatting
elements, tables in tables, templates, SVG/MathML mixed with HTML, character
references of every kind, NUL/CR/control characters, unterminated comments,
DOCTYPEs and raw text), then mutated (truncated, spliced, bytes flipped),
given as str or as bytes (invalid UTF-8, a legacy encoding, a BOM, a
<meta charset>), parsed as a document or as a fragment in a random context,
and fed to Parser in random chunks.

`check(case)` runs the invariants and raises InvariantFailure:

1. no exception from parse / parse_fragment / Parser.feed / close, dump,
   to_html, serialize;
2. the serialization round trip is stable after one pass:
   dump(parse(doc.to_html())) == dump(doc). Where the standard's
   serialization cannot give back the same tree (UNSTABLE_BY_DESIGN, each
   detected from the tree), the second pass is checked against the first
   instead;
3. chunked and whole parses agree, for str and for bytes, with the same
   parse errors at the same positions;
4. a str and its UTF-8 bytes give the same tree.

With --supervise the cases run in a child process that a watchdog restarts
after a crash or a hang (a case running longer than --hang seconds), so a
long run reports every crashing and hanging seed instead of stopping at the
first; failures are written as reproducible seeds to --failures.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from dataclasses import dataclass, field
from typing import List, Optional, Tuple, Union

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import lexpy  # noqa: E402

__all__ = ["Case", "InvariantFailure", "UNSTABLE_BY_DESIGN", "check", "generate",
           "soup"]

# ---------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------

HTML_TAGS = """a abbr address applet area article aside b base basefont bgsound
big blockquote body br button caption center code col colgroup dd details
dialog dir div dl dt em embed fieldset figcaption figure font footer form frame
frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe image img input
isindex keygen label legend li link listing main marquee menu meta nav nobr
noembed noframes noscript object ol optgroup option p param plaintext pre rb
rp rt rtc ruby s script search section select selectedcontent small source
span strike strong style sub summary sup table tbody td template textarea tfoot
th thead title tr track tt u ul var wbr xmp""".split()
FORMATTING = "a b big code em font i nobr s small strike strong tt u".split()
TABLE_TAGS = "table caption colgroup col tbody thead tfoot tr td th".split()
SVG_TAGS = """svg g path rect foreignObject foreignobject desc title
animateTransform clipPath feBlend linearGradient textPath font image
script style""".split()
MATH_TAGS = """math mi mo mn ms mtext mglyph malignmark annotation-xml
annotation mrow semantics""".split()
ODD_TAGS = ["x-y", "foo", "Abc", "a:b", "\u00e9l", "p\x00", "di\tv", "x=y",
            "a<b", "\u00c0", "ARTICLE", "sVg", "MaTh", "TABLE", "Td"]
RAW_TEXT = ["script", "style", "xmp", "iframe", "noembed", "noframes",
            "noscript", "textarea", "title", "plaintext"]

ATTR_NAMES = """id class href src color face size type value name encoding
definitionURL definitionurl xlink:href xml:lang xmlns xmlns:xlink viewBox
viewbox selected disabled checked style on title charset content
http-equiv""".split()
ODD_ATTR_NAMES = ['"', "'", "<", "=", "a\x00", "\u00e9", "A", "X-Y", "`"]
ENCODING_VALUES = ["text/html", "TEXT/HTML", "application/xhtml+xml",
                   "image/svg+xml"]

NAMED_REFS = ["&amp;", "&amp", "&lt", "&gt;", "&nbsp", "&notit;", "&notin;",
              "&not", "&copy", "&copy;", "&AElig", "&AElig;", "&ThickSpace;",
              "&NotEqualTilde;", "&acE;", "&bogus;", "&x", "&;", "& ", "&&",
              "&amp=", "&ampx", "&lang;", "&rang;", "&CounterClockwiseContourIntegral;"]
NUMERIC_REFS = ["&#0;", "&#x0;", "&#9;", "&#13;", "&#x0d;", "&#x80;", "&#128;",
                "&#x9F;", "&#x81;", "&#xD800;", "&#xDFFF;", "&#x10FFFF;",
                "&#x110000;", "&#xFFFE;", "&#xFDD0;", "&#1114112;", "&#65;",
                "&#x41", "&#65", "&#", "&#x", "&#x;", "&#;", "&#xg;",
                "&#99999999999999999999999999;", "&#x" + "f" * 40 + ";",
                "&#" + "9" * 12, "&#0000000000000065;", "&#x000000041;"]

CONTROLS = ["\x00", "\r", "\r\n", "\n\r", "\x01", "\x0b", "\x0c", "\x1f",
            "\x7f", "\x80", "\x9f", "\ufdd0", "\ufffe", "\uffff", "\ufeff",
            "\U0001fffe", "\U0010ffff", "\u00a0", "\u2028"]
TEXT_WORDS = ["x", "text", " ", "  ", "\t", "\n", "\u00e9", "\u4e2d\u6587",
              "\U0001F600", "<", ">", "&", "=", '"', "'", "/", "-", "--", "!",
              "]]>", "?>", "</", "<!", "<?"]

COMMENTS = ["<!--c-->", "<!---->", "<!-->", "<!--->", "<!-- -- -->",
            "<!--x--!>", "<!--x--!->", "<!--<!--x-->", "<!--x", "<!--x-",
            "<!--x--", "<!-", "<!x>", "<!>", "<!--\x00-->", "</>", "</ >",
            "</3>", "<?php x ?>", "<?xml version='1.0'?>", "<?pi data?>",
            "<?xml-stylesheet href='x'?>", "<?", "<?x", "<![CDATA[z]]>",
            "<![CDATA[z", "<![CDATA[a]]b]]>", "<![cdata[z]]>"]
DOCTYPES = ["<!DOCTYPE html>", "<!doctype html>", "<!DOCTYPE>", "<!DOCTYPE",
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">",
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\">",
            "<!DOCTYPE html SYSTEM \"about:legacy-compat\">",
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"x\">",
            "<!DOCTYPE HTML PUBLIC \"-//IETF//DTD HTML//\">",
            "<!DOCTYPE foo>", "<!DOCTYPE html PUBLIC>", "<!DOCTYPE html SYSTEM",
            "<!DOCTYPE html PUBLIC 'x", "<!DOCTYPEhtml>", "<!DOCTYPE \x00>",
            "<!DOCTYPE html bogus>", "<!DOCTYPE html PUBLIC\"x\"'y'>"]

# Shapes that the tree construction stage finds hard.
STRUCTURES = [
    "<table><tr><td><table><tr><td>{}</td></tr></table></td></tr></table>",
    "<table>{}<tr>{}<td>{}</table>",
    "<table><caption>{}<table>{}</caption></table>",
    "<table><colgroup>{}<col>{}</colgroup>{}</table>",
    "<template>{}<tr>{}<td>{}</template>",
    "<template><template>{}</template>{}</template>",
    "<table><template>{}</template><tr>{}</table>",
    "<b><i>{}</b>{}</i>", "<a><p>{}<a>{}</a></p>", "<p><b><i><u>{}</p>{}",
    "<b><b><b><b>{}", "<a href=1>{}<div>{}</a>{}</div>",
    "<div><b></div>{}", "<font color=red>{}<p>{}</font>",
    "<svg>{}<foreignObject><div>{}</div></foreignObject>{}</svg>",
    "<svg><desc>{}</desc><p>{}</svg>", "<svg><title><table>{}</svg>",
    "<math><mi>{}<svg>{}</svg></mi><mtext><mglyph>{}</math>",
    "<math><annotation-xml encoding=\"text/html\"><div>{}</div></annotation-xml></math>",
    "<math><annotation-xml><svg>{}</svg></annotation-xml></math>",
    "<svg><font color=1>{}</font></svg>", "<svg><script>{}</script></svg>",
    "<select>{}<option>{}<optgroup>{}<option>{}</select>",
    "<select><button><selectedcontent></selectedcontent></button><option>{}</option></select>",
    "<select><input>{}<select>{}<hr>{}</select>",
    "<form>{}<div></form>{}<form>{}", "<frameset>{}<frame>{}</frameset>{}",
    "<ul><li>{}<li>{}<ol><li>{}</ul>", "<dl><dt>{}<dd>{}<dt>{}</dl>",
    "<ruby>{}<rb>{}<rt>{}<rp>{}<rtc>{}</ruby>", "<h1>{}<h2>{}</h1>",
    "<pre>\n{}</pre>", "<textarea>\n{}</textarea>", "<listing>\r\n{}",
    "<button>{}<button>{}", "<nobr>{}<nobr>{}", "<p>{}<table>{}</p>",
    "<head>{}</head>{}<head>{}", "<body>{}</body>{}<body>{}", "</html>{}",
    "<html>{}<html x=1>{}", "<noscript>{}</noscript>", "<object>{}<p>{}",
    "<image src=x>{}", "<isindex>{}", "<marquee>{}<applet>{}</marquee>",
]


# ---------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------

def _tag_name(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.55:
        name = rng.choice(HTML_TAGS)
    elif r < 0.65:
        name = rng.choice(FORMATTING)
    elif r < 0.75:
        name = rng.choice(TABLE_TAGS)
    elif r < 0.83:
        name = rng.choice(SVG_TAGS)
    elif r < 0.9:
        name = rng.choice(MATH_TAGS)
    else:
        name = rng.choice(ODD_TAGS)
    if rng.random() < 0.1:
        name = name.upper()
    return name


def _attribute_value(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randrange(4)):
        r = rng.random()
        if r < 0.3:
            parts.append(rng.choice(NAMED_REFS))
        elif r < 0.45:
            parts.append(rng.choice(NUMERIC_REFS))
        elif r < 0.55:
            parts.append(rng.choice(CONTROLS))
        elif r < 0.65:
            parts.append(rng.choice(ENCODING_VALUES))
        else:
            parts.append(rng.choice(TEXT_WORDS))
    return "".join(parts)


def _attributes(rng: random.Random) -> str:
    out = []
    count = rng.choice([0, 0, 0, 1, 1, 2, 3, rng.randrange(10)])
    for _ in range(count):
        name = rng.choice(ODD_ATTR_NAMES if rng.random() < 0.1 else ATTR_NAMES)
        if rng.random() < 0.1:
            name = name.upper()
        value = _attribute_value(rng)
        form = rng.randrange(8)
        separator = rng.choice([" ", " ", "\t", "\n", "/", "", "  "])
        if form == 0:
            out.append(separator + name)
        elif form == 1:
            out.append("%s%s=%s" % (separator, name, value))
        elif form == 2:
            out.append("%s%s='%s'" % (separator, name, value))
        elif form == 3:
            out.append('%s%s = "%s' % (separator, name, value))      # unterminated
        else:
            out.append('%s%s="%s"' % (separator, name, value))
    return "".join(out)


def _start_tag(rng: random.Random, name: Optional[str] = None) -> str:
    name = name or _tag_name(rng)
    end = rng.choice([">", ">", ">", ">", "/>", " />", "", " ", "\x00>"])
    return "<%s%s%s" % (name, _attributes(rng), end)


def _end_tag(rng: random.Random, name: Optional[str] = None) -> str:
    name = name or _tag_name(rng)
    attrs = _attributes(rng) if rng.random() < 0.05 else ""
    return "</%s%s%s" % (name, attrs, rng.choice([">", ">", ">", "/>", " >", ""]))


def _text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randrange(1, 4)):
        r = rng.random()
        if r < 0.45:
            parts.append(rng.choice(TEXT_WORDS))
        elif r < 0.6:
            parts.append(rng.choice(NAMED_REFS))
        elif r < 0.72:
            parts.append(rng.choice(NUMERIC_REFS))
        else:
            parts.append(rng.choice(CONTROLS))
    return "".join(parts)


def _raw_text_element(rng: random.Random) -> str:
    name = rng.choice(RAW_TEXT)
    body = rng.choice(["x", "</" + name, "</" + name + " ", "<!--", "<!--<script>",
                       "<!--<script></script>-->", "-->", "</script", "<" + name + ">",
                       "&amp;", "\x00", "\r\n", "</" + name.upper() + "x>", ""])
    body += rng.choice(["", "-->", "</script>", "text", "\x00"])
    close = rng.choice(["</%s>" % name, "</%s>" % name.upper(), "</%s" % name, ""])
    return "<%s%s>%s%s" % (name, _attributes(rng), body, close)


def soup(rng: random.Random, size: int) -> str:
    """Markup of about `size` pieces (tags, text, comments, references,
    structures)."""
    out: List[str] = []
    open_names: List[str] = []
    for _ in range(size):
        r = rng.random()
        if r < 0.28:
            name = _tag_name(rng)
            out.append(_start_tag(rng, name))
            open_names.append(name)
        elif r < 0.42:
            if open_names and rng.random() < 0.7:
                # Close something open, often not the innermost (misnesting).
                index = rng.randrange(len(open_names))
                out.append(_end_tag(rng, open_names.pop(index)))
            else:
                out.append(_end_tag(rng))
        elif r < 0.62:
            out.append(_text(rng))
        elif r < 0.68:
            out.append(rng.choice(COMMENTS))
        elif r < 0.7:
            out.append(rng.choice(DOCTYPES))
        elif r < 0.77:
            out.append(_raw_text_element(rng))
        elif r < 0.9:
            shape = rng.choice(STRUCTURES)
            holes = shape.count("{}")
            out.append(shape.format(*[soup(rng, rng.randrange(3)) if rng.random() < 0.3
                                      else _text(rng) for _ in range(holes)]))
        elif r < 0.95:
            # Deep runs of one kind: formatting (Noah's ark, adoption agency
            # limits), tables, nesting.
            name = rng.choice(FORMATTING + ["div", "table", "td", "tr", "svg", "math",
                                            "template", "select", "li", "p", "a"])
            attrs = _attributes(rng)
            out.append(("<%s%s>" % (name, attrs)) * rng.randrange(2, 14))
            if rng.random() < 0.5:
                out.append(_text(rng))
                out.append(("</%s>" % name) * rng.randrange(1, 14))
        else:
            out.append(rng.choice(DOCTYPES if rng.random() < 0.3 else COMMENTS))
    return "".join(out)


def _mutate(rng: random.Random, text: str) -> str:
    """Random damage: truncate, splice, duplicate, insert specials."""
    for _ in range(rng.randrange(3)):
        if not text:
            break
        r = rng.random()
        i = rng.randrange(len(text) + 1)
        if r < 0.25:
            text = text[:i]
        elif r < 0.5:
            j = rng.randrange(len(text) + 1)
            text = text[:i] + text[min(i, j):max(i, j)] + text[i:]
        elif r < 0.75:
            text = text[:i] + rng.choice(CONTROLS + ["<", "&", "</", "<!--", "\"", "'", ">",
                                                     "&#", "\ud800", "\udfff"]) + text[i:]
        else:
            j = rng.randrange(len(text) + 1)
            text = text[:min(i, j)] + text[max(i, j):]
    return text


# Encodings a page may come in (Python codec names, WHATWG labels).
ENCODINGS = [("utf-8", "utf-8"), ("utf-8", "UTF8"), ("utf-16-le", "utf-16le"),
             ("utf-16-be", "utf-16be"), ("cp1252", "windows-1252"),
             ("latin-1", "iso-8859-1"), ("iso8859-2", "iso-8859-2"),
             ("koi8-r", "koi8-r"), ("cp1251", "windows-1251"),
             ("shift_jis", "shift_jis"), ("euc-jp", "euc-jp"),
             ("iso2022-jp", "iso-2022-jp"), ("gb18030", "gb18030"),
             ("gbk", "gbk"), ("big5", "big5"), ("euc-kr", "euc-kr")]
ODD_LABELS = [" Latin1 ", "ascii", "csshiftjis", "UTF-8", "l1", "sjis"]

# WHATWG labels that Python's codecs do not know (or decode differently):
# used once the encoding stage (lexpy.encoding.lookup) is there.
try:
    from lexpy.encoding import lookup as _lookup  # noqa: F401
    ENCODINGS += [("cp874", "windows-874"), ("mac-cyrillic", "x-mac-cyrillic")]
    ODD_LABELS += ["utf-16", "x-user-defined", "unicode-1-1-utf-8", "replacement"]
except ImportError:
    pass
BOMS = [b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]
BAD_UTF8 = [b"\x80", b"\xbf", b"\xc0\xaf", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80",
            b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xff", b"\xfe",
            b"\xf0\x9f\x98", b"\xe0\x80\x80", b"\xc2\x00"]
META = ['<meta charset="{}">', "<meta charset={}>",
        '<meta http-equiv="Content-Type" content="text/html; charset={}">',
        "<meta content='charset={}' http-equiv=content-type>"]

CONTEXTS = [("body", "html"), ("div", "html"), ("td", "html"), ("th", "html"),
            ("tr", "html"), ("tbody", "html"), ("thead", "html"),
            ("table", "html"), ("caption", "html"), ("colgroup", "html"),
            ("col", "html"), ("select", "html"), ("option", "html"),
            ("optgroup", "html"), ("template", "html"), ("html", "html"),
            ("head", "html"), ("title", "html"), ("textarea", "html"),
            ("style", "html"), ("script", "html"), ("xmp", "html"),
            ("iframe", "html"), ("noembed", "html"), ("noframes", "html"),
            ("noscript", "html"), ("plaintext", "html"), ("frameset", "html"),
            ("form", "html"), ("p", "html"), ("a", "html"), ("pre", "html"),
            ("ul", "html"), ("button", "html"), ("x-unknown", "html"),
            ("svg", "svg"), ("foreignObject", "svg"), ("desc", "svg"),
            ("title", "svg"), ("g", "svg"), ("font", "svg"),
            ("math", "math"), ("mi", "math"), ("mtext", "math"),
            ("annotation-xml", "math"), ("mglyph", "math")]


@dataclass
class Case:
    """One generated input and how to parse it."""
    seed: int
    data: Union[str, bytes]
    context: Optional[Tuple[str, str]] = None     # (local name, namespace)
    scripting: bool = True
    processing_instructions: bool = True
    encoding: Optional[str] = None                # label given to parse()
    chunk_sizes: List[int] = field(default_factory=list)
    chunk_window: float = 0.0     # where (as a fraction of the input) the
                                  # MAX_FEEDS chunks start
    serializer_options: bool = False   # also lexpy.serialize() with options
    element_context: bool = False      # the context is an Element inside a
                                       # <form> of a quirks-mode document

    def describe(self) -> str:
        return ("seed=%d context=%r%s scripting=%r pi=%r encoding=%r chunks=%r from %.2f"
                "\ndata=%r" % (self.seed, self.context,
                               " (an Element in a <form>)" if self.element_context else "",
                               self.scripting,
                               self.processing_instructions, self.encoding,
                               self.chunk_sizes[:20], self.chunk_window, self.data))


def generate(seed: int) -> Case:
    """The case of `seed` (the same case on every run)."""
    rng = random.Random(seed)
    size = rng.choice([1, 3, 8, 15, 30, 60, rng.randrange(120)])
    text = soup(rng, size)
    if rng.random() < 0.6:
        text = _mutate(rng, text)
    case = Case(seed, text, scripting=rng.random() < 0.7,
                processing_instructions=rng.random() < 0.8)
    if rng.random() < 0.25:
        case.context = rng.choice(CONTEXTS)
        case.element_context = rng.random() < 0.2
    if rng.random() < 0.35:
        case.data, case.encoding = _as_bytes(rng, text)
    case.chunk_window = rng.choice([0.0, rng.random()])
    case.serializer_options = rng.random() < 0.25
    if rng.random() < 0.3:
        case.chunk_sizes = [rng.randrange(1, 4) for _ in range(rng.randrange(1, 30))]
    else:
        case.chunk_sizes = [rng.choice([1, 2, 3, 5, 7, 16, 64, 1000])
                            for _ in range(rng.randrange(1, 10))]
    return case


def _as_bytes(rng: random.Random, text: str) -> Tuple[bytes, Optional[str]]:
    """Bytes of `text`: UTF-8 with invalid sequences, or a random encoding
    (maybe announced by a <meta>, maybe behind a BOM that may lie)."""
    codec, label = rng.choice(ENCODINGS)
    if rng.random() < 0.3:
        text = rng.choice(META).format(rng.choice([label, "utf-16", "x-user-defined",
                                                   "bogus", label.upper()])) + text
    data = text.encode(codec, "xmlcharrefreplace" if "utf" not in codec else "surrogatepass")
    if rng.random() < 0.3:
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(len(data) + 1)
            data = data[:i] + rng.choice(BAD_UTF8) + data[i:]
    if rng.random() < 0.2:
        data = rng.choice(BOMS) + data
    r = rng.random()
    if r < 0.5:
        encoding = None                     # sniffed (or the UTF-8 default)
    elif r < 0.9:
        encoding = label
    else:
        encoding = rng.choice(ODD_LABELS)
    return data, encoding


# ---------------------------------------------------------------------------
# Invariants
# ---------------------------------------------------------------------------

class InvariantFailure(AssertionError):
    """A case broke an invariant (the message says which and how)."""


# Trees whose standard serialization does not parse back to the same tree
# (https://html.spec.whatwg.org/multipage/parsing.html#serialising-html-fragments
# warns that this happens); for these the second pass must equal the first.
UNSTABLE_BY_DESIGN = {
    "doctype-identifiers": "the serialization of a DOCTYPE keeps only its name, "
                           "so public and system identifiers (and the quirks mode "
                           "they set) are lost",
    "carriage-return": "a CR from a character reference (&#13;) is written as it "
                       "is and parses back as LF",
    "plaintext": "a <plaintext> element's end tag, and all that follows it, "
                 "parse back as its text; as every pass adds those end tags "
                 "to the text, no pass is stable and only the other "
                 "invariants are checked",
    "self-nesting": "foster parenting, the adoption agency algorithm and "
                    "an open table (a scope boundary) can put an element "
                    "inside one that its start tag closes or ignores (<p> or "
                    "<div> in <p>, <form> in <form>, <a> in <a>, <li> in <li>, "
                    "<rt> in <p> in <ruby>, ...)",
    "leading-newline": "a <pre>, <textarea> or <listing> whose text starts with "
                       "LF loses it: the parser drops the first LF after the "
                       "start tag and the serializer no longer writes an extra "
                       "one (whatwg/html#1815); one LF goes per pass",
    "script-escape": "script text that ends inside '<!--<script>' (the script data "
                     "double escaped state) does not end at the serialized "
                     "</script>, so every pass adds the end tags that follow "
                     "to it; only the other invariants are checked",
    "selectedcontent": "the selected option's content is cloned into "
                       "<selectedcontent> and serialized there too; content "
                       "that cannot sit inside it (a <button> in the <button> "
                       "holding it) adds nodes on every pass, so only the "
                       "other invariants are checked",
    "html-in-foreign-context": "foster parenting, or a fragment parsed in an "
                               "<svg> or <math> context, can put HTML elements "
                               "where they parse back as foreign ones (an HTML "
                               "<mglyph> in <mi>, an HTML <a> in <math>)",
    "template-contents-mode": "in <template> contents, an element that the active "
                              "formatting elements were reconstructed into (by "
                              "text) leaves the template's mode as it was, while "
                              "its serialized start tag switches it to in body, "
                              "where table-structure tags that followed are "
                              "ignored",
    "after-frameset": "whitespace after </html> in a frameset document is "
                      "processed as in body and reconstructs the active "
                      "formatting elements after the <frameset>, where a "
                      "parse ignores start tags",
}

# Shapes that grow on every pass: only the other invariants are checked.
_GROWING = {"plaintext", "selectedcontent", "script-escape"}

HTML_NS = "http://www.w3.org/1999/xhtml"

# Elements whose start tag closes (or is ignored inside) an open element of
# the same family.
_FAMILIES = {name: family for family, names in {
    "form": ["form"], "a": ["a"], "li": ["li"], "dd": ["dd", "dt"],
    "h": ["h1", "h2", "h3", "h4", "h5", "h6"], "nobr": ["nobr"],
    "button": ["button"], "option": ["option", "optgroup", "hr"],
    "select": ["select", "input", "keygen", "textarea"],
}.items() for name in names}
# Start tags that close an open <p> ("close a p element").
_CLOSES_P = set("""address article aside blockquote center details dialog dir div
dl fieldset figcaption figure footer header hgroup main menu nav ol p search
section summary ul h1 h2 h3 h4 h5 h6 pre listing form plaintext table hr xmp
""".split())


def _integration_point(element) -> Optional[str]:
    """"html" or "mathml-text" for a foreign element that is an HTML or a
    MathML text integration point, else None."""
    name = element.local_name
    if element.namespace_uri == "http://www.w3.org/2000/svg":
        return "html" if name in ("foreignObject", "desc", "title") else None
    if name in ("mi", "mo", "mn", "ms", "mtext"):
        return "mathml-text"
    if name == "annotation-xml":
        encoding = (element.get_attribute("encoding") or "").lower()
        return "html" if encoding in ("text/html", "application/xhtml+xml") else None
    return None


_TABLE_STRUCTURE = set("caption colgroup col tbody tfoot thead tr td th".split())
_IN_HEAD_IN_TEMPLATE = set("""base basefont bgsound link meta noframes script style
template title""".split())


def _template_mode_shape(content) -> bool:
    """A table-structure element after an element that, serialized, would
    switch the template's insertion mode to in body."""
    switched = False
    for node in content.child_nodes:
        if not isinstance(node, lexpy.dom.Element):
            continue
        name = node.local_name if node.namespace_uri == HTML_NS else ""
        if name in _TABLE_STRUCTURE:
            if switched:
                return True
        elif name not in _IN_HEAD_IN_TEMPLATE:
            switched = True
    return False


_IMPLIED_END = set("dd dt li optgroup option p rb rp rt rtc".split())


def _ruby_through_implied_end(element) -> bool:
    """A ruby annotation whose ruby ancestor lies beyond an element that
    "generate implied end tags" would pop."""
    ancestor = element.parent
    seen_implied = False
    while isinstance(ancestor, lexpy.dom.Element) and ancestor.namespace_uri == HTML_NS:
        if ancestor.local_name == "ruby":
            return seen_implied
        seen_implied = seen_implied or ancestor.local_name in _IMPLIED_END
        ancestor = ancestor.parent
    return False


def unstable_reasons(node, context=None, form_context=False) -> List[str]:
    """Which UNSTABLE_BY_DESIGN shapes the tree of a parsed Document or
    DocumentFragment shows (`form_context`: the fragment's context is or is
    inside a <form>)."""
    reasons = set()
    form_context = form_context or context == ("form", "html")
    if "\r" in lexpy.dump(node):
        reasons.add("carriage-return")
    doctype = getattr(node, "doctype", None)
    if doctype is not None and (doctype.public_id or doctype.system_id):
        reasons.add("doctype-identifiers")
    for child in _walk(node):
        if not isinstance(child, lexpy.dom.Element) or child.namespace_uri != HTML_NS:
            continue
        name = child.local_name
        if name == "plaintext":
            reasons.add("plaintext")
        first = child.first_child
        if (name in ("pre", "textarea", "listing") and isinstance(first, lexpy.dom.Text)
                and first.data.startswith("\n")):
            reasons.add("leading-newline")
        if name == "selectedcontent":
            reasons.add("selectedcontent")
        if name == "template" and child.content is not None and _template_mode_shape(child.content):
            reasons.add("template-contents-mode")
        if name in ("rb", "rp", "rt", "rtc") and _ruby_through_implied_end(child):
            reasons.add("self-nesting")
        if name == "script" and "<!--" in child.text_content:
            reasons.add("script-escape")
        if name in _CLOSES_P:
            ancestor = child.parent
            while isinstance(ancestor, lexpy.dom.Element):
                if ancestor.namespace_uri == HTML_NS and ancestor.local_name == "p":
                    reasons.add("self-nesting")
                    break
                ancestor = ancestor.parent
        family = _FAMILIES.get(name)
        if family is not None:
            ancestor = child.parent
            while isinstance(ancestor, lexpy.dom.Element):
                if (ancestor.namespace_uri == HTML_NS
                        and _FAMILIES.get(ancestor.local_name) == family):
                    reasons.add("self-nesting")
                    break
                ancestor = ancestor.parent
        parent = child.parent
        if isinstance(parent, lexpy.dom.Element) and parent.namespace_uri != HTML_NS:
            integration = _integration_point(parent)
            if integration is None or (integration == "mathml-text"
                                       and name in ("mglyph", "malignmark")):
                reasons.add("html-in-foreign-context")
        if isinstance(parent, lexpy.dom.Element) and parent.local_name == "html":
            sibling = child.previous_sibling
            while sibling is not None:
                if isinstance(sibling, lexpy.dom.Element) and sibling.local_name == "frameset":
                    reasons.add("after-frameset")
                sibling = sibling.previous_sibling
        if name == "form" and form_context:
            reasons.add("self-nesting")     # the form element pointer
        if context is not None and context[1] != "html" and child.parent is node:
            reasons.add("html-in-foreign-context")
    return sorted(reasons)


def _options(case: Case) -> dict:
    return dict(scripting=case.scripting,
                processing_instructions=case.processing_instructions)


NAMESPACE_URIS = {"svg": "http://www.w3.org/2000/svg",
                  "math": "http://www.w3.org/1998/Math/MathML"}


def _context_element(case: Case):
    """The case's context as an Element in a <form> of a quirks document
    (the fragment parser takes the form element pointer and the quirks
    mode from there)."""
    name, namespace = case.context
    document = lexpy.parse("<form>")
    if namespace == "html":
        element = document.create_element(name)
    else:
        element = document.create_element_ns(NAMESPACE_URIS[namespace], name)
    document.body.first_child.append_child(element)
    return element


def _parse(case: Case, data, encoding=None, errors=False):
    if case.context is not None:
        name, namespace = case.context
        if case.element_context:
            return lexpy.parse_fragment(data, _context_element(case), namespace=namespace,
                                        encoding=encoding, collect_errors=errors,
                                        **_options(case))
        return lexpy.parse_fragment(data, name, namespace=namespace, encoding=encoding,
                                    collect_errors=errors, **_options(case))
    return lexpy.parse(data, encoding=encoding, collect_errors=errors, **_options(case))


MAX_FEEDS = 200


def _parse_chunked(case: Case, data, encoding=None, errors=False):
    kwargs = _options(case)
    if case.context is not None:
        kwargs["context"], kwargs["namespace"] = case.context
        if case.element_context:
            kwargs["context"] = _context_element(case)
    parser = lexpy.Parser(encoding=encoding, collect_errors=errors, **kwargs)
    # Up to MAX_FEEDS chunks of the case's sizes from the window's start;
    # the input before and after it in one chunk each.
    sizes = case.chunk_sizes or [1]
    i = int(len(data) * case.chunk_window)
    if i:
        parser.feed(data[:i])
    for k in range(MAX_FEEDS):
        if i >= len(data):
            break
        size = sizes[k % len(sizes)]
        parser.feed(data[i:i + size])
        i += size
    if i < len(data):
        parser.feed(data[i:])
    return parser.close()


RAW_TEXT_CONTEXTS = {"script", "style", "xmp", "iframe", "noembed", "noframes",
                     "noscript", "plaintext"}


def _serialize(case: Case, node):
    """The standard's serialization of what was parsed: the document, or
    the fragment's children; in a raw text context as the inner HTML of
    the context element, so that their text stays unescaped. Returns the
    HTML and the node now holding the tree (in that case the fragment's
    children have moved into the context element)."""
    if case.context is None or case.context[1] != "html" \
            or case.context[0] not in RAW_TEXT_CONTEXTS:
        return node.to_html(), node
    context = node.owner_document.create_element(case.context[0])
    context.append_child(node)
    return context.inner_html, context


def _walk(node):
    """Every node below `node`, template contents included (no recursion)."""
    stack = list(reversed(node.child_nodes))
    while stack:
        current = stack.pop()
        yield current
        content = getattr(current, "content", None)
        if content is not None:
            stack.extend(reversed(content.child_nodes))
        stack.extend(reversed(current.child_nodes))


def _round_trip(case: Case, first, first_dump: str, html: str) -> None:
    second = _parse(case, html)
    second_dump = lexpy.dump(second)
    if second_dump == first_dump:
        return
    reasons = unstable_reasons(first, case.context, case.element_context)
    if not reasons:
        raise InvariantFailure("round trip: dump(parse(to_html)) differs\n"
                               "to_html: %r\nfirst:\n%s\nsecond:\n%s"
                               % (html, first_dump, second_dump))
    if set(reasons) & _GROWING:
        return          # no pass is stable: each adds nodes or text
    # One shape can uncover another (an HTML element that parses back as a
    # foreign one reads its text differently), so the reasons of every pass
    # count, and a fixed point must come within a few passes.
    previous, previous_dump = second, second_dump
    # Some shapes lose one level per pass (one leading LF, one nested form).
    passes = 0
    while passes < 10:
        passes += 1
        html_next, holder = _serialize(case, previous)
        reasons = sorted(set(reasons) | set(unstable_reasons(holder, case.context, case.element_context)))
        if set(reasons) & _GROWING:
            return
        following = _parse(case, html_next)
        following_dump = lexpy.dump(following)
        if following_dump == previous_dump:
            return
        before_dump = previous_dump
        previous, previous_dump = following, following_dump
    raise InvariantFailure("round trip (%s): no fixed point after %d more passes\n"
                           "to_html: %r\nlast but one:\n%s\nlast:\n%s"
                           % (",".join(reasons), passes, html_next,
                              before_dump, previous_dump))


# The standard's tokenizer parse errors
# (https://html.spec.whatwg.org/multipage/parsing.html#parse-errors), and the
# processing-instruction ones of the 2026 change.
TOKENIZER_ERRORS = frozenset("""abrupt-closing-of-empty-comment
abrupt-doctype-public-identifier abrupt-doctype-system-identifier
absence-of-digits-in-numeric-character-reference cdata-in-html-content
character-reference-outside-unicode-range control-character-in-input-stream
control-character-reference disallowed-processing-instruction-target
duplicate-attribute end-tag-with-attributes end-tag-with-trailing-solidus
eof-before-tag-name eof-in-cdata eof-in-comment eof-in-doctype
eof-in-processing-instruction eof-in-script-html-comment-like-text eof-in-tag
incorrectly-closed-comment incorrectly-opened-comment
invalid-character-sequence-after-doctype-name
invalid-first-character-of-processing-instruction-target
invalid-first-character-of-tag-name invalid-processing-instruction-target
missing-attribute-value missing-doctype-name missing-doctype-public-identifier
missing-doctype-system-identifier missing-end-tag-name
missing-quote-before-doctype-public-identifier
missing-quote-before-doctype-system-identifier
missing-semicolon-after-character-reference
missing-whitespace-after-doctype-public-keyword
missing-whitespace-after-doctype-system-keyword
missing-whitespace-before-doctype-name missing-whitespace-between-attributes
missing-whitespace-between-doctype-public-and-system-identifiers nested-comment
noncharacter-character-reference noncharacter-in-input-stream
null-character-reference surrogate-character-reference
surrogate-in-input-stream unexpected-character-after-doctype-system-identifier
unexpected-character-in-attribute-name
unexpected-character-in-unquoted-attribute-value
unexpected-equals-sign-before-attribute-name unexpected-null-character
unexpected-question-mark-instead-of-tag-name unexpected-solidus-in-tag
unknown-named-character-reference""".split())


def _errors(node) -> Tuple[list, set]:
    """The tokenizer's errors (code, line, column), sorted, and the set of
    codes of the tree-construction errors. The tree builder reports an error
    once per token, at the token's start, and chunked input splits text
    into more tokens: so for those only the codes must agree."""
    document = node if isinstance(node, lexpy.dom.Document) else node.owner_document
    tokenizer = sorted((e.code, e.line, e.column) for e in document.errors
                       if e.code in TOKENIZER_ERRORS)
    tree = {e.code for e in document.errors if e.code not in TOKENIZER_ERRORS}
    return tokenizer, tree


def check(case: Case) -> dict:
    """Run every invariant on `case`; raises InvariantFailure, or returns
    what was found (the round-trip class)."""
    data = case.data
    try:
        whole = _parse(case, data, case.encoding, errors=True)
        first_dump = lexpy.dump(whole)
        whole_errors = _errors(whole)
        if case.serializer_options:
            lexpy.serialize(whole)
            lexpy.serialize(whole, omit_optional_tags=False, quote_attr_values="always",
                            alphabetical_attributes=True, strip_whitespace=True,
                            minimize_boolean_attributes=False, use_trailing_solidus=True,
                            escape_rcdata=True)
        html, holder = _serialize(case, whole)
    except InvariantFailure:
        raise
    except Exception as exc:  # noqa: BLE001 - any exception is the failure
        raise InvariantFailure("exception: %s: %s" % (type(exc).__name__, exc)) from exc

    try:
        _round_trip(case, holder, first_dump, html)

        # Chunked and whole parses agree (with the same errors).
        chunked = _parse_chunked(case, data, case.encoding, errors=True)
        chunked_dump = lexpy.dump(chunked)
        if chunked_dump != first_dump:
            raise InvariantFailure("chunked parse differs\nwhole:\n%s\nchunked:\n%s"
                                   % (first_dump, chunked_dump))
        # The same errors at the same positions; their order may differ,
        # since a text run is emitted (and its tree errors found) when the
        # chunk that ends it arrives.
        chunked_errors = _errors(chunked)
        if chunked_errors != whole_errors:
            raise InvariantFailure("chunked parse errors differ\nwhole: %r\nchunked: %r"
                                   % (whole_errors, chunked_errors))

        if isinstance(data, str) and not data.startswith("\ufeff"):
            try:
                utf8 = data.encode("utf-8")
            except UnicodeEncodeError:
                utf8 = None          # lone surrogates: no UTF-8 of this str
            if utf8 is not None:
                from_bytes = _parse(case, utf8, "utf-8")
                if lexpy.dump(from_bytes) != first_dump:
                    raise InvariantFailure("str and its UTF-8 bytes parse differently\n"
                                           "str:\n%s\nbytes:\n%s"
                                           % (first_dump, lexpy.dump(from_bytes)))
                chunked = _parse_chunked(case, utf8, "utf-8")
                if lexpy.dump(chunked) != first_dump:
                    raise InvariantFailure("chunked bytes parse differs\nwhole:\n%s\n"
                                           "chunked:\n%s" % (first_dump, lexpy.dump(chunked)))
    except InvariantFailure:
        raise
    except Exception as exc:  # noqa: BLE001
        raise InvariantFailure("exception: %s: %s" % (type(exc).__name__, exc)) from exc
    return {}


def minimize(case: Case) -> Case:
    """A smaller input that breaks the same invariant as `case` (greedy
    delta debugging over characters or bytes), for regression tests."""
    import dataclasses

    def kind(candidate: Case) -> Optional[str]:
        try:
            check(candidate)
        except InvariantFailure as exc:
            return str(exc).split("\n")[0]
        return None

    target = kind(case)
    if target is None:
        return case
    data = case.data
    chunk = max(1, len(data) // 2)
    while chunk >= 1:
        i = 0
        changed = False
        while i < len(data):
            candidate = dataclasses.replace(case, data=data[:i] + data[i + chunk:])
            if kind(candidate) == target:
                data = candidate.data
                changed = True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    return dataclasses.replace(case, data=data)


# ---------------------------------------------------------------------------
# Running cases
# ---------------------------------------------------------------------------

def run(start: int, count: int, hang: float = 5.0, failures_path: Optional[str] = None,
        progress=None, quiet: bool = False) -> dict:
    """Check seeds start..start+count-1 in this process."""
    stats = {"cases": 0, "failures": 0, "slow": 0, "max_seconds": 0.0}
    out = open(failures_path, "a") if failures_path else None
    for seed in range(start, start + count):
        if progress is not None:
            progress(seed)
        t0 = time.perf_counter()
        try:
            check(generate(seed))
            problem = None
        except InvariantFailure as exc:
            problem = str(exc)
        elapsed = time.perf_counter() - t0
        stats["cases"] += 1
        stats["max_seconds"] = max(stats["max_seconds"], elapsed)
        if elapsed > hang:
            stats["slow"] += 1
            problem = (problem or "") + "\nslow: %.1f s" % elapsed
        if problem:
            stats["failures"] += 1
            record = {"seed": seed, "kind": "invariant", "message": problem[:50000]}
            if out:
                out.write(json.dumps(record) + "\n")
                out.flush()
            if not quiet:
                print("seed %d: %s" % (seed, problem[:2000]), file=sys.stderr)
    if out:
        out.close()
    return stats


def _child(start: int, count: int, hang: float, failures_path: str, heartbeat: str) -> None:
    """The supervised worker: writes the seed it starts to `heartbeat`."""
    fd = os.open(heartbeat, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)

    def progress(seed):
        os.pwrite(fd, ("%d %.3f\n" % (seed, time.time())).ljust(40).encode(), 0)

    stats = run(start, count, hang, failures_path, progress, quiet=True)
    os.pwrite(fd, ("done %d %d %d %.3f" % (stats["cases"], stats["failures"], stats["slow"],
                                           stats["max_seconds"])).ljust(40).encode(), 0)
    os.close(fd)


def supervise(start: int, count: int, hang: float, failures_path: str,
              workdir: str) -> dict:
    """Run the seeds in child processes; a crash or a hang (no progress for
    `hang` seconds) is recorded with its seed and the run goes on after it."""
    import subprocess
    heartbeat = os.path.join(workdir, "heartbeat")
    totals = {"cases": 0, "failures": 0, "crashes": 0, "hangs": 0, "slow": 0,
              "max_seconds": 0.0}
    seed, end = start, start + count
    t_start = time.time()
    while seed < end:
        if os.path.exists(heartbeat):
            os.unlink(heartbeat)
        child = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child",
                                  "--start", str(seed), "--count", str(end - seed),
                                  "--hang", str(hang), "--failures", failures_path,
                                  "--heartbeat", heartbeat])
        last_seed, last_time = seed, time.time()
        while True:
            try:
                rc = child.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                rc = None
            try:
                with open(heartbeat) as f:
                    beat = f.read().split()
            except OSError:
                beat = []
            if rc is not None:
                break
            if beat and beat[0] != "done":
                current = int(beat[0])
                if current != last_seed:
                    last_seed, last_time = current, time.time()
                elif time.time() - last_time > hang:
                    child.kill()
                    child.wait()
                    rc = "hang"
                    break
        if beat and beat[0] == "done":
            totals["cases"] += int(beat[1])
            totals["failures"] += int(beat[2])
            totals["slow"] += int(beat[3])
            totals["max_seconds"] = max(totals["max_seconds"], float(beat[4]))
            break
        # The child died (or was killed) in `last_seed`: record it, go on.
        bad = int(beat[0]) if beat else seed
        kind = "hang" if rc == "hang" else "crash"
        totals[kind + "s"] += 1
        totals["cases"] += bad - seed + 1
        with open(failures_path, "a") as out:
            out.write(json.dumps({"seed": bad, "kind": kind, "returncode": str(rc)}) + "\n")
        print("seed %d: %s (rc %s)" % (bad, kind, rc), file=sys.stderr, flush=True)
        seed = bad + 1
    totals["seconds"] = round(time.time() - t_start, 1)
    return totals


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--start", type=int, default=0, help="first seed")
    p.add_argument("--count", type=int, default=1000, help="number of seeds")
    p.add_argument("--hang", type=float, default=5.0,
                   help="seconds after which a case counts as a hang")
    p.add_argument("--failures", default="malformed-failures.jsonl",
                   help="where failing seeds are appended (JSON lines)")
    p.add_argument("--supervise", action="store_true",
                   help="run in a child process restarted after crashes and hangs")
    p.add_argument("--show", type=int, metavar="SEED", help="print one case and check it")
    p.add_argument("--minimize", type=int, metavar="SEED",
                   help="print a smallest input failing like the case of SEED")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--heartbeat", help=argparse.SUPPRESS)
    args = p.parse_args(argv)

    if args.show is not None:
        case = generate(args.show)
        print(case.describe())
        check(case)
        print("ok")
        return 0
    if args.minimize is not None:
        case = minimize(generate(args.minimize))
        print(case.describe())
        try:
            check(case)
        except InvariantFailure as exc:
            print(exc)
        return 0
    if args.child:
        _child(args.start, args.count, args.hang, args.failures, args.heartbeat)
        return 0
    if args.supervise:
        workdir = os.path.dirname(os.path.abspath(args.failures))
        totals = supervise(args.start, args.count, args.hang,
                           os.path.abspath(args.failures), workdir)
    else:
        t0 = time.time()
        totals = run(args.start, args.count, args.hang, args.failures)
        totals["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(totals))
    return 0 if not (totals["failures"] or totals.get("crashes") or totals.get("hangs")) else 1


if __name__ == "__main__":
    sys.exit(main())
