"""Serialization with html5lib's serializer options.

``lexpy.serialize(node, **options)`` walks a tree and
``lexpy.dom.serialize_tokens(tokens, **options)`` takes an html5lib-style
token stream (the input format of html5lib-tests' serializer/*.test); both
run the same pipeline as html5lib's HTMLSerializer: the optional filters
(inject_meta_charset, alphabetical_attributes, strip_whitespace,
omit_optional_tags) and then the writer. The defaults are html5lib's, so the
output matches what html5lib.serializer.serialize() gives for the same tree,
with the current standard's escaping of attribute values ('<' and '>'
become '&lt;' and '&gt;') and of U+00A0 ('&nbsp;').

For the standard's own serialization (no options, no omitted tags) use
``node.to_html()``, which is written in C and much faster.

Options (html5lib's names and defaults):

quote_attr_values ("legacy")
    "always" (or True) quotes every value; "spec" and "legacy" (or False)
    leave a value unquoted when that is unambiguous: not empty, and without
    whitespace, quotes, '=', '>' or '`'.
quote_char ('"')
    the quote to use, '"' or "'".
use_best_quote_char (True, or False when quote_char is given)
    use the other quote when the value holds only the preferred one.
omit_optional_tags (True)
    leave out start and end tags the standard lets a document omit.
minimize_boolean_attributes (True)
    write boolean attributes ('disabled', 'checked', ...) as bare names.
use_trailing_solidus (False), space_before_trailing_solidus (True)
    end void elements with " /" (or "/").
escape_lt_in_attrs (False)
    accepted for compatibility; '<' and '>' in values are always escaped,
    as the current standard does.
escape_rcdata (False)
    escape the text of raw-text elements (script, style, ...) too.
resolve_entities (True)
    for "Entity" tokens: write the character instead of the reference
    (never for the XML predefined ones).
alphabetical_attributes (False)
    write attributes sorted by (namespace, name).
inject_meta_charset (True)
    with `encoding`, write or fix <meta charset> in <head>.
strip_whitespace (False)
    collapse runs of whitespace to one space outside pre, textarea and
    raw-text elements.
encoding (None)
    the character encoding named by inject_meta_charset. The result is
    always a str.
scripting (the document's flag; True for token streams)
    whether <noscript> holds raw text (it does when scripting was enabled
    for the parse).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterable, Iterator, List, Optional

from lexpy.dom import dom as _dom

if TYPE_CHECKING:
    from lexpy.dom.dom import Node

__all__ = ["serialize", "serialize_tokens", "SerializerError"]

HTML_NAMESPACE = "http://www.w3.org/1999/xhtml"
XLINK_NAMESPACE = "http://www.w3.org/1999/xlink"
XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace"
XMLNS_NAMESPACE = "http://www.w3.org/2000/xmlns/"

SPACE_CHARACTERS = "\t\n\x0c\r "


# Which elements serialize as void and which keep their text raw, and how
# text and attribute values are escaped, are the C serializer's (lexpy.dom's
# tables, the same as to_html() uses), not restated here.
def _is_void(name: str) -> bool:
    return bool(_dom._serialization_rules(name, False) & _dom.SERIALIZES_AS_VOID)


def _is_raw_text(name: str, scripting: bool) -> bool:
    return bool(_dom._serialization_rules(name, scripting) & _dom.RAW_TEXT)


def _preserves_whitespace(name: str) -> bool:
    # strip_whitespace leaves these alone (html5lib's list: pre, textarea
    # and the raw-text elements with noscript).
    return name in ("pre", "textarea") or _is_raw_text(name, True)

# Boolean attributes that minimize_boolean_attributes writes as bare names:
# the current standard's, by element ("" for any element), plus the few
# that html5lib's serializer also minimizes (irrelevant, scoped, seamless,
# autosubmit) so its output is reproduced.
BOOLEAN_ATTRIBUTES = {
    "": frozenset(["autofocus", "inert", "itemscope", "irrelevant"]),
    "audio": frozenset(["autoplay", "controls", "loop", "muted"]),
    "video": frozenset(["autoplay", "controls", "loop", "muted", "playsinline"]),
    "button": frozenset(["disabled", "formnovalidate"]),
    "details": frozenset(["open"]),
    "dialog": frozenset(["open"]),
    "fieldset": frozenset(["disabled", "readonly"]),
    "form": frozenset(["novalidate"]),
    "hr": frozenset(["noshade"]),
    "iframe": frozenset(["allowfullscreen", "seamless"]),
    "img": frozenset(["ismap"]),
    "input": frozenset(["alpha", "checked", "disabled", "formnovalidate",
                        "ismap", "multiple", "readonly", "required"]),
    "link": frozenset(["disabled"]),
    "menu": frozenset(["autosubmit"]),
    "ol": frozenset(["reversed"]),
    "optgroup": frozenset(["disabled", "readonly"]),
    "option": frozenset(["disabled", "readonly", "selected"]),
    "output": frozenset(["disabled", "readonly"]),
    "script": frozenset(["async", "defer", "nomodule"]),
    "select": frozenset(["disabled", "multiple", "readonly", "required"]),
    "style": frozenset(["scoped"]),
    "template": frozenset(["shadowrootclonable", "shadowrootdelegatesfocus",
                           "shadowrootserializable"]),
    "textarea": frozenset(["disabled", "readonly", "required"]),
    "track": frozenset(["default"]),
}

XML_ENTITIES = frozenset(["lt;", "gt;", "amp;", "apos;", "quot;"])

# An unquoted attribute value must not be empty or contain these.
_NEEDS_QUOTES = re.compile("[\t\n\x0c\r \"'=>`]")

_OPTION_DEFAULTS = {
    "quote_attr_values": "legacy",
    "quote_char": '"',
    "use_best_quote_char": True,
    "omit_optional_tags": True,
    "minimize_boolean_attributes": True,
    "use_trailing_solidus": False,
    "space_before_trailing_solidus": True,
    "escape_lt_in_attrs": False,
    "escape_rcdata": False,
    "resolve_entities": True,
    "alphabetical_attributes": False,
    "inject_meta_charset": True,
    "strip_whitespace": False,
    "encoding": None,
    "scripting": None,
}


class SerializerError(ValueError):
    """A token stream that cannot be serialized."""


class _Options:
    __slots__ = tuple(_OPTION_DEFAULTS)

    def __init__(self, options: dict) -> None:
        for name in options:
            if name not in _OPTION_DEFAULTS:
                raise TypeError("unknown serializer option %r" % name)
        for name, default in _OPTION_DEFAULTS.items():
            setattr(self, name, options.get(name, default))
        # As html5lib: an explicit quote_char is kept unless the caller also
        # asks for the best quote character.
        if "quote_char" in options and "use_best_quote_char" not in options:
            self.use_best_quote_char = False
        if self.quote_attr_values is True:
            self.quote_attr_values = "always"
        elif self.quote_attr_values is False or self.quote_attr_values is None:
            self.quote_attr_values = "legacy"
        if self.quote_attr_values not in ("always", "spec", "legacy"):
            raise ValueError("quote_attr_values must be 'always', 'spec', "
                             "'legacy', True or False, not %r"
                             % (self.quote_attr_values,))
        if self.quote_char not in ('"', "'"):
            raise ValueError("quote_char must be '\"' or \"'\", not %r"
                             % (self.quote_char,))
        if self.encoding is not None and not isinstance(self.encoding, str):
            raise TypeError("encoding must be a str or None")


# ---------------------------------------------------------------------------
# Tokens: dicts as html5lib's tree walkers make them. Attributes are a list
# of (namespace, local name, value, prefix) in order.
# ---------------------------------------------------------------------------

def _text_tokens(data: str) -> Iterator[dict]:
    """Text as html5lib's walkers give it: leading and trailing whitespace
    as SpaceCharacters tokens around a Characters token."""
    middle = data.lstrip(SPACE_CHARACTERS)
    left = data[:len(data) - len(middle)]
    if left:
        yield {"type": "SpaceCharacters", "data": left}
    stripped = middle.rstrip(SPACE_CHARACTERS)
    right = middle[len(stripped):]
    if stripped:
        yield {"type": "Characters", "data": stripped}
    if right:
        yield {"type": "SpaceCharacters", "data": right}


def _json_attributes(attributes) -> list:
    if isinstance(attributes, dict):        # html5lib-tests write {} for none
        return [(None, name, value, None) for name, value in attributes.items()]
    return [(a.get("namespace"), a["name"], a["value"], None) for a in attributes]


def _json_tokens(tokens: Iterable) -> Iterator[dict]:
    """html5lib-tests serializer tokens to walker tokens."""
    for token in tokens:
        if not isinstance(token, (list, tuple)) or not token:
            raise SerializerError("a token must be a non-empty list, not %r"
                                  % (token,))
        kind = token[0]
        if kind == "StartTag":
            if len(token) == 4:
                namespace, name, attributes = token[1:4]
            else:
                namespace, (name, attributes) = HTML_NAMESPACE, token[1:3]
            yield {"type": "StartTag", "namespace": namespace, "name": name,
                   "data": _json_attributes(attributes)}
        elif kind == "EmptyTag":
            if len(token) == 4:
                namespace, name, attributes = token[1:4]
            else:
                namespace, (name, attributes) = HTML_NAMESPACE, token[1:3]
            yield {"type": "EmptyTag", "namespace": namespace, "name": name,
                   "data": _json_attributes(attributes)}
        elif kind == "EndTag":
            if len(token) == 3:
                namespace, name = token[1:3]
            else:
                namespace, name = HTML_NAMESPACE, token[1]
            yield {"type": "EndTag", "namespace": namespace, "name": name}
        elif kind in ("Characters", "SpaceCharacters"):
            yield from _text_tokens(token[1])
        elif kind == "Comment":
            yield {"type": "Comment", "data": token[1]}
        elif kind == "Doctype":
            yield {"type": "Doctype", "name": token[1],
                   "publicId": token[2] if len(token) > 2 else None,
                   "systemId": token[3] if len(token) > 3 else None}
        elif kind == "Entity":
            yield {"type": "Entity", "name": token[1]}
        elif kind == "ProcessingInstruction":
            yield {"type": "ProcessingInstruction", "target": token[1],
                   "data": token[2]}
        else:
            raise SerializerError("unknown token type %r" % (kind,))


def _children(node) -> list:
    content = getattr(node, "content", None)
    return (content if content is not None else node).child_nodes


def _is_raw_text_parent(parent, scripting: bool) -> bool:
    if parent is None or parent.node_type != 1 or parent.namespace_uri != HTML_NAMESPACE:
        return False
    return _is_raw_text(parent.local_name, scripting)


def _tree_tokens(node, include_node: bool, scripting: bool) -> Iterator[dict]:
    """Walker tokens of a tree (iterative: an explicit stack, not
    recursion). A template contributes its contents; text tokens say
    whether their parent keeps them raw."""
    from lexpy.dom import Node
    if include_node:
        stack = [(node, False)]
    else:
        stack = [(child, False) for child in reversed(_children(node))]
    while stack:
        current, closing = stack.pop()
        kind = current.node_type
        if closing:
            yield {"type": "EndTag", "namespace": current.namespace_uri,
                   "name": current.local_name, "prefix": current.prefix}
        elif kind == Node.ELEMENT_NODE:
            namespace = current.namespace_uri
            attributes = [(ns, local, value, prefix) for ns, prefix, local, value
                          in current.attribute_nodes()]
            if namespace == HTML_NAMESPACE and _is_void(current.local_name):
                yield {"type": "EmptyTag", "namespace": namespace,
                       "name": current.local_name, "data": attributes}
                continue
            yield {"type": "StartTag", "namespace": namespace,
                   "name": current.local_name, "data": attributes,
                   "prefix": current.prefix}
            stack.append((current, True))
            stack.extend((child, False) for child in reversed(_children(current)))
        elif kind == Node.TEXT_NODE:
            raw = _is_raw_text_parent(current.parent, scripting)
            for token in _text_tokens(current.data):
                token["raw"] = raw
                yield token
        elif kind == Node.COMMENT_NODE:
            yield {"type": "Comment", "data": current.data}
        elif kind == Node.PROCESSING_INSTRUCTION_NODE:
            yield {"type": "ProcessingInstruction", "target": current.target,
                   "data": current.data}
        elif kind == Node.DOCUMENT_TYPE_NODE:
            yield {"type": "Doctype", "name": current.name,
                   "publicId": current.public_id, "systemId": current.system_id}
        else:   # Document or DocumentFragment inside the walk: its children
            stack.extend((child, False) for child in reversed(_children(current)))


# ---------------------------------------------------------------------------
# Filters (html5lib's, same order)
# ---------------------------------------------------------------------------

def _inject_meta_charset(tokens: Iterable[dict], encoding: str) -> Iterator[dict]:
    """Point <meta charset> (or http-equiv content-type) in <head> at
    `encoding`, adding <meta charset> when there is none."""
    state = "pre_head"
    meta_found = False
    pending: List[dict] = []
    for token in tokens:
        kind = token["type"]
        if kind == "StartTag":
            if token["name"].lower() == "head":
                state = "in_head"
        elif kind == "EmptyTag":
            if token["name"].lower() == "meta":
                attributes = token["data"]
                has_content_type = False
                for index, (namespace, name, value, prefix) in enumerate(attributes):
                    if namespace is not None:
                        continue
                    if name.lower() == "charset":
                        attributes[index] = (namespace, name, encoding, prefix)
                        meta_found = True
                        break
                    if name == "http-equiv" and value.lower() == "content-type":
                        has_content_type = True
                else:
                    if has_content_type:
                        for index, (namespace, name, _, prefix) in enumerate(attributes):
                            if namespace is None and name == "content":
                                attributes[index] = (
                                    None, name, "text/html; charset=%s" % encoding,
                                    prefix)
                                meta_found = True
                                break
            elif token["name"].lower() == "head" and not meta_found:
                yield {"type": "StartTag", "namespace": token.get("namespace"),
                       "name": "head", "data": token["data"]}
                yield {"type": "EmptyTag", "namespace": HTML_NAMESPACE,
                       "name": "meta", "data": [(None, "charset", encoding, None)]}
                yield {"type": "EndTag", "namespace": token.get("namespace"),
                       "name": "head"}
                meta_found = True
                continue
        elif kind == "EndTag":
            if token["name"].lower() == "head" and pending:
                yield pending.pop(0)            # the <head> start tag
                if not meta_found:
                    yield {"type": "EmptyTag", "namespace": HTML_NAMESPACE,
                           "name": "meta", "data": [(None, "charset", encoding, None)]}
                yield from pending
                pending = []
                meta_found = True
                state = "post_head"
        if state == "in_head":
            pending.append(token)
        else:
            yield token
    yield from pending


def _alphabetical_attributes(tokens: Iterable[dict]) -> Iterator[dict]:
    for token in tokens:
        if token["type"] in ("StartTag", "EmptyTag"):
            token = dict(token)
            token["data"] = sorted(token["data"],
                                   key=lambda a: (a[0] or "", a[1]))
        yield token


_SPACE_RUN = re.compile("[\t\n\x0c\r ]+")


def _strip_whitespace(tokens: Iterable[dict]) -> Iterator[dict]:
    preserve = 0
    for token in tokens:
        kind = token["type"]
        if kind == "StartTag":
            if preserve or _preserves_whitespace(token["name"]):
                preserve += 1
        elif kind == "EndTag":
            if preserve:
                preserve -= 1
        elif not preserve and kind == "SpaceCharacters" and token["data"]:
            token = {"type": "SpaceCharacters", "data": " "}
        elif not preserve and kind == "Characters":
            token = {"type": "Characters",
                     "data": _SPACE_RUN.sub(" ", token["data"])}
        yield token


# The "optional tags" rules of the standard as html5lib applies them
# (https://html.spec.whatwg.org/multipage/syntax.html#optional-tags).
_P_CLOSERS = frozenset(
    "address article aside blockquote datagrid dialog dir div dl fieldset "
    "footer form h1 h2 h3 h4 h5 h6 header hr menu nav ol p pre section table "
    "ul".split())


_P_KEEPING_PARENTS = frozenset("a audio del ins map noscript video".split())


def _is_optional_start(name: str, previous: Optional[dict],
                       following: Optional[dict]) -> bool:
    kind = following["type"] if following else None
    if name == "html":
        # ... if the first thing inside is not a space character or comment
        return kind not in ("Comment", "SpaceCharacters")
    if name == "head":
        # ... if the first thing inside is an element (or it is empty)
        if kind in ("StartTag", "EmptyTag"):
            return True
        if kind == "EndTag":
            return following["name"] == "head"
        return False
    if name == "body":
        # ... unless the first thing inside is a space character, a comment,
        # or a script or style element
        if kind in ("Comment", "SpaceCharacters"):
            return False
        if kind == "StartTag":
            return following["name"] not in ("script", "style")
        return True
    if name == "colgroup":
        # ... if the first thing inside is a col element (the end tag of a
        # preceding colgroup is then never omitted)
        if kind in ("StartTag", "EmptyTag"):
            return following["name"] == "col"
        return False
    if name == "tbody":
        # ... if the first thing inside is a tr element and no tbody, thead
        # or tfoot end tag was omitted just before
        if kind == "StartTag":
            if previous and previous["type"] == "EndTag" and \
                    previous["name"] in ("tbody", "thead", "tfoot"):
                return False
            return following["name"] == "tr"
        return False
    return False


def _is_optional_end(name: str, following: Optional[dict]) -> bool:
    kind = following["type"] if following else None
    at_end = kind == "EndTag" or kind is None
    if name in ("html", "head", "body"):
        return kind not in ("Comment", "SpaceCharacters")
    if name in ("li", "optgroup", "tr"):
        if kind == "StartTag":
            return following["name"] == name
        return at_end
    if name in ("dt", "dd"):
        if kind == "StartTag":
            return following["name"] in ("dt", "dd")
        return at_end if name == "dd" else False
    if name == "p":
        if kind in ("StartTag", "EmptyTag"):
            return following["name"] in _P_CLOSERS
        if kind == "EndTag":
            # The end tag that follows is the parent's: the standard keeps
            # </p> in a, audio, del, ins, map, noscript, video and custom
            # elements (html5lib's filter does not look at the parent).
            parent = following["name"]
            return parent not in _P_KEEPING_PARENTS and "-" not in parent
        return at_end
    if name == "option":
        if kind == "StartTag":
            return following["name"] in ("option", "optgroup")
        return at_end
    if name in ("rt", "rp"):
        if kind == "StartTag":
            return following["name"] in ("rt", "rp")
        return at_end
    if name == "colgroup":
        if kind in ("Comment", "SpaceCharacters"):
            return False
        if kind == "StartTag":
            return following["name"] != "colgroup"
        return True
    if name in ("thead", "tbody"):
        if kind == "StartTag":
            return following["name"] in ("tbody", "tfoot")
        return at_end if name == "tbody" else False
    if name == "tfoot":
        if kind == "StartTag":
            return following["name"] == "tbody"
        return at_end
    if name in ("td", "th"):
        if kind == "StartTag":
            return following["name"] in ("td", "th")
        return at_end
    return False


def _omit_optional_tags(tokens: Iterable[dict]) -> Iterator[dict]:
    previous = current = None
    has_current = False
    for following in list(tokens) + [None]:
        if has_current:
            kind = current["type"]
            if kind == "StartTag":
                if current["data"] or not _is_optional_start(
                        current["name"], previous, following):
                    yield current
            elif kind == "EndTag":
                if not _is_optional_end(current["name"], following):
                    yield current
            else:
                yield current
            previous = current
        current = following
        has_current = True


# ---------------------------------------------------------------------------
# The writer
# ---------------------------------------------------------------------------

def _attribute_name(namespace: Optional[str], name: str,
                    prefix: Optional[str]) -> str:
    # https://html.spec.whatwg.org/multipage/parsing.html#attribute's-serialized-name
    if namespace is None:
        return name
    if namespace == XML_NAMESPACE:
        return "xml:" + name
    if namespace == XMLNS_NAMESPACE:
        return "xmlns" if name == "xmlns" else "xmlns:" + name
    if namespace == XLINK_NAMESPACE:
        return "xlink:" + name
    return name if prefix is None else prefix + ":" + name


FOREIGN_OR_HTML = frozenset([HTML_NAMESPACE, "http://www.w3.org/2000/svg",
                             "http://www.w3.org/1998/Math/MathML", None])


def _tag_name(token: dict) -> str:
    # The local name in the HTML, SVG and MathML namespaces, the qualified
    # name elsewhere.
    prefix = token.get("prefix")
    if prefix is None or token.get("namespace") in FOREIGN_OR_HTML:
        return token["name"]
    return prefix + ":" + token["name"]


def _write(tokens: Iterable[dict], options: _Options,
           scripting: bool) -> Iterator[str]:
    in_raw_text = False
    for token in tokens:
        kind = token["type"]
        if kind == "Doctype":
            doctype = "<!DOCTYPE %s" % token["name"]
            public_id, system_id = token.get("publicId"), token.get("systemId")
            if public_id:
                doctype += ' PUBLIC "%s"' % public_id
            elif system_id:
                doctype += " SYSTEM"
            if system_id:
                quote = "'" if '"' in system_id else '"'
                doctype += " %s%s%s" % (quote, system_id, quote)
            yield doctype + ">"
        elif kind in ("Characters", "SpaceCharacters"):
            raw = token.get("raw", in_raw_text) and not options.escape_rcdata
            if kind == "SpaceCharacters" or raw:
                yield token["data"]
            else:
                yield _dom._escape(token["data"], False)
        elif kind in ("StartTag", "EmptyTag"):
            name = token["name"]
            in_html = token.get("namespace") in (HTML_NAMESPACE, None)
            parts = ["<", _tag_name(token)]
            if in_html and _is_raw_text(name, scripting) and not options.escape_rcdata:
                in_raw_text = True
            booleans = BOOLEAN_ATTRIBUTES.get(name, frozenset()) if in_html \
                else frozenset()
            global_booleans = BOOLEAN_ATTRIBUTES[""] if in_html else frozenset()
            for namespace, attribute, value, prefix in token["data"]:
                key = _attribute_name(namespace, attribute, prefix)
                parts.append(" ")
                parts.append(key)
                if options.minimize_boolean_attributes and (
                        key in booleans or key in global_booleans):
                    continue
                parts.append("=")
                if options.quote_attr_values == "always" or not value:
                    quote_it = True
                else:
                    quote_it = _NEEDS_QUOTES.search(value) is not None
                if quote_it:
                    quote = options.quote_char
                    if options.use_best_quote_char:
                        if "'" in value and '"' not in value:
                            quote = '"'
                        elif '"' in value and "'" not in value:
                            quote = "'"
                    if quote == "'":
                        value = _dom._escape(value, False).replace("'", "&#39;")
                    else:
                        value = _dom._escape(value, True)     # escapes " too
                    parts.extend((quote, value, quote))
                else:
                    parts.append(_dom._escape(value, False))
            if in_html and _is_void(name) and options.use_trailing_solidus:
                parts.append(" /" if options.space_before_trailing_solidus else "/")
            parts.append(">")
            yield "".join(parts)
        elif kind == "EndTag":
            if _is_raw_text(token["name"], scripting):
                in_raw_text = False
            yield "</%s>" % _tag_name(token)
        elif kind == "Comment":
            yield "<!--%s-->" % token["data"]
        elif kind == "ProcessingInstruction":
            yield "<?%s %s?>" % (token["target"], token["data"])
        elif kind == "Entity":
            from html.entities import html5 as named_references
            key = token["name"] + ";"
            if options.resolve_entities and key not in XML_ENTITIES \
                    and key in named_references:
                yield named_references[key]
            else:
                yield "&%s" % key
        else:
            raise SerializerError("unknown token type %r" % (kind,))


def _serialize(tokens: Iterable[dict], options: _Options, scripting: bool) -> str:
    if options.encoding and options.inject_meta_charset:
        tokens = _inject_meta_charset(tokens, options.encoding)
    if options.alphabetical_attributes:
        tokens = _alphabetical_attributes(tokens)
    if options.strip_whitespace:
        tokens = _strip_whitespace(tokens)
    if options.omit_optional_tags:
        tokens = _omit_optional_tags(tokens)
    return "".join(_write(tokens, options, scripting))


def serialize(node: "Node", **options: Any) -> str:
    """Serialize a node with html5lib's serializer options (see the module
    docstring): its children for a Document or DocumentFragment, the node
    itself otherwise. Returns a str."""
    from lexpy.dom import Document, DocumentFragment, Node
    if not isinstance(node, Node):
        raise TypeError("node must be a lexpy Node, not %s" % type(node).__name__)
    settings = _Options(options)
    scripting = settings.scripting
    if scripting is None:
        document = node if isinstance(node, Document) else node.owner_document
        scripting = document.scripting
    include_node = not isinstance(node, (Document, DocumentFragment))
    return _serialize(_tree_tokens(node, include_node, bool(scripting)), settings,
                      bool(scripting))


def serialize_tokens(tokens: Iterable[Any], **options: Any) -> str:
    """Serialize an html5lib-style token stream, as html5lib-tests'
    serializer/*.test write it: lists such as ["StartTag", namespace, name,
    attributes], ["EmptyTag", name, attributes], ["EndTag", namespace,
    name], ["Characters", text], ["Comment", text], ["Doctype", name,
    public_id, system_id]; attributes are lists of {"namespace", "name",
    "value"} dicts. Options as for serialize(); `scripting` defaults to
    True (noscript text is raw, as html5lib writes it)."""
    settings = _Options(options)
    scripting = True if settings.scripting is None else bool(settings.scripting)
    return _serialize(_json_tokens(tokens), settings, scripting)
