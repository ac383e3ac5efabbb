"""extract_record: the default extraction of lexpy.corpus (what
`lexpy extract` writes for each page)."""
from __future__ import annotations

import functools
from typing import Any, Dict, List, NamedTuple, Optional, Tuple
from urllib.parse import urljoin

import lexpy
from lexpy.corpus.records import NotAPage, Record, RecordError
from lexpy.corpus.urls import base_parts, page_fields, plain_resolutions
from lexpy.extract.links import base_of, resolve_link
from lexpy.text import extract_text

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
    return _parse(record, content_type(record)[1])


def _parse(record: Record, charset: Optional[str]) -> Tuple[Any, List[str]]:
    if charset is not None:
        try:
            # (the label is looked up once, by the parse: a LookupError
            # here can only be the label's, as nothing else is given)
            return lexpy.parse(record.body, encoding=charset, collect_errors=True), []
        except LookupError:
            return lexpy.parse(record.body, collect_errors=True), [
                "unknown charset label %r in Content-Type: the encoding was sniffed"
                % charset]
    return lexpy.parse(record.body, collect_errors=True), []


class _Base(NamedTuple):
    """What the shapes of resolve() take from a base URL
    (lexpy.corpus.urls.base_parts)."""
    scheme: Optional[str]
    origin: Optional[str]
    without_fragment: Optional[str]
    directory: Optional[str]


@functools.lru_cache(maxsize=256)
def _base(base_url: str) -> _Base:
    return _Base(*base_parts(base_url))


def resolve(base_url: str, href: str) -> str:
    """urllib.parse.urljoin(base_url, href) with href's ASCII whitespace
    stripped, and a URL urljoin rejects (a bad IPv6 authority) kept as
    written. The common shapes are made without calling it, with the same
    result (lexpy.corpus.urls; tests check it on every link of the corpus
    against several bases, and on generated links): a plain absolute
    http(s) URL; against a plain http(s) base, a plain path-absolute or
    path-relative reference, a network-path reference or a fragment; and a
    reference with a scheme other than the base's, which urljoin gives back
    as it is."""
    return resolve_all(base_url, [href])[0]


def resolve_all(base_url: str, hrefs: List[str]) -> List[str]:
    """[resolve(base_url, href) for href in hrefs], the shapes of all of
    them found in one call without the GIL."""
    base = _base(base_url)
    resolved = plain_resolutions(hrefs, base.scheme, base.origin, base.without_fragment,
                                 base.directory)
    for k, url in enumerate(resolved):
        if url is None:
            resolved[k] = _join(base_url, hrefs[k].strip(ASCII_WHITESPACE))
    return resolved  # type: ignore[return-value]


def _join(base_url: str, href: str) -> str:
    """urljoin of a stripped href, kept as written where urljoin rejects it."""
    if not href:
        return base_url                 # (as urljoin gives it)
    try:
        return urljoin(base_url, href)
    except ValueError:
        return href


# The links of extract_record: lexpy.extract's resolution (the URL
# Standard's parser, ada-url), the one iter_links and make_links_absolute
# use. page_fields hands each distinct href, as written, to _link_join.

def _link_base(url: str, href: str) -> str:
    # the document base URL: <base href> against the page's URL
    return base_of(href, url or None) or ""


def _link_join(base_url: str, href: str) -> str:
    return resolve_link(href, base_url or None)


@functools.lru_cache(maxsize=64)
def _serialized(url: str) -> str:
    # the URL Standard's serialization of the page's URL ("" when it has
    # none; as it is when it does not parse)
    return base_of(url, None) or url if url else ""


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _text(doc: Any) -> str:
    return extract_text(doc.body or doc, main_content=True)


def extract_record(record: Record) -> Dict[str, Any]:
    """The default extraction of one page, as a JSON-ready dict: `file`,
    `offset`, `url`, `status`, `encoding` (the one the page was decoded
    with), `title` (the document's title, whitespace collapsed), `lang` (of
    the root element), `description` (the first <meta name=description>),
    `canonical` (the first <link rel=canonical>'s href, absolute), `links`
    (the href of every <a> and <area>, in document order, made absolute
    as lexpy.iter_links makes them: by the URL Standard's parser (ada-url,
    the extract extra) against the document base URL, the first <base
    href> parsed against the page URL; one that does not parse is kept as
    written, stripped), `text`, `parse_errors` (how
    many) and `warnings` (an unknown charset label, for one).

    `text` is lexpy.extract_text(doc.body or doc, main_content=True).

    A record that is not an HTML page (by its Content-Type, or by its first
    byte when it has none) or has an empty body raises NotAPage, a
    ValueError (process() turns it into a RecordError of kind 'skipped')."""
    if isinstance(record, RecordError):
        raise ValueError(record.message)
    if not isinstance(record, Record):
        raise TypeError("record must be a lexpy.corpus.Record, not %s"
                        % type(record).__name__)
    mime, charset = content_type(record)
    if not record.body:
        raise NotAPage("empty body")
    if mime is not None and mime not in HTML_TYPES:
        raise NotAPage("not an HTML page (Content-Type %s)" % mime)
    if mime is None and not _looks_like_html(record.body):
        raise NotAPage("not an HTML page (no Content-Type, and the body does "
                         "not start with '<')")
    doc, warnings = _parse(record, charset)
    url = record.url or ""
    # One walk for the head's fields and the links (in C: with proxies,
    # get_attribute, resolve() and a query for the head this was most of
    # the Python work of a record, with the GIL held), and the text's walk
    # in the same release of the GIL.
    # the page's URL as the URL Standard serializes it: the shapes of
    # page_fields that the standard's parser would give alike are made in C
    base_url, links, title, description, canonical, text = page_fields(
        doc, _serialized(url), _base, _link_base, _link_join, text=True, whatwg=True)
    root = doc.document_element
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
        "canonical": _link_join(base_url, canonical.get_attribute("href") or "")
        if canonical is not None else None,     # (it has an href: page_fields)
        "links": links,
        "text": text,
        "parse_errors": doc.error_count,
        "warnings": warnings,
    }
