"""Documents in every encoding of the standard, declared by <meta charset>,
by http-equiv, by the caller, by a BOM, and only after the first 1024 bytes,
run through the input byte stream the way the parser driver will run them:
the encoding found and the decoded text are checked.

Until the tree builder exists, `drive` stands in for it: it looks for the
first <meta> in the UTF-8 it is given and, while the confidence is
tentative, asks the stream to change the encoding, restarting on
CHANGE_REPARSE. Once lexpy.parse() exists, the same documents go through
parse() and Parser.feed() and doc.encoding is checked (the integration
test of issue 5).
"""
import re

import pytest

import lexpy.encoding as enc
from lexpy.encoding.encoding import _InputByteStream
from tests import encoding_reference as ref

META = re.compile(rb"<meta charset=([a-zA-Z0-9_:.-]+)>|"
                  rb"<meta http-equiv=content-type content='text/html; charset=([a-zA-Z0-9_:.-]+)'>")


def sample(name):
    """(bytes, text): some of the encoding's own characters, from its index."""
    if name in ("UTF-8", "UTF-16LE", "UTF-16BE"):
        text = "caf\u00e9 \u65e5\u672c \U0001f600 \u20ac"
        return text.encode({"UTF-8": "utf-8", "UTF-16LE": "utf-16-le",
                            "UTF-16BE": "utf-16-be"}[name]), text
    if name == "x-user-defined":
        return b"a\x80\xff", "a\uf780\uf7ff"
    if name == "replacement":
        return b"x", "\ufffd"
    pairs = []
    heading = {n: h for n, _, h in ref.encodings()}[name]
    if heading == "Legacy single-byte encodings":
        table = ref.index("iso-8859-8" if name == "ISO-8859-8-I" else name.lower())
        pairs = [(bytes([0x80 + p]), chr(c)) for p, c in sorted(table.items())[::9]]
    elif name in ("gb18030", "GBK"):
        table = ref.index("gb18030")
        for p in range(0, 23940, 997):
            lead, trail = divmod(p, 190)
            pairs.append((bytes([lead + 0x81, trail + (0x40 if trail < 0x3F else 0x41)]),
                          chr(table[p])))
    elif name == "Big5":
        table = ref.index("big5")
        for p in sorted(table)[::811]:
            lead, trail = divmod(p, 157)
            pairs.append((bytes([lead + 0x81, trail + (0x40 if trail < 0x3F else 0x62)]),
                          chr(table[p])))
    elif name in ("EUC-JP", "ISO-2022-JP", "Shift_JIS"):
        table = ref.index("jis0208")
        for p in sorted(q for q in table if q < 8836)[::331]:
            lead, trail = divmod(p, 94)
            if name == "EUC-JP":
                sequence = bytes([lead + 0xA1, trail + 0xA1])
            elif name == "ISO-2022-JP":
                sequence = b"\x1b$B" + bytes([lead + 0x21, trail + 0x21]) + b"\x1b(B "
            else:
                lead, trail = divmod(p, 188)
                sequence = bytes([lead + (0x81 if lead < 0x1F else 0xC1),
                                  trail + (0x40 if trail < 0x3F else 0x41)])
            pairs.append((sequence, chr(table[p]) + (" " if name == "ISO-2022-JP" else "")))
    elif name == "EUC-KR":
        table = ref.index("euc-kr")
        for p in sorted(table)[::701]:
            lead, trail = divmod(p, 190)
            pairs.append((bytes([lead + 0x81, trail + 0x41]), chr(table[p])))
    assert pairs, name
    return b"".join(b for b, _ in pairs), "".join(t for _, t in pairs)


def ascii_part(name, text):
    """ASCII markup in the document's encoding."""
    if name == "UTF-16LE":
        return text.encode("utf-16-le")
    if name == "UTF-16BE":
        return text.encode("utf-16-be")
    return text.encode("ascii")


def drive(data, transport=None, chunk=None, changes=None):
    """The driver's loop over the input byte stream, with a stand-in for the
    tree builder's <meta> handling. Returns (encoding name, text); the
    results of change_encoding are appended to `changes`."""
    stream = _InputByteStream(transport)
    changes = [] if changes is None else changes
    if isinstance(data, list):
        pieces = data
    else:
        pieces = [data] if chunk is None else [data[i:i + chunk]
                                              for i in range(0, len(data), chunk)] or [b""]
    out = bytearray()

    def consume(utf8):
        out.extend(utf8)
        if stream.confidence != "tentative":
            return False
        match = META.search(bytes(out))
        if match is None:
            return False
        label = match.group(1) or match.group(2)
        try:
            declared = enc.lookup(label)
        except LookupError:
            return False
        changes.append(stream.change_encoding(declared))
        if changes[-1] == "reparse":
            out.clear()
            out.extend(stream.restart())
        return True

    for piece in pieces:
        consume(stream.feed(piece))
    consume(stream.finish())
    return stream.encoding.name, out.decode("utf-8")


ASCII_COMPATIBLE = [e.name for e in enc.ENCODINGS
                    if e.name not in ("UTF-16LE", "UTF-16BE", "replacement")]
# What a <meta> naming the encoding makes of it.
DECLARED_AS = {"x-user-defined": "windows-1252"}


@pytest.mark.parametrize("chunk", [None, 1, 7, 500])
@pytest.mark.parametrize("name", ASCII_COMPATIBLE)
def test_meta_charset(name, chunk):
    body, text = sample(name)
    head = "<!DOCTYPE html><meta charset=%s><title>t</title><p>" % name
    data = ascii_part(name, head) + body
    expected = DECLARED_AS.get(name, name)
    got_name, got = drive(data, chunk=chunk)
    assert got_name == expected
    if expected == name:
        assert got == head + text


@pytest.mark.parametrize("name", ASCII_COMPATIBLE)
def test_http_equiv(name):
    body, text = sample(name)
    head = "<head><meta http-equiv=content-type content='text/html; charset=%s'><p>" % name
    got_name, got = drive(ascii_part(name, head) + body, chunk=64)
    assert got_name == DECLARED_AS.get(name, name)
    if got_name == name:
        assert got == head + text


@pytest.mark.parametrize("name", [e.name for e in enc.ENCODINGS])
def test_declared_by_the_caller(name):
    body, text = sample(name)
    head = "<p>"
    # The caller's label wins over a <meta> that says otherwise.
    data = ascii_part(name, head) + body + ascii_part(name, "<meta charset=koi8-r>")
    got_name, got = drive(data, transport=name, chunk=100)
    assert got_name == name
    if name != "replacement":
        assert got == head + text + "<meta charset=koi8-r>"


@pytest.mark.parametrize("name,bom,codec", [("UTF-8", b"\xef\xbb\xbf", "utf-8"),
                                            ("UTF-16LE", b"\xff\xfe", "utf-16-le"),
                                            ("UTF-16BE", b"\xfe\xff", "utf-16-be")])
def test_declared_by_a_bom(name, bom, codec):
    text = "<meta charset=koi8-r><p>caf\u00e9 \u65e5\u672c \U0001f600"
    for transport in (None, "koi8-r"):
        for chunk in (None, 1, 2, 5):
            assert drive(bom + text.encode(codec), transport, chunk) == (name, text)


@pytest.mark.parametrize("name", [n for n in ASCII_COMPATIBLE if n != "windows-1252"])
def test_declared_after_1024_bytes(name):
    body, text = sample(name)
    padding = "<!-- %s -->" % ("x" * 1100)
    # Text after the <meta>, in a later chunk: the bytes so far are ASCII,
    # the decoder is switched on the fly.
    head = padding + "<meta charset=%s><p>" % name
    changes = []
    got_name, got = drive([ascii_part(name, head), body], changes=changes)
    assert got_name == DECLARED_AS.get(name, name)
    assert changes == ["switched" if got_name == name else "kept"]
    if got_name == name:
        assert got == head + text
    # In the same chunk, the converted bytes are not all ASCII any more: the
    # input is decoded again from its start (the decoder converts whole
    # chunks, the tokenizer has only read up to the <meta>).
    changes = []
    assert drive(ascii_part(name, head) + body, changes=changes) == (got_name, got)
    assert changes == ["reparse" if got_name == name else "kept"]
    # Text before the <meta>: the input is decoded again from its start.
    data = ascii_part(name, "<p>") + body + ascii_part(name, padding + "<meta charset=%s>" % name)
    changes = []
    got_name, got = drive(data, chunk=300, changes=changes)
    assert got_name == DECLARED_AS.get(name, name)
    assert changes == ["reparse" if got_name == name else "kept"]
    if got_name == name:
        assert got == "<p>" + text + padding + "<meta charset=%s>" % name


def test_meta_charset_utf16_means_utf8():
    data = "<meta charset=utf-16><p>caf\u00e9".encode("utf-8")
    assert drive(data) == ("UTF-8", "<meta charset=utf-16><p>caf\u00e9")


def test_undeclared_documents_are_windows_1252():
    assert drive("<p>caf\u00e9".encode("utf-8")) == ("windows-1252", "<p>caf\u00c3\u00a9")
