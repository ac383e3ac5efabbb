"""lexpy's linkify: URLs and e-mail addresses in the text of a tree become
links, outside a, pre, code (and any skip_tags), each link passing through
callbacks that can change its attributes and text or drop it."""
import re
from typing import Any, Callable, Dict, Iterable, List, Optional, Union

from lexpy.dom import DocumentFragment, Element, Node

# The link's attributes as bleach's callbacks see them: (namespace, name) ->
# value, and "_text" -> the link's text.
Attrs = Dict[Any, str]
Callback = Callable[[Attrs, bool], Optional[Attrs]]

TLDS = ("com|net|org|edu|gov|mil|int|info|biz|name|pro|aero|coop|museum|mobi|app|dev|io|ai|co|"
        "uk|us|de|fr|nl|eu|ca|au|jp|cn|ru|br|in|it|es|se|no|fi|dk|ch|at|be|pl|cz|pt|gr|ie|nz|"
        "za|mx|ar|kr|tw|hk|sg|tv|me|cc|xyz|online|site|tech|blog|shop|club")
URL_RE = re.compile(
    r"""\(*\b(?<![@.])(?:(?:https?|ftp)://)?"""
    r"""(?:[\w-]+\.)+(?:""" + TLDS + r""")\b(?::\d+)?"""
    r"""(?:[/?#][^\s<>"']*)?""", re.IGNORECASE | re.UNICODE)
URL_WITH_SCHEME_RE = re.compile(r"""(?:https?|ftp)://[^\s<>"']+""", re.IGNORECASE)
EMAIL_RE = re.compile(r"""[\w.!#$%&'*+/=?^`{|}~-]+@(?:[\w-]+\.)+[a-z]{2,}""", re.IGNORECASE)
SKIP = ("a", "pre", "code")


def nofollow(attrs: Attrs, new: bool = False) -> Attrs:
    """bleach's callback: rel="nofollow" on links (not mailto:)."""
    href = attrs.get((None, "href"), "")
    if href.startswith("mailto:"):
        return attrs
    rel = [v for v in attrs.get((None, "rel"), "").split() if v]
    if "nofollow" not in rel:
        rel.append("nofollow")
    attrs[(None, "rel")] = " ".join(rel)
    return attrs


def target_blank(attrs: Attrs, new: bool = False) -> Attrs:
    """bleach's callback: target="_blank" on http(s) links."""
    href = attrs.get((None, "href"), "")
    if href.startswith(("http:", "https:")) or href.startswith("//"):
        attrs[(None, "target")] = "_blank"
    return attrs


DEFAULT_CALLBACKS: List[Callback] = [nofollow]


def _strip_trailing(url: str) -> str:
    # Punctuation that ends a sentence is not part of the URL, and a ")"
    # only when the URL holds no "(".
    while url and url[-1] in ".,;:!?'\"":
        url = url[:-1]
    while url.endswith(")") and url.count("(") < url.count(")"):
        url = url[:-1]
    return url


def _matches(text: str, parse_email: bool) -> List[Any]:
    found = []
    for match in URL_WITH_SCHEME_RE.finditer(text):
        url = _strip_trailing(match.group(0))
        if url:
            found.append((match.start(), match.start() + len(url), url, False))
    for match in URL_RE.finditer(text):
        start, url = match.start(), match.group(0)
        while url.startswith("("):
            url, start = url[1:], start + 1
        url = _strip_trailing(url)
        if url:
            found.append((start, start + len(url), url, False))
    if parse_email:
        taken = []
        for match in EMAIL_RE.finditer(text):
            taken.append((match.start(), match.end(), match.group(0), True))
        # An address wins over the URL found in its domain.
        found = [f for f in found if not any(t[0] <= f[0] < t[1] for t in taken)] + taken
    found.sort(key=lambda item: (item[0], -item[1]))
    result, end = [], -1
    for item in found:
        if item[0] >= end:
            result.append(item)
            end = item[1]
    return result


def _skipped(node: Node, skip: Iterable[str]) -> bool:
    parent = node.parent_node
    while parent is not None:
        if isinstance(parent, Element) and parent.local_name in skip:
            return True
        parent = parent.parent_node
    return False


def linkify_tree(root: Node, callbacks: Optional[Iterable[Callback]] = None,
                 skip_tags: Optional[Iterable[str]] = None, parse_email: bool = False) -> None:
    """Make links of the URLs (and with parse_email, the e-mail addresses)
    in the Text nodes of `root`, in place."""
    chosen = list(DEFAULT_CALLBACKS if callbacks is None else callbacks)
    skip = set(SKIP) | set(skip_tags or ())
    document: Any = root if root.node_type == 9 else root.owner_document
    texts = []
    stack = [root]
    while stack:
        node = stack.pop()
        content = getattr(node, "content", None)
        for child in reversed(list(node.child_nodes) + (list(content.child_nodes)
                                                        if content is not None else [])):
            if child.node_type == 3:
                texts.append(child)
            elif child.node_type == 1 and (child.local_name not in skip
                                           or child.namespace_uri != HTML):
                stack.append(child)
            elif child.node_type == 11:
                stack.append(child)
    for text in texts:
        if _skipped(text, skip):
            continue
        data = text.data
        found = _matches(data, parse_email)
        if not found:
            continue
        pieces: List[Union[str, Node]] = []
        at = 0
        for start, end, url, email in found:
            href = "mailto:" + url if email else (
                url if re.match(r"(?:https?|ftp)://", url, re.I) else "http://" + url)
            attrs: Optional[Attrs] = {(None, "href"): href, "_text": url}
            for callback in chosen:
                attrs = callback(attrs, True) if attrs is not None else None
            if attrs is None:
                continue
            pieces.append(data[at:start])
            link = document.create_element("a")
            for key, value in attrs.items():
                if key == "_text":
                    continue
                namespace, name = key if isinstance(key, tuple) else (None, key)
                link.set_attribute_ns(namespace, name, value)
            link.append_child(document.create_text_node(attrs.get("_text", url)))
            pieces.append(link)
            at = end
        pieces.append(data[at:])
        nodes = [document.create_text_node(p) if isinstance(p, str) else p
                 for p in pieces if not (isinstance(p, str) and p == "")]
        text.replace_with(*nodes)


HTML = "http://www.w3.org/1999/xhtml"


def linkify(html: str, callbacks: Optional[Iterable[Callback]] = None,
            skip_tags: Optional[Iterable[str]] = None, parse_email: bool = False) -> str:
    """`html` with its URLs (and e-mail addresses, with parse_email) made
    links, outside a, pre and code (and skip_tags); each link's attributes
    (bleach's form: {(None, "href"): ..., "_text": ...}) pass through
    `callbacks` (default: nofollow), and a callback that returns None drops
    the link. Parsed as a fragment in a div; the markup is not sanitized
    (run lexpy.sanitize on the result for untrusted input)."""
    from lexpy.parser import parse_fragment
    if not isinstance(html, str):
        raise TypeError("html must be a str, not %s" % type(html).__name__)
    fragment: DocumentFragment = parse_fragment(html, "div")
    linkify_tree(fragment, callbacks, skip_tags, parse_email)
    return fragment.to_html()
