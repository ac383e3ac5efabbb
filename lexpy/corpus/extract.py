"""extract_record: the default extraction of lexpy.corpus (what
`lexpy extract` writes for each page)."""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import urljoin

import lexpy
from lexpy.corpus.records import NotAPage, Record, RecordError
from lexpy.encoding import lookup

HTML_TYPES = ("text/html", "application/xhtml+xml")
ASCII_WHITESPACE = "\t\n\x0c\r "


def content_type(record: Record) -> Tuple[Optional[str], Optional[str]]:
    """The MIME type (lowercased) and the charset parameter of the record's
    HTTP Content-Type header, each None when absent."""
    value = record.header("Content-Type")
    if value is None:
        return None, None
    parts = value.split(";")
    mime = parts[0].strip(ASCII_WHITESPACE).lower() or None
    charset = None
    for parameter in parts[1:]:
        key, _, val = parameter.partition("=")
        if key.strip(ASCII_WHITESPACE).lower() == "charset":
            val = val.strip(ASCII_WHITESPACE)
            if len(val) >= 2 and val[0] == val[-1] and val[0] in "\"'":
                val = val[1:-1]
            charset = val.strip(ASCII_WHITESPACE) or None
            break
    return mime, charset


def _looks_like_html(body: bytes) -> bool:
    head = body[:1024].lstrip(b"\xef\xbb\xbf\xff\xfe\t\n\x0c\r \x00")
    return head[:1] == b"<"


def parse_record(record: Record) -> Tuple[Any, List[str]]:
    """Parse a record's body as a browser would: the Content-Type charset
    goes in as the transport layer's encoding label (a byte order mark
    still wins); an unknown label is reported in the warnings returned with
    the Document and the encoding is sniffed instead. Parse errors are
    collected."""
    warnings: List[str] = []
    _, charset = content_type(record)
    encoding = None
    if charset is not None:
        try:
            lookup(charset)
            encoding = charset
        except LookupError:
            warnings.append("unknown charset label %r in Content-Type: the "
                            "encoding was sniffed" % charset)
    return lexpy.parse(record.body, encoding=encoding, collect_errors=True), warnings


# An absolute http(s) URL that urllib.parse.urljoin gives back unchanged
# (against any base): a lowercase scheme, an authority without brackets,
# no ';' (urlparse's path parameters), no empty query or fragment, no
# whitespace or control characters (urlsplit strips or removes them), no
# '.' or '..' segments (for a base of the same scheme, urljoin keeps the
# path as it is, but this stays on the safe side).
_PLAIN_ABSOLUTE = re.compile(
    r"https?://[^/?#;\[\]\x00-\x20\x7f]+"
    r"(?:/[^?#;\x00-\x20\x7f]*)?(?:\?[^#;\x00-\x20\x7f]+)?(?:#[^;\x00-\x20\x7f]+)?")
_DOT_SEGMENT = re.compile(r"/\.\.?(?:/|$|[?#])")


# A path-absolute reference ("/a/b?q") of the same shape, with no empty
# segment (urljoin drops those) joined to a plain http(s) base: urljoin
# gives the base's scheme and authority followed by the reference.
_PLAIN_PATH = re.compile(
    r"/(?!/)[^?#;\x00-\x20\x7f]*(?:\?[^#;\x00-\x20\x7f]+)?(?:#[^;\x00-\x20\x7f]+)?")
_ORIGIN = re.compile(r"(https?://[^/?#;\[\]\x00-\x20\x7f]+)(?:[/?#]|$)")


def resolve(base_url: str, href: str) -> str:
    """urllib.parse.urljoin(base_url, href) with href's ASCII whitespace
    stripped: a plain absolute http(s) URL, or a plain path-absolute one
    against a plain http(s) base, is made without calling it (the result
    is the same; tests check it on every link of the corpus), and a URL
    urljoin rejects (a bad IPv6 authority) is kept as written."""
    href = href.strip(ASCII_WHITESPACE)
    if _PLAIN_ABSOLUTE.fullmatch(href) and not _DOT_SEGMENT.search(href):
        return href
    if href[:1] == "/" and _PLAIN_PATH.fullmatch(href) and "//" not in href \
            and not _DOT_SEGMENT.search(href):
        origin = _ORIGIN.match(base_url)
        if origin is not None:
            return origin.group(1) + href
    try:
        return urljoin(base_url, href)
    except ValueError:
        return href


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _text(doc: Any) -> str:
    root = doc.body or doc
    if hasattr(lexpy, "extract_text"):
        return str(lexpy.extract_text(root, main_content=True))
    for element in root.query_selector_all("script, style, noscript, template"):
        element.remove()
    return _collapse(root.text_content or "")


def extract_record(record: Record) -> Dict[str, Any]:
    """The default extraction of one page, as a JSON-ready dict: `file`,
    `offset`, `url`, `status`, `encoding` (the one the page was decoded
    with), `title` (the document's title, whitespace collapsed), `lang` (of
    the root element), `description` (the first <meta name=description>),
    `canonical` (the first <link rel=canonical>'s href, absolute), `links`
    (the href of every <a> and <area>, in document order, made absolute
    with urllib.parse.urljoin against the document base URL: the first
    <base href> resolved against the page URL), `text`, `parse_errors` (how
    many) and `warnings` (an unknown charset label, for one).

    `text` is lexpy.extract_text(doc.body or doc, main_content=True) when
    this lexpy has extract_text (the text layer); otherwise the body's
    text_content without <script>, <style>, <noscript> and <template>, with
    runs of whitespace collapsed to one space.

    A record that is not an HTML page (by its Content-Type, or by its first
    byte when it has none) or has an empty body raises NotAPage, a
    ValueError (process() turns it into a RecordError of kind 'skipped')."""
    if isinstance(record, RecordError):
        raise ValueError(record.message)
    if not isinstance(record, Record):
        raise TypeError("record must be a lexpy.corpus.Record, not %s"
                        % type(record).__name__)
    mime, _ = content_type(record)
    if not record.body:
        raise NotAPage("empty body")
    if mime is not None and mime not in HTML_TYPES:
        raise NotAPage("not an HTML page (Content-Type %s)" % mime)
    if mime is None and not _looks_like_html(record.body):
        raise NotAPage("not an HTML page (no Content-Type, and the body does "
                         "not start with '<')")
    doc, warnings = parse_record(record)
    url = record.url or ""
    base = doc.query_selector("base[href]")
    base_url = resolve(url, base.get_attribute("href")) if base is not None else url
    title = doc.query_selector("title")
    root = doc.document_element
    description = doc.query_selector('meta[name="description" i][content]')
    canonical = doc.query_selector('link[rel~="canonical" i][href]')
    resolved: Dict[str, str] = {}     # pages repeat their links: join once
    links = []
    for a in doc.query_selector_all("a[href], area[href]"):
        href = a.get_attribute("href")
        link = resolved.get(href)
        if link is None:
            link = resolved[href] = resolve(base_url, href)
        links.append(link)
    return {
        "file": record.file,
        "offset": record.offset,
        "url": record.url,
        "status": record.status,
        "encoding": doc.encoding,
        "title": _collapse(title.text_content) if title is not None else None,
        "lang": root.get_attribute("lang") if root is not None else None,
        "description": description.get_attribute("content")
        if description is not None else None,
        "canonical": resolve(base_url, canonical.get_attribute("href"))
        if canonical is not None else None,
        "links": links,
        "text": _text(doc),
        "parse_errors": len(doc.errors),
        "warnings": warnings,
    }
