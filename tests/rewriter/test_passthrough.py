"""Pass-through and latency of lexpy.Rewriter over the corpus (issue 39,
Must show), through the public API only.

Pass-through: with no-op handlers on `*` (element, text, comments) and on
the document (doctype, text, comments), the output is the input byte for
byte, for every corpus page in UTF-8 and re-encoded in windows-1252,
Shift_JIS, GB18030, EUC-KR (given as the transport label, as an HTTP
charset would; characters the encoding lacks become character references
first, so each page is a valid page in that encoding), UTF-16LE with a
BOM, and with invalid UTF-8 sequences put into it (undeclared: lexpy.parse's
autodetection reads it as windows-1252; and with "utf-8" as the transport
label: the UTF-8 decoder reads U+FFFD for them, the output keeps the
bytes); fed in 4 KiB chunks.

Latency: each corpus page in 4 KiB chunks with an `a[href]` handler:
after each feed() the output covers the input up to the start of the last
unfinished token. The tokens' extents come from lexpy.parse(positions=True)
on the whole page (start tags, end tags, comments, doctypes, text): every
token that starts before the end of the fed input has everything before
its start written, and every token that ends before it is written whole.

`python -m tests.rewriter.test_passthrough` prints the pages passed per
encoding.
"""
import sys

import pytest

import lexpy
from lexpy.rewriter import RewriteError, Rewriter
from tests.conformance import data

CORPUS = sorted(data.corpus_dir().glob("*.html"))
CHUNK = 4096


def _utf8_pages():
    pages = []
    for path in CORPUS:
        raw = path.read_bytes()
        try:
            pages.append((path.name, raw.decode("utf-8")))
        except UnicodeDecodeError:
            continue
    return pages


PAGES = _utf8_pages()


def test_the_corpus_is_there():
    assert len(CORPUS) >= 100 and len(PAGES) >= 0.9 * len(CORPUS)


def _noop(label=None):
    rw = Rewriter(encoding=label)
    rw.on("*", element=lambda e: None, text=lambda t: None, comments=lambda c: None)
    return rw.on_document(doctype=lambda d: None, text=lambda t: None,
                          comments=lambda c: None)


def _rewritten(raw, label=None):
    rw = _noop(label)
    out = [rw.feed(raw[i:i + CHUNK]) for i in range(0, len(raw), CHUNK)]
    out.append(rw.close())
    return b"".join(out)


def _invalid_utf8(text):
    # Invalid sequences (a lone continuation byte, a truncated 3-byte
    # sequence, an overlong form, a surrogate, 0xFF) after the first '>'
    # past each quarter of the page: in text, tags or comments as it falls.
    raw = text.encode("utf-8")
    bad = [b"\x80", b"\xe2\x82", b"\xc0\xaf", b"\xed\xa0\x80", b"\xff"]
    out, last = [], 0
    for k, seq in enumerate(bad[:4]):
        at = raw.find(b">", (k + 1) * len(raw) // 5)
        if at < 0 or at < last:
            continue
        out.append(raw[last:at + 1])
        out.append(seq)
        last = at + 1
    out.append(raw[last:])
    out.append(bad[4])
    return b"".join(out)


# encoding -> (make the bytes from the page's text, transport label)
ENCODINGS = {
    "utf-8": (lambda text: text.encode("utf-8"), None),
    "windows-1252": (lambda text: text.encode("cp1252", "xmlcharrefreplace"), "windows-1252"),
    "shift_jis": (lambda text: text.encode("shift_jis", "xmlcharrefreplace"), "shift_jis"),
    "gb18030": (lambda text: text.encode("gb18030"), "gb18030"),
    "euc-kr": (lambda text: text.encode("euc_kr", "xmlcharrefreplace"), "euc-kr"),
    "utf-16le-bom": (lambda text: b"\xff\xfe" + text.encode("utf-16-le"), None),
    # (beyond the Must show: the two that are not ASCII-compatible in the
    # other direction)
    "iso-2022-jp": (lambda text: text.encode("iso2022_jp", "xmlcharrefreplace"),
                    "iso-2022-jp"),
    "utf-16be-bom": (lambda text: b"\xfe\xff" + text.encode("utf-16-be"), None),
    # (Undeclared, autodetection finds the invalid bytes: windows-1252, as
    # lexpy.parse reads it; with the label the UTF-8 decoder reads U+FFFD.)
    "invalid-utf-8": (_invalid_utf8, None),
    "invalid-utf-8-labelled": (_invalid_utf8, "utf-8"),
}

def passthrough_failures(encoding):
    make, label = ENCODINGS[encoding]
    failures = []
    for name, text in PAGES:
        raw = make(text)
        try:
            out = _rewritten(raw, label)
        except ValueError as error:
            failures.append("%s: %s: %s" % (name, type(error).__name__, str(error)[:120]))
            continue
        if out != raw:
            at = next((i for i, (a, b) in enumerate(zip(out, raw)) if a != b),
                      min(len(out), len(raw)))
            failures.append("%s: differs at byte %d: %r / %r" % (
                name, at, raw[at - 20:at + 20], out[at - 20:at + 20]))
    return failures


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_corpus_passes_through_byte_for_byte(encoding):
    failures = passthrough_failures(encoding)
    assert not failures, "%d of %d pages:\n%s" % (len(failures), len(PAGES),
                                                  "\n".join(failures[:5]))


def test_the_re_encodings_are_what_they_claim():
    # Each re-encoded page decodes back (lexpy.parse with the label) to the
    # page's text, character references aside: the test inputs are right.
    name, text = next((n, t) for n, t in PAGES if not t.isascii())
    for encoding, (make, label) in ENCODINGS.items():
        raw = make(text)
        if encoding.startswith("invalid-utf-8"):
            assert raw != text.encode("utf-8")
            with pytest.raises(UnicodeDecodeError):
                raw.decode("utf-8")
            continue
        doc = lexpy.parse(raw, encoding=label)
        assert doc.text_content == lexpy.parse(text).text_content, (name, encoding)
        if encoding != "utf-8":
            assert raw != text.encode("utf-8"), encoding


def _edited(raw, label, edit):
    rw = Rewriter(encoding=label).on("a[href]", element=edit)
    out = b"".join(rw.feed(raw[i:i + CHUNK]) for i in range(0, len(raw), CHUNK))
    return out + rw.close()


SAMPLE = "\u00e9 \u65e5\u672c \u20ac \U0001F600 <&>\""


@pytest.mark.parametrize("encoding", ["windows-1252", "shift_jis", "gb18030", "euc-kr",
                                      "utf-16le-bom", "iso-2022-jp"])
def test_inserted_content_on_the_corpus_in_other_encodings(encoding):
    # Every a[href] gets a title and text with characters each encoding
    # lacks: the output, read back with the same label, has them, and the
    # rest of the page reads as before.
    make, label = ENCODINGS[encoding]

    def edit(e):
        e.set_attribute("title", SAMPLE)
        e.append(SAMPLE)

    checked = 0
    for name, text in PAGES[:25]:
        raw = make(text)
        try:
            out = _edited(raw, label, edit)
        except RewriteError:
            # (a refusal of the core's, as in UTF-8: not the encoding's)
            with pytest.raises(RewriteError):
                _edited(text.encode("utf-8"), "utf-8", edit)
            continue
        before = lexpy.parse(raw, encoding=label)
        after = lexpy.parse(out, encoding=label)
        links = after.query_selector_all("a[href]")
        assert len(links) == len(before.query_selector_all("a[href]")), name
        assert all(a.get_attribute("title") == SAMPLE for a in links), name
        assert [a.text_content for a in links] == [
            a.text_content + SAMPLE for a in before.query_selector_all("a[href]")], name
        checked += bool(links)
    assert checked >= 15


def _walk(node):
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        children = list(node.child_nodes)
        if getattr(node, "local_name", None) == "template" and node.content is not None:
            children = list(node.content.child_nodes) + children
        stack.extend(reversed(children))


def token_extents(raw):
    """(start, end) of the tokens lexpy.parse(positions=True) places: start
    and end tags, comments, doctypes, text (a text node's extent holds its
    character tokens, which the tokenizer emits as they come)."""
    spans = []
    for node in _walk(lexpy.parse(raw, positions=True)):
        for span in (node.source, getattr(node, "end_source", None)):
            if span is not None:
                spans.append((span.start, span.end, node.node_type == 3))
    return spans


def lag_violations(raw, rw=None):
    spans = token_extents(raw)
    if rw is None:
        rw = Rewriter().on("a[href]", element=lambda e: None)
    written = 0
    violations = []
    for i in range(0, len(raw), CHUNK):
        written += len(rw.feed(raw[i:i + CHUNK]))
        fed = min(len(raw), i + CHUNK)
        # The start of the last unfinished token, at least: the start of
        # every markup token begun by now, the end of every token ended.
        due = 0
        for start, end, is_text in spans:
            if end <= fed:
                due = max(due, end)
            elif start <= fed and not is_text:
                due = max(due, start)
        if written < due:
            violations.append("after %d bytes: %d written, %d due (held %r)" % (
                fed, written, due, raw[written:due][:60]))
    return violations


def test_output_lag_on_the_corpus():
    checked = 0
    failures = []
    for name, text in PAGES:
        raw = text.encode("utf-8")
        violations = lag_violations(raw)
        if violations:
            failures.append("%s: %s" % (name, violations[0]))
        checked += 1
    assert checked == len(PAGES)
    assert not failures, "%d pages:\n%s" % (len(failures), "\n".join(failures[:5]))


class _Holding:
    """A rewriter that holds the last 100 bytes of what it was fed."""

    def __init__(self):
        self.held = b""

    def feed(self, data):
        data = self.held + data
        self.held = data[-100:]
        return data[:-100]


def test_the_lag_check_can_fail():
    raw = PAGES[0][1].encode("utf-8")
    assert len(raw) > 3 * CHUNK
    assert lag_violations(raw, _Holding())


if __name__ == "__main__":
    for encoding in ENCODINGS:
        failures = passthrough_failures(encoding)
        print("%-14s %3d of %d pages pass through byte for byte"
              % (encoding, len(PAGES) - len(failures), len(PAGES)))
    sys.exit(0)
