"""What the extraction modules share: tree walks without recursion, the
standard's string helpers and URL resolution (ada-url, the WHATWG URL
parser, imported on first use)."""
import re
from typing import Any, Callable, Iterator, List, Optional, Tuple

from lexpy.dom import Document, Element, Node

ASCII_WHITESPACE = " \t\n\x0c\r"

ELEMENT = 1
TEXT = 3


def split_on_ascii_whitespace(value: Optional[str]) -> List[str]:
    # https://infra.spec.whatwg.org/#split-on-ascii-whitespace
    if not value:
        return []
    return _TOKENS.findall(value)


_TOKENS = re.compile("[^ \t\n\x0c\r]+")


def unique_tokens(value: Optional[str]) -> List[str]:
    """The tokens of an unordered set of unique space-separated tokens, in
    order, duplicates removed (the first occurrence kept)."""
    seen: List[str] = []
    for token in split_on_ascii_whitespace(value):
        if token not in seen:
            seen.append(token)
    return seen


def strip_ascii_whitespace(value: str) -> str:
    # https://infra.spec.whatwg.org/#strip-leading-and-trailing-ascii-whitespace
    return value.strip(ASCII_WHITESPACE)


def walk(root: Node) -> Iterator[Tuple[bool, Node]]:
    """(True, node) when a descendant of `root` is entered, (False, element)
    when an element is left, in tree order, by sibling and parent links (any
    depth). Template contents are not walked (they are not children)."""
    node = root.first_child
    while node is not None:
        yield True, node
        if node.node_type == ELEMENT:
            child = node.first_child
            if child is not None:
                node = child
                continue
            yield False, node
        while True:
            following = node.next_sibling
            if following is not None:
                node = following
                break
            node = node.parent
            if node is None or node is root:
                node = None
                break
            yield False, node


def elements(root: Node) -> Iterator[Element]:
    """The element descendants of `root` in tree order."""
    for entering, node in walk(root):
        if entering and node.node_type == ELEMENT:
            yield node  # type: ignore[misc]


def select(node: Node, selectors: str) -> List[Element]:
    """The elements at and below `node` that match `selectors`, in tree
    order (matched by the C selector engine; querySelectorAll leaves out
    the node itself)."""
    found: List[Element] = []
    if node.node_type == ELEMENT and node.matches(selectors):  # type: ignore[attr-defined]
        found.append(node)  # type: ignore[arg-type]
    found.extend(node.query_selector_all(selectors))  # type: ignore[attr-defined]
    return found


def descendant_text_content(node: Node) -> str:
    # https://dom.spec.whatwg.org/#concept-descendant-text-content
    return node.text_content or ""


def child_text_content(node: Node) -> str:
    # https://dom.spec.whatwg.org/#concept-child-text-content
    return "".join(child.text_content or "" for child in node.child_nodes
                   if child.node_type == TEXT)


def document_of(node: Node) -> Optional[Document]:
    if isinstance(node, Document):
        return node
    return node.owner_document


_join: Optional[Callable[[str, str], str]] = None
_normalize: Optional[Callable[[str], str]] = None


def _url_joiner() -> Callable[[str, str], str]:
    global _join, _normalize
    if _join is None:
        try:
            from ada_url import join_url, normalize_url
        except ImportError as error:  # pragma: no cover - the extra is missing
            raise ImportError("lexpy's link and URL helpers need ada-url "
                              "(pip install lexpy[extract])") from error
        _join = join_url
        _normalize = normalize_url
    return _join


def parse_url(url: str, base: Optional[str]) -> Optional[str]:
    """The serialization of `url` parsed against `base` by the URL Standard's
    parser, or None on failure; with no base, `url` if it is absolute."""
    join = _url_joiner()
    url = strip_ascii_whitespace(url)
    try:
        if base is None:
            return str(_normalize(url))  # type: ignore[misc]
        return str(join(base, url))
    except ValueError:
        return None


def document_base_url(node: Node, fallback: Optional[str]) -> Optional[str]:
    """The document base URL (https://html.spec.whatwg.org/#document-base-url):
    the frozen base URL of the first base element with an href attribute,
    parsed against the document's URL (`fallback`), else `fallback`."""
    document = document_of(node)
    if document is None:
        return fallback
    for element in document.iter("base"):
        href = element.get_attribute("href")
        if href is not None and element.namespace_uri == XHTML:
            resolved = parse_url(href, fallback)
            return resolved if resolved is not None else fallback
    return fallback


XHTML = "http://www.w3.org/1999/xhtml"


def resolve(url: str, base: Optional[str]) -> str:
    """`url` resolved against `base`; left as it is (stripped) when there is
    no base and it is relative, or when it does not parse."""
    resolved = parse_url(url, base)
    if resolved is None:
        return strip_ascii_whitespace(url)
    return resolved
