"""The standing differential test: lexpy against the independent HTML parsers
that are installed, on generated documents and fragments.

    python tools/differential.py --count 20000 --jobs 2        # a run, a report
    python tools/differential.py --count 20000 --json          # for machines
    python tools/differential.py --show 1234                   # one input, all dumps

Every input (a pure function of --seed and its index) is biased to the areas
where parsers go wrong: tables and foster parenting, formatting elements and
the adoption agency algorithm, foreign content and its integration points,
template, select / option / selectedcontent, frameset, noscript with
scripting on and off, character references, CR / LF / NUL and processing
instructions. It is parsed by lexpy and by every peer present (justhtml,
markupever = html5ever, selectolax = Lexbor, turbohtml, html5lib); each
peer's tree is written in lexpy.dump's format (html5lib-tests' "#document"
block), so that trees compare as strings. A peer without processing
instructions is compared with lexpy parsing with processing_instructions=False;
a peer without a scripting switch (markupever: always on) or without
foreign fragment contexts (html5lib) sits out the inputs it cannot parse.

The disagreements are clustered by their agreement pattern (which parsers
build the same tree: "lexpy+justhtml | html5lib"), and within a pattern by
the first line where the trees part; a few examples of each are minimised by
delta debugging (first over tokens, then over characters) while the
pattern stays the same, and the report shows each minimised input with the
dumps side by side.

An investigation tool, not a gate: peers are often wrong. What it finds and
the standard confirms becomes a house case (tests/data/tree-construction/).
"""
from __future__ import annotations

import argparse
import ctypes
import json
import multiprocessing
import os
import random
import re
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import fuzz_malformed  # noqa: E402  (the generator vocabulary and soup())
import lexpy  # noqa: E402

__all__ = ["AREAS", "Case", "Disagreement", "PEERS", "agreement_pattern",
           "available_peers", "compare", "format_tree", "generate", "minimise",
           "run"]

HTML_NS = "http://www.w3.org/1999/xhtml"
SVG_NS = "http://www.w3.org/2000/svg"
MATH_NS = "http://www.w3.org/1998/Math/MathML"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XMLNS_NS = "http://www.w3.org/2000/xmlns/"

# ---------------------------------------------------------------------------
# Generation: documents and fragments biased to the hard areas
# ---------------------------------------------------------------------------

# Each area: shapes with {} holes (filled with text, a tag, or a little
# soup). Written for this tool; fuzz_malformed's STRUCTURES are mixed in.
AREAS: Dict[str, List[str]] = {
    "tables": [
        "<table>{}<tr>{}<td>{}</td>{}</tr>{}</table>",
        "<table>{}</table>", "<table><tr>{}</table>", "<table><tbody>{}<td>{}",
        "<table><caption>{}</caption>{}</table>", "<table><caption>{}<td>{}",
        "<table><colgroup>{}<col>{}</colgroup>{}", "<table><col>{}<tr>{}",
        "<table><input type=hidden>{}<input type=HIDDEN >{}<input>{}",
        "<table><form>{}</form>{}", "<table><tr><td><form>{}</table>{}",
        "<table><select><option>{}</table>{}", "<table><tr><td><select>{}<td>{}",
        "<table><script>{}</script><style>{}</style>{}",
        "<table><b>{}<tr><td>{}</b>{}", "<table><a>{}<td>{}</a>{}",
        "<table>x{} y<tr>{}z</tr></table>", "<table><td><table><td>{}</table>{}",
        "<table><tr><th>{}<td>{}</th></td>{}", "<table><thead>{}<tbody>{}<tfoot>{}",
        "<table><td>{}</tbody>{}</table>", "<table></tr>{}</td>{}</caption>{}",
        "<p>{}<table>{}</p>{}", "<table><svg>{}</svg>{}", "<table><math>{}",
        "<table><template>{}<td>{}</template>{}", "<table><frameset>{}",
        "<table><hr>{}<li>{}", "<table><tr><td><button>{}</table>{}",
        "<table>\x00{}\r\n{}", "<table><tr>\t \n{}", "<table> <!--c--> {}",
    ],
    "formatting": [
        "<b>{}<p>{}</b>{}</p>", "<a>{}<p>{}<a>{}</a>", "<a><div><a>{}</div>{}",
        "<b><i><u><s>{}</b>{}</i>", "<p><b><i>{}</p>{}", "<b>{}<div>{}</b>{}</div>",
        "<nobr>{}<nobr>{}</nobr>", "<font>{}<table>{}</font>{}",
        "<b><b><b><b>{}</b>{}", '<b class=x><b class=x><b class=x><b class=x>{}<p>{}',
        "<a>{}<table><a>{}</table>{}", "<em><strong>{}</em>{}</strong>",
        "<b>{}<button>{}</b>{}", "<code><address>{}</code>{}",
        "<a href=1>{}<li>{}<a href=2>{}", "<u><div><div><div><div><div><div><div><div><div></u>{}",
        "<i>{}<marquee>{}</i>{}</marquee>", "<s>{}<object>{}</s>{}",
        "<b>{}</p>{}", "<tt><h1>{}</tt>{}</h1>", "<a><svg>{}</a>{}",
        "<b><template>{}</b>{}</template>", "<strike>{}<select>{}</strike>{}",
    ],
    "foreign": [
        "<svg>{}</svg>", "<math>{}</math>", "<svg><foreignObject>{}</foreignObject>{}",
        "<svg><desc>{}</desc>{}", "<svg><title>{}<table>{}</title>{}",
        "<math><mi>{}</mi><mo>{}</mo><mtext>{}", "<math><mi><mglyph>{}<malignmark>{}",
        "<math><annotation-xml encoding=\"text/html\">{}</annotation-xml>",
        "<math><annotation-xml encoding=\"application/xhtml+xml\"><p>{}",
        "<math><annotation-xml encoding=TEXT/HTML>{}", "<math><annotation-xml><svg>{}",
        "<svg><p>{}</svg>", "<svg><b>{}", "<svg><font>{}", "<svg><font color=x>{}",
        "<svg><font face=y size=z>{}", "<math><mi><p>{}</mi>{}", "<svg><br>{}</br>",
        "<svg></p>{}", "<svg><![CDATA[{}]]>{}", "<svg><clippath>{}<FOREIGNOBJECT>{}",
        "<math><ms><svg><desc><p>{}", "<svg><script>{}</script>{}",
        "<svg><style>{}</style>{}", "<math><mtext><table><td>{}",
        "<svg viewbox=1 xlink:href=2 xml:lang=3 xmlns=4 xmlns:xlink=5 definitionurl=6>{}",
        "<math definitionurl=1 xlink:href=2>{}", "<svg><math>{}</svg>{}",
        "<svg><foreignObject><math><mi><svg>{}", "<svg><title><svg>{}</svg>{}",
        "<svg>\x00{}\r{}", "<math><mi>\x00{}", "<svg><select>{}", "<svg><template>{}",
        "<svg><frameset>{}", "<svg><noscript>{}", "<svg><tr><td>{}",
    ],
    "template": [
        "<template>{}</template>{}", "<template><tr>{}<td>{}</template>",
        "<template><col>{}<colgroup>{}</template>", "<template><caption>{}",
        "<template><frame>{}</template>", "<template><template><tr>{}</template>{}",
        "<head><template>{}</template></head>{}", "<html><template>{}",
        "<body><template><body>{}</template>", "</template>{}",
        "<template><div>{}</template>{}</div>", "<template><select>{}<option>{}",
        "<template><tbody>{}<tr>{}", "<template><td>{}<th>{}",
        "<frameset><template>{}", "<template><html>{}<head>{}",
        "<template><form>{}</form>{}", "<template><table>{}</template>{}",
        "<template><script>{}</script>{}", "<template>{}<template>{}</template>",
        "<template><svg>{}</template>{}", "<template shadowrootmode=open>{}</template>",
        "<table><tr><template>{}</template>{}", "<template><option><optgroup>{}",
        "<template><li>{}<dd>{}", "<template><selectedcontent>{}",
    ],
    "select": [
        "<select>{}<option>{}</option>{}</select>", "<select><optgroup>{}<option>{}",
        "<select><option selected>{}<option>{}", "<select><div>{}</div>{}",
        "<select><button>{}</button><option>{}", "<select><input>{}", "<select><textarea>{}",
        "<select><keygen>{}", "<select><hr>{}<option>{}", "<select><select>{}",
        "<option>{}<select>{}", "<select><b>{}<option>{}</b>", "<select><p>{}",
        "<select><img>{}", "<select><svg>{}", "<select><math>{}", "<select><table>{}",
        "<select><template>{}</template>{}", "<select><script>{}", "<select>\x00{}",
        "<select><datalist><option>{}", "<datalist><option>{}<select>{}",
        "<select><button><selectedcontent></selectedcontent></button><option>{}</option>{}</select>",
        "<select><selectedcontent></selectedcontent><option selected>{}<option>{}</select>",
        "<select><button><selectedcontent>{}</selectedcontent></button><option>{}",
        "<selectedcontent>{}<option>{}", "<select><option><selectedcontent>{}</option>{}",
        "<select><optgroup><hr><option>{}", "<select><option>{}<optgroup>{}</optgroup>{}",
        "<select><option><div>{}</option><option>{}", "<select></option>{}</optgroup>{}",
        "<select><option>{}<li>{}", "<select multiple><option>{}",
        "<select><label>{}<option>{}", "<select><legend>{}", "<select><span>{}",
        "<p><select>{}</p>{}", "<select><option><select>{}",
        "<select><button><selectedcontent></selectedcontent></button>"
        "<option><selectedcontent></selectedcontent>{}</option>{}</select>",
    ],
    "frameset": [
        "<frameset>{}</frameset>{}", "<frameset><frame>{}<noframes>{}</noframes>{}",
        "x<frameset>{}", "<body><frameset>{}", "<div><frameset>{}", "<frameset></frameset>{}",
        "<frameset> <frame> {}", "</frameset>{}", "\x00<frameset>{}", "&#x0;<frameset>{}",
        "<pre>\n<frameset>{}", "<svg><frameset>{}", "<frameset><frameset>{}</frameset>{}",
        "<frameset></frameset></html>{}", "<frameset><!--c-->{}", "<input type=hidden><frameset>{}",
        "<select><frameset>{}", "<frameset>\x00{}", "<frameset><?pi?>{}",
        "<body></body><frameset>{}", "<li><frameset>{}", "<table><frameset>{}",
    ],
    "noscript": [
        "<head><noscript>{}</noscript>{}", "<head><noscript><link><style>{}</style>{}",
        "<head><noscript><p>{}", "<head><noscript><!--{}-->{}", "<head><noscript></noscript>{}",
        "<noscript>{}</noscript>{}", "<noscript><p>{}</noscript>{}", "<head><noscript><noscript>{}",
        "<head><noscript><meta>{}<base>{}", "<head><noscript> {}</noscript>",
        "<head><noscript><head>{}", "<head><noscript></p>{}", "<head><noscript><template>{}",
        "<noscript><!--</noscript>-->{}", "<table><noscript>{}</noscript>{}",
        "<select><noscript>{}", "<frameset><noscript>{}", "<svg><noscript>{}",
    ],
    "references": [
        "{}&amp{}", "&notit;{}", "&notin;{}", "&not{}", "<a href='&notin'>{}",
        "<a href=\"&amp=x\">{}", "<a title=&ampx>{}", "&#x80;{}&#x9F;{}", "&#0;{}",
        "&#xD800;{}", "&#x110000;{}", "&#13;{}", "&CounterClockwiseContourIntegral;{}",
        "&acE;{}", "&NotEqualTilde;{}", "&lt{}", "<textarea>&lt;{}</textarea>",
        "<title>&amp;{}</title>", "<svg>&amp;{}</svg>", "<p a='&#x41;&#65;&#x;'>{}",
        "<img alt='&copy=1'>{}", "&#x0d;{}&#x0a;", "&#1114112;{}", "&#xFFFE;{}&#xFDD0;",
        "&AMP{}", "&amp;amp;{}", "&;{}", "&#;{}", "&#x{}", "&#99999999999999;{}",
    ],
    "newlines": [
        "\r\n{}\r{}", "<pre>\r\n{}</pre>", "<pre>\r\r{}</pre>", "<textarea>\r\n{}",
        "<listing>\n{}", "<pre>\n\n{}", "\x00{}", "<p>\x00{}\x00", "<table>\x00{}",
        "<select>\x00{}", "<svg>\x00{}", "<template>\x00{}", "<p title='\r\n\x00'>{}",
        "<!--\r\n\x00-->{}", "<!DOCTYPE html\x00>{}", "<pre>&#10;{}", "<pre>&#13;{}",
        "<textarea>\n\n{}", "<script>\x00\r\n{}</script>", "<style>\x00{}</style>",
        "<plaintext>\r\n\x00{}", "<title>\x00\r{}</title>", "a\r\nb{}\rc",
    ],
    "pis": [
        "<?a b?>{}", "<?a>{}", "<?xml version='1.0'?>{}", "<?a$?>{}", "<?>{}", "<?-->{}",
        "<??>{}", "<?a b c>{}", "<?a ?>{}", "<?A?>{}", "<?a\x00b?>{}", "<?x-y z?>{}",
        "<svg><?a b?>{}", "<table><?a b?>{}", "<select><?a?>{}", "<head><?a?>{}",
        "<?a?><html>{}", "</html><?a?>{}", "</body><?a?>{}", "<frameset><?a?>{}",
        "<template><?a?>{}", "<textarea><?a?>{}", "<math><mi><?a b?>{}", "<?a b?c?>{}",
        "<?a?{}>", "<?a\n\tb?>{}", "<?1a?>{}", "<?a:b c?>{}", "<p><?a b{}",
        "<!DOCTYPE html><?a?>{}", "<?a?><!DOCTYPE html>{}",
    ],
    "doctype": [
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" \"\"><p><table>{}",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Frameset//EN\" \"\"><p><table>{}",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"><p><table>{}",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"\"><p><table>{}",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" ''><p><table>{}",
        "<!DOCTYPE html SYSTEM \"\"><p><table>{}", "<!DOCTYPE html PUBLIC \"\"><p><table>{}",
        "<!DOCTYPE html SYSTEM \"http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd\"><p><table>{}",
        "<!DOCTYPE html PUBLIC \"-//W3O//DTD W3 HTML Strict 3.0//EN//\"><p><table>{}",
        "<!DOCTYPE html PUBLIC \"HTML\"><p><table>{}", "<!DOCTYPE svg><p><table>{}",
        "<!DOCTYPE><p><table>{}", "<!DOCTYPE html PUBLIC><p><table>{}",
        "<!DOCTYPE html SYSTEM><p><table>{}", "<!doctype html public \"-//ietf//dtd html//\"><p><table>{}",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.0 Frameset//EN\"><p><table>{}",
        "<!DOCTYPE html \"x\"><p><table>{}", "<!DOCTYPE html PUBLIC 'x' \"\"><p><table>{}",
        "<p><!DOCTYPE html><table>{}", "<!DOCTYPE html><!DOCTYPE html>{}",
    ],
}
AREA_NAMES = sorted(AREAS)

# Small pieces that fill the holes.
PIECES = ["x", " ", "\n", "\r\n", "\x00", "&amp;", "&notin", "<b>", "</b>", "<p>", "</p>",
          "<td>", "<tr>", "</table>", "<table>", "<div>", "</div>", "<a>", "</a>",
          "<svg>", "</svg>", "<math>", "<mi>", "<option>", "</option>", "<select>",
          "</select>", "<optgroup>", "<hr>", "<template>", "</template>", "<li>",
          "<input>", "<br>", "</br>", "<!--c-->", "<?pi d?>", "<caption>", "<col>",
          "<frame>", "<frameset>", "<noscript>", "</noscript>", "<style>", "<script>",
          "<textarea>", "<title>", "<button>", "<selectedcontent>", "</selectedcontent>",
          "<foreignObject>", "<desc>", "<annotation-xml>", "<mglyph>", "<font color=1>",
          "<body>", "<html>", "<head>", "</body>", "</html>", "<image>", "<nobr>",
          "<form>", "</form>", "<h1>", "<pre>", "<plaintext>", "<xmp>", "<iframe>",
          "<rb>", "<rt>", "<ruby>", "<dd>", "<dt>", "<ul>", "<search>", "<keygen>",
          "<datalist>", "<label>", "<img>", "<marquee>", "<object>", "<applet>"]

# Fragment contexts: fuzz_malformed's, and the ones this tool's areas need.
CONTEXTS = list(fuzz_malformed.CONTEXTS) + [
    ("selectedcontent", "html"), ("option", "html"), ("datalist", "html"),
    ("button", "html"), ("frameset", "html"), ("noscript", "html"),
    ("template", "html"), ("tbody", "html"), ("svg", "svg"), ("foreignObject", "svg"),
    ("annotation-xml", "math"), ("mi", "math"), ("math", "math")]


@dataclass
class Case:
    """One generated input and how it is parsed."""
    index: int
    data: str
    area: str
    context: Optional[Tuple[str, str]] = None     # (local name, "html"/"svg"/"math")
    scripting: bool = True

    def describe(self) -> str:
        where = ("fragment in <%s%s>" % ("" if self.context[1] == "html" else
                                          self.context[1] + " ", self.context[0])
                 if self.context else "document")
        return "%s, scripting %s, area %s" % (where, "on" if self.scripting else "off",
                                             self.area)


def _fill(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.35:
        return rng.choice(PIECES)
    if r < 0.5:
        return fuzz_malformed._text(rng)
    if r < 0.6:
        return fuzz_malformed._start_tag(rng)
    if r < 0.85:
        return "".join(rng.choice(PIECES) for _ in range(rng.randrange(2, 5)))
    return fuzz_malformed.soup(rng, rng.randrange(1, 4))


def _shape(rng: random.Random, area: str) -> str:
    shapes = AREAS[area]
    shape = rng.choice(shapes) if rng.random() < 0.85 else rng.choice(
        fuzz_malformed.STRUCTURES)
    return shape.format(*[_fill(rng) if rng.random() < 0.8 else ""
                          for _ in range(shape.count("{}"))])


def generate(seed: int, index: int) -> Case:
    """The input number `index` of the run with `seed` (the same on every run)."""
    rng = random.Random("%d:%d" % (seed, index))
    area = rng.choice(AREA_NAMES)
    parts = [_shape(rng, area)]
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        other = area if rng.random() < 0.6 else rng.choice(AREA_NAMES)
        parts.append(_shape(rng, other) if rng.random() < 0.7 else _fill(rng))
    rng.shuffle(parts)
    data = "".join(parts)
    if rng.random() < 0.15:
        data = fuzz_malformed._mutate(rng, data)
    context = None
    if rng.random() < 0.25:
        context = rng.choice(CONTEXTS)
    elif area != "doctype" and rng.random() < 0.2:
        data = rng.choice(["<!DOCTYPE html>", "<!doctype html>", "<html>", "<body>",
                           "<head></head>", "<!DOCTYPE html><body>"]) + data
    scripting = rng.random() < (0.5 if area == "noscript" else 0.7)
    # A lone surrogate (from _mutate) is a Python str artefact, not a code
    # point an input stream can carry: lexpy takes it as U+FFFD, peers as
    # they please.
    data = _SURROGATE.sub("\ufffd", data)
    return Case(index, data, area, context, scripting)


_SURROGATE = re.compile("[\ud800-\udfff]")


# ---------------------------------------------------------------------------
# The dump format, shared by every peer's normaliser
# ---------------------------------------------------------------------------

# A tree as a peer gives it, through an adapter: kind(node) is one of
# "element", "text", "comment", "pi", "doctype" (others are skipped);
# element(node) -> (namespace URI, local name, [(attr ns URI or None,
# attr prefix or None, attr local name, value)]); template_content(node)
# -> a node whose children are the contents, or None.

def _attribute_name_string(ns: Optional[str], prefix: Optional[str], local: str) -> str:
    """The .dat README's "attribute name string"."""
    if ns == XLINK_NS:
        return "xlink " + local
    if ns == XML_NS:
        return "xml " + local
    if ns == XMLNS_NS:
        return "xmlns " + local
    if ns and prefix:
        return prefix + ":" + local
    return local


def _utf16_key(text: str) -> bytes:
    return text.encode("utf-16-be", "surrogatepass")


class Adapter:
    """How to read one peer's tree (see format_tree)."""
    # True: a template's contents are the element's own children (dumped
    # under "content" all the same).
    contents_as_children = False

    def children(self, node) -> Iterable:
        raise NotImplementedError

    def kind(self, node) -> Optional[str]:
        raise NotImplementedError

    def element(self, node) -> Tuple[str, str, list]:
        raise NotImplementedError

    def text(self, node) -> str:
        raise NotImplementedError

    def pi(self, node) -> Tuple[str, str]:
        raise NotImplementedError

    def doctype(self, node) -> Tuple[str, str, str]:
        raise NotImplementedError

    def template_content(self, node):
        return None


def format_tree(roots: Iterable, adapter: Adapter) -> str:
    """The nodes `roots` and their descendants in lexpy.dump's format (the
    "#document" block of an html5lib-tests .dat case), walked with an
    explicit stack."""
    lines: List[str] = []
    stack = [(iter(list(roots)), 0)]
    while stack:
        nodes, depth = stack[-1]
        node = next(nodes, None)
        if node is None:
            stack.pop()
            continue
        kind = adapter.kind(node)
        pad = "| " + "  " * depth
        if kind == "element":
            ns, local, attrs = adapter.element(node)
            designator = "svg " if ns == SVG_NS else "math " if ns == MATH_NS else ""
            lines.append("%s<%s%s>" % (pad, designator, local))
            named = [(_attribute_name_string(a_ns, a_prefix, a_local), value)
                     for a_ns, a_prefix, a_local, value in attrs]
            named.sort(key=lambda item: _utf16_key(item[0]))
            for name, value in named:
                lines.append('%s  %s="%s"' % (pad, name, value))
            template = ns == HTML_NS and local == "template"
            content = adapter.template_content(node) if template else None
            children = list(adapter.children(node))
            if template and adapter.contents_as_children:
                lines.append(pad + "  content")
                if children:
                    stack.append((iter(children), depth + 2))
            elif content is not None:
                # "content" first, then any children the element has itself.
                stack.append((iter(children), depth + 1))
                lines.append(pad + "  content")
                stack.append((iter(list(adapter.children(content))), depth + 2))
            elif children:
                stack.append((iter(children), depth + 1))
        elif kind == "text":
            lines.append('%s"%s"' % (pad, adapter.text(node)))
        elif kind == "comment":
            lines.append("%s<!-- %s -->" % (pad, adapter.text(node)))
        elif kind == "pi":
            target, data = adapter.pi(node)
            lines.append("%s<?%s %s?>" % (pad, target, data))
        elif kind == "doctype":
            name, public_id, system_id = adapter.doctype(node)
            if public_id or system_id:
                lines.append('%s<!DOCTYPE %s "%s" "%s">' % (pad, name, public_id, system_id))
            else:
                lines.append("%s<!DOCTYPE %s>" % (pad, name))
    return "\n".join(lines)


# Attributes that the tree builder's "adjust foreign attributes" puts in a
# namespace, for peers that give only the qualified name.
FOREIGN_ATTRIBUTES = {
    "xlink:actuate": (XLINK_NS, "xlink", "actuate"), "xlink:arcrole": (XLINK_NS, "xlink", "arcrole"),
    "xlink:href": (XLINK_NS, "xlink", "href"), "xlink:role": (XLINK_NS, "xlink", "role"),
    "xlink:show": (XLINK_NS, "xlink", "show"), "xlink:title": (XLINK_NS, "xlink", "title"),
    "xlink:type": (XLINK_NS, "xlink", "type"), "xml:lang": (XML_NS, "xml", "lang"),
    "xml:space": (XML_NS, "xml", "space"), "xmlns": (XMLNS_NS, None, "xmlns"),
    "xmlns:xlink": (XMLNS_NS, "xmlns", "xlink"),
}


def _flat_attributes(ns: str, items: Iterable[Tuple[str, str]]) -> list:
    out = []
    for name, value in items:
        if ns != HTML_NS and name in FOREIGN_ATTRIBUTES:
            a_ns, prefix, local = FOREIGN_ATTRIBUTES[name]
            out.append((a_ns, prefix, local, value))
        else:
            out.append((None, None, name, value))
    return out


# ---------------------------------------------------------------------------
# Peers
# ---------------------------------------------------------------------------

class Unsupported(Exception):
    """The peer cannot parse this input as asked (a fragment context it does
    not know): it sits the input out."""


class Peer:
    """One parser: how to run it and what it supports."""
    name = ""
    processing_instructions = False     # PIs as nodes (else as bogus comments)
    scripting_modes = (True, False)     # the scripting flags it can parse with
    foreign_contexts = True             # fragments in an svg/math context

    def available(self) -> bool:
        return True

    def supports(self, case: Case) -> bool:
        if case.scripting not in self.scripting_modes:
            return False
        if case.context and case.context[1] != "html" and not self.foreign_contexts:
            return False
        return True

    def parse(self, case: Case) -> str:
        """The dump of the tree (document or fragment) of `case`."""
        raise NotImplementedError


class Lexpy(Peer):
    name = "lexpy"
    processing_instructions = True

    def __init__(self, processing_instructions: bool = True):
        self.pis = processing_instructions

    def parse(self, case: Case) -> str:
        if case.context:
            name, ns = case.context
            node = lexpy.parse_fragment(case.data, name, namespace=ns,
                                        scripting=case.scripting,
                                        processing_instructions=self.pis)
        else:
            node = lexpy.parse(case.data, scripting=case.scripting,
                               processing_instructions=self.pis)
        return lexpy.dump(node)


NAMESPACE_URIS = {"html": HTML_NS, "svg": SVG_NS, "math": MATH_NS}


class JustHTMLAdapter(Adapter):
    def children(self, node):
        return node.children or ()

    def kind(self, node):
        name = node.name
        if name == "#text":
            return "text"
        if name == "#comment":
            return "comment"
        if name == "#processing-instruction":
            return "pi"
        if name == "!doctype":
            return "doctype"
        if name.startswith("#"):
            return None
        return "element"

    def element(self, node):
        ns = NAMESPACE_URIS.get(node.namespace or "html", node.namespace)
        return ns, node.name, _flat_attributes(ns, (node.attrs or {}).items())

    def text(self, node):
        return node.data

    def pi(self, node):
        target, _, data = node.data.partition(" ")
        return target, data

    def doctype(self, node):
        d = node.data
        return d.name or "", d.public_id or "", d.system_id or ""

    def template_content(self, node):
        return getattr(node, "template_content", None)


class JustHTMLPeer(Peer):
    name = "justhtml"
    processing_instructions = True

    def available(self):
        try:
            import justhtml  # noqa: F401
        except ImportError:
            return False
        return True

    def parse(self, case):
        from justhtml import JustHTML
        from justhtml.parser.context import FragmentContext
        if case.context:
            name, ns = case.context
            doc = JustHTML(case.data, sanitize=False, scripting_enabled=case.scripting,
                           fragment_context=FragmentContext(name, None if ns == "html" else ns))
        else:
            doc = JustHTML(case.data, sanitize=False, scripting_enabled=case.scripting)
        return format_tree(doc.root.children or (), JustHTMLAdapter())


class MarkupeverAdapter(Adapter):
    contents_as_children = True         # html5ever's template contents

    def __init__(self):
        import markupever.dom as dom
        self.dom = dom

    def children(self, node):
        return node.children()

    def kind(self, node):
        dom = self.dom
        if isinstance(node, dom.Element):
            return "element"
        if isinstance(node, dom.Text):
            return "text"
        if isinstance(node, dom.Comment):
            return "comment"
        if isinstance(node, dom.ProcessingInstruction):
            return "pi"
        if isinstance(node, dom.Doctype):
            return "doctype"
        return None

    def element(self, node):
        attrs = [(q.ns or None, q.prefix or None, q.local, value)
                 for q, value in node.attrs.items()]
        return node.name.ns, node.name.local, attrs

    def text(self, node):
        return node.content

    def pi(self, node):
        return node.target, node.data

    def doctype(self, node):
        return node.name, node.public_id, node.system_id



class MarkupeverPeer(Peer):
    """html5ever, through markupever (no PIs; scripting always on)."""
    name = "markupever"
    scripting_modes = (True,)

    def available(self):
        try:
            import markupever  # noqa: F401
        except ImportError:
            return False
        return True

    def parse(self, case):
        import markupever
        if case.context:
            name, ns = case.context
            context = name if ns == "html" else markupever.dom.QualName(
                name, NAMESPACE_URIS[ns])
            options = markupever.HtmlOptions(full_document=False, fragment_context=context)
        else:
            options = markupever.HtmlOptions()
        root = markupever.parse(case.data, options).root()
        return format_tree(root.children(), MarkupeverAdapter())


class TurboAdapter(Adapter):
    def __init__(self):
        import turbohtml
        self.t = turbohtml

    def children(self, node):
        return [c for c in node.children if not isinstance(c, self.t.DocumentFragment)]

    def kind(self, node):
        t = self.t
        if isinstance(node, t.Element):
            return "element"
        if isinstance(node, t.Text):
            return "text"
        if isinstance(node, t.Comment):
            return "comment"
        if isinstance(node, t.ProcessingInstruction):
            return "pi"
        if isinstance(node, t.Doctype):
            return "doctype"
        return None

    def element(self, node):
        ns = NAMESPACE_URIS[node.namespace.value]
        # attrs splits token lists (class, rel) into Python lists; attr()
        # gives the raw value.
        return ns, node.tag, _flat_attributes(ns, [(name, node.attr(name))
                                                   for name in node.attrs.keys()])

    def text(self, node):
        return node.data

    def pi(self, node):
        return node.target, node.data

    def doctype(self, node):
        return node.name or "", node.public_id or "", node.system_id or ""

    def template_content(self, node):
        for child in node.children:
            if isinstance(child, self.t.DocumentFragment):
                return child
        return None

    def fragment_children(self, fragment):
        return list(fragment.children)


class TurboPeer(Peer):
    name = "turbohtml"
    processing_instructions = True

    def available(self):
        try:
            import turbohtml  # noqa: F401
        except ImportError:
            return False
        return True

    def parse(self, case):
        import turbohtml
        adapter = TurboAdapter()
        if case.context:
            name, ns = case.context
            context = name if ns == "html" else "%s %s" % (ns, name)
            try:
                root = turbohtml.parse_fragment(case.data, context, scripting=case.scripting,
                                                positions=False)
            except ValueError as exc:
                if "known" in str(exc):
                    raise Unsupported(str(exc))
                raise
        else:
            root = turbohtml.parse(case.data, scripting=case.scripting, positions=False,
                                   allow_declarative_shadow_roots=False)
        return format_tree(adapter.children(root), adapter)


class _JoinedText:
    __slots__ = ("data",)

    def __init__(self, data: str):
        self.data = data


class Html5libAdapter(Adapter):
    contents_as_children = True         # html5lib has no template contents

    def children(self, node):
        # html5lib's minidom tree builder appends a Text node per character
        # token instead of extending the last one (its own test harness
        # joins them): joined here, as the DOM would have them.
        out: list = []
        for child in node.childNodes:
            if child.nodeType == 3 and out and isinstance(out[-1], list):
                out[-1].append(child)
            elif child.nodeType == 3:
                out.append([child])
            else:
                out.append(child)
        return [_JoinedText("".join(t.data for t in item)) if isinstance(item, list)
                else item for item in out]

    def kind(self, node):
        if isinstance(node, _JoinedText):
            return "text"
        return {1: "element", 8: "comment", 7: "pi", 10: "doctype"}.get(node.nodeType)

    def element(self, node):
        attrs = []
        for i in range(node.attributes.length):
            a = node.attributes.item(i)
            attrs.append((a.namespaceURI, a.prefix, a.localName or a.name, a.value))
        return node.namespaceURI or HTML_NS, node.localName or node.tagName, attrs

    def text(self, node):
        return node.data

    def pi(self, node):
        return node.target, node.data

    def doctype(self, node):
        return node.name or "", node.publicId or "", node.systemId or ""


class Html5libPeer(Peer):
    """html5lib (no PIs; no svg/math fragment contexts)."""
    name = "html5lib"
    foreign_contexts = False

    def available(self):
        try:
            import html5lib  # noqa: F401
        except ImportError:
            return False
        return True

    def parse(self, case):
        import html5lib
        parser = html5lib.HTMLParser(tree=html5lib.treebuilders.getTreeBuilder("dom"))
        if case.context:
            root = parser.parseFragment(case.data, container=case.context[0],
                                        scripting=case.scripting)
        else:
            root = parser.parse(case.data, scripting=case.scripting)
        adapter = Html5libAdapter()
        return format_tree(adapter.children(root), adapter)


class _Lexbor:
    """Lexbor's DOM as selectolax builds it, read through the C functions its
    extension module exports (selectolax's Python API gives no namespaces,
    DOCTYPE identifiers or PI targets). The few struct offsets needed are
    checked against the exported accessors when it loads."""

    NODE_TYPES = {1: "element", 3: "text", 7: "pi", 8: "comment", 10: "doctype"}

    def __init__(self):
        import selectolax.lexbor as lexbor
        self.module = lexbor
        lib = ctypes.CDLL(lexbor.__file__)
        pointer, size = ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)
        for name in ("lxb_dom_node_first_child_noi", "lxb_dom_node_next_noi",
                     "lxb_dom_node_parent_noi", "lxb_dom_element_first_attribute_noi",
                     "lxb_dom_element_next_attribute_noi"):
            function = getattr(lib, name)
            function.restype, function.argtypes = pointer, [pointer]
        lib.lxb_dom_node_type_noi.restype = ctypes.c_int
        lib.lxb_dom_node_type_noi.argtypes = [pointer]
        for name in ("lxb_dom_element_qualified_name", "lxb_dom_node_text_content",
                     "lxb_dom_attr_qualified_name",
                     "lxb_dom_attr_local_name_noi", "lxb_dom_attr_value_noi",
                     "lxb_dom_processing_instruction_target_noi",
                     "lxb_dom_document_type_name_noi", "lxb_dom_document_type_public_id_noi",
                     "lxb_dom_document_type_system_id_noi"):
            function = getattr(lib, name)
            function.restype, function.argtypes = pointer, [pointer, size]
        self.lib = lib
        self._calibrate()

    def _calibrate(self):
        lib, read = self.lib, self._word
        probe = self.module.LexborHTMLParser(
            "<svg xlink:href=1 xml:lang=2 xmlns:xlink=3></svg><math></math>"
            "<template><b></b></template>")
        html = probe.root
        # struct lxb_dom_node: events, local_name, prefix, ns, owner_document,
        # next, prev, parent, first_child, last_child, user, type.
        body = lib.lxb_dom_node_next_noi(lib.lxb_dom_node_first_child_noi(html.mem_id))
        assert read(html.mem_id + 64) == lib.lxb_dom_node_first_child_noi(html.mem_id)
        assert read(body + 56) == html.mem_id
        svg = probe.css_first("svg").mem_id
        math = probe.css_first("math").mem_id
        self.ns_ids = {read(html.mem_id + 24): HTML_NS, read(svg + 24): SVG_NS,
                       read(math + 24): MATH_NS}
        attr = lib.lxb_dom_element_first_attribute_noi(svg)
        for uri in (XLINK_NS, XML_NS, XMLNS_NS):
            self.ns_ids[read(attr + 24)] = uri
            attr = lib.lxb_dom_element_next_attribute_noi(attr)
        assert len(self.ns_ids) == 6, "Lexbor namespace ids not distinct"
        template = probe.css_first("template").mem_id
        content = html.template_fragments()[0].mem_id
        self.template_offset = next(offset for offset in range(96, 1024, 8)
                                    if read(template + offset) == content)

    @staticmethod
    def _word(address):
        return ctypes.c_size_t.from_address(address).value

    def _string(self, function, node):
        length = ctypes.c_size_t(0)
        data = function(node, ctypes.byref(length))
        if not data:
            return ""
        return ctypes.string_at(data, length.value).decode("utf-8", "surrogateescape")


class LexborAdapter(Adapter):
    def __init__(self, lexbor: _Lexbor):
        self.x = lexbor
        self.lib = lexbor.lib

    def children(self, node):
        lib = self.lib
        child = lib.lxb_dom_node_first_child_noi(node)
        out = []
        while child:
            out.append(child)
            child = lib.lxb_dom_node_next_noi(child)
        return out

    def kind(self, node):
        return _Lexbor.NODE_TYPES.get(self.lib.lxb_dom_node_type_noi(node))

    def element(self, node):
        x, lib = self.x, self.lib
        ns = x.ns_ids.get(x._word(node + 24), "?")
        attrs = []
        attr = lib.lxb_dom_element_first_attribute_noi(node)
        while attr:
            a_ns = x.ns_ids.get(x._word(attr + 24))
            # The qualified name keeps the adjusted case (viewBox); the
            # local name is lowercase.
            prefix, _, local = x._string(lib.lxb_dom_attr_qualified_name, attr).rpartition(":")
            if a_ns is None:
                prefix, local = None, (prefix + ":" if prefix else "") + local
            attrs.append((a_ns, prefix, local, x._string(lib.lxb_dom_attr_value_noi, attr)))
            attr = lib.lxb_dom_element_next_attribute_noi(attr)
        return ns, x._string(lib.lxb_dom_element_qualified_name, node), attrs

    def text(self, node):
        return self.x._string(self.lib.lxb_dom_node_text_content, node)

    def pi(self, node):
        return (self.x._string(self.lib.lxb_dom_processing_instruction_target_noi, node),
                self.text(node))

    def doctype(self, node):
        lib, s = self.lib, self.x._string
        return (s(lib.lxb_dom_document_type_name_noi, node),
                s(lib.lxb_dom_document_type_public_id_noi, node),
                s(lib.lxb_dom_document_type_system_id_noi, node))

    def template_content(self, node):
        content = self.x._word(node + self.x.template_offset)
        return content or None


class SelectolaxPeer(Peer):
    """Lexbor, through selectolax (selectolax 1.0 dropped its Modest backend)."""
    name = "selectolax"
    processing_instructions = True
    _lexbor: Optional[_Lexbor] = None

    def available(self):
        try:
            if SelectolaxPeer._lexbor is None:
                SelectolaxPeer._lexbor = _Lexbor()
        except (ImportError, OSError, AttributeError, AssertionError, IndexError,
                StopIteration):
            return False
        return True

    def parse(self, case):
        lexbor = SelectolaxPeer._lexbor
        assert lexbor is not None
        module, lib = lexbor.module, lexbor.lib
        adapter = LexborAdapter(lexbor)
        if case.context:
            name, ns = case.context
            try:
                parser = module.LexborHTMLParser(case.data, is_fragment=True,
                                                 fragment_tag=name, fragment_namespace=ns,
                                                 scripting=case.scripting)
            except ValueError as exc:
                if "fragment tag" in str(exc):
                    raise Unsupported(str(exc))
                raise
            first = parser.root
            if first is None:
                return ""
            roots = adapter.children(lib.lxb_dom_node_parent_noi(first.mem_id))
        else:
            parser = module.LexborHTMLParser(case.data, scripting=case.scripting)
            document = lexbor._word(parser.root.mem_id + 56) if parser.root is not None \
                else None
            if not document:
                return ""
            roots = adapter.children(document)
        result = format_tree(roots, adapter)
        del parser
        return result


PEERS: List[Peer] = [JustHTMLPeer(), MarkupeverPeer(), SelectolaxPeer(), TurboPeer(),
                     Html5libPeer()]


def available_peers(names: Optional[Sequence[str]] = None) -> List[Peer]:
    """The peers that are installed (and named in `names`, when given)."""
    return [peer for peer in PEERS
            if (names is None or peer.name in names) and peer.available()]


# ---------------------------------------------------------------------------
# Comparison and clustering
# ---------------------------------------------------------------------------

def _run_parser(parser: Peer, case: Case) -> Optional[str]:
    try:
        return parser.parse(case)
    except Unsupported:
        return None
    except Exception as exc:            # a peer's crash is a result too
        return "#error %s: %s" % (type(exc).__name__, str(exc)[:200])


def compare(case: Case, peers: Sequence[Peer]) -> Dict[str, str]:
    """The dump of every parser that can parse `case`: "lexpy" (PIs on),
    "lexpy-no-pi" (when the input could hold one) and each peer's."""
    out: Dict[str, str] = {"lexpy": _run_parser(Lexpy(True), case) or ""}
    if "<?" in case.data:
        out["lexpy-no-pi"] = _run_parser(Lexpy(False), case) or ""
    for peer in peers:
        if peer.supports(case):
            dump = _run_parser(peer, case)
            if dump is not None:
                out[peer.name] = dump
    return out


def _lexpy_for(peer: Peer, dumps: Dict[str, str]) -> str:
    if peer.processing_instructions or "lexpy-no-pi" not in dumps:
        return dumps["lexpy"]
    return dumps["lexpy-no-pi"]


def agreement_pattern(dumps: Dict[str, str], peers: Sequence[Peer]) -> Optional[str]:
    """Which parsers build the same tree, as "lexpy+a | b+c", or None when
    every peer agrees with lexpy. Peers with PIs and peers without them are
    only compared with each other through lexpy (an input with "<?" gives
    different, equally right trees with and without PIs)."""
    present = [peer for peer in peers if peer.name in dumps]
    against = {peer.name: dumps[peer.name] == _lexpy_for(peer, dumps) for peer in present}
    if all(against.values()):
        return None
    groups: List[List[str]] = [["lexpy"] + [p.name for p in present if against[p.name]]]
    split = "lexpy-no-pi" in dumps and dumps["lexpy-no-pi"] != dumps["lexpy"]
    others: List[Tuple[str, bool, str]] = [
        (p.name, p.processing_instructions, dumps[p.name]) for p in present
        if not against[p.name]]
    classes: List[Tuple[bool, str, List[str]]] = []
    for name, pis, dump in others:
        for key_pis, key_dump, members in classes:
            if key_dump == dump and (key_pis == pis or not split):
                members.append(name)
                break
        else:
            classes.append((pis, dump, [name]))
    groups += [members for _, _, members in classes]
    return " | ".join("+".join(group) for group in groups)


def _first_difference(a: str, b: str) -> str:
    """The first line where dumps a and b part, with text and attribute
    values blanked: a signature that tells apart problems within a pattern."""
    lines_a, lines_b = a.split("\n"), b.split("\n")
    for i in range(max(len(lines_a), len(lines_b))):
        left = lines_a[i] if i < len(lines_a) else "<end>"
        right = lines_b[i] if i < len(lines_b) else "<end>"
        if left != right:
            def blank(line):
                line = re.sub(r'"[^"]*"?$', '"…"', line.strip("| "))
                return re.sub(r"<!-- .*", "<!-- … -->", line)
            return "%s / %s" % (blank(left), blank(right))
    return "(same lines)"


def signature(dumps: Dict[str, str], peers: Sequence[Peer]) -> str:
    """Where the first peer that disagrees with lexpy parts from it."""
    for peer in peers:
        if peer.name in dumps and dumps[peer.name] != _lexpy_for(peer, dumps):
            return _first_difference(_lexpy_for(peer, dumps), dumps[peer.name])
    return ""


@dataclass
class Disagreement:
    """One input on which some peer's tree is not lexpy's."""
    index: int
    pattern: str
    signature: str
    length: int
    area: str


def _check_range(args) -> Tuple[int, Counter, List[Disagreement], float]:
    seed, start, stop, names = args
    peers = available_peers(names)
    per_peer: Counter = Counter()
    found: List[Disagreement] = []
    t0 = time.perf_counter()
    for index in range(start, stop):
        case = generate(seed, index)
        dumps = compare(case, peers)
        pattern = agreement_pattern(dumps, peers)
        if pattern is None:
            continue
        for peer in peers:
            if peer.name in dumps and dumps[peer.name] != _lexpy_for(peer, dumps):
                per_peer[peer.name] += 1
        found.append(Disagreement(index, pattern, signature(dumps, peers),
                                  len(case.data), case.area))
    return stop - start, per_peer, found, time.perf_counter() - t0


# ---------------------------------------------------------------------------
# Minimisation
# ---------------------------------------------------------------------------

_TOKEN = re.compile(r"<!--.*?-->|<[^>]*>?|&[#\w]*;?|[^<&]+", re.S)


def _ddmin(items: List[str], keeps: Callable[[List[str]], bool]) -> List[str]:
    """Zeller's delta debugging: a 1-minimal sublist of `items` that keeps
    the predicate."""
    n = 2
    while len(items) >= 2:
        chunk = max(1, len(items) // n)
        subsets = [items[i:i + chunk] for i in range(0, len(items), chunk)]
        reduced = False
        for i in range(len(subsets)):
            complement = [x for j, s in enumerate(subsets) if j != i for x in s]
            if keeps(subsets[i]):
                items, n, reduced = subsets[i], 2, True
                break
            if keeps(complement):
                items, n, reduced = complement, max(n - 1, 2), True
                break
        if not reduced:
            if n >= len(items):
                break
            n = min(len(items), n * 2)
    return items


def minimise(data: str, keeps: Callable[[str], bool], budget: int = 4000) -> str:
    """A small input that still `keeps` (delta debugging over tokens, then
    over characters; at most `budget` predicate calls)."""
    calls = [0]
    seen: Dict[str, bool] = {}

    def test(text: str) -> bool:
        if text in seen:
            return seen[text]
        if calls[0] >= budget:
            return False
        calls[0] += 1
        seen[text] = result = keeps(text)
        return result

    if not test(data):
        return data
    tokens = _TOKEN.findall(data)
    if "".join(tokens) != data:
        tokens = list(data)
    data = "".join(_ddmin(tokens, lambda part: test("".join(part))))
    data = "".join(_ddmin(list(data), lambda part: test("".join(part))))
    # A last pass: drop single characters anywhere ddmin's chunks missed.
    i = 0
    while i < len(data):
        candidate = data[:i] + data[i + 1:]
        if test(candidate):
            data = candidate
        else:
            i += 1
    return data


def _minimise_one(args) -> dict:
    seed, index, names = args
    peers = available_peers(names)
    case = generate(seed, index)
    dumps = compare(case, peers)
    target = agreement_pattern(dumps, peers)

    def keeps(text: str) -> bool:
        candidate = Case(case.index, text, case.area, case.context, case.scripting)
        return agreement_pattern(compare(candidate, peers), peers) == target

    small = minimise(case.data, keeps)
    final = Case(case.index, small, case.area, case.context, case.scripting)
    dumps = compare(final, peers)
    return {"index": index, "pattern": target, "original": case.data, "input": small,
            "context": list(case.context) if case.context else None,
            "scripting": case.scripting, "description": final.describe(),
            "dumps": dumps, "still_matches": agreement_pattern(dumps, peers) == target}


# ---------------------------------------------------------------------------
# Running and reporting
# ---------------------------------------------------------------------------

def run(seed: int = 0, count: int = 1000, jobs: int = 1,
        peers: Optional[Sequence[str]] = None, examples: int = 3,
        progress: bool = False) -> dict:
    """Run `count` inputs; return the report as a dict (see --json)."""
    names = [p.name for p in available_peers(peers)]
    t0 = time.perf_counter()
    block = max(1, min(500, count // (jobs * 8) or 1))
    ranges = [(seed, start, min(count, start + block), names)
              for start in range(0, count, block)]
    per_peer: Counter = Counter()
    found: List[Disagreement] = []
    done = 0
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    try:
        results = pool.imap_unordered(_check_range, ranges) if pool else map(
            _check_range, ranges)
        for n, counts, disagreements, _ in results:
            done += n
            per_peer.update(counts)
            found.extend(disagreements)
            if progress:
                elapsed = time.perf_counter() - t0
                print("%d/%d inputs, %d disagreements, %.0f inputs/s" % (
                    done, count, len(found), done / elapsed), file=sys.stderr, flush=True)
        check_seconds = time.perf_counter() - t0
        found.sort(key=lambda d: d.index)      # the same order for any --jobs
        # Clusters: by pattern, then by where the trees part; the shortest
        # inputs of each sub-cluster are minimised.
        by_pattern: Dict[str, Dict[str, List[Disagreement]]] = defaultdict(
            lambda: defaultdict(list))
        for d in found:
            by_pattern[d.pattern][d.signature].append(d)
        jobs_list = []
        for pattern, subs in by_pattern.items():
            ordered = sorted(subs.items(), key=lambda item: (-len(item[1]), item[0]))
            for sig, items in ordered[:examples]:
                shortest = min(items, key=lambda d: (d.length, d.index))
                jobs_list.append((seed, shortest.index, names))
        minimised = (pool.map(_minimise_one, jobs_list) if pool
                     else [_minimise_one(j) for j in jobs_list])
    finally:
        if pool:
            pool.close()
            pool.join()
    clusters = []
    for pattern, subs in sorted(by_pattern.items(), key=lambda item: (
            -sum(len(v) for v in item[1].values()), item[0])):
        total = sum(len(v) for v in subs.values())
        areas = Counter(d.area for v in subs.values() for d in v)
        examples_out = []
        seen_inputs = set()
        for m in minimised:
            if m["pattern"] == pattern and (m["input"], m["description"]) not in seen_inputs:
                seen_inputs.add((m["input"], m["description"]))
                examples_out.append(m)
        clusters.append({"pattern": pattern, "inputs": total, "signatures": len(subs),
                         "first_input": min(d.index for v in subs.values() for d in v),
                         "areas": dict(areas.most_common()), "examples": examples_out})
    # When each cluster was first met: a run that still finds new ones in
    # its last tenth has not exhausted them.
    tenths = [0] * 10
    for cluster in clusters:
        tenths[min(9, cluster["first_input"] * 10 // max(1, count))] += 1
    return {"seed": seed, "count": count, "peers": names,
            "inputs_per_second": round(count / check_seconds, 1) if check_seconds else None,
            "seconds": round(time.perf_counter() - t0, 1),
            "disagreeing_inputs": len(found),
            "per_peer_disagreements": {name: per_peer.get(name, 0) for name in names},
            "new_clusters_per_tenth": tenths,
            "clusters": clusters}


def _side_by_side(dumps: Dict[str, str], width: int = 44) -> str:
    groups: Dict[str, List[str]] = defaultdict(list)
    for name, dump in dumps.items():
        groups[dump].append(name)
    columns = [(" = ".join(names), dump.split("\n") if dump else ["(empty)"])
               for dump, names in groups.items()]
    lines = []
    for start in range(0, len(columns), 3):
        row = columns[start:start + 3]
        lines.append("  ".join(title[:width].ljust(width) for title, _ in row).rstrip())
        lines.append("  ".join(("-" * min(width, len(title))).ljust(width)
                               for title, _ in row).rstrip())
        for i in range(max(len(body) for _, body in row)):
            lines.append("  ".join((body[i] if i < len(body) else "")[:width].ljust(width)
                                   for _, body in row).rstrip())
        lines.append("")
    return "\n".join(lines)


def lexpy_in_minority(pattern: str) -> bool:
    """True when some other group of the pattern is larger than lexpy's, or
    lexpy stands alone against two or more peers: the clusters to judge
    first."""
    groups = [group.split("+") for group in pattern.split(" | ")]
    mine = len(groups[0])
    others = [len(g) for g in groups[1:]]
    return max(others) > mine or (mine == 1 and sum(others) >= 2)


def format_report(report: dict) -> str:
    """The report as text: figures, then each cluster with its examples."""
    out = ["differential run: seed %d, %d inputs, %.1f inputs/s, %.0f s" % (
        report["seed"], report["count"], report["inputs_per_second"] or 0, report["seconds"]),
        "peers: " + ", ".join(report["peers"]),
        "inputs where some peer disagrees with lexpy: %d" % report["disagreeing_inputs"],
        "per peer: " + ", ".join("%s %d" % item for item in
                                 report["per_peer_disagreements"].items()),
        "clusters (agreement patterns): %d; first met per tenth of the run: %s" % (
            len(report["clusters"]), " ".join(map(str, report["new_clusters_per_tenth"]))),
        "clusters where lexpy is in the minority: %s" % (", ".join(
            str(n) for n, c in enumerate(report["clusters"], 1)
            if lexpy_in_minority(c["pattern"])) or "none"), ""]
    for number, cluster in enumerate(report["clusters"], 1):
        out.append("=" * 78)
        out.append("cluster %d: %s%s  (%d inputs, %d signatures; areas %s)" % (
            number, cluster["pattern"],
            "  [lexpy in the minority]" if lexpy_in_minority(cluster["pattern"]) else "", cluster["inputs"], cluster["signatures"],
            ", ".join("%s %d" % item for item in list(cluster["areas"].items())[:5])))
        for example in cluster["examples"]:
            out.append("-- minimised: %r  [%s]%s" % (
                example["input"], example["description"],
                "" if example["still_matches"] else " (pattern changed)"))
            out.append(_side_by_side(example["dumps"]))
    return "\n".join(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=0, help="the run's seed")
    p.add_argument("--count", type=int, default=1000, help="number of inputs")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--peers", help="comma-separated peers (default: all installed)")
    p.add_argument("--examples", type=int, default=3,
                   help="minimised examples per cluster (distinct signatures)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--show", type=int, metavar="INDEX",
                   help="print one input and every parser's dump")
    p.add_argument("--progress", action="store_true", help="progress on stderr")
    args = p.parse_args(argv)
    # Inputs hold lone surrogates (the input stream allows them).
    sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[attr-defined]
    names = args.peers.split(",") if args.peers else None
    if args.show is not None:
        peers = available_peers(names)
        case = generate(args.seed, args.show)
        dumps = compare(case, peers)
        print("%r  [%s]" % (case.data, case.describe()))
        print("pattern:", agreement_pattern(dumps, peers) or "all agree")
        print(_side_by_side(dumps))
        return 0
    report = run(args.seed, args.count, args.jobs, names, args.examples, args.progress)
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
    else:
        print(format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
