"""Selectors that end in parsel's terminal pseudo-elements and give strings:
``::text`` (the text node children of each matched element; after a
descendant combinator, ``a ::text``, the text nodes of the element and all
its descendants) and ``::attr(name)`` (the attribute's value of each matched
element that has it; ``a ::attr(name)``: of the element and its descendants).
A selector without them gives the matched elements' HTML (their outer_html),
as parsel's get() does. Helpers of lexpy, not a standard's."""
import re
from typing import Any, Callable, List, Mapping, Optional, Tuple

from lexpy.dom.dom import Element, Node
from lexpy.selectors.selectors import SelectorSyntaxError, compile_selector

__all__ = ["ValueSelector", "compile_value_selector", "select_values"]

TEXT = 1
ATTRIBUTE = 2
HTML = 0

_TERMINAL = re.compile(
    r"(?P<space>\s*)::(?:(?P<text>text)|attr\(\s*(?P<name>[^\s()]+)\s*\))\s*$", re.I)


def _split_list(text: str) -> List[str]:
    """The items of a selector list: commas outside parentheses, brackets
    and strings."""
    items = []
    depth = 0
    quote = ""
    start = 0
    i = 0
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
        elif c == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
        i += 1
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


class ValueSelector:
    """A compiled selector list whose items may end in ::text or
    ::attr(name); select() gives strings in the items' order."""

    def __init__(self, text: str, namespaces: Optional[Mapping[str, str]] = None) -> None:
        self.text = text
        self.items: List[_Item] = []
        for item in _split_list(text):
            match = _TERMINAL.search(item)
            if match is None:
                self.items.append(_Item(compile_selector(item, namespaces), HTML, None, False))
                continue
            base = item[:match.start()]
            descendants = bool(match.group("space")) or not base.strip()
            kind = TEXT if match.group("text") else ATTRIBUTE
            name = None if kind == TEXT else match.group("name").lower()
            if base.strip() and base.rstrip()[-1:] in (">", "+", "~"):
                raise SelectorSyntaxError("a combinator must be followed by a selector",
                                          text, len(base), "a selector")
            selector = compile_selector(base, namespaces) if base.strip() else None
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

    def select_first(self, node: Node) -> Optional[str]:
        found = self.select(node)
        return found[0] if found else None


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
