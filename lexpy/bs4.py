"""A BeautifulSoup tree builder that parses with lexpy (extra ``lexpy[bs4]``).

::

    import lexpy.bs4                    # registers the "lexpy" feature
    from bs4 import BeautifulSoup
    soup = BeautifulSoup(markup, "lexpy")
    soup = BeautifulSoup(markup, builder=lexpy.bs4.LexpyTreeBuilder)

lexpy parses the whole document first (the current HTML standard, encoding
sniffing included); the soup is then built from the finished tree in one
pass, without recursion, as bs4's html5lib builder would have built it from
the same tree: Tag objects in their namespaces (HTML elements in the XHTML
namespace), NamespacedAttribute names for the adjusted foreign attributes
(``xlink:href``, ``xml:lang``, ``xmlns``...), the multi-valued attributes
that the builder's ``multi_valued_attributes`` names as lists, Doctype,
Comment and ProcessingInstruction nodes, a template's contents as its
children, and no whitespace collapsed. Strings are NavigableStrings, or the
container subclass that bs4's HTML builders give strings inside ``script``
(Script), ``style`` (Stylesheet), ``template`` (TemplateString), ``rt`` and
``rp``; ``element_classes`` of the BeautifulSoup object replace any of
these classes.

Markup: str, bytes or a file object (read by BeautifulSoup). Bytes are
decoded as lexpy decodes them: ``from_encoding`` is the transport-layer
label (a BOM still wins); else a ``<meta>`` in the first 1024 bytes; else
UTF-8 when the bytes are UTF-8; else windows-1252. The soup's
``original_encoding`` is the encoding used (the Encoding Standard's name,
lower-cased, as html5lib gives it; None for str markup) and
``declared_html_encoding`` the one a ``<meta>`` (or XML declaration) in the
first 1024 bytes names. An encoding named in ``exclude_encodings`` is never
used: when sniffing picks one, the bytes are decoded as the first of UTF-8
and windows-1252 that is not excluded.

``parse_only`` (a SoupStrainer) is applied while the soup is built, as bs4's
other builders apply it: a node outside every kept element is kept, with
its whole subtree, when the strainer allows it; otherwise its children are
considered in its place.

Differences from ``"html5lib"`` are those of the standard since html5lib 1.1
(2020): ``<?target data?>`` is a processing instruction (a
ProcessingInstruction, not a Comment), ``<select>`` keeps its markup, and
so on. Scripting is off by default, as in html5lib (``<noscript>`` content
is parsed as markup); ``BeautifulSoup(markup, builder=LexpyTreeBuilder(
scripting=True))`` parses it as a browser with scripting does. With
``LexpyTreeBuilder(positions=True)`` the document is parsed with lexpy's
source positions and every tag made from a start tag gets ``sourceline`` and
``sourcepos`` as bs4's html5lib builder gives them (the line of the tag's
``>``, and its 0-based column; an element the parser implied where the
tag that implied it is, a ``<p>`` a stray ``</p>`` made at that end tag);
the formatting elements the parser made without a tag of their own have None.
Without it (the default) tags carry none.
"""
from __future__ import annotations

import bisect
import codecs
import re
from typing import Any, Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union

import bs4 as _bs4
from bs4.builder import (
    HTML,
    HTML_5,
    PERMISSIVE,
    DetectsXMLParsedAsHTML,
    HTMLTreeBuilder,
    builder_registry,
)
from bs4.element import (
    Comment,
    Doctype,
    HTMLAttributeDict,
    NamespacedAttribute,
    NavigableString,
    ProcessingInstruction,
    Tag,
    XMLAttributeDict,
)

import lexpy
from lexpy.dom.dom import _tree_events
from lexpy.encoding import lookup as _lookup_encoding
from lexpy.encoding import prescan as _prescan

__all__ = ["LexpyTreeBuilder", "REQUIRED_BS4"]

#: The oldest beautifulsoup4 whose TreeBuilder API this module uses
#: (attribute_dict_class, attribute_value_list_class, SoupStrainer's
#: allow_tag_creation / allow_string_creation).
REQUIRED_BS4 = (4, 13)


def _version_tuple(text: str) -> Tuple[int, ...]:
    parts = []
    for part in text.split("."):
        digits = re.match(r"\d+", part)
        if digits is None:
            break
        parts.append(int(digits.group()))
    return tuple(parts)


if _version_tuple(getattr(_bs4, "__version__", "0")) < REQUIRED_BS4:
    raise ImportError(
        "lexpy.bs4 needs beautifulsoup4 >= %s (found %s): "
        "pip install 'lexpy[bs4]'" % (".".join(map(str, REQUIRED_BS4)),
                                      getattr(_bs4, "__version__", "unknown")))

_NONWHITESPACE = re.compile(r"\S+")
_HTML_NAMESPACE = "http://www.w3.org/1999/xhtml"
_MARKUP_TYPES = (str, bytes, bytearray, memoryview)


class _InputLines:
    """A document's input (parsed with positions) as lines: where a tag
    the tree has no node of is. Offsets as the SourceSpans count them (code
    points of str input, bytes of bytes input)."""

    def __init__(self, document: Any) -> None:
        info = document._source_info
        self.data: Union[str, bytes] = info.original
        self.encoding = None if isinstance(self.data, str) \
            else codecs.lookup(info.encoding).name
        # Line starts: after LF, after CR not followed by LF (as the parse
        # errors count lines).
        breaks = "\r\n|\n|\r"
        self.starts = [0] + [m.end() for m in re.finditer(
            breaks if self.encoding is None else breaks.encode("ascii"), self.data)]

    def stray_end_tag(self, name: str, offset: int) -> Optional[Tuple[int, int, int]]:
        """The first end tag `name` at or after input offset `offset`:
        (line, 0-based column of its ">", the offset after it), or None."""
        pattern = "</" + name + "(?=[\t\n\x0c\r />])[^>]*>"
        data = self.data
        if isinstance(data, str):
            text_match = re.compile(pattern, re.IGNORECASE).search(data, offset)
            if text_match is None:
                return None
            end = text_match.end()
        else:
            bytes_match = re.compile(pattern.encode("ascii"), re.IGNORECASE).search(data, offset)
            if bytes_match is None:
                return None
            end = bytes_match.end()
        at = end - 1
        index = bisect.bisect_right(self.starts, at) - 1
        line = data[self.starts[index]:at]
        column = len(line) if isinstance(line, str) else len(line.decode(
            self.encoding or "utf-8", "replace"))
        return index + 1, column, end


def _elements_in_order(node: Any) -> Iterator[Any]:
    """The elements under node in tree order, a template's contents as its
    children (the order of the tree events)."""
    stack = [iter(node.child_nodes)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        if child.node_type == 1:
            yield child
            if child.local_name == "template" and \
                    child.namespace_uri == "http://www.w3.org/1999/xhtml":
                stack.append(iter(child.content.child_nodes))
            else:
                stack.append(iter(child.child_nodes))


def _encoding_name(label: Optional[str]) -> Optional[str]:
    """The Encoding Standard's name of a label, lower-cased (html5lib's
    spelling), or None when it is no label. A Python codec name that is no
    WHATWG label ("latin-1", "utf_8") is looked up by its codec's name."""
    if label is None:
        return None
    try:
        return str(_lookup_encoding(label).name).lower()
    except (LookupError, TypeError, ValueError):
        pass
    try:
        return str(_lookup_encoding(codecs.lookup(label).name).name).lower()
    except (LookupError, TypeError, ValueError):
        return None


class LexpyTreeBuilder(HTMLTreeBuilder):
    """A bs4 TreeBuilder that parses with lexpy and builds the soup from
    lexpy's finished tree in one pass.

    Besides TreeBuilder's own keyword arguments (``multi_valued_attributes``,
    ``string_containers``, ``attribute_dict_class``, ...) it takes
    ``scripting`` (default False, as html5lib): whether ``<noscript>``
    holds raw text as in a browser with scripting enabled.
    """

    NAME = "lexpy"
    ALTERNATE_NAMES: List[str] = []
    features: Iterable[str] = [NAME, HTML_5, HTML, PERMISSIVE]
    #: Only with positions=True (lexpy.parse(..., positions=True)).
    TRACKS_LINE_NUMBERS = False

    def __init__(self, *args: Any, scripting: bool = False, positions: bool = False,
                 **kwargs: Any) -> None:
        if not isinstance(scripting, bool):
            raise TypeError("scripting must be a bool, not %s"
                            % type(scripting).__name__)
        if not isinstance(positions, bool):
            raise TypeError("positions must be a bool, not %s"
                            % type(positions).__name__)
        super().__init__(*args, **kwargs)
        self.scripting = scripting
        self.positions = positions
        self._document: Optional[Tuple[object, Any]] = None

    # -- bs4's TreeBuilder protocol -------------------------------------------

    def prepare_markup(
        self,
        markup: Any,
        user_specified_encoding: Optional[str] = None,
        document_declared_encoding: Optional[str] = None,
        exclude_encodings: Optional[Iterable[str]] = None,
    ) -> Iterator[Tuple[Any, Optional[str], Optional[str], bool]]:
        """Parse the markup with lexpy and yield it once, with the encoding
        lexpy used and the one the document declares (BeautifulSoup keeps
        them as original_encoding and declared_html_encoding)."""
        if isinstance(markup, (bytearray, memoryview)):
            markup = bytes(markup)
        if not isinstance(markup, (str, bytes)):
            raise TypeError("markup must be str or bytes, not %s"
                            % type(markup).__name__)
        DetectsXMLParsedAsHTML.warn_if_markup_looks_like_xml(markup, stacklevel=3)
        if isinstance(markup, str):
            document = lexpy.parse(markup, scripting=self.scripting, positions=self.positions)
            self._document = (markup, document)
            yield markup, None, None, False
            return
        excluded = {_encoding_name(e) for e in (exclude_encodings or ())} - {None}
        if user_specified_encoding is not None and \
                _encoding_name(user_specified_encoding) is None:
            raise LookupError("from_encoding: unknown encoding %r"
                              % (user_specified_encoding,))
        user_specified_encoding = _encoding_name(user_specified_encoding)
        if user_specified_encoding in excluded:
            user_specified_encoding = None
        default = _encoding_name(document_declared_encoding)
        if default in excluded:
            default = None
        document = lexpy.parse(markup, encoding=user_specified_encoding,
                               default_encoding=default, scripting=self.scripting,
                               positions=self.positions)
        if _encoding_name(document.encoding) in excluded:
            fallback = next((e for e in ("utf-8", "windows-1252")
                             if e not in excluded), "windows-1252")
            document = lexpy.parse(markup, encoding=fallback,
                                   scripting=self.scripting, positions=self.positions)
        self._document = (markup, document)
        declared = _prescan(markup[:1024])
        yield (markup, _encoding_name(document.encoding),
               _encoding_name(None if declared is None else str(declared.name)), False)

    def feed(self, markup: Any) -> None:
        """Build the soup from lexpy's tree of `markup` (parsed by
        prepare_markup, or here when called directly)."""
        pending = self._document
        self._document = None
        if pending is not None and pending[0] is markup:
            document = pending[1]
        elif isinstance(markup, _MARKUP_TYPES):
            document = lexpy.parse(
                bytes(markup) if isinstance(markup, (bytearray, memoryview)) else markup,
                scripting=self.scripting, positions=self.positions)
        else:
            raise TypeError("markup must be str or bytes, not %s"
                            % type(markup).__name__)
        assert self.soup is not None
        _Build(self.soup, self).run(document)

    def test_fragment_to_document(self, fragment: str) -> str:
        """The document a parse of `fragment` gives (see TreeBuilder)."""
        return "<html><head></head><body>%s</body></html>" % fragment


# ---------------------------------------------------------------------------
# Building the soup
# ---------------------------------------------------------------------------

_Attributes = Optional[List[Tuple[Optional[str], Optional[str], str, str]]]


class _Build:
    """One pass over a lexpy tree (lexpy.dom's flat _tree_events), in tree
    order, making the soup's objects and their links (parent, siblings,
    next/previous element) directly: tags and strings are made as bs4
    makes them, without the parser-callback machinery (handle_starttag,
    endData) that a tree built elsewhere does not need."""

    def __init__(self, soup: Any, builder: LexpyTreeBuilder) -> None:
        self.soup = soup
        self.builder = builder
        classes = soup.element_classes
        self.tag_class = classes.get(Tag, Tag)
        self.string_class = classes.get(NavigableString, NavigableString)
        self.comment_class = classes.get(Comment, Comment)
        self.doctype_class = classes.get(Doctype, Doctype)
        self.pi_class = classes.get(ProcessingInstruction, ProcessingInstruction)
        self.containers: Dict[str, Any] = {
            name: classes.get(cls, cls)
            for name, cls in (builder.string_containers or {}).items()}
        # Per element name: the attribute names split into lists.
        self._multi_valued: Dict[str, Set[str]] = {}
        self._prototypes: Dict[Tuple[Optional[str], str], Dict[str, Any]] = {}
        # Tags made without Tag.__init__ (the links are set here); a
        # subclass from element_classes gets its own __init__.
        self._fast_tags = self.tag_class is Tag
        # Whether the attribute dict class stores a str value as it is (so
        # that it may be made from a dict at once): bs4's own classes do.
        dict_class = builder.attribute_dict_class
        self._dict_stores_str_as_is = (
            dict_class.__setitem__ is dict.__setitem__
            or dict_class in (HTMLAttributeDict, XMLAttributeDict))
        self.last: Any = soup      # the most recent element in parse order

    # -- names and attributes -----------------------------------------------

    def multi_valued(self, name: str) -> Set[str]:
        names = self._multi_valued.get(name)
        if names is None:
            table = self.builder.cdata_list_attributes or {}
            names = set(table.get("*", ())) | set(table.get(name, ()))
            self._multi_valued[name] = names
        return names

    def attributes(self, name: str, nodes: Any) -> Any:
        """The attrs of a tag from an event's attributes: None, a dict of
        names without namespace to values, or attribute_nodes() tuples."""
        builder = self.builder
        dict_class = builder.attribute_dict_class
        if not nodes:
            return dict_class()
        multi = self.multi_valued(name)
        value_list = builder.attribute_value_list_class
        result: Any
        key: Union[str, NamespacedAttribute]
        if type(nodes) is dict:
            if self._dict_stores_str_as_is:
                result = dict_class(nodes)
            else:
                result = dict_class()
                for key, value in nodes.items():
                    result[key] = value
            if multi:
                for key in multi.intersection(nodes):
                    result[key] = value_list(_NONWHITESPACE.findall(nodes[key]))
            return result
        result = dict_class()
        for namespace, prefix, local, value in nodes:
            if namespace is not None:
                key = NamespacedAttribute(prefix, local, namespace)
            else:
                key = local
            if multi and key in multi:
                result[key] = value_list(_NONWHITESPACE.findall(value))
            else:
                result[key] = value
        return result

    def prototype(self, namespace: Optional[str], name: str) -> Dict[str, Any]:
        """The fields Tag.__init__ gives every tag of this name, once."""
        key = (namespace, name)
        proto = self._prototypes.get(key)
        if proto is None:
            builder = self.builder
            container = builder.string_containers.get(name) \
                if builder.string_containers else None
            proto = {
                "parser_class": self.soup.__class__,
                "name": name,
                "namespace": namespace,
                "prefix": None,
                "sourceline": None,
                "sourcepos": None,
                "attribute_value_list_class": builder.attribute_value_list_class,
                "known_xml": builder.is_xml,
                "hidden": False,
                "can_be_empty_element": builder.can_be_empty_element(name),
                "cdata_list_attributes": builder.cdata_list_attributes,
                "preserve_whitespace_tags": builder.preserve_whitespace_tags,
                "interesting_string_types": (
                    {container} if container is not None
                    else Tag.MAIN_CONTENT_STRING_TYPES),
            }
            self._prototypes[key] = proto
        return proto

    # -- making objects -------------------------------------------------------

    def make_tag(self, namespace: Optional[str], name: str, nodes: Any) -> Any:
        attrs = self.attributes(name, nodes)
        if self._fast_tags:
            tag = Tag.__new__(Tag)
            fields = tag.__dict__
            fields.update(self.prototype(namespace, name))
            fields["_namespaces"] = {}
            fields["attrs"] = attrs
            fields["contents"] = []
        else:
            tag = self.tag_class(None, self.builder, name, namespace, None, attrs)
        if name == "meta":
            self.builder.set_up_substitutions(tag)
        return tag

    def make_string(self, cls: Any, data: str) -> Any:
        if cls.__new__ is NavigableString.__new__:
            # NavigableString.__new__ is str.__new__ plus setup(), whose
            # links attach() sets.
            string = str.__new__(cls, data)
            string.hidden = False
            return string
        return cls(data)

    def make_leaf(self, event: Tuple[Any, ...], container: Any) -> Any:
        kind = event[0]
        if kind == 3:
            cls = self.string_class
            if container is not None and cls is NavigableString:
                cls = container
            return self.make_string(cls, event[1])
        if kind == 8:
            return self.make_string(self.comment_class, event[1])
        if kind == 7:
            # bs4 writes a ProcessingInstruction as "<?" + text + ">", the
            # text holding everything up to '>' (html.parser's convention):
            # for HTML's "<?target data?>", "target data?".
            target, data = event[1], event[2]
            return self.make_string(self.pi_class,
                                    target + (" " + data if data else "") + "?")
        if kind == 10:
            return self.doctype_class.for_name_and_ids(event[1], event[2], event[3])
        return None

    # -- the walk ---------------------------------------------------------------

    def run(self, document: Any) -> None:
        soup = self.soup
        strainer = soup.parse_only
        containers = self.containers
        make_tag = self.make_tag
        make_leaf = self.make_leaf
        # The enclosing levels: (soup parent, string container in force,
        # inside an element the strainer kept).
        stack: List[Tuple[Any, Any, bool]] = []
        parent: Any = soup
        container: Any = None
        kept = strainer is None
        last: Any = soup               # the most recent object, in parse order
        # positions: lexpy's elements in the order of the events
        elements = _elements_in_order(document) if self.builder.positions else None
        # (and the input offset the events have reached, with the offsets of
        # the end tags of the elements open: where a stray </p> is)
        reached = 0
        ends: List[int] = []
        lines: Optional[_InputLines] = None
        for event in _tree_events(document, False, True):
            if event is None:                  # an element's children end
                parent, container, kept = stack.pop()
                if elements is not None:
                    reached = max(reached, ends.pop())
                continue
            source = None
            position = None
            if event[0] == 1 and elements is not None:
                node = next(elements)
                source = node.source
                if source is None:
                    # An element the parser implied: where the tag that
                    # implied it is (html5lib's builder makes it there).
                    source = next((e.source for e in _elements_in_order(node)
                                   if e.source is not None), None)
                if source is None and not event[4] and event[2] == "p" \
                        and event[1] == "http://www.w3.org/1999/xhtml":
                    # A <p> a stray </p> made ("in body" insertion mode, An
                    # end tag whose tag name is "p"): at that end tag.
                    if lines is None:
                        lines = _InputLines(node.owner_document)
                    position = lines.stray_end_tag("p", reached)
                    if position is not None:
                        reached = position[2]
                if source is not None:
                    reached = max(reached, source.end)
                end = node.end_source
                if event[4]:
                    ends.append(end.end if end is not None else 0)
                elif end is not None:
                    reached = max(reached, end.end)
            if event[0] == 1:
                _, namespace, name, attributes, has_children = event
                if not kept and not strainer.allow_tag_creation(None, name, (
                        dict(attributes) if type(attributes) is dict
                        else {a[2]: a[3] for a in attributes or ()})):
                    if has_children:
                        # strained out: its children are considered in its place
                        stack.append((parent, container, kept))
                    continue
                obj = make_tag(namespace, name, attributes)
                if source is not None:
                    # (as html5lib's builder: where the tag's ">" is)
                    obj.sourceline = source.end_line
                    obj.sourcepos = source.end_column - 2
                elif position is not None:
                    obj.sourceline, obj.sourcepos = position[0], position[1]
            else:
                obj = make_leaf(event, container)
                if obj is None or not (kept or strainer.allow_string_creation(obj)):
                    continue
            # Link obj as parent's last child, after the most recent object.
            contents = parent.contents
            previous = contents[-1] if contents else None
            obj.parent = parent
            obj.previous_sibling = previous
            obj.next_sibling = None
            if previous is not None:
                previous.next_sibling = obj
            obj.previous_element = last
            last.next_element = obj
            obj.next_element = None
            contents.append(obj)
            last = obj
            if event[0] == 1 and event[4]:
                stack.append((parent, container, kept))
                parent = obj
                kept = True
                container = containers.get(event[2], container)
        self.last = last
        soup._most_recent_element = last


def _register() -> None:
    """Register LexpyTreeBuilder in bs4's builder registry behind the
    builders already there: "lexpy" finds it, while "html", "html5" and a
    BeautifulSoup() without features keep the builder they found before
    lexpy.bs4 was imported."""
    if LexpyTreeBuilder in builder_registry.builders:
        return
    builder_registry.builders.append(LexpyTreeBuilder)
    for feature in LexpyTreeBuilder.features:
        builder_registry.builders_for_feature[feature].append(LexpyTreeBuilder)


_register()
