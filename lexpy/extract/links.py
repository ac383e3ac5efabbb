"""The links of a page: every URL-bearing attribute HTML defines, resolved
by the URL Standard's parser (ada-url) against the document base URL
(<base href>, itself against the document's URL)."""
import re
from typing import Dict, Iterator, List, Optional, Tuple

from lexpy.dom import Element, Node
from lexpy.extract._dom import XHTML, document_base_url, parse_url, select

__all__ = ["iter_links", "make_links_absolute", "resolve_link", "base_of", "URL_ATTRIBUTES"]

# element local name -> its attributes holding one URL
URL_ATTRIBUTES: Dict[str, Tuple[str, ...]] = {
    "a": ("href",), "area": ("href",), "link": ("href",),
    "img": ("src",), "script": ("src",), "iframe": ("src",), "frame": ("src",),
    "form": ("action",), "button": ("formaction",), "input": ("formaction", "src"),
    "object": ("data",), "embed": ("src",), "audio": ("src",), "video": ("src", "poster"),
    "source": ("src",), "track": ("src",),
    "blockquote": ("cite",), "q": ("cite",), "del": ("cite",), "ins": ("cite",),
}
SRCSET_ELEMENTS = ("img", "source")
# every element _element_links may find a link on, for the C selector engine
_LINK_ELEMENTS = ", ".join(
    ["%s[%s]" % (name, attribute) for name, attributes in URL_ATTRIBUTES.items()
     for attribute in attributes]
    + ["%s[srcset]" % name for name in SRCSET_ELEMENTS]
    + ["meta[http-equiv][content]", "[style]"])
ASCII_WHITESPACE = " \t\n\x0c\r"
_CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)""", re.I)

Link = Tuple[Element, str, str, int]


def iter_links(node: Node, *, base_url: Optional[str] = None) -> Iterator[Link]:
    """(element, attribute, url, position) for every URL in the URL-bearing
    attributes of the elements at and below `node`, in tree order: href of
    a, area and link; src of img, script, iframe, frame, embed, audio,
    video, source, track and input; every candidate of img and source
    srcset; form action; button and input formaction; object data; video
    poster; cite of blockquote, q, del and ins; the URL of a meta refresh;
    each url() of a style attribute. `url` is resolved against the
    document base URL (<base href> against `base_url`); one that does not
    parse, or is relative with no base, is given as written (stripped).
    `position` is where the URL starts in the attribute's value."""
    for element, attribute, url, position, _ in _links(node, base_url):
        yield element, attribute, url, position


def _links(node: Node, base_url: Optional[str]) -> Iterator[Tuple[Element, str, str, int, int]]:
    # iter_links with the length of each URL as written
    resolver = _Resolver(document_base_url(node, base_url))
    for element in select(node, _LINK_ELEMENTS):
        yield from _element_links(element, resolver)


class _Resolver:
    """URLs resolved against one base, each distinct one parsed once (a
    page repeats its links)."""

    __slots__ = ("base", "done")

    def __init__(self, base: Optional[str]) -> None:
        self.base = base
        self.done: Dict[str, str] = {}

    def __call__(self, url: str) -> str:
        found = self.done.get(url)
        if found is None:
            found = self.done[url] = _resolve(url, self.base)
        return found


def _element_links(element: Element,
                   resolve: _Resolver) -> Iterator[Tuple[Element, str, str, int, int]]:
    html = element.namespace_uri == XHTML
    name = element.local_name
    if html:
        for attribute in URL_ATTRIBUTES.get(name, ()):
            value = element.get_attribute(attribute)
            if value is not None:
                start, end = _stripped(value)
                yield element, attribute, resolve(value[start:end]), start, end - start
        if name in SRCSET_ELEMENTS:
            srcset = element.get_attribute("srcset")
            if srcset is not None:
                for url, start in srcset_candidates(srcset):
                    yield element, "srcset", resolve(url), start, len(url)
        if name == "meta":
            http_equiv = element.get_attribute("http-equiv")
            content = element.get_attribute("content")
            if http_equiv is not None and http_equiv.lower() == "refresh" \
                    and content is not None:
                found = refresh_url(content)
                if found is not None:
                    yield (element, "content", resolve(found[0]), found[1],
                           len(found[0]))
    style = element.get_attribute("style")
    if style is not None and "url(" in style.lower():
        for match in _CSS_URL.finditer(style):
            group = 1 if match.group(1) is not None else 2 if match.group(2) is not None else 3
            yield (element, "style", resolve(match.group(group)), match.start(group),
                   len(match.group(group)))


def _stripped(value: str) -> Tuple[int, int]:
    start = 0
    end = len(value)
    while start < end and value[start] in ASCII_WHITESPACE:
        start += 1
    while end > start and value[end - 1] in ASCII_WHITESPACE:
        end -= 1
    return start, end


def _resolve(url: str, base: Optional[str]) -> str:
    resolved = parse_url(url, base)
    return resolved if resolved is not None else url.strip(ASCII_WHITESPACE)


def resolve_link(url: str, base: Optional[str]) -> str:
    """A link as iter_links gives it: `url` (an attribute's value) parsed
    by the URL Standard's parser against `base` (a document base URL, or
    None), or as written (ASCII whitespace stripped) when it does not
    parse, or is relative with no base. lexpy.corpus's links."""
    return _resolve(url, base)


def base_of(href: str, url: Optional[str]) -> Optional[str]:
    """The document base URL of a page at `url` whose first <base> has
    `href` (https://html.spec.whatwg.org/#document-base-url): href parsed
    against url, or url when it does not parse."""
    resolved = parse_url(href, url)
    return resolved if resolved is not None else url


# https://html.spec.whatwg.org/multipage/images.html#parsing-a-srcset-attribute
def srcset_candidates(value: str) -> List[Tuple[str, int]]:
    """The URLs of a srcset attribute's image candidates with where each
    starts (descriptors are skipped, not checked)."""
    found: List[Tuple[str, int]] = []
    position = 0
    length = len(value)
    while True:
        while position < length and (value[position] in ASCII_WHITESPACE
                                     or value[position] == ","):
            position += 1
        if position >= length:
            return found
        start = position
        while position < length and value[position] not in ASCII_WHITESPACE:
            position += 1
        url = value[start:position]
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            # descriptors: up to a comma outside parentheses
            in_parens = False
            while position < length:
                c = value[position]
                if c == "(":
                    in_parens = True
                elif c == ")":
                    in_parens = False
                elif c == "," and not in_parens:
                    position += 1
                    break
                position += 1
        if url:
            found.append((url, start))


# https://html.spec.whatwg.org/multipage/document-lifecycle.html#shared-declarative-refresh-steps
def refresh_url(content: str) -> Optional[Tuple[str, int]]:
    """The URL of a meta refresh's content and where it starts, or None
    when it names none (or does not parse as a refresh)."""
    position = 0
    length = len(content)
    while position < length and content[position] in ASCII_WHITESPACE:
        position += 1
    digits = position
    while position < length and content[position].isdigit() and content[position].isascii():
        position += 1
    if position == digits and not (position < length and content[position] == "."):
        return None
    while position < length and (content[position] == "." or (
            content[position].isdigit() and content[position].isascii())):
        position += 1
    if position >= length:
        return None
    if content[position] not in ASCII_WHITESPACE + ";,":
        return None
    while position < length and content[position] in ASCII_WHITESPACE:
        position += 1
    if position < length and content[position] in ";,":
        position += 1
    while position < length and content[position] in ASCII_WHITESPACE:
        position += 1
    if position >= length:
        return None
    start = position
    if content[position:position + 3].lower() == "url":
        skipped = position + 3
        while skipped < length and content[skipped] in ASCII_WHITESPACE:
            skipped += 1
        if skipped < length and content[skipped] == "=":
            skipped += 1
            while skipped < length and content[skipped] in ASCII_WHITESPACE:
                skipped += 1
            start = skipped
    end = length
    if start < length and content[start] in "'\"":
        quote = content[start]
        start += 1
        close = content.find(quote, start)
        if close >= 0:
            end = close
    return content[start:end], start


def make_links_absolute(node: Node, base_url: Optional[str] = None) -> None:
    """Rewrite every link iter_links finds at and below `node` as its
    resolved URL (the URLs that do not resolve are left as they are)."""
    edits: Dict[Tuple[int, str], Tuple[Element, List[Tuple[int, int, str]]]] = {}
    for element, attribute, url, position, length in list(_links(node, base_url)):
        edits.setdefault((id(element), attribute), (element, []))[1].append(
            (position, length, url))
    for (_, attribute), (element, changes) in edits.items():
        value = element.get_attribute(attribute)
        if value is None:
            continue
        for position, length, url in sorted(changes, reverse=True):
            value = value[:position] + url + value[position + length:]
        element.set_attribute(attribute, value)
