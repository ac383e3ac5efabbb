"""Selectors that end in parsel's terminal pseudo-elements and give strings:
``::text`` (the text node children of each matched element; after a
descendant combinator, ``a ::text``, the text nodes of the element and all
its descendants) and ``::attr(name)`` (the attribute's value of each matched
element that has it; ``a ::attr(name)``: of the element and its descendants).
A selector without them gives the matched elements' HTML (their outer_html),
as parsel's get() does. Helpers of lexpy, not a standard's."""
import re
from typing import Any, Callable, Iterator, List, Mapping, Optional, Tuple

from lexpy.dom.dom import Element, Node
from lexpy.selectors.selectors import SelectorSyntaxError, compile_selector

__all__ = ["ValueSelector", "compile_value_selector", "select_values"]

TEXT = 1
ATTRIBUTE = 2
HTML = 0

_TERMINAL = re.compile(
    r"(?P<space>\s*)::(?:(?P<text>text)|attr\(\s*(?P<name>[^\s()]+)\s*\))\s*$", re.I)


def _top_level(text: str, start: int = 0) -> Iterator[Tuple[int, str]]:
    """The characters of selector text outside strings, escapes,
    parentheses and brackets, with their offsets, from `start`."""
    depth = 0
    quote = ""
    i = start
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "\\":
            i += 1
        elif c in "([":
            depth += 1
        elif c in ")]":
            depth = max(0, depth - 1)
        elif depth == 0:
            yield i, c
        i += 1


def _split_list(text: str) -> List[str]:
    """The items of a selector list: commas outside parentheses, brackets
    and strings."""
    items = []
    start = 0
    for i, c in _top_level(text):
        if c == ",":
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return items


class _Item:
    __slots__ = ("selector", "kind", "name", "descendants")

    def __init__(self, selector: Optional[Any], kind: int, name: Optional[str],
                 descendants: bool) -> None:
        self.selector = selector
        self.kind = kind
        self.name = name
        self.descendants = descendants


def _first_compound_end(text: str) -> int:
    """Where the first compound selector of a complex selector ends (at a
    combinator or whitespace outside brackets and strings), or -1 when the
    selector is one compound."""
    for i, c in _top_level(text, len(text) - len(text.lstrip())):
        if c in ">+~" or c.isspace():
            return i if text[i:].strip() else -1
    return -1


def _leftmost_in_scope(text: str) -> str:
    """The complex selector with its first compound kept to the scoping
    element and its descendants (XPath's descendant-or-self, which parsel's
    translation starts with) by :is(:scope, :scope *)."""
    end = _first_compound_end(text)
    if end < 0:
        return text
    return text[:end] + ":is(:scope, :scope *)" + text[end:]


class ValueSelector:
    """A compiled selector list whose items may end in ::text or
    ::attr(name); select() gives strings in the items' order.

    With `scoped`, the first compound of each item must match the node
    selected from or one of its descendants (parsel's reading: cssselect
    translates to descendant-or-self::), where the standard's lets it match
    an ancestor."""

    def __init__(self, text: str, namespaces: Optional[Mapping[str, str]] = None,
                 scoped: bool = False) -> None:
        self.text = text
        self.items: List[_Item] = []
        for item in _split_list(text):
            match = _TERMINAL.search(item)
            if match is None:
                if scoped:
                    item = _leftmost_in_scope(item)
                self.items.append(_Item(compile_selector(item, namespaces), HTML, None, False))
                continue
            base = item[:match.start()]
            descendants = bool(match.group("space")) or not base.strip()
            kind = TEXT if match.group("text") else ATTRIBUTE
            name = None if kind == TEXT else match.group("name").lower()
            if base.strip() and base.rstrip()[-1:] in (">", "+", "~"):
                raise SelectorSyntaxError("a combinator must be followed by a selector",
                                          text, len(base), "a selector")
            selector = compile_selector(_leftmost_in_scope(base) if scoped else base,
                                        namespaces) if base.strip() else None
            self.items.append(_Item(selector, kind, name, descendants))

    def select(self, node: Node) -> List[str]:
        values: List[str] = []
        for item in self.items:
            if item.selector is None:
                elements: List[Node] = [node]
            else:
                elements = list(item.selector.select(node))
            if item.kind == HTML:
                values.extend(e.outer_html for e in elements)  # type: ignore[attr-defined]
                continue
            seen = set()
            for element in elements:
                if item.descendants:
                    if element in seen:
                        continue
                    targets: List[Node] = [element]
                    targets.extend(element.descendants())
                    seen.update(targets)
                else:
                    targets = [element]
                    if item.kind == TEXT:
                        targets.extend(element.child_nodes)
                for target in targets:
                    kind = target.node_type
                    if item.kind == TEXT:
                        if kind == 3 and target is not element:
                            values.append(target.text_content or "")
                    elif kind == 1:
                        value = target.get_attribute(item.name)  # type: ignore[attr-defined]
                        if value is not None:
                            values.append(value)
        return values

    def select_results(self, node: Node, include_self: bool = False) -> List[Any]:
        """The nodes the list selects at and below `node` as one node-set,
        in tree order without repeats (parsel's reading, where select()
        gives each item's strings in turn): matched elements for items
        without an ending, Text nodes for ::text, (element, name) pairs for
        ::attr(name). With `include_self`, `node` itself may match an item
        (parsel's CSS is XPath's descendant-or-self)."""
        found: List[List[Any]] = []
        unordered = len(self.items) > 1
        for item in self.items:
            if item.selector is None:
                elements: List[Any] = [node]
            else:
                elements = list(item.selector.select(node))
                if include_self and isinstance(node, Element) and item.selector.match(node):
                    elements.insert(0, node)
            results: List[Any] = []
            if item.kind == HTML:
                results = elements
            elif item.descendants:
                # At and below each element: an element inside the last one
                # taken is covered by it, so the nodes stay in tree order.
                last: Any = None
                for element in elements:
                    if last is not None and last.contains(element):
                        continue
                    last = element
                    for target in [element, *element.descendants()]:
                        if item.kind == TEXT:
                            if target.node_type == 3 and target is not element:
                                results.append(target)
                        elif target.node_type == 1 and target.has_attribute(item.name):
                            results.append((target, item.name))
            elif item.kind == TEXT:
                for element in elements:
                    results.extend(c for c in element.child_nodes if c.node_type == 3)
                # A matched element inside another puts its text between
                # the outer one's texts.
                unordered = unordered or any(
                    a.contains(b) for a, b in zip(elements, elements[1:]))
            else:
                results = [(e, item.name) for e in elements if e.has_attribute(item.name)]
            found.append(results)
        if not unordered:
            return found[0]
        return _in_tree_order(node, [r for results in found for r in results])

    def select_first(self, node: Node) -> Optional[str]:
        found = self.select(node)
        return found[0] if found else None


def _in_tree_order(root: Node, results: List[Any]) -> List[Any]:
    """Nodes and (element, attribute name) pairs of root's subtree, sorted
    in tree order (an element's attributes after it, before its children,
    in their order), without repeats."""
    nodes = [root, *root.descendants()]
    position = {id(n): i for i, n in enumerate(nodes)}
    keyed = {}
    for result in results:
        if isinstance(result, tuple):
            element, name = result
            names = element.get_attribute_names()
            key = (position[id(element)], 1, names.index(name) if name in names else 0)
        else:
            key = (position[id(result)], 0, 0)
        keyed[key] = result
    return [keyed[key] for key in sorted(keyed)]


def compile_value_selector(text: str,
                           namespaces: Optional[Mapping[str, str]] = None) -> ValueSelector:
    """A selector list with ::text / ::attr(name) endings, compiled once."""
    return ValueSelector(text, namespaces)


def select_values(node: Node, selectors: str,
                  namespaces: Optional[Mapping[str, str]] = None) -> List[str]:
    """The strings a selector list with parsel's ::text and ::attr(name)
    endings gives at and below `node`: text node data, attribute values, or
    the outer HTML of matched elements for an item without an ending."""
    return ValueSelector(selectors, namespaces).select(node)
