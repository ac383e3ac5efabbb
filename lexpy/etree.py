"""lexpy trees as ElementTree and lxml trees: ``to_etree`` and ``to_lxml``.

::

    import lexpy
    doc = lexpy.parse(page)
    root = lexpy.to_etree(doc)               # xml.etree.ElementTree.Element
    tree = lexpy.to_lxml(doc)                # lxml.etree._ElementTree (extra lexpy[lxml])
    tree.xpath("//a/@href")

Both are built from lexpy's finished tree in one pass, without recursion
(a million nested elements convert), through the target's public API (the
stock lxml wheels do).

The trees
    HTML elements have no namespace (``"a"``, so that ``//a`` finds them, as
    in lxml.html); with ``html_namespace=True`` they are in the XHTML
    namespace. SVG and MathML elements and the namespaced attributes
    (``xlink:href``, ``xml:lang``) are in Clark notation
    (``"{http://www.w3.org/2000/svg}circle"``). Text goes in ``.text`` and
    ``.tail``; comments and processing instructions are kept as the
    target's Comment and ProcessingInstruction nodes; a template's contents
    are the template element's children. ``to_lxml`` of a Document is an
    ``_ElementTree`` that keeps the doctype (``docinfo``) and the comments
    and processing instructions beside the document element;
    ``to_etree`` of a Document is its document element (ElementTree has no
    place for the nodes beside it). An Element converts to an element; a
    DocumentFragment to a list of its top-level children (a text child as
    a str), as ``lxml.html.fragments_fromstring`` gives them.

What XML cannot hold (never an exception)
    A name (of an element, attribute or processing instruction target)
    that is no XML name (no namespace prefix: ``a:b:c``, ``ns1:foo``), or
    that XML reserves (``xmlns``, ``xmlns:foo``, a target ``xml``), gets
    each offending character written as ``U`` and its code point in five
    upper-case hex digits: ``a:b:c`` becomes ``aU0003AbU0003Ac``,
    ``xmlns:foo`` ``U00078mlnsU0003Afoo``, ``our\\u2603`` ``ourU02603``.
    This is html5lib's InfosetFilter coercion, and ``from_xml_name`` (or
    html5lib's ``InfosetFilter().fromXmlName``) reverses it, except for a
    name that already held such a ``U`` sequence. Adjusted attributes in
    the XMLNS namespace (``xmlns``, ``xmlns:xlink`` of foreign elements)
    become such plain attributes too: the Clark names declare their
    namespaces. Characters outside XML's Char production (control
    characters but tab, LF and CR; U+FFFE, U+FFFF; lone surrogates) become
    U+FFFD in text, attribute values, comments and instructions; a comment
    holding ``--`` gets ``- -`` and one ending in ``-`` a space after it
    (html5lib's coercion), a processing instruction's ``?>`` becomes
    ``? >``, and a public identifier loses what a PubidLiteral cannot hold.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from lexpy.dom.dom import _tree_events

__all__ = ["to_etree", "to_lxml", "from_xml_name", "REQUIRED_LXML"]

#: The oldest lxml whose public API this module uses.
REQUIRED_LXML = (4, 6)

HTML_NAMESPACE = "http://www.w3.org/1999/xhtml"
XMLNS_NAMESPACE = "http://www.w3.org/2000/xmlns/"

# XML 1.0 (fifth edition) NameStartChar and NameChar, without ':' (a
# local name of Namespaces in XML).
_NAME_START = ("A-Z_a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d"
               "\u037f-\u1fff\u200c\u200d\u2070-\u218f\u2c00-\u2fef"
               "\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff")
_NAME_CHAR = _NAME_START + r"\-.0-9\u00b7\u0300-\u036f\u203f\u2040"
_NOT_NAME_START = re.compile("[^%s]" % _NAME_START)
_NOT_NAME_CHAR = re.compile("[^%s]" % _NAME_CHAR)
_NOT_XML_CHAR = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_NOT_PUBID_CHAR = re.compile(r"[^ \r\na-zA-Z0-9\-'()+,./:=?;!*#@$_%]")
_ESCAPED = re.compile(r"U[0-9A-F]{5}")


def _escape(char: str) -> str:
    return "U%05X" % ord(char)


def xml_name(name: str) -> str:
    """`name` as an XML local name: each character XML cannot hold there
    written as U+5 hex digits (html5lib's InfosetFilter coercion)."""
    if not name:
        return "_"
    first = name[0]
    if _NOT_NAME_START.match(first) or name == "xmlns" or name.startswith("xmlns:"):
        # ("xmlns" and "xmlns:..." would be namespace declarations)
        first = _escape(first)
    return first + _NOT_NAME_CHAR.sub(lambda m: _escape(m.group()), name[1:])


def from_xml_name(name: str) -> str:
    """Undo the coercion of names (see the module's docstring)."""
    return _ESCAPED.sub(lambda m: chr(int(m.group()[1:], 16)), name)


def xml_text(data: str) -> str:
    """`data` with every character outside XML's Char production as
    U+FFFD."""
    if _NOT_XML_CHAR.search(data) is None:
        return data
    return _NOT_XML_CHAR.sub("\ufffd", data)


def xml_comment(data: str) -> str:
    """Comment data XML can hold (html5lib's coercion of '--')."""
    return _comment_data(xml_text(data))


def _comment_data(data: str) -> str:
    while "--" in data:
        data = data.replace("--", "- -")
    if data.endswith("-"):
        data += " "
    return data


def xml_pi(target: str, data: str) -> Tuple[str, str]:
    """A processing instruction's target and data as XML can hold them."""
    return _pi_parts(target, xml_text(data))


def _pi_parts(target: str, data: str) -> Tuple[str, str]:
    target = xml_name(target)
    if target.lower() == "xml":
        target = _escape(target[0]) + target[1:]
    while "?>" in data:
        data = data.replace("?>", "? >")
    return target, data


class _Names:
    """Clark names of elements and attributes, coerced once per name."""

    def __init__(self, html_namespace: bool) -> None:
        self.html_namespace = html_namespace
        self.elements: Dict[Tuple[Optional[str], str], str] = {}
        self.attributes: Dict[Tuple[Optional[str], str, Optional[str]], str] = {}
        self.plain_attributes: Dict[str, str] = {}

    def element(self, namespace: Optional[str], local: str) -> str:
        key = (namespace, local)
        name = self.elements.get(key)
        if name is None:
            name = xml_name(local)
            if namespace is not None and (namespace != HTML_NAMESPACE
                                          or self.html_namespace):
                name = "{%s}%s" % (namespace, name)
            self.elements[key] = name
        return name

    def attribute(self, namespace: Optional[str], prefix: Optional[str],
                  local: str) -> str:
        key = (namespace, local, prefix)
        name = self.attributes.get(key)
        if name is None:
            if namespace is None:
                name = xml_name(local)
            elif namespace == XMLNS_NAMESPACE:
                name = xml_name(local if prefix is None else prefix + ":" + local)
            else:
                name = "{%s}%s" % (namespace, xml_name(local))
            self.attributes[key] = name
        return name


def _attributes(names: _Names, nodes: List[Tuple[Optional[str], Optional[str], str, str]]) -> Dict[str, str]:
    """The attrib dict of attribute_nodes()-style tuples whose values are
    already XML characters."""
    plain = names.plain_attributes
    result = {}
    for namespace, prefix, local, value in nodes:
        if namespace is None:
            name = plain.get(local)
            if name is None:
                name = plain[local] = xml_name(local)
        else:
            name = names.attribute(namespace, prefix, local)
        result[name] = value
    return result


def _own_attributes(names: _Names, element: Any) -> Dict[str, str]:
    return _attributes(names, [(n, p, l, xml_text(v))
                               for n, p, l, v in element.attribute_nodes()])


def _build_into(root_node: Any, target: Any, api: Any, names: _Names,
                pi_as_comment: bool = False) -> List[Any]:
    """Build the descendants of lexpy node `root_node` into the target
    element `target` (or, when target is None, as a list of loose top-level
    items: elements, comments, PIs, and str for text before the first of
    them), from the flat events of lexpy.dom's _tree_events. Iterative: an
    explicit stack of (parent, element) pairs."""
    SubElement = api.SubElement
    Element = api.Element
    Comment = api.Comment
    PI = api.ProcessingInstruction
    element_name = names.element
    html_namespace = HTML_NAMESPACE
    html_names: Dict[str, str] = {}
    loose: List[Any] = []
    stack: List[Tuple[Any, Any]] = []
    parent = target
    last: Any = None                  # the last child made in parent
    for event in _tree_events(root_node, True, True):
        if event is None:             # the end of an element's children
            parent, last = stack.pop()
            continue
        kind = event[0]
        if kind == 1:
            namespace = event[1]
            if namespace == html_namespace:
                tag = html_names.get(event[2])
                if tag is None:
                    tag = html_names[event[2]] = element_name(namespace, event[2])
            else:
                tag = element_name(namespace, event[2])
            attributes = event[3]
            if attributes is None:
                attrib = {}
            elif type(attributes) is dict:
                attrib = attributes
            else:
                attrib = _attributes(names, attributes)
            if parent is not None:
                made = SubElement(parent, tag, attrib)
            else:
                made = Element(tag, attrib)
                loose.append(made)
            if event[4]:
                stack.append((parent, made))
                parent = made
                last = None
            else:
                last = made
        elif kind == 3:
            data = event[1]
            if last is not None:
                tail = last.tail
                last.tail = data if tail is None else tail + data
            elif parent is not None:
                text = parent.text
                parent.text = data if text is None else text + data
            elif loose and isinstance(loose[-1], str):
                loose[-1] += data
            else:
                loose.append(data)
        elif kind == 8 or kind == 7:
            if kind == 8:
                made = Comment(_comment_data(event[1]))
            elif pi_as_comment:
                made = Comment(_comment_data(_pi_comment(event[1], event[2])))
            else:
                made = PI(*_pi_parts(event[1], event[2]))
            if parent is not None:
                parent.append(made)
            else:
                loose.append(made)
            last = made
    return loose


def _document_element(document: Any) -> Any:
    element = document.document_element
    if element is None:
        raise ValueError("the document has no document element to convert")
    return element


def _pi_comment(target: str, data: str) -> str:
    # html5lib's trees have no processing instructions: the comment its
    # parser makes of the markup (lexpy.html5lib).
    return "?" + target + (" " + data if data else "") + "?"


def _convert(node: Any, api: Any, html_namespace: bool,
             pi_as_comment: bool = False) -> Any:
    from lexpy.dom import Document, DocumentFragment, Element
    names = _Names(html_namespace)
    if isinstance(node, Document):
        node = _document_element(node)
    if isinstance(node, Element):
        element = api.Element(names.element(node.namespace_uri, node.local_name),
                              _own_attributes(names, node))
        _build_into(node, element, api, names, pi_as_comment)
        return element
    if isinstance(node, DocumentFragment):
        return _build_into(node, None, api, names, pi_as_comment)
    raise TypeError("node must be a lexpy Document, DocumentFragment or "
                    "Element, not %s" % type(node).__name__)


def to_etree(node: Any, *, html_namespace: bool = False) -> Any:
    """An xml.etree.ElementTree tree of a lexpy node: a Document's document
    element or an Element as an ``Element``, a DocumentFragment as a list
    of its top-level children (see the module's docstring for names and
    characters XML cannot hold)."""
    import xml.etree.ElementTree as ElementTree
    return _convert(node, ElementTree, html_namespace)


def _lxml() -> Any:
    try:
        import lxml
        from lxml import etree
    except ImportError as error:
        raise ImportError("lexpy.to_lxml needs lxml >= %s: pip install 'lexpy[lxml]'"
                          % ".".join(map(str, REQUIRED_LXML))) from error
    if tuple(etree.LXML_VERSION[:2]) < REQUIRED_LXML:
        raise ImportError("lexpy.to_lxml needs lxml >= %s (found %s)"
                          % (".".join(map(str, REQUIRED_LXML)),
                             getattr(lxml, "__version__", "unknown")))
    return etree


def _doctype_declaration(doctype: Any, root_name: str) -> str:
    name = xml_name(doctype.name) if doctype.name else root_name
    public_id = _NOT_PUBID_CHAR.sub("", doctype.public_id)
    system_id = xml_text(doctype.system_id)
    quote = "'" if '"' in system_id else '"'
    system_id = system_id.replace(quote, "")
    if public_id:
        return '<!DOCTYPE %s PUBLIC "%s" %s%s%s>' % (
            name, public_id.replace('"', ""), quote, system_id, quote)
    if system_id:
        return "<!DOCTYPE %s SYSTEM %s%s%s>" % (name, quote, system_id, quote)
    return "<!DOCTYPE %s>" % name


def to_lxml(node: Any, *, html_namespace: bool = False) -> Any:
    """An lxml.etree tree of a lexpy node: a Document as an
    ``_ElementTree`` (with its doctype, and the comments and processing
    instructions beside the document element), an Element as an
    ``_Element``, a DocumentFragment as a list of its top-level children.
    Built through lxml's public API; ``to_lxml(doc).xpath("//a/@href")``
    works as on lxml.html's trees (see the module's docstring for names and
    characters XML cannot hold)."""
    return _to_lxml(node, html_namespace, pi_as_comment=False)


def _to_lxml(node: Any, html_namespace: bool, pi_as_comment: bool) -> Any:
    from lexpy.dom import Document
    etree = _lxml()
    if not isinstance(node, Document):
        return _convert(node, etree, html_namespace, pi_as_comment)
    names = _Names(html_namespace)
    element = _document_element(node)
    root_tag = names.element(element.namespace_uri, element.local_name)
    doctype = node.doctype
    if doctype is not None:
        # A doctype reaches an lxml document only through a parse: parse
        # one holding just it and a placeholder root, then build into that.
        parser = etree.XMLParser(resolve_entities=False, no_network=True,
                                 load_dtd=False)
        declaration = _doctype_declaration(doctype, "html")
        root = etree.fromstring(declaration + "<html/>", parser)
        root.tag = root_tag
        for key, value in _own_attributes(names, element).items():
            root.set(key, value)
    else:
        root = etree.Element(root_tag, _own_attributes(names, element))
    _build_into(element, root, etree, names, pi_as_comment)
    tree = root.getroottree()
    # The comments and processing instructions beside the document element.
    sibling = element.previous_sibling
    anchor = root
    while sibling is not None:
        made = _leaf(sibling, etree, pi_as_comment)
        if made is not None:
            anchor.addprevious(made)
            anchor = made
        sibling = sibling.previous_sibling
    sibling = element.next_sibling
    anchor = root
    while sibling is not None:
        made = _leaf(sibling, etree, pi_as_comment)
        if made is not None:
            anchor.addnext(made)
            anchor = made
        sibling = sibling.next_sibling
    return tree


def _leaf(node: Any, api: Any, pi_as_comment: bool) -> Any:
    if node.node_type == 8:
        return api.Comment(xml_comment(node.data))
    if node.node_type == 7 and pi_as_comment:
        return api.Comment(xml_comment(_pi_comment(node.target, node.data)))
    if node.node_type == 7:
        return api.ProcessingInstruction(*xml_pi(node.target, node.data))
    return None
