"""HTML normalisation for the CommonMark round trip (tests/text/test_markdown.py),
in the spirit of the spec's test/normalize.py: both sides are parsed and
compared as trees, with white space outside <pre> collapsed, white space
next to block elements dropped, and attributes sorted (character references
are decoded by the parse)."""
import re
from typing import List, Tuple, Union

import lexpy

BLOCK = {
    "article", "aside", "blockquote", "body", "dd", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section",
    "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "br", "caption",
    "colgroup", "col", "details", "summary", "address", "center", "dialog", "menu",
}
_SPACES = re.compile(r"\s+")

Item = Union[str, Tuple[str, Tuple[Tuple[str, str], ...], tuple]]


def _is_block(item: Item) -> bool:
    return isinstance(item, tuple) and item[0] in BLOCK


def _children(node: lexpy.Node, in_pre: bool, block_parent: bool) -> tuple:
    items: List[Item] = []
    for child in node.child_nodes:
        if isinstance(child, lexpy.Text):
            data = child.data if in_pre else _SPACES.sub(" ", child.data)
            if items and isinstance(items[-1], str):
                items[-1] += data
            else:
                items.append(data)
        elif isinstance(child, lexpy.Element):
            name = child.local_name
            attrs = tuple(sorted(child.attributes.items()))
            items.append((name, attrs, _children(child, in_pre or name == "pre",
                                                 name in BLOCK)))
        elif isinstance(child, lexpy.Comment):
            items.append(("#comment", (), (child.data,)))
    if not in_pre:
        for i, item in enumerate(items):
            if not isinstance(item, str):
                continue
            if (i == 0 and block_parent) or (i > 0 and _is_block(items[i - 1])):
                item = item.lstrip()
            if (i == len(items) - 1 and block_parent) or (
                    i + 1 < len(items) and _is_block(items[i + 1])):
                item = item.rstrip()
            items[i] = item
    return tuple(item for item in items if item != "")


def normalize(html: str) -> tuple:
    """A comparable form of an HTML fragment's tree."""
    return _children(lexpy.parse_fragment(html, "body"), False, True)
