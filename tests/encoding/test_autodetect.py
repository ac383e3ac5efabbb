"""Autodetection of UTF-8 (the HTML standard's "determining the character
encoding", step 8, which it leaves to the user agent): when nothing declares
an encoding (no BOM, no `encoding=`, no <meta> in the prescan window), the
bytes from the first one above 0x7F decide between UTF-8 and the default --
UTF-8 when the 1024 bytes from there are valid UTF-8. The decision depends on
the bytes only, never on how they were split into chunks; a later <meta>
still changes the tentative encoding; detect_encoding=False restores the
strict BOM > encoding= > prescan > default order.
"""
import random

import pytest
from hypothesis import given, settings, strategies as st

import lexpy
import lexpy.encoding as enc
from lexpy.encoding.encoding import _InputByteStream
from tests.corpus.test_corpus import PAGES

WINDOW = 1024          # AUTODETECT_WINDOW in lexpy/encoding/encoding.pxd


def chunked(data, cuts, **options):
    """Parser fed data cut at the positions in `cuts`."""
    parser = lexpy.Parser(**options)
    start = 0
    for cut in sorted(cuts) + [len(data)]:
        parser.feed(data[start:cut])
        start = cut
    return parser.close()


def same_parse(data, cuts, **options):
    """Parser fed the pieces gives parse()'s document; returns it."""
    whole = lexpy.parse(data, **options)
    fed = chunked(data, cuts, **options)
    assert (fed.encoding, lexpy.dump(fed)) == (whole.encoding, lexpy.dump(whole)), cuts
    return whole


def paragraphs(document):
    return [p.text_content for p in document.get_elements_by_tag_name("p")]


# -- Undeclared UTF-8 comes out as UTF-8 -------------------------------------

TEXTS = ["caf\u00e9", "\u00a0", "\u2019s", "\u65e5\u672c\u8a9e", "\U0001f600 ok",
         "\u00e9\u00e8\u00ea\u00eb", "\u0416\u0436", "\u00e9" * 2000]


@pytest.mark.parametrize("text", TEXTS, ids=range(len(TEXTS)))
@pytest.mark.parametrize("position", ["start", "early", "late", "far"])
def test_undeclared_utf8_is_utf8(text, position):
    padding = {"start": 0, "early": 200, "late": 1500, "far": 100000}[position]
    data = ("<!DOCTYPE html><title>t</title>" + "<p>x</p>" * (padding // 8)
            + "<p>" + text + "</p><p>end").encode("utf-8")
    if position == "start":
        data = ("<p>" + text + "</p><p>end").encode("utf-8")
    for cuts in ([], [len(data) // 2], list(range(0, len(data), 4096))):
        document = same_parse(data, cuts)
        assert document.encoding == "UTF-8"
        assert paragraphs(document)[-2:] == [text, "end"]
    # The same bytes without autodetection: windows-1252, as before.
    assert lexpy.parse(data, detect_encoding=False).encoding == "windows-1252"


def test_non_ascii_first_met_in_markup_rather_than_text():
    for markup in ('<p title="\u00e9t\u00e9">x', "<!-- \u00a9 2024 --><p>x",
                   "<p data-\u00e9=1>x", "<script>s = '\u2014'</script><p>x"):
        data = markup.encode("utf-8")
        document = same_parse(data, [len(data) // 2])
        assert document.encoding == "UTF-8"
        assert lexpy.dump(document) == lexpy.dump(lexpy.parse(markup))


@pytest.mark.parametrize("sequence", ["\u00e9", "\u20ac", "\U0001f600"],
                         ids=["2 bytes", "3 bytes", "4 bytes"])
@pytest.mark.parametrize("before", [0, 5, 1020, 1030])
def test_first_sequence_split_at_every_position(sequence, before):
    # The first non-ASCII sequence cut at each of its bytes, in 2 and in 3
    # pieces (also right before and after it), with the rest of the window
    # valid UTF-8 or not.
    for rest, encoding in (("<p>more \u00e8 text", "UTF-8"), ("<p>caf\xe9", "windows-1252")):
        head = b"<p>" + b"a" * before
        data = head + sequence.encode("utf-8") + (
            rest.encode("utf-8") if encoding == "UTF-8" else rest.encode("latin-1"))
        expected = same_parse(data, [])
        assert expected.encoding == encoding
        first = len(head)
        for cut in range(first, first + len(sequence.encode("utf-8")) + 1):
            same_parse(data, [cut])
            for second in range(cut + 1, first + 5):
                same_parse(data, [cut, second])
        if encoding == "UTF-8":
            assert paragraphs(expected)[0] == "a" * before + sequence


def test_every_split_point_of_small_documents():
    documents = [b"<p>caf\xc3\xa9", b"<p>caf\xe9 ok", b"\xc3\xa9", b"\xe9", b"a\xc3",
                 b"<p>\xe2\x80\x99s <b>\xf0\x9f\x98\x80</b>", b"<p>\xc2\xa9 caf\xe9",
                 b"<p>\xe6\x97\xa5\xe6\x9c\xac<meta charset=koi8-r>\xe9",
                 b"<title>\xc3\xa9</title>\xc3", b"<p>\xed\xa0\x80 surrogate"]
    for data in documents:
        for i in range(len(data) + 1):
            same_parse(data, [i])
            for j in range(i, len(data) + 1):
                same_parse(data, [i, j])
    # After 1100 bytes of ASCII the sniffing has decided before these bytes
    # come, so autodetection sees them as they are fed.
    head = b"<p>" + b"a" * 1100 + b"</p>"
    for document in documents:
        data = head + document
        for i in range(len(head) - 2, len(data) + 1):
            same_parse(data, [i])
            for j in range(i, len(data) + 1):
                same_parse(data, [600, i, j])


# -- Undeclared legacy text stays in the default -----------------------------

LEGACY = [
    ("windows-1252", None, "caf\u00e9 au lait"),
    ("windows-1252", None, "na\u00efve \u00e9t\u00e9"),
    ("windows-1252", None, "\u20ac100"),
    ("windows-1252", None, "\u201cquoted\u201d"),
    ("windows-1252", None, "\u00dcber \u00e4lles"),
    ("windows-1252", None, "\u00a0\u00a0"),
    ("windows-1252", None, "caf\u00e9"),                        # at the end of the input
    ("windows-1252", None, "\u00c2\u00a9 2024 caf\u00e9"),      # UTF-8 by chance, then not
    ("windows-1251", "windows-1251", "\u041f\u0440\u0438\u0432\u0435\u0442"),
    ("windows-1251", "windows-1251", "\u0420\u0451\u0436"),      # D0 B8: UTF-8 by chance
    ("shift_jis", "shift_jis", "\u65e5\u672c\u8a9e\u306e\u6587"),
    ("euc-jp", "euc-jp", "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0"),
    ("gbk", "gbk", "\u4e2d\u6587\u7f51\u9875"),
    ("big5", "big5", "\u4e2d\u6587\u7db2\u9801"),
    ("euc-kr", "euc-kr", "\ud55c\uad6d\uc5b4"),
    ("koi8-r", "koi8-r", "\u041f\u0440\u0438\u0432\u0435\u0442"),
]


@pytest.mark.parametrize("codec,default,text", LEGACY, ids=range(len(LEGACY)))
def test_undeclared_legacy_text_stays_in_the_default(codec, default, text):
    data = b"<!DOCTYPE html><p>" + text.encode(codec)
    name = enc.lookup(default or "windows-1252").name
    for cuts in ([], [len(data) - 1], list(range(1, len(data)))):
        document = same_parse(data, cuts, default_encoding=default)
        assert document.encoding == name
        assert paragraphs(document) == [text]


def test_the_window_bounds_what_decides():
    # An invalid byte inside the window keeps the default; one past it does
    # not matter; a sequence that the window's end cuts is completed first.
    head = b"<p>\xc3\xa9"
    for gap, encoding in ((WINDOW - 3, "windows-1252"), (WINDOW - 2, "UTF-8")):
        data = head + b"x" * gap + b"\xe9 x"
        assert data.index(b"\xe9 x") - data.index(b"\xc3") == gap + 2
        for cuts in ([], [len(data) - 2], list(range(0, len(data), 300))):
            assert same_parse(data, cuts).encoding == encoding
    for tail, encoding in ((b"\xf0\x9f\x98\x80", "UTF-8"), (b"\xf0\x9f\x98x", "windows-1252"),
                           (b"\xf0\x9f\x98", "windows-1252")):
        data = head + b"x" * (WINDOW - 3) + tail        # on the window's last byte
        for cut in range(len(data) - 5, len(data) + 1):
            assert same_parse(data, [cut]).encoding == encoding


def test_an_incomplete_sequence_at_the_end_is_not_utf8():
    for data in (b"<p>caf\xc3", b"<p>\xe2\x80", b"<p>\xf0\x9f\x98"):
        assert same_parse(data, [len(data) - 1]).encoding == "windows-1252"


# -- Declared documents and defaults where it does not apply -----------------

def test_declarations_win_over_autodetection():
    utf8 = "<p>caf\u00e9".encode("utf-8")
    assert lexpy.parse(b"<meta charset=windows-1252>" + utf8).encoding == "windows-1252"
    assert lexpy.parse(b"<meta charset=windows-1252>" + utf8).body.text_content == "caf\u00c3\u00a9"
    assert lexpy.parse(utf8, encoding="latin1").encoding == "windows-1252"
    assert lexpy.parse(b"\xff\xfe" + "<p>\u00e9".encode("utf-16le")).encoding == "UTF-16LE"
    assert lexpy.parse(b'<?xml version="1.0" encoding="koi8-r"?>' + utf8).encoding == "KOI8-R"


@pytest.mark.parametrize("default,name", [
    ("utf-16le", "UTF-16LE"), ("utf-16be", "UTF-16BE"), ("iso-2022-jp", "ISO-2022-JP"),
    ("x-user-defined", "x-user-defined"), ("iso-2022-kr", "replacement"), ("utf-8", "UTF-8")])
def test_defaults_that_autodetection_does_not_replace(default, name):
    data = "<p>caf\u00e9 \u00e9t\u00e9".encode("utf-8")
    for cuts in ([], [7], list(range(len(data)))):
        on = same_parse(data, cuts, default_encoding=default)
        off = same_parse(data, cuts, default_encoding=default, detect_encoding=False)
        assert on.encoding == off.encoding == name
        assert lexpy.dump(on) == lexpy.dump(off)
    assert enc.sniff(data, default=default, detect_encoding=True).encoding.name == name


def test_detect_encoding_false_is_the_strict_order():
    for data, strict, detected in (
            (b"<p>caf\xc3\xa9", "windows-1252", "UTF-8"),
            (b"<p>" + b"x" * 3000 + b"\xe2\x80\x99", "windows-1252", "UTF-8"),
            (b"<p>\xc3\xa9" + b" " * 2000 + b"<meta charset=koi8-r>", "KOI8-R", "KOI8-R"),
            (b"<p>\xc3\xa9", "koi8-r", "UTF-8")):
        options = {"default_encoding": strict} if strict == "koi8-r" else {}
        off = same_parse(data, [5], detect_encoding=False, **options)
        on = same_parse(data, [5], **options)
        assert off.encoding == enc.lookup(strict).name
        assert on.encoding == detected
    with pytest.raises(TypeError, match="detect_encoding must be a bool"):
        lexpy.parse(b"", detect_encoding=1)
    with pytest.raises(TypeError, match="detect_encoding must be a bool"):
        lexpy.Parser(detect_encoding=None)


def test_str_input_and_fragments_have_no_autodetection():
    assert lexpy.parse("<p>caf\u00e9", detect_encoding=False).encoding == "UTF-8"
    fragment = lexpy.Parser(context="div", detect_encoding=True)
    fragment.feed(b"<b>\xe9</b>")
    assert fragment.close().to_html() == "<b>\ufffd</b>"      # UTF-8, no sniffing


# -- A later <meta> still changes the encoding -------------------------------

@pytest.mark.parametrize("label,name,codec", [
    ("windows-1252", "windows-1252", "cp1252"), ("koi8-r", "KOI8-R", "koi8_r"),
    ("utf-8", "UTF-8", "utf-8"), ("bogus", "UTF-8", "utf-8")])
def test_a_later_meta_changes_the_detected_encoding(label, name, codec):
    text = "caf\u00e9".encode("utf-8").decode(codec)
    data = (b"<p>caf\xc3\xa9</p>" + b"<!-- padding -->" * 80
            + b"<meta charset=" + label.encode() + b"><p>end")
    assert enc.sniff(data).confidence == "tentative"
    for cuts in ([], [5], [6], [7], [len(data) - 10], list(range(0, len(data), 97))):
        document = same_parse(data, cuts)
        assert document.encoding == name
        assert paragraphs(document) == [text, "end"]


def test_a_meta_before_the_first_non_ascii_byte_decides_first():
    # Past the prescan window, in the ASCII that autodetection passes on:
    # the tree builder meets the <meta> before (or while) autodetection
    # decides; every split gives the whole parse's tree.
    for label, name, codec in (("windows-1252", "windows-1252", "cp1252"),
                               ("utf-8", "UTF-8", "utf-8"), ("koi8-r", "KOI8-R", "koi8_r")):
        text = "caf\u00e9".encode("utf-8").decode(codec)
        data = (b"<!-- padding -->" * 70 + b"<meta charset=" + label.encode()
                + b"><p>caf\xc3\xa9</p><p>end")
        first = data.index(b"\xc3")
        for cuts in ([], [first], [first + 1], [first - 3, first + 1],
                     list(range(0, len(data), 61))):
            document = same_parse(data, cuts)
            assert document.encoding == name
            assert paragraphs(document) == [text, "end"]


def test_autodetection_past_the_reparse_window():
    from lexpy.parser import REPARSE_WINDOW
    data = b"<p>" + b"x" * (REPARSE_WINDOW + 100) + b"</p><p>\xe2\x80\x94 caf\xc3\xa9"
    document = same_parse(data, list(range(0, len(data), 65536)))
    assert document.encoding == "UTF-8"
    assert paragraphs(document)[1] == "\u2014 caf\u00e9"


# -- The input byte stream ---------------------------------------------------

def test_the_stream_passes_ascii_on_and_holds_only_the_undecided_bytes():
    stream = _InputByteStream(autodetect=True)
    head = b"<p>" + b"x" * 1100
    assert stream.feed(head) == head            # sniffed at 1024 bytes: ASCII
    assert stream.detecting
    assert stream.feed(b"yy\xe2\x80") == b"yy"  # the ASCII before it at once
    assert stream.undecided == 2
    assert stream.feed(b"\x99" + b"z" * (WINDOW - 4)) == b""
    assert stream.undecided == WINDOW - 1
    assert stream.feed(b"zz") == "\u2019".encode() + b"z" * (WINDOW - 2)
    assert not stream.detecting and stream.undecided == 0
    assert stream.encoding.name == "UTF-8" and stream.confidence == "tentative"
    assert stream.feed(b"\xc3\xa9") == b"\xc3\xa9"
    assert stream.finish() == b""


def test_the_stream_decides_at_the_end_of_the_input():
    for data, encoding, text in ((b"\xc3\xa9", "UTF-8", "\u00e9"),
                                 (b"\xc3", "windows-1252", "\u00c3"),
                                 (b"\xe9t\xe9", "windows-1252", "\u00e9t\u00e9")):
        stream = _InputByteStream(autodetect=True)
        out = stream.feed(b"<p>" + b"a" * 1100 + data)
        out += stream.finish()
        assert stream.encoding.name == encoding
        assert out.decode("utf-8") == "<p>" + "a" * 1100 + text


def test_the_stream_without_autodetection_is_unchanged():
    stream = _InputByteStream()
    data = b"<p>" + b"a" * 1100 + b"\xc3\xa9"
    assert stream.feed(data) + stream.finish() == data.decode("windows-1252").encode()
    assert stream.encoding.name == "windows-1252" and not stream.detecting


def test_a_meta_ends_autodetection_and_the_waiting_bytes_follow():
    stream = _InputByteStream(autodetect=True)
    assert stream.feed(b"<p>" + b"a" * 1100 + b"\xc3") == b"<p>" + b"a" * 1100
    assert stream.change_encoding("windows-1252") == "kept"
    assert not stream.detecting and stream.confidence == "certain"
    assert stream.feed(b"\xa9") == "\u00c3\u00a9".encode()
    stream = _InputByteStream(autodetect=True)
    stream.feed(b"<p>" + b"a" * 1100)
    assert stream.change_encoding("utf-8") == "switched"       # ASCII so far
    assert stream.feed(b"\xe9") + stream.finish() == "\ufffd".encode()


def test_sniff_with_detect_encoding():
    assert enc.sniff(b"<p>caf\xc3\xa9", detect_encoding=True) == (
        enc.lookup("utf-8"), "tentative", 0)
    assert enc.sniff(b"<p>caf\xe9", detect_encoding=True).encoding.name == "windows-1252"
    assert enc.sniff(b"<p>plain", detect_encoding=True).encoding.name == "windows-1252"
    assert enc.sniff(b"<p>caf\xc3\xa9", "koi8-r", detect_encoding=True).encoding.name == "KOI8-R"
    assert enc.sniff(b"<p>caf\xc3\xa9").encoding.name == "windows-1252"
    assert enc.sniff(b"", detect_encoding=True).encoding.name == "windows-1252"


# -- Chunk invariance, broadly -----------------------------------------------

PIECES = [b"<p>", b"</p>", b"x" * 700, b"\xe9", b"\xc3\xa9", b"\xe2\x80\x99", b"\xf0\x9f\x98\x80",
          b"\xc3", b"\x80", b"\xed\xa0\x80", b"<meta charset=utf-8>", b"<meta charset=koi8-r>",
          b"<meta charset=windows-1252>", b"<!-- c -->", b"\xef\xbb\xbf", b"&amp;", b"\r\n"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=25),
       st.sampled_from([None, "windows-1251", "shift_jis", "utf-16le", "x-user-defined"]),
       st.lists(st.integers(1, 1500), min_size=1, max_size=8))
def test_any_undeclared_document_in_any_chunks(pieces, default, sizes):
    data = b"".join(pieces)
    cuts, i, k = [], 0, 0
    while i < len(data):
        i += sizes[k % len(sizes)]
        k += 1
        cuts.append(min(i, len(data)))
    same_parse(data, cuts, default_encoding=default)


def _undeclared(raw):
    # The sniffing algorithm ends at the default (x-user-defined: the one
    # encoding that neither a BOM nor the prescan gives).
    return enc.sniff(raw, default="x-user-defined").encoding.name == "x-user-defined"


UNDECLARED = [p for p in PAGES if _undeclared(p.read_bytes())]


@pytest.mark.parametrize("path", UNDECLARED, ids=[p.name for p in UNDECLARED])
def test_undeclared_corpus_pages_fed_in_pieces(path):
    raw = path.read_bytes()
    rng = random.Random(path.name)
    first = next((i for i, byte in enumerate(raw) if byte >= 0x80), len(raw) // 2)
    splits = [[first + d] for d in range(-1, 5)]
    splits += [sorted(rng.sample(range(1, len(raw)), 40)) for _ in range(3)]
    for cuts in splits:
        same_parse(raw, cuts)


def test_corpus_pages_that_autodetection_changes(capsys):
    """Which corpus pages end in another encoding with autodetection on:
    each must be valid UTF-8 (so UTF-8 is right) and must come out UTF-8;
    every undeclared page that is valid UTF-8 and not ASCII must come out
    UTF-8."""
    changed = []
    for path in PAGES:
        raw = path.read_bytes()
        on = lexpy.parse(raw).encoding
        off = lexpy.parse(raw, detect_encoding=False).encoding
        try:
            raw.decode("utf-8")
            valid = True
        except UnicodeDecodeError:
            valid = False
        undeclared = _undeclared(raw)
        if on != off:
            changed.append((path.name, off, on))
            assert undeclared and valid and on == "UTF-8", path.name
        if undeclared and valid and max(raw, default=0) >= 0x80:
            assert on == "UTF-8", path.name
        if not undeclared:
            assert on == off, path.name
    with capsys.disabled():
        print("\n%d of %d corpus pages undeclared in the first 1024 bytes, %d change "
              "encoding with autodetection: %s" % (
                  len(UNDECLARED), len(PAGES), len(changed),
                  ", ".join("%s %s -> %s" % item for item in changed)))
    assert changed
