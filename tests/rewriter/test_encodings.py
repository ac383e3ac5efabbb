"""lexpy.Rewriter over every encoding of ../shared/whatwg-encoding/
(issue 39 point 5): sniffed as lexpy.parse sniffs (BOM, the transport
label, the <meta> prescan, UTF-8 autodetection), untouched bytes pass
through unchanged however the input is cut (invalid sequences included),
text handlers and attribute values see what lexpy.parse decodes, inserted
content is written in the document's encoding (character references in
text and attribute values for what it lacks; RewriteError in raw text),
and the output reparses (lexpy.parse with the same label) to the edit.

Each encoding's document holds characters of its own index (every
character for the single-byte encodings, a spread of the index for the
others, written by the Standard's own decoder's inverse), the bytes 0x80
to 0xFF as they come (invalid sequences in most encodings) and, for
ISO-2022-JP, escape sequences to each of its states."""
import json
import random
import re
from pathlib import Path

import pytest

import lexpy
from lexpy.encoding import encoding as enc
from lexpy.rewriter import RewriteError, Rewriter, rewrite
from lexpy.rewriter.output_encoding import encode_inserted

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "whatwg-encoding"
GROUPS = json.loads((SHARED / "encodings.json").read_text())
ENCODINGS = [e["name"] for group in GROUPS for e in group["encodings"]]
LABELS = {e["name"]: e["labels"] for group in GROUPS for e in group["encodings"]}
UTF16 = ("UTF-16LE", "UTF-16BE")
INDEX = {  # the index file of each encoding that has one
    "Big5": "big5", "EUC-KR": "euc-kr", "gb18030": "gb18030", "GBK": "gb18030",
    "EUC-JP": "jis0208", "ISO-2022-JP": "jis0208", "Shift_JIS": "jis0208",
    "ISO-8859-8-I": "iso-8859-8",
}
# Inserted: ASCII, Latin-1, CJK, Greek, Cyrillic, the euro sign, an emoji.
SAMPLE = "a&b \u00e9\u00fc \u65e5\u672c \u03b1 \u0416 \u20ac \U0001F600"


def test_the_data_is_there():
    assert len(ENCODINGS) == 40


def _index_characters(name):
    """Characters of the encoding's index (every one for single-byte
    encodings, every 37th for the others), in index order."""
    if name in ("UTF-8",) + UTF16:
        return "caf\u00e9 \u65e5\u672c\u8a9e \U0001F600 \u20ac"
    if name in ("replacement", "x-user-defined"):
        return ""
    path = SHARED / ("index-%s.txt" % INDEX.get(name, name.lower()))
    chars = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\s*(\d+)\s+0x([0-9A-Fa-f]+)", line)
        if match:
            chars.append(chr(int(match.group(2), 16)))
    assert chars, path
    return "".join(chars if name not in INDEX or name.startswith("ISO-8859") else chars[::37])


def _encoded(text, name):
    """`text` in the encoding (characters it lacks as references)."""
    if name == "replacement":
        return text.encode("ascii", "xmlcharrefreplace")
    return encode_inserted(text, name, "text")


def document(name, declare="label"):
    """A document in `name`: (bytes, transport label or None)."""
    if name in UTF16:
        bom = b"\xff\xfe" if name == "UTF-16LE" else b"\xfe\xff"
        codec = "utf-16-le" if name == "UTF-16LE" else "utf-16-be"
        text = ("<!DOCTYPE html><title>t</title><p title='%s'>%s</p><!-- c -->"
                "<script>var s = '%s';</script><p>end</p>"
                % (_index_characters(name), _index_characters(name), _index_characters(name)))
        raw = bom + text.encode(codec) + b"\x00\xd8\x41\x00"   # a lone surrogate
        return raw, (name if declare == "label" else None)
    chars = _index_characters(name)
    head = b"<!DOCTYPE html><html><head>"
    if declare == "meta":
        head += b'<meta charset="' + LABELS[name][-1].encode() + b'">'
    head += b"<title>t</title><script>var s = 1;</script></head><body>"
    body = (b"<p title='" + _encoded(chars[:40], name) + b"'>" + _encoded(chars, name)
            + b"</p>\n<p>" + bytes(range(0x80, 0x100)) + b"</p>\n<!-- "
            + _encoded(chars[:20], name) + b" -->")
    if name == "ISO-2022-JP":
        # Every state, an escape at the end of a text run, and text ending
        # in a non-ASCII state right before a tag.
        body += (b"<p>\x1b$BF|K\\\x1b(B <i>x</i> \x1b(Jab\\~\x1b(B \x1b(I12\x1b(B</p>"
                 b"<p>\x1b$BF|\x1b(B</p><p>\x1b$BF|</p>\x1b(B")
    raw = head + body + b"<p>end</p></body></html>\n"
    return raw, (name if declare == "label" else None)


def _chunks(raw, seed):
    rng = random.Random(seed)
    i = 0
    while i < len(raw):
        n = rng.choice([1, 2, 3, 7, 64, 1000])
        yield raw[i:i + n]
        i += n


def _noop(label):
    rw = Rewriter(encoding=label)
    rw.on("*", element=lambda e: None, text=lambda t: None, comments=lambda c: None)
    return rw.on_document(doctype=lambda d: None, text=lambda t: None,
                          comments=lambda c: None)


def _run(rw, raw, seed=None):
    if seed is None:
        return rewrite(raw, rw)
    out = [rw.feed(chunk) for chunk in _chunks(raw, seed)]
    return b"".join(out) + rw.close()


def _cases():
    for name in ENCODINGS:
        yield name, "label"
        if name not in UTF16 + ("replacement", "UTF-8", "x-user-defined", "ISO-2022-JP"):
            yield name, "meta"
    yield "UTF-16LE", "bom"
    yield "UTF-16BE", "bom"


CASES = list(_cases())


@pytest.mark.parametrize("name,declare", CASES)
def test_untouched_bytes_pass_through(name, declare):
    raw, label = document(name, declare)
    assert lexpy.parse(raw, encoding=label).encoding == name
    for seed in (None, 1, 2, 3):
        assert _run(_noop(label), raw, seed) == raw, (name, declare, seed)


@pytest.mark.parametrize("name,declare", CASES)
def test_text_handlers_see_what_lexpy_parse_decodes(name, declare):
    raw, label = document(name, declare)
    doc = lexpy.parse(raw, encoding=label)
    expected = [(p.text_content, p.get_attribute("title")) for p in doc.query_selector_all("p")]
    for seed in (None, 5):
        texts, titles = {}, []
        order = []

        def element(e, texts=texts, titles=titles, order=order):
            order.append(len(order))
            key = order[-1]
            texts[key] = []
            titles.append(e.get_attribute("title"))
            assert e.attributes.get("title") == titles[-1]

        def text(t, texts=texts, order=order):
            texts[order[-1]].append(t.text)

        rw = Rewriter(encoding=label).on("p", element=element, text=text)
        _run(rw, raw, seed)
        got = [("".join(texts[k]), titles[k]) for k in order]
        assert got == expected, (name, declare, seed)


def _editor(content):
    def edit(e):
        e.set_attribute("data-x", content)
        e.append(content)
    return edit


@pytest.mark.parametrize("name,declare", CASES)
def test_inserted_content_reparses_to_the_edit(name, declare):
    raw, label = document(name, declare)
    if name == "replacement":
        # (no output encoding: nothing can be inserted, and the document is
        # one U+FFFD with no element to match but the implied ones)
        with pytest.raises(RewriteError, match="replacement"):
            rewrite(raw, Rewriter(encoding=label).on("body", element=_editor("\u00e9")))
        return
    doc = lexpy.parse(raw, encoding=label)
    expected = [p.text_content + SAMPLE for p in doc.query_selector_all("p")]
    for seed in (None, 7):
        out = _run(Rewriter(encoding=label).on("p", element=_editor(SAMPLE)), raw, seed)
        again = lexpy.parse(out, encoding=label)
        assert again.encoding == name
        ps = again.query_selector_all("p")
        assert [p.text_content for p in ps] == expected, (name, declare, seed)
        assert all(p.get_attribute("data-x") == SAMPLE for p in ps)
        # What the encoding has is written as its bytes, not as references.
        for char in "\u00e9\u65e5\u20ac":
            if _encoded(char, name) != ("&#%d;" % ord(char)).encode():
                assert "&#%d;" % ord(char) not in out.decode("latin-1")


@pytest.mark.parametrize("name", [n for n in ENCODINGS if n not in UTF16 + ("replacement",)])
def test_raw_text_takes_what_the_encoding_has_and_refuses_the_rest(name):
    # (<title> is RCDATA: references are read there; <script> is raw text)
    raw, label = document(name, "label")
    for char in "\u00e9\u65e5\u20ac\u0416":
        representable = _encoded(char, name) != ("&#%d;" % ord(char)).encode()

        def edit(e, char=char):
            e.append(" " + char)

        rw = Rewriter(encoding=label).on("script, title", element=edit)
        if not representable:
            with pytest.raises(RewriteError, match="U\\+%04X" % ord(char)):
                rewrite(raw, rw)
            continue
        again = lexpy.parse(rewrite(raw, rw), encoding=label)
        assert again.query_selector("title").text_content == "t " + char
        assert again.query_selector("script").text_content == "var s = 1; " + char
    # the title alone takes references
    out = rewrite(raw, Rewriter(encoding=label).on("title", element=_editor(SAMPLE)))
    assert lexpy.parse(out, encoding=label).query_selector("title").text_content == \
        "t" + SAMPLE


def test_utf16_raw_text_takes_every_character():
    for name in UTF16:
        raw, _ = document(name, "bom")
        out = rewrite(raw, Rewriter().on("script", element=lambda e: e.append("\U0001F600\u65e5")))
        script = lexpy.parse(out).query_selector("script").text_content
        assert script.endswith("\U0001F600\u65e5")


def test_iso_2022_jp_state_around_inserted_content():
    # After <p> the input switches to JIS X 0208 (the escape belongs to the
    # extent before the character it precedes): content written there
    # switches to ASCII first, the input after it switches back; content
    # that ends in JIS X 0208 (its final return to ASCII left out: two
    # escape sequences in a row read as U+FFFD) is followed by the
    # input's own escape, or by one written before the input's ASCII.
    raw = (b"<p>\x1b$BF|K\\\x1b(B</p><p>\x1b$BF|\x1b(B<i>x</i>\x1b(Jab\\~\x1b(B</p>"
           b"<p>\x1b$BF|</p>\x1b(B")
    doc = lexpy.parse(raw, encoding="iso-2022-jp")
    expected = [p.text_content for p in doc.query_selector_all("p")]

    def edit(e):
        e.prepend("<b>\u00e9")
        e.append("a\u65e5")
        e.before("\u672c")
        e.after("z")

    for seed in (None, 1, 2, 3):
        out = _run(Rewriter(encoding="iso-2022-jp").on("p, i", element=edit), raw, seed)
        again = lexpy.parse(out, encoding="iso-2022-jp")
        assert "\ufffd" not in again.body.text_content
        assert again.query_selector_all("p")[0].text_content == \
            "<b>\u00e9" + expected[0] + "a\u65e5"
        assert again.query_selector("i").text_content == "<b>\u00e9xa\u65e5"
        # removed content between runs in other states
        out = _run(Rewriter(encoding="iso-2022-jp").on("i", element=lambda e: e.remove()),
                   raw, seed)
        again = lexpy.parse(out, encoding="iso-2022-jp")
        assert [p.text_content for p in again.query_selector_all("p")] == \
            [expected[0], expected[1].replace("x", "", 1), expected[2]]


@pytest.mark.parametrize("raw,expected", [
    (b"\xef\xbb\xbf<p>\xc3\xa9</p>", "UTF-8"),                     # BOM
    (b"\xff\xfe<\x00p\x00>\x00\xe9\x00", "UTF-16LE"),               # BOM
    (b'<meta charset="koi8-r"><p>\xe9</p>', "KOI8-R"),              # prescan
    (b'<meta http-equiv="content-type" content="text/html; charset=euc-jp"><p>\xa4\xa2',
     "EUC-JP"),
    (b'<meta charset="utf-16"><p>\xc3\xa9</p>', "UTF-8"),           # prescan's UTF-16 rule
    (b'<meta charset="x-user-defined"><p>\xe9</p>', "windows-1252"),
    (b"<p>" + b"x" * 3000 + b"\xc3\xa9</p>", "UTF-8"),              # autodetection
    (b"<p>" + b"x" * 3000 + b"\xe9t\xe9</p>", "windows-1252"),      # autodetection
    (b"<p>" + b"\xc3\xa9" * 600 + b"\xe9</p>", "UTF-8"),            # past its window
    (b"<p>x</p>", "windows-1252"),                                  # nothing to go on
])
def test_the_encoding_is_sniffed_as_lexpy_parse_sniffs(raw, expected):
    assert lexpy.parse(raw).encoding == expected
    for seed in (None, 11):
        seen = []
        rw = Rewriter().on_document(text=lambda t: seen.append(t.text))
        assert _run(rw, raw, seed) == raw
        assert rw._input.encoding == expected
        assert "".join(seen) == lexpy.parse(raw).body.text_content


def test_transport_label_and_default():
    raw = b"<p>\x93\xfa\x96\x7b</p>"
    seen = []
    rw = Rewriter(encoding="sjis").on_document(text=lambda t: seen.append(t.text))
    assert rewrite(raw, rw) == raw and seen == ["\u65e5\u672c"]
    seen.clear()
    rw = Rewriter(default_encoding="shift_jis").on_document(text=lambda t: seen.append(t.text))
    assert rewrite(raw, rw) == raw and seen == ["\u65e5\u672c"]


def test_content_before_autodetection_decides_is_ascii_with_references():
    # Nothing tells the encoding until the first non-ASCII byte, 3000 bytes
    # on: content written before it is ASCII (references for the rest),
    # which reads the same whatever autodetection then finds.
    for tail, name in ((b"\xc3\xa9", "UTF-8"), (b"\xe9", "windows-1252")):
        raw = b"<p>a</p>" + b"<i>x</i>" * 400 + tail
        out = rewrite(raw, Rewriter().on("p", element=lambda e: e.append("\u00e9")))
        assert out.startswith(b"<p>a&#233;</p>")
        doc = lexpy.parse(out)
        assert doc.encoding == name and doc.query_selector("p").text_content == "a\u00e9"
    with pytest.raises(RewriteError, match="not decided yet"):
        rewrite(b"<script>x</script>" + b"<i>x</i>" * 400 + b"\xe9",
                Rewriter().on("script", element=lambda e: e.append("\u00e9")))


def test_all_ascii_undeclared_input_takes_utf8_content_at_its_end():
    out = rewrite(b"<p>x</p>", Rewriter().on_document(end=lambda d: d.append("\u00e9\u65e5")))
    assert out == b"<p>x</p>" + "\u00e9\u65e5".encode("utf-8")
    assert lexpy.parse(out).body.text_content == "x\u00e9\u65e5"


def test_a_meta_past_the_prescan_window_while_autodetection_waits_decides():
    # Every byte before the <meta> is ASCII: lexpy.parse switches to its
    # encoding on the fly, and so does the rewriter (autodetection's
    # decision waits until the ASCII before the first non-ASCII byte has
    # been tokenized), however the input is cut.
    raw = b"<p>" + b" " * 2000 + b"<meta charset=shift_jis><p>\x93\xfa</p>"
    assert lexpy.parse(raw).encoding == "Shift_JIS"
    for seed in (None, 1, 2):
        seen = []
        rw = Rewriter().on("p", text=lambda t: seen.append(t.text),
                           element=lambda e: e.append("\u65e5"))
        out = _run(rw, raw, seed)
        assert rw._input.encoding == "Shift_JIS" and seen[-1] == "\u65e5"
        # (before the decision: a reference; after it: Shift_JIS bytes)
        assert out.endswith(b"\x93\xfa\x93\xfa</p>") and out.count(b"&#26085;") == 1
        again = lexpy.parse(out)
        assert again.encoding == "Shift_JIS"
        assert [p.text_content[-1] for p in again.query_selector_all("p")] == ["\u65e5"] * 2


def test_a_meta_after_non_ascii_bytes_does_not_change_the_encoding():
    # lexpy.parse re-parses in Shift_JIS when it meets the <meta>; the
    # rewriter decided windows-1252 (autodetection, at the first non-ASCII
    # byte) and has written output since: it keeps the encoding. The bytes
    # pass unchanged; text handlers saw them decoded as windows-1252, and
    # inserted content is written in it.
    raw = b"<p>caf\xe9" + b" " * 2000 + b"<meta charset=shift_jis><p>\x93\xfa</p>"
    assert lexpy.parse(raw).encoding == "Shift_JIS"
    for seed in (None, 1):
        seen = []
        rw = Rewriter().on("p", text=lambda t: seen.append(t.text),
                           element=lambda e: e.append("\u00e9"))
        out = _run(rw, raw, seed)
        assert rw._input.encoding == "windows-1252"
        assert seen[-1] == "\u201c\u00fa"
        assert out.count(b"\xe9") == 3 and out.replace(b"\xe9", b"") == raw.replace(b"\xe9", b"")
    # (with the label the encoding is Shift_JIS throughout)
    seen = []
    rewrite(raw, Rewriter(encoding="shift_jis").on("p", text=lambda t: seen.append(t.text)))
    assert seen[-1] == "\u65e5"


def test_invalid_sequences_pass_in_every_chunking():
    raw = b"<p title='\xff\xc3'>a\xe2\x82b\xed\xa0\x80c\xf0\x9f\x98</p>\xc3"
    for seed in range(20):
        assert _run(_noop("utf-8"), raw, seed) == raw
        out = _run(Rewriter(encoding="utf-8").on("p", element=lambda e: e.append("\u00e9")),
                   raw, seed)
        assert out == raw.replace(b"</p>", "\u00e9</p>".encode())
    # one byte at a time, with a text handler that sees U+FFFD
    rw = Rewriter(encoding="utf-8").on_document(text=lambda t: None)
    out = b"".join(rw.feed(raw[i:i + 1]) for i in range(len(raw))) + rw.close()
    assert out == raw


def test_memory_for_the_map_stays_bounded():
    # 8 MB of Shift_JIS text in 64 KiB chunks cut anywhere: the input bytes
    # and checkpoints kept for the map stay within a few chunks.
    unit = ("<p>" + "\u65e5\u672c\u8a9e" * 300 + "</p>\n").encode("shift_jis")
    data = unit * ((8 << 20) // len(unit))
    rw = Rewriter(encoding="shift_jis").on("p", element=lambda e: None)
    peak = points = 0
    for i in range(0, len(data), 65536):
        rw.feed(data[i:i + 65536])
        peak = max(peak, rw._input.kept_bytes)
        points = max(points, rw._input.checkpoints)
    assert rw._input.mapped_from == 0      # (the map is in use)
    rw.close()
    # (a checkpoint covers a run of characters of one shape: a few a page)
    assert peak < 4 * 65536 and 0 < points < 100
    # a 1 MB attribute value in one script, held whole: a few checkpoints
    rw = Rewriter(encoding="shift_jis").on("p", element=lambda e: None)
    rw.feed(('<p title="' + "\u65e5\u672c\u8a9e" * 170000).encode("shift_jis"))
    assert rw._input.checkpoints < 10
    assert rw.feed(b'">') == ('<p title="' + "\u65e5\u672c\u8a9e" * 170000).encode(
        "shift_jis") + b'">'


@pytest.mark.parametrize("raw,label", [
    ("<p>\u65e5\u672c<a href='\u8a9e'>x</a>".encode("shift_jis"), "shift_jis"),
    (b"\xff\xfe" + "<p>\u65e5\u672c<a href='\u8a9e'>x</a>".encode("utf-16-le"), None),
    ("<p>\u65e5\u672c<a href='\u8a9e'>x</a>".encode("iso2022_jp"), "iso-2022-jp"),
    (b"\xef\xbb\xbf<p>\xff<a href='\xc3\xa9'>x</a>", None),
])
def test_element_source_is_in_the_input_s_bytes(raw, label):
    spans = []
    for seed in (None, 3):
        spans.clear()
        _run(Rewriter(encoding=label).on("a", element=lambda e: spans.append(e.source)),
             raw, seed)
        (start, end), = spans
        tag = raw[start:end]
        assert lexpy.parse(tag, encoding=label or lexpy.parse(raw).encoding) \
            .query_selector("a").get_attribute("href") in ("\u8a9e", "\u00e9")
        assert tag.endswith(b">") or tag.endswith(b">\x00") or tag.endswith(b"\x00>")


def test_set_inner_content_of_raw_text_in_the_document_s_encoding():
    raw = b"<script>x</script><p>y</p>"
    out = rewrite(raw, Rewriter(encoding="shift_jis").on(
        "script", element=lambda e: e.set_inner_content("s = '\u65e5'")))
    assert out == b"<script>s = '\x93\xfa'</script><p>y</p>"
    with pytest.raises(RewriteError, match="U\\+65E5"):
        rewrite(raw, Rewriter(encoding="windows-1252").on(
            "script", element=lambda e: e.set_inner_content("s = '\u65e5'")))
    out = rewrite(raw, Rewriter(encoding="windows-1252").on(
        "p", element=lambda e: e.set_inner_content("\u65e5")))
    assert out == b"<script>x</script><p>&#26085;</p>"
