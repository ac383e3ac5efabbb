"""html5lib's API over lexpy (extra ``lexpy[html5lib]``): a tree walker
over lexpy nodes, and ``parse`` / ``parseFragment`` returning html5lib's
own tree types, built from lexpy's tree in one pass.

::

    import lexpy.html5lib as html5lib        # instead of: import html5lib
    root = html5lib.parse(page)                         # xml.etree, like html5lib's
    dom = html5lib.parse(page, treebuilder="dom")       # xml.dom.minidom
    tree = html5lib.parse(page, treebuilder="lxml")     # lxml.etree

    from html5lib.serializer import HTMLSerializer
    from html5lib.filters import optionaltags
    walker = lexpy.html5lib.TreeWalker(lexpy.parse(page))
    html = HTMLSerializer().render(optionaltags.Filter(walker))

html5lib's tree model (html5lib 1.1, the 2020 standard) is kept where it
differs from lexpy's DOM: a template's contents are the template
element's children, and a processing instruction (a node of the current
standard, 2026) is the comment html5lib's parser makes of the same markup,
``<!--?target data?-->``. Scripting is off by default, as in html5lib.

The keyword arguments of html5lib's ``parse`` that lexpy has a use for are
taken: ``scripting``, ``transport_encoding`` and ``override_encoding``
(lexpy's ``encoding=``, the transport layer's label: a BOM still wins),
``default_encoding`` and ``likely_encoding`` (lexpy's
``default_encoding``); ``useChardet`` is accepted and ignored (lexpy's
UTF-8 detection replaces chardet); any other raises TypeError. Two are
lexpy's own: ``fullTree=True`` gives the "etree" builder's whole document
(the DOCUMENT_ROOT element with the doctype and the comments beside
``<html>``, as html5lib's ``getTreeBuilder("etree", fullTree=True)``
does), and ``implementation`` the ElementTree-like module of the "etree"
builder (xml.etree.ElementTree by default; lxml.etree works too).

The "lxml" trees are lexpy.to_lxml's: names XML cannot hold coerced as
html5lib's InfosetFilter does (reversibly), comments holding ``--`` given
``- -``, HTML elements in the XHTML namespace unless
``namespaceHTMLElements=False``.
"""
from __future__ import annotations

import itertools
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

import html5lib as _html5lib
from html5lib.constants import voidElements as _VOID_ELEMENTS
from html5lib.treewalkers import base as _walker_base

import lexpy
from lexpy.dom.dom import _tree_events

__all__ = ["TreeWalker", "parse", "parseFragment", "REQUIRED_HTML5LIB"]

#: The oldest html5lib whose tree walker and tree builders this module
#: follows.
REQUIRED_HTML5LIB = (1, 1)


def _version_tuple(text: str) -> Tuple[int, ...]:
    parts = []
    for part in text.split("."):
        if not part.isdigit():
            break
        parts.append(int(part))
    return tuple(parts)


if _version_tuple(getattr(_html5lib, "__version__", "0")) < REQUIRED_HTML5LIB:
    raise ImportError(
        "lexpy.html5lib needs html5lib >= %s (found %s): pip install 'lexpy[html5lib]'"
        % (".".join(map(str, REQUIRED_HTML5LIB)),
           getattr(_html5lib, "__version__", "unknown")))

HTML_NAMESPACE = "http://www.w3.org/1999/xhtml"


def processing_instruction_comment(target: str, data: str) -> str:
    """The comment data html5lib's parser (the 2020 standard) makes of
    ``<?target data?>``: everything between ``<`` and ``>``."""
    return "?" + target + (" " + data if data else "") + "?"


# ---------------------------------------------------------------------------
# The tree walker
# ---------------------------------------------------------------------------

class TreeWalker(_walker_base.TreeWalker):  # type: ignore[misc]  # (html5lib is untyped)
    """An html5lib tree walker over a lexpy Document, DocumentFragment or
    Element: the token dicts of html5lib.treewalkers.base, so html5lib's
    filters and HTMLSerializer run on lexpy trees unchanged.

    Elements come with their namespace (HTML elements in the XHTML
    namespace), attributes keyed by (namespace, local name); void HTML
    elements are EmptyTag tokens. A template's contents are walked as its
    children; a processing instruction is a Comment token (see the
    module's docstring)."""

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        tree: Any = self.tree
        if not isinstance(tree, lexpy.Node):
            raise TypeError("the tree must be a lexpy Node, not %s"
                            % type(tree).__name__)
        node: Any = tree
        node_type = node.node_type
        own = None
        events: Iterable[Any]
        if node_type == 1:
            own = (1, node.namespace_uri, node.local_name,
                   node.attribute_nodes() or None, True)
            events = itertools.chain([own], _tree_events(node), [None])
        elif node_type in (9, 11):
            events = _tree_events(node)
        else:
            events = _leaf_events(node)
        return self._tokens(events)

    def _tokens(self, events: Iterable[Any]) -> Iterator[Dict[str, Any]]:
        open_elements: List[Optional[Tuple[Optional[str], str]]] = []
        skipping = 0                 # depth inside a void element's children
        for event in events:
            if event is None:
                if skipping:
                    skipping -= 1
                    continue
                name = open_elements.pop()
                if name is not None:
                    yield self.endTag(name[0], name[1])
                continue
            if skipping:
                if event[0] == 1 and event[4]:
                    skipping += 1
                continue
            kind = event[0]
            if kind == 1:
                namespace, name, attributes, has_children = event[1:]
                attrs = {(a[0], a[2]): a[3] for a in attributes} if attributes else {}
                if (namespace is None or namespace == HTML_NAMESPACE) \
                        and name in _VOID_ELEMENTS:
                    for token in self.emptyTag(namespace, name, attrs, has_children):
                        yield token
                    if has_children:
                        skipping = 1
                    continue
                yield self.startTag(namespace, name, attrs)
                if has_children:
                    open_elements.append((namespace, name))
                else:
                    yield self.endTag(namespace, name)
            elif kind == 3:
                for token in self.text(event[1]):
                    yield token
            elif kind == 8:
                yield self.comment(event[1])
            elif kind == 7:
                yield self.comment(processing_instruction_comment(event[1], event[2]))
            elif kind == 10:
                yield self.doctype(event[1], event[2], event[3])


def _leaf_events(node: Any) -> List[Any]:
    node_type = node.node_type
    if node_type in (3, 8):
        return [(node_type, node.data)]
    if node_type == 7:
        return [(7, node.target, node.data)]
    if node_type == 10:
        return [(10, node.name, node.public_id or None, node.system_id or None)]
    return []


# ---------------------------------------------------------------------------
# parse() and parseFragment()
# ---------------------------------------------------------------------------

_ENCODING_ARGUMENTS = ("transport_encoding", "override_encoding")
_DEFAULT_ENCODING_ARGUMENTS = ("default_encoding", "likely_encoding")


def _lexpy_options(kwargs: Dict[str, Any]) -> Dict[str, Any]:
    options: Dict[str, Any] = {"scripting": bool(kwargs.pop("scripting", False))}
    for name in _ENCODING_ARGUMENTS:
        value = kwargs.pop(name, None)
        if value is not None and "encoding" not in options:
            options["encoding"] = value
    for name in _DEFAULT_ENCODING_ARGUMENTS:
        value = kwargs.pop(name, None)
        if value is not None and "default_encoding" not in options:
            options["default_encoding"] = value
    kwargs.pop("useChardet", None)
    if kwargs.get("on_script") is not None:
        options["on_script"] = kwargs.pop("on_script")     # (lexpy's own)
    kwargs.pop("on_script", None)
    if kwargs:
        raise TypeError("unexpected keyword argument %r" % sorted(kwargs)[0])
    return options


def _markup(doc: Any) -> Any:
    if hasattr(doc, "read"):
        doc = doc.read()
    if isinstance(doc, (bytearray, memoryview)):
        doc = bytes(doc)
    if not isinstance(doc, (str, bytes)):
        raise TypeError("doc must be str, bytes or a file object, not %s"
                        % type(doc).__name__)
    return doc


def _check_treebuilder(treebuilder: Any) -> str:
    if not isinstance(treebuilder, str):
        raise TypeError("treebuilder must be a str, not %s" % type(treebuilder).__name__)
    name = treebuilder.lower()
    if name not in ("etree", "dom", "lxml"):
        raise ValueError("treebuilder %r: lexpy.html5lib builds 'etree', 'dom' and "
                         "'lxml' trees" % (treebuilder,))
    return name


def parse(doc: Any, treebuilder: str = "etree", namespaceHTMLElements: bool = True,
          **kwargs: Any) -> Any:
    """Parse an HTML document (str, bytes or a file object) with lexpy
    into the tree html5lib.parse returns for the same `treebuilder`: the
    ``<html>`` Element for "etree" (the DOCUMENT_ROOT element with
    ``fullTree=True``), an xml.dom.minidom Document for "dom", an
    lxml.etree _ElementTree for "lxml". lexpy's own ``on_script=`` runs
    the document's scripts as lexpy.parse does."""
    name = _check_treebuilder(treebuilder)
    full_tree = bool(kwargs.pop("fullTree", False))
    implementation = kwargs.pop("implementation", None)
    options = _lexpy_options(kwargs)
    document = lexpy.parse(_markup(doc), **options)
    if name == "etree":
        root = _build_etree(document, _etree_module(implementation),
                            namespaceHTMLElements, "DOCUMENT_ROOT")
        if full_tree:
            return root
        html = "{%s}html" % HTML_NAMESPACE if namespaceHTMLElements else "html"
        return root.find(html)
    if name == "dom":
        return _build_dom(document, namespaceHTMLElements, fragment=False)
    from lexpy.etree import _to_lxml
    return _to_lxml(document, namespaceHTMLElements, pi_as_comment=True)


def parseFragment(doc: Any, container: str = "div", treebuilder: str = "etree",
                  namespaceHTMLElements: bool = True, **kwargs: Any) -> Any:
    """Parse an HTML fragment in the context of element `container` (an
    HTML element name, or "svg NAME" / "math NAME" for a foreign context)
    into the fragment html5lib.parseFragment returns: a DOCUMENT_FRAGMENT
    Element for "etree", a minidom DocumentFragment for "dom", a list (a
    leading text, then the elements) for "lxml"."""
    name = _check_treebuilder(treebuilder)
    implementation = kwargs.pop("implementation", None)
    kwargs.pop("fullTree", None)
    options = _lexpy_options(kwargs)
    if not isinstance(container, str):
        raise TypeError("container must be a str, not %s" % type(container).__name__)
    namespace = "html"
    for prefix in ("svg ", "math "):
        if container.startswith(prefix):
            namespace, container = prefix.strip(), container[len(prefix):]
    fragment = lexpy.parse_fragment(_markup(doc), container, namespace=namespace,
                                    **options)
    if name == "etree":
        return _build_etree(fragment, _etree_module(implementation),
                            namespaceHTMLElements, "DOCUMENT_FRAGMENT")
    if name == "dom":
        return _build_dom(fragment, namespaceHTMLElements, fragment=True)
    from lexpy.etree import _to_lxml
    return _to_lxml(fragment, namespaceHTMLElements, pi_as_comment=True)


def _etree_module(implementation: Any) -> Any:
    if implementation is None:
        import xml.etree.ElementTree as ElementTree
        return ElementTree
    return implementation


def _build_etree(node: Any, ElementTree: Any, namespace_html: bool, root_tag: str) -> Any:
    """html5lib's "etree" tree: a `root_tag` element holding the doctype
    as a "<!DOCTYPE>" element (name as its text, publicId and systemId
    attributes when given), the elements in Clark notation, comments."""
    Element = ElementTree.Element
    SubElement = ElementTree.SubElement
    Comment = ElementTree.Comment
    html_namespace = HTML_NAMESPACE
    root = Element(root_tag)
    html_tags: Dict[str, str] = {}
    tags: Dict[Tuple[Optional[str], str], str] = {}
    attribute_names: Dict[Tuple[Optional[str], str], str] = {}
    stack: List[Tuple[Any, Any]] = []
    parent = root
    last: Any = None
    for event in _tree_events(node, False, True):
        if event is None:
            parent, last = stack.pop()
            continue
        kind = event[0]
        if kind == 1:
            namespace = event[1]
            if namespace == html_namespace:
                tag = html_tags.get(event[2])
                if tag is None:
                    tag = html_tags[event[2]] = \
                        "{%s}%s" % (namespace, event[2]) if namespace_html else event[2]
            else:
                key = (namespace, event[2])
                tag = tags.get(key)
                if tag is None:
                    tag = tags[key] = event[2] if namespace is None \
                        else "{%s}%s" % (namespace, event[2])
            attributes = event[3]
            if attributes is None:
                attrib = {}
            elif type(attributes) is dict:
                attrib = attributes
            else:
                attrib = {}
                for attribute_namespace, _, local, value in attributes:
                    if attribute_namespace is None:
                        attrib[local] = value
                    else:
                        name = attribute_names.get((attribute_namespace, local))
                        if name is None:
                            name = attribute_names[(attribute_namespace, local)] = \
                                "{%s}%s" % (attribute_namespace, local)
                        attrib[name] = value
            made = SubElement(parent, tag, attrib)
            if event[4]:
                stack.append((parent, made))
                parent = made
                last = None
            else:
                last = made
        elif kind == 3:
            data = event[1]
            if last is not None:
                last.tail = data if last.tail is None else last.tail + data
            else:
                parent.text = data if parent.text is None else parent.text + data
        else:
            if kind == 8:
                made = Comment(event[1])
            elif kind == 7:
                made = Comment(processing_instruction_comment(event[1], event[2]))
            elif kind == 10:
                made = Element("<!DOCTYPE>")
                made.text = event[1]
                if event[2] is not None:
                    made.set("publicId", event[2])
                if event[3] is not None:
                    made.set("systemId", event[3])
            else:
                continue
            parent.append(made)
            last = made
    return root


def _build_dom(node: Any, namespace_html: bool, fragment: bool) -> Any:
    """html5lib's "dom" tree: an xml.dom.minidom Document (or
    DocumentFragment), built as html5lib's dom tree builder builds it."""
    from xml.dom import minidom
    implementation = minidom.getDOMImplementation()
    dom = implementation.createDocument(None, None, None)
    root: Any = dom.createDocumentFragment() if fragment else dom
    stack: List[Any] = []
    parent: Any = root
    made: Any
    for event in _tree_events(node):
        if event is None:
            parent = stack.pop()
            continue
        kind = event[0]
        if kind == 1:
            namespace = event[1]
            if namespace == HTML_NAMESPACE and not namespace_html:
                namespace = None
            if namespace is None:
                made = dom.createElement(event[2])
            else:
                made = dom.createElementNS(namespace, event[2])
            if event[3]:
                for attribute_namespace, prefix, local, value in event[3]:
                    if attribute_namespace is None:
                        made.setAttribute(local, value)
                    else:
                        made.setAttributeNS(attribute_namespace,
                                            local if prefix is None else prefix + ":" + local,
                                            value)
            parent.appendChild(made)
            if event[4]:
                stack.append(parent)
                parent = made
        elif kind == 3:
            last = parent.lastChild
            if last is not None and last.nodeType == last.TEXT_NODE:
                last.data += event[1]
            else:
                parent.appendChild(dom.createTextNode(event[1]))
        elif kind == 8:
            parent.appendChild(dom.createComment(event[1]))
        elif kind == 7:
            parent.appendChild(dom.createComment(
                processing_instruction_comment(event[1], event[2])))
        elif kind == 10:
            doctype = implementation.createDocumentType(event[1], event[2], event[3])
            doctype.ownerDocument = dom
            parent.appendChild(doctype)
    return root
