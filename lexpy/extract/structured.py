"""Structured data of a page: JSON-LD, microdata, OpenGraph, RDFa Lite and
meta tags, shaped as extruct shapes them (so that code migrates by changing
one call), and microdata as the HTML standard's JSON conversion.

structured_data() is extruct.extract()'s counterpart; microdata_json() is
the standard's "JSON" conversion of microdata."""
import json
import re
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, Tuple
from urllib.parse import urljoin, urlparse

from lexpy.dom import Element, Node
from lexpy.extract._dom import (
    ELEMENT, XHTML, child_text_content, select, descendant_text_content, document_base_url,
    document_of, elements, parse_url, split_on_ascii_whitespace, unique_tokens, walk)
from lexpy.extract.extractor import (
    STRICT_DECODE_FAILS, ExtructMicrodata, html_text, json_fast_decode, json_ld_of,
    json_without_comments, opengraph_of, scan_structured, set_structured_hooks,
    structured_data)

SYNTAXES = ("json-ld", "microdata", "opengraph", "rdfa", "meta")

__all__ = ["SYNTAXES", "structured_data", "json_ld", "microdata", "microdata_json",
           "opengraph", "rdfa", "meta"]


# structured_data(doc, *, base_url=None, syntaxes=None, uniform=False,
# schema_context="http://schema.org", with_og_array=False) is compiled
# (structured.pxi): the scan and what is made from it in C, no Python frame
# a call; it calls back this module's helpers (_HOOKS, at the end) for
# what is rarely run: the lenient JSON pass, RDFa, meta, the uniform shapes.


# ---------------------------------------------------------------- JSON-LD

_WRAPPERS = (("<!--", "-->"), ("<![CDATA[", "]]>"), ("//<![CDATA[", "//]]>"),
             ("/*<![CDATA[*/", "/*]]>*/"))


def json_ld(doc: Node) -> List[Any]:
    """The bodies of the script elements whose type is application/ld+json,
    parsed, in tree order: an array's members one by one, empty bodies and
    null skipped. Lenient as consumers are: the type in any case, a BOM,
    HTML comment and CDATA wrappers, JavaScript comments, raw control
    characters in strings, trailing commas, a trailing semicolon and values
    written one after the other are accepted; a body that still does not parse is an
    error entry ``{"@error": message, "@text": body}`` and the other blocks
    are kept."""
    # json_ld_of (structured.pxi) decodes; what it refuses comes back to
    # _parse_lenient_json
    return json_ld_of(scan_structured(doc, False, True, False)[1], _parse_lenient_json)


# json.loads(text, strict=False) makes a decoder a call: one for all
_DECODER = json.JSONDecoder(strict=False)
# (the decoder's C scanner, which typeshed does not declare)
_SCAN_ONCE: Callable[[str, int], Tuple[Any, int]] = getattr(_DECODER, "scan_once")
_JSON_WHITESPACE = re.compile(r"[ \t\n\r]*")    # json.decoder.WHITESPACE


def _decode(text: str) -> Any:
    """_DECODER.decode(text) (the same value, the same errors) with its
    scanner called directly: decode() and raw_decode() are Python frames
    and two regex matches, more than a short block's scan costs."""
    start = _JSON_WHITESPACE.match(text).end() if text[:1].isspace() else 0  # type: ignore[union-attr]
    try:
        value, end = _SCAN_ONCE(text, start)
    except StopIteration as stop:
        raise json.JSONDecodeError("Expecting value", text, stop.value) from None
    if end != len(text):
        end = _JSON_WHITESPACE.match(text, end).end()  # type: ignore[union-attr]
        if end != len(text):
            raise json.JSONDecodeError("Extra data", text, end)
    return value


def _parse_lenient_json(text: str, strict_error: Optional[ValueError] = None) -> Any:
    # strict_error: what the strict decode of the same stripped text raised
    # (json_ld_of tried it already), which is then not tried again;
    # STRICT_DECODE_FAILS: that decode fails, its error made only if raised
    text = text.lstrip("\ufeff").strip()
    if not text:
        return None
    if strict_error is not None:
        error = strict_error
    else:
        try:
            return _decode(text)
        except ValueError as first:
            error = first
    unwrapped = text
    changed = True
    while changed:
        changed = False
        for start, end in _WRAPPERS:
            if unwrapped.startswith(start) and unwrapped.endswith(end):
                unwrapped = unwrapped[len(start):len(unwrapped) - len(end)].strip()
                changed = True
    cleaned = _without_comments(unwrapped).strip().rstrip(";").rstrip()
    taken, value = json_fast_decode(cleaned)
    if taken:
        return value
    if value is not STRICT_DECODE_FAILS:     # (else that decode fails too)
        try:
            return _decode(cleaned)
        except ValueError:
            pass
    try:
        return _concatenated(cleaned)
    except ValueError:
        pass
    if error is STRICT_DECODE_FAILS:
        try:
            _decode(text)
        except ValueError as strict:
            error = strict
    raise error from None


def _concatenated(text: str) -> List[Any]:
    """Several JSON values one after the other (separated by whitespace,
    commas or semicolons), as one list; ValueError unless there are two or
    more and each parses. A helper of this module."""
    decoder = _DECODER
    values: List[Any] = []
    position = 0
    while True:
        while position < len(text) and text[position] in " \t\n\r\x0c,;":
            position += 1
        if position >= len(text):
            break
        value, position = decoder.raw_decode(text, position)
        if isinstance(value, list):
            values.extend(value)
        else:
            values.append(value)
    if len(values) < 2:
        raise ValueError("not several JSON values")
    return values


# what is not JSON outside strings (// and /* */ comments, <!-- -->
# comments, CDATA markers) and commas before a closing bracket, dropped in
# one compiled pass
_without_comments = json_without_comments


# ---------------------------------------------------------------- microdata

def _has(element: Element, name: str) -> bool:
    return element.has_attribute(name)


def _html(element: Node, *names: str) -> bool:
    return (element.node_type == ELEMENT and element.namespace_uri == XHTML  # type: ignore[attr-defined]
            and element.local_name in names)  # type: ignore[attr-defined]


def _home_element_by_id(root: Element, element_id: str) -> Optional[Element]:
    # "the first element in tree order whose ID is id" in root's tree
    document = document_of(root)
    if document is not None and root.owner_document is not None:
        return document.get_element_by_id(element_id)
    top: Node = root
    while top.parent is not None:
        top = top.parent
    for element in elements(top):
        if element.id == element_id:
            return element
    return None


# https://html.spec.whatwg.org/multipage/microdata.html#the-properties-of-an-item
def properties_of_an_item(root: Element, order: Optional[Dict[Element, int]] = None,
                          ids: Optional[Dict[str, Element]] = None) -> List[Element]:
    """The properties of the item `root` (its property elements, sorted in
    tree order), found through its children and itemref as the standard
    walks them; an element met twice is a microdata error and is skipped."""
    results: List[Element] = []
    memory: Set[Element] = {root}
    pending: List[Element] = list(root.children)
    for element_id in split_on_ascii_whitespace(root.get_attribute("itemref")):
        referenced = (ids.get(element_id) if ids is not None
                      else _home_element_by_id(root, element_id))
        if referenced is not None:
            pending.append(referenced)
    while pending:
        current = pending.pop()
        if current in memory:
            continue  # microdata error: the element is reached twice
        memory.add(current)
        if not _has(current, "itemscope"):
            pending.extend(current.children)
        if unique_tokens(current.get_attribute("itemprop")):
            results.append(current)
    if order is not None:
        results.sort(key=order.__getitem__)
        return results
    return _in_tree_order(results)


def _tree_index(node: Node) -> Tuple[Dict[Element, int], Dict[str, Element]]:
    """Each element of the tree of `node` with its index in tree order, and
    each ID with the first element in tree order that has it."""
    top = node
    while top.parent is not None:
        top = top.parent
    order: Dict[Element, int] = {}
    ids: Dict[str, Element] = {}
    for index, element in enumerate(_self_and_elements(top)):
        order[element] = index
        element_id = element.get_attribute("id")
        if element_id and element_id not in ids:
            ids[element_id] = element
    return order, ids


def _in_tree_order(nodes: List[Element]) -> List[Element]:
    if len(nodes) < 2:
        return nodes
    wanted = set(nodes)
    top: Node = nodes[0]
    while top.parent is not None:
        top = top.parent
    ordered = [element for element in elements(top) if element in wanted]
    if len(ordered) != len(wanted):  # elements of other trees: keep them
        ordered.extend(node for node in nodes if node not in set(ordered))
    return ordered


def _url_property_value(element: Element, attribute: str, base: Optional[str]) -> str:
    value = element.get_attribute(attribute)
    if value is None:
        return ""
    resolved = parse_url(value, base)
    return "" if resolved is None else resolved


# https://html.spec.whatwg.org/multipage/microdata.html#values
def property_value(element: Element, base: Optional[str]) -> Any:
    """The property value of a property element: the element itself when it
    has itemscope (an item), else a string as the standard lists them."""
    if _has(element, "itemscope"):
        return element
    if element.namespace_uri == XHTML:
        name = element.local_name
        if name == "meta":
            return element.get_attribute("content") or ""
        if name in ("audio", "embed", "iframe", "img", "source", "track", "video"):
            return _url_property_value(element, "src", base)
        if name in ("a", "area", "link"):
            return _url_property_value(element, "href", base)
        if name == "object":
            return _url_property_value(element, "data", base)
        if name in ("data", "meter"):
            return element.get_attribute("value") or ""
        if name == "time":
            datetime = element.get_attribute("datetime")
            return datetime if datetime is not None else child_text_content(element)
    return descendant_text_content(element)


def microdata_json(doc: Node, *, base_url: Optional[str] = None) -> Dict[str, Any]:
    """Microdata as the HTML standard's JSON conversion: ``{"items": [...]}``
    with every top-level item (itemscope without itemprop, tree order) as
    ``{"type": [...], "id": url, "properties": {name: [values]}}``; URLs
    absolute against the document base URL (`base_url` is the document's
    URL); an item reached again through itemref while it is being converted
    is the string "ERROR"."""
    # https://html.spec.whatwg.org/multipage/microdata.html#json
    top_level = select(doc, "[itemscope]:not([itemprop])")
    if not top_level:
        return {"items": []}
    base = document_base_url(doc, base_url)
    order, ids = _tree_index(doc)
    return {"items": [_get_the_object(element, base, order, ids) for element in top_level]}


def _get_the_object(item: Element, base: Optional[str], order: Dict[Element, int],
                    ids: Dict[str, Element]) -> Dict[str, Any]:
    """"Get the object" of the standard's JSON conversion, with an explicit
    stack instead of recursion (items nest as deep as the tree). An item's
    memory is the items being converted around it: those on the stack."""
    root: Dict[str, Any] = {}
    # each frame: (item element, its result dict, its pending properties)
    stack: List[Tuple[Element, Dict[str, Any], List[Tuple[str, Any]]]] = []
    memory: Set[Element] = set()

    def start(element: Element, result: Dict[str, Any]) -> None:
        types = unique_tokens(element.get_attribute("itemtype"))
        if types:
            result["type"] = types
        itemid = element.get_attribute("itemid")
        if itemid is not None:
            resolved = parse_url(itemid, base)
            if resolved is not None:
                result["id"] = resolved
        result["properties"] = {}
        pending: List[Tuple[str, Any]] = []
        for prop in properties_of_an_item(element, order, ids):
            value = property_value(prop, base)
            for name in unique_tokens(prop.get_attribute("itemprop")):
                pending.append((name, value))
        pending.reverse()
        stack.append((element, result, pending))
        memory.add(element)

    start(item, root)
    while stack:
        element, result, pending = stack[-1]
        if not pending:
            stack.pop()
            memory.discard(element)
            continue
        name, value = pending.pop()
        values = result["properties"].setdefault(name, [])
        if isinstance(value, Element):
            if value in memory:
                values.append("ERROR")
            else:
                child: Dict[str, Any] = {}
                values.append(child)
                start(value, child)
        else:
            values.append(value)
    return root


# extruct's microdata (its conventions, not the standard's; see the README
# of ../shared/scrape/structured-data): its property walk, its values (a
# content attribute on any element, schema.org action inputs) and its text.

def microdata(doc: Node, *, base_url: Optional[str] = None, strict: bool = False,
              nested: bool = True, add_text_content: bool = False) -> List[Dict[str, Any]]:
    """Microdata items as extruct's MicrodataExtractor gives them (its
    `strict`, `nested` and `add_text_content` options)."""
    return ExtructMicrodata(doc, base_url, strict, nested, add_text_content).items()


# ExtructMicrodata and html_text are compiled (extractor.pyx's
# microdata.pxi) over scan_structured()'s items.


def _self_and_elements(node: Node) -> Iterable[Element]:
    if node.node_type == ELEMENT:
        yield node  # type: ignore[misc]
    yield from elements(node)


# html_text's etree_to_text (extruct's text of a property): the text nodes of
# the element after removing script, style, link and meta elements and
# comments, whitespace collapsed, a newline at the elements of a block-like
# list, a space between chunks unless punctuation follows. html_text
# (extractor.pyx) walks the element in C with these lists of tags.
_NEWLINE_TAGS = frozenset([
    "article", "aside", "br", "dd", "details", "div", "dt", "fieldset", "figcaption",
    "footer", "form", "header", "hr", "legend", "li", "main", "nav", "table", "tr"])
_DOUBLE_NEWLINE_TAGS = frozenset([
    "blockquote", "dl", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "ol", "p", "pre",
    "title", "ul"])
_REMOVED_TAGS = frozenset(["script", "style", "link", "meta"])
_WHITESPACE = re.compile(r"\s+")
_PUNCTUATION_AFTER = re.compile(r'^[,:;.!?")]')
_NEWLINE = "\n"
_DOUBLE = "\n\n"


_html_text = html_text


def _flatten_item(item: Any, schema_context: str, add_context: bool) -> Any:
    # extruct's uniform microdata (uniform.flatten_dict)
    if not isinstance(item, dict):
        return item
    out = dict(item)
    item_type = out.pop("type", None)
    if not item_type:
        return item
    if isinstance(item_type, list):
        out["@type"] = item_type
        context = schema_context
    else:
        context, item_type = _infer_context(item_type, schema_context)
        out["@type"] = item_type
    if add_context:
        out["@context"] = context
    for name, value in out.pop("properties", {}).items():
        if isinstance(value, list):
            value = [_flatten_item(v, schema_context, False) for v in value]
        else:
            value = _flatten_item(value, schema_context, False)
        out[name] = value
    return out


def _infer_context(item_type: str, context: str) -> Tuple[str, str]:
    try:
        parsed = urlparse(item_type)
    except ValueError:  # urllib rejects it (a bad IPv6 authority)
        return context, item_type
    if parsed.netloc:
        origin = parsed.scheme + "://" + parsed.netloc
        if parsed.path and parsed.fragment:
            return urljoin(origin, parsed.path), parsed.fragment.strip("/")
        if parsed.path:
            return origin, parsed.path.strip("/")
    return context, item_type


# ---------------------------------------------------------------- OpenGraph

def opengraph(doc: Node) -> List[Dict[str, Any]]:
    """OpenGraph as extruct gives it: per head element, the prefixes its
    html element and it declare (``prefix`` attribute) plus the OpenGraph
    namespaces used, and the [property, content] pairs of its meta children
    whose property has a declared or OpenGraph prefix."""
    return opengraph_of(scan_structured(doc, False, False, True)[2])


def _uniform_opengraph(extracted: List[Dict[str, Any]], with_og_array: bool) -> List[Any]:
    out = []
    for obj in extracted:
        flattened: Dict[str, Any] = {}
        for key, value in obj["properties"]:
            if key not in flattened:
                flattened[key] = value
            elif value and value.strip():
                if not with_og_array:
                    if not flattened[key] or not flattened[key].strip():
                        flattened[key] = value
                elif isinstance(flattened[key], list):
                    flattened[key].append(value)
                elif flattened[key] and flattened[key].strip():
                    flattened[key] = [flattened[key], value]
                else:
                    flattened[key] = value
        og_type = flattened.pop("og:type", None)
        if og_type:
            flattened["@type"] = og_type
        flattened["@context"] = obj["namespace"]
        out.append(flattened)
    return out


# ---------------------------------------------------------------- meta

def meta(doc: Node) -> List[Dict[str, str]]:
    """Every meta element with a name (Twitter cards included) or property
    attribute and a content attribute, in tree order, as ``{"name": key,
    "content": value}`` or ``{"property": key, "content": value}``."""
    found = []
    for element in select(doc, "meta[content]"):
        if not _html(element, "meta"):
            continue
        content = element.get_attribute("content")
        if content is None:
            continue
        for attribute in ("name", "property"):
            key = element.get_attribute(attribute)
            if key is not None:
                found.append({attribute: key, "content": content})
    return found


# ---------------------------------------------------------------- RDFa

def rdfa(doc: Node, *, base_url: Optional[str] = None) -> List[Dict[str, Any]]:
    """RDFa Lite 1.1 as expanded JSON-LD (extruct's rdfa shape)."""
    from lexpy.extract.rdfa import rdfa_lite
    return rdfa_lite(doc, base_url=base_url)


def _rdfa_of(entries: List[Any], doc: Node, base_url: Optional[str]) -> List[Dict[str, Any]]:
    from lexpy.extract.rdfa import rdfa_of
    return rdfa_of(entries, doc, base_url)


# what structured_data (structured.pxi) calls back for
_HOOKS = (_parse_lenient_json, _rdfa_of, rdfa, meta, _flatten_item, _uniform_opengraph)
set_structured_hooks(_HOOKS)
