"""parsel's Selector on lexpy: the HTML standard's tree and lexpy's XPath
engine behind the API Scrapy users write (``response.xpath()``,
``.css()``, ``.get()``, ...).

``lexpy.parsel.Selector`` and ``SelectorList`` subclass parsel's, so code
that type-checks against parsel accepts them. HTML input (``text=`` or
``body=`` bytes, sniffed as browsers do) is parsed by lexpy and queried by
lexpy's XPath 1.0 engine (``node.xpath``; ``body=`` without ``encoding=`` is
sniffed as browsers do, where parsel assumes UTF-8). CSS queries run on
lexpy's own selector engine, with parsel's ``::text`` and ``::attr(name)``
endings (lexpy.selectors.values) read as parsel's translation reads them:
descendant-or-self of the selector's node, one node-set in tree order;
the results' ``_expr`` is the CSS text. Selectors the standard's grammar
rejects but cssselect reads (``#1``) go through parsel's translator to
lexpy's XPath. JSON, ``type="text"`` and ``type="xml"`` input keep parsel's own
behaviour (lxml's XML parser). ``get()`` of an element is its HTML
serialization by the standard's algorithm (libxml2 writes some attributes
and characters differently).

Needs parsel (``pip install lexpy[parsel]``); imported only when asked for.

For Scrapy, a downloader middleware makes every HTML response's
``response.xpath()`` / ``.css()`` / ``.selector`` lexpy's (the responses
become ``lexpy_response_class()``, an ``HtmlResponse`` subclass)::

    # settings.py
    DOWNLOADER_MIDDLEWARES = {"lexpy.parsel.LexpyDownloaderMiddleware": 950}
"""
from __future__ import annotations

import builtins
import json
import re
import sys
from typing import Any, Dict, List, Mapping, Optional, Tuple

import jmespath  # type: ignore[import-untyped]
import parsel
from parsel.selector import CannotDropElementWithoutParent, CannotRemoveElementWithoutRoot

import lexpy
from lexpy.selectors.selectors import SelectorSyntaxError
from lexpy.selectors.values import ValueSelector
from lexpy.xpath.xpath import _smart_string

__all__ = ["LexpyDownloaderMiddleware", "Selector", "SelectorList", "lexpy_response_class"]

_NOT_SET = parsel.selector._NOT_SET


def _is_lexpy(root: Any) -> bool:
    return isinstance(root, (lexpy.Node, lexpy.XPathString))


def _document_element(document: Any) -> Any:
    # parsel's root of a parsed page is its root element (lxml's), not the
    # document.
    element = document.document_element
    return element if element is not None else document


class SelectorList(parsel.SelectorList):  # type: ignore[type-arg]
    """parsel's SelectorList, of lexpy Selectors."""


class Selector(parsel.Selector):
    """parsel.Selector over a lexpy tree (see the module's docstring)."""

    __slots__ = ()
    selectorlist_cls = SelectorList

    def __init__(self, text: Optional[str] = None, type: Optional[str] = None,  # noqa: A002
                 body: bytes = b"", encoding: Optional[str] = None,
                 namespaces: Optional[Mapping[str, str]] = None, root: Any = _NOT_SET,
                 base_url: Optional[str] = None, _expr: Optional[str] = None,
                 huge_tree: bool = True) -> None:
        parsed = None
        if type in (None, "html") and root is _NOT_SET and text is not None:
            if not isinstance(text, str):
                raise TypeError("text argument should be of type str, got %s" % text.__class__)
            if type is None and _is_json(text):
                parsed = None                          # JSON: parsel's
            else:
                parsed = _document_element(lexpy.parse(text))
        elif type in (None, "html") and root is _NOT_SET and text is None and body:
            if not isinstance(body, (bytes, bytearray)):
                raise TypeError("body argument should be of type bytes or bytearray, got %s"
                                % body.__class__)
            is_json = False
            if type is None and encoding in (None, "utf-8"):
                try:
                    json.loads(bytes(body))
                    is_json = True
                except ValueError:
                    pass
            if not is_json:
                # No encoding given: sniffed as browsers do (a BOM, a <meta>
                # in the first 1024 bytes, UTF-8 detection, then windows-1252).
                parsed = _document_element(lexpy.parse(bytes(body), encoding=encoding))
        elif root is not _NOT_SET and isinstance(root, lexpy.Node) and type in ("json", "text"):
            raise ValueError("Selector got a lexpy %s object as root, and %r as type."
                             % (builtins.type(root).__name__, type))
        elif root is not _NOT_SET and text is None and not body and (
                (_is_lexpy(root) and not (isinstance(root, str) and _is_json(root))) or (type == "html" and builtins.type(root) in (float, bool))):
            parsed = root
        if parsed is None:
            super().__init__(text=text, type=type, body=body, encoding=encoding or "utf-8",
                             namespaces=namespaces, root=root, base_url=base_url, _expr=_expr,
                             huge_tree=huge_tree)
            return
        self.root = parsed
        self.type = "html"
        self.body = b""
        self.namespaces = dict(self._default_namespaces)
        if namespaces is not None:
            self.namespaces.update(namespaces)
        self._expr = _expr
        self._huge_tree = huge_tree
        self._text = text

    def xpath(self, query: str, namespaces: Optional[Mapping[str, str]] = None,
              **kwargs: Any) -> Any:
        if not _is_lexpy(self.root):
            return super().xpath(query, namespaces=namespaces, **kwargs)
        if not isinstance(self.root, lexpy.Node):
            return self.selectorlist_cls([])           # a text, attribute or value
        if isinstance(query, bytes):
            # lxml's rule for an expression given as bytes: ASCII only.
            try:
                query = query.decode("ascii")
            except UnicodeDecodeError:
                raise ValueError("All strings must be XML compatible: Unicode or ASCII, "
                                 "no NULL bytes or control characters") from None
        namespace_map = dict(self.namespaces)
        if namespaces is not None:
            namespace_map.update(namespaces)
        try:
            context: Any = self.root
            functions = _registered_functions()
            if functions:
                result = _compiled_with(query, namespace_map, functions)(context, **kwargs)
            else:
                result = context.xpath(query, namespaces=namespace_map, **kwargs)
        except ValueError as error:
            raise ValueError(_xpath_error_message(error, query)) from None
        if not isinstance(result, list):
            result = [result]
        if not self._lxml_smart_strings:
            # parsel's default: text and attribute results are plain strs.
            result = [str(item) if isinstance(item, lexpy.XPathString) else item
                      for item in result]
        return self._selector_list(result, query)

    def _selector_list(self, items: List[Any], query: str) -> Any:
        """The SelectorList of results (nodes, strings, values)."""
        cls = self.__class__
        if cls.__init__ is not Selector.__init__:
            return self.selectorlist_cls([
                cls(root=item, _expr=query, namespaces=self.namespaces, type="html")
                for item in items])
        return self.selectorlist_cls([
            _result_selector(cls, item, query, self.namespaces, self._huge_tree)
            for item in items])

    def css(self, query: str) -> Any:
        if not _is_lexpy(self.root):
            return super().css(query)
        if not isinstance(self.root, lexpy.Node):
            return self.selectorlist_cls([])           # a text, attribute or value
        root = self.root
        # Below the root element, the first compound of a selector must
        # match inside the selection (parsel's descendant-or-self::).
        scoped = root.parent is not None and not isinstance(root.parent, lexpy.Document)
        try:
            selector = _value_selector(query, scoped)
        except SelectorSyntaxError:
            # What the standard's grammar rejects but cssselect reads (an
            # id such as '#1'): parsel's own translation, run by lexpy's XPath.
            return self.xpath(self._css2xpath(query))
        results = selector.select_results(self.root, include_self=True)
        if self._lxml_smart_strings:
            items = [_smart_string(*r) if isinstance(r, tuple)
                     else _smart_string(r) if isinstance(r, lexpy.Text) else r
                     for r in results]
        else:
            items = [r[0].get_attribute(r[1]) if isinstance(r, tuple)
                     else r.data if isinstance(r, lexpy.Text) else r for r in results]
        return self._selector_list(items, query)

    def jmespath(self, query: str, **kwargs: Any) -> Any:
        if not _is_lexpy(self.root) or isinstance(self.root, str):
            return super().jmespath(query, **kwargs)
        # lxml's .text: the text before the element's first child element.
        text = ""
        if isinstance(self.root, lexpy.Element):
            for child in self.root.child_nodes:
                if isinstance(child, lexpy.Element):
                    break
                if isinstance(child, lexpy.Text):
                    text += child.data
        result = jmespath.search(query, _json_or_none(text), **kwargs)
        if result is None:
            result = []
        elif not isinstance(result, list):
            result = [result]
        return self.selectorlist_cls([
            self.__class__(text=x, _expr=query, type="text") if isinstance(x, str)
            else self.__class__(root=x, _expr=query) for x in result])

    def get(self) -> Any:
        root = self.root
        if builtins.type(root) is str and self.type == "html":
            return root                                # a text or attribute result
        if not _is_lexpy(root) and not (self.type == "html" and builtins.type(root) in (
                float, bool)):
            return super().get()
        if root is True:
            return "1"
        if root is False:
            return "0"
        if isinstance(root, float):
            return str(root)                           # as lxml's results print
        if isinstance(root, lexpy.XPathString):
            return str(root)
        if isinstance(root, lexpy.Element):
            return root.outer_html
        if isinstance(root, lexpy.Document):
            return root.to_html()
        if isinstance(root, lexpy.Comment):
            return "<!--%s-->" % root.data
        if isinstance(root, lexpy.ProcessingInstruction):
            return "<?%s %s>" % (root.target, root.data)
        return str(root.text_content or "")

    extract = get

    @property
    def attrib(self) -> Dict[str, str]:
        if not _is_lexpy(self.root):
            return super().attrib
        if isinstance(self.root, lexpy.Element):
            return {name: self.root.get_attribute(name) or ""
                    for name in self.root.get_attribute_names()}
        return {}

    def remove_namespaces(self) -> None:
        if not _is_lexpy(self.root):
            super().remove_namespaces()
        # An HTML document's names are namespace-less to XPath already
        # (unprefixed names are its HTML elements): nothing to do.

    def drop(self) -> None:
        if not _is_lexpy(self.root):
            super().drop()
            return
        if not isinstance(self.root, lexpy.Node) or isinstance(self.root, lexpy.Document):
            if isinstance(self.root, lexpy.Document):
                raise CannotDropElementWithoutParent(
                    "The node you're trying to remove has no parent, "
                    "are you trying to remove a root element?")
            raise CannotRemoveElementWithoutRoot(
                "The node you're trying to drop has no root, are you trying to drop a "
                "pseudo-element? Try to use 'li' as a selector instead of 'li::text' or "
                "'//li' instead of '//li/text()', for example.")
        if self.root.parent is None or isinstance(self.root.parent, lexpy.Document):
            raise CannotDropElementWithoutParent(
                "The node you're trying to remove has no parent, "
                "are you trying to remove a root element?")
        self.root.remove()


def _result_selector(cls: Any, item: Any, query: str, namespaces: Dict[str, str],
                     huge_tree: bool) -> Any:
    """Selector(root=item, ...) of an XPath result, without __init__'s checks
    (what __init__ would do for it)."""
    if isinstance(item, str) and _is_json(item):
        return cls(root=item, _expr=query, namespaces=namespaces, type="html")
    selector = cls.__new__(cls)
    selector.root = item
    selector.type = "html"
    selector.body = b""
    selector.namespaces = dict(namespaces)
    selector._expr = query
    selector._huge_tree = huge_tree
    selector._text = None
    return selector


# lexpy's errors in the words of libxml2's (parsel's messages carry them:
# "XPath error: Invalid predicate in //a[", which code matches on), lexpy's
# own message after them.
_LIBXML2_WORDS = [
    ("expected ']'", "Invalid predicate"),
    ("unknown function", "Unregistered function"),
    ("undeclared namespace prefix", "Undefined namespace prefix"),
    ("wrong number of arguments", "Invalid number of arguments"),
    ("unterminated string literal", "Unfinished literal"),
    ("undefined variable", "Undefined variable"),
]


def _in_predicate(query: str, offset: int) -> bool:
    """Whether the offset is inside a '[' ... ']' of the query (literals
    left out)."""
    before = re.sub(r"\"[^\"]*\"|'[^']*'", "", query[:offset])
    return before.count("[") > before.count("]")


def _xpath_error_message(error: ValueError, query: str) -> str:
    text = str(error)
    if text.startswith("expected an operator") and isinstance(error, lexpy.XPathSyntaxError) \
            and _in_predicate(query, error.offset):
        # A predicate's expression ended without its ']'.
        return "XPath error: Invalid predicate in %s (%s)" % (query, text)
    for lexpy_words, words in _LIBXML2_WORDS:
        if text.startswith(lexpy_words):
            return "XPath error: %s in %s (%s)" % (words, query, text)
    return "XPath error: %s in %s" % (text, query)


def _registered_functions() -> Tuple[Tuple[str, Any], ...]:
    """The functions registered in lxml's default function namespace
    (parsel.xpathfuncs.set_xpathfunc()), but parsel's has-class(), which
    lexpy's XPath has natively."""
    if "lxml.etree" not in sys.modules:
        return ()
    from lxml import etree
    return tuple((name.decode() if isinstance(name, bytes) else name, function)
                 for name, function in etree.FunctionNamespace(None).items()
                 if name not in (b"has-class", "has-class"))


_with_functions: Dict[Any, Any] = {}


def _compiled_with(query: str, namespaces: Dict[str, str],
                   functions: Tuple[Tuple[str, Any], ...]) -> Any:
    """The expression compiled with the registered functions as
    extensions (a bounded cache)."""
    key = (query, tuple(sorted(namespaces.items())), functions)
    found = _with_functions.get(key)
    if found is None:
        found = lexpy.compile_xpath(query, namespaces=namespaces, extensions={
            (None, name): function for name, function in functions})
        if len(_with_functions) >= 512:
            _with_functions.pop(next(iter(_with_functions)), None)
        _with_functions[key] = found
    return found


_value_selectors: Dict[Tuple[str, bool], ValueSelector] = {}


def _value_selector(query: str, scoped: bool) -> ValueSelector:
    """The compiled selector list of a css() query (a bounded cache)."""
    key = (query, scoped)
    found = _value_selectors.get(key)
    if found is None:
        if not isinstance(query, str):
            raise TypeError("query must be a str, not %s" % type(query).__name__)
        found = ValueSelector(query, scoped=scoped)
        if len(_value_selectors) >= 1024:
            _value_selectors.pop(next(iter(_value_selectors)), None)
        _value_selectors[key] = found
    return found


def _json_or_none(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


_JSON_STARTS = frozenset('{["-0123456789tfn')


def _is_json(text: str) -> bool:
    # What parsel asks of every string result; a first character no JSON
    # text starts with (most hrefs and texts) answers without the parser.
    stripped = text.lstrip(" \t\n\r")
    if not stripped or stripped[0] not in _JSON_STARTS:
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


_response_class: Any = None


def lexpy_response_class() -> Any:
    """Scrapy's HtmlResponse whose ``selector`` (so ``xpath()`` and
    ``css()``) is a lexpy.parsel.Selector of its body. Imports Scrapy."""
    global _response_class
    if _response_class is None:
        from scrapy.http import HtmlResponse

        class LexpyHtmlResponse(HtmlResponse):
            @property
            def selector(self) -> Any:
                cached: Any = self.__dict__.get("_lexpy_selector")
                if cached is None:
                    cached = Selector(body=self.body, encoding=self.encoding, base_url=self.url)
                    self.__dict__["_lexpy_selector"] = cached
                return cached

        _response_class = LexpyHtmlResponse
    return _response_class


class LexpyDownloaderMiddleware:
    """A Scrapy downloader middleware: HTML responses come out as
    lexpy_response_class(), whose selectors are lexpy's."""

    def process_response(self, request: Any, response: Any, spider: Any = None) -> Any:
        from scrapy.http import HtmlResponse
        cls = lexpy_response_class()
        if isinstance(response, HtmlResponse) and not isinstance(response, cls):
            return response.replace(cls=cls)
        return response
