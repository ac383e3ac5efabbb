"""Unit tests of the tokenizer: convert_text, tokens as the tree builder
sees them (ranges, flags, names, positions), the incoming buffer split at
every position, processing instructions, CDATA, the callback protocol and
bad input."""
import html
import re

import pytest
from hypothesis import given, settings, strategies as st

from tests.helpers import require_test_build

_names = require_test_build("lexpy.core._testing")
_tokenizer = require_test_build("lexpy.tokenizer._testing")
_NameTableForTests, static_attr_id, static_tag_id = (
    _names._NameTableForTests, _names.static_attr_id, _names.static_tag_id)
DATA_FLAGS, TAG_IDS, count_tokens, tokenize_for_test = (
    _tokenizer.DATA_FLAGS, _tokenizer.TAG_IDS, _tokenizer.count_tokens,
    _tokenizer.tokenize_for_test)
convert_for_test, token_records_for_test = (
    _tokenizer.convert_for_test, _tokenizer.token_records_for_test)
from tests.conformance import data
from tests.tools import load_tool

F = DATA_FLAGS
TOKEN_CONTINUATION = 0x40   # token.pxd TokenType


def convert(text, *flags):
    value = 0
    for flag in flags:
        value |= F[flag]
    return convert_for_test(text.encode("utf-8", "surrogatepass"), value).decode(
        "utf-8", "surrogatepass")


# ---------------------------------------------------------------------------
# convert_text
# ---------------------------------------------------------------------------

def test_convert_without_flags_copies():
    assert convert("a\r\n\x00&amp;B") == "a\r\n\x00&amp;B"


def test_convert_newlines():
    assert convert("a\r\nb\rc\nd\r\r\n", "HAS_CR") == "a\nb\nc\nd\n\n"


def test_convert_nul():
    assert convert("a\x00b", "HAS_NUL") == "a\x00b"
    assert convert("a\x00b", "HAS_NUL", "NUL_TO_REPLACEMENT") == "a\ufffdb"
    assert convert("a\x00b\x00", "HAS_NUL", "NUL_DROP") == "ab"


def test_convert_lowercase_is_ascii_only():
    assert convert("DiV\u00c9", "ASCII_LOWERCASE") == "div\u00c9"


@pytest.mark.parametrize("source, expected", [
    ("&amp;", "&"), ("&amp", "&"), ("&AMP;", "&"), ("&notin;", "\u2209"),
    ("&notit;", "\u00acit;"), ("&not", "\u00ac"), ("&nosuch;", "&nosuch;"),
    ("&", "&"), ("&;", "&;"), ("& amp;", "& amp;"),
    ("&CounterClockwiseContourIntegral;", "\u2233"),
    ("&NotEqualTilde;", "\u2242\u0338"),
    ("&#65;", "A"), ("&#x41;", "A"), ("&#X41", "A"), ("&#65a", "Aa"),
    ("&#", "&#"), ("&#x", "&#x"), ("&#;", "&#;"), ("&#xg;", "&#xg;"),
    ("&#0;", "\ufffd"), ("&#x80;", "\u20ac"), ("&#x81;", "\x81"),
    ("&#x9f;", "\u0178"), ("&#xd800;", "\ufffd"), ("&#x110000;", "\ufffd"),
    ("&#99999999999999999999;", "\ufffd"), ("&#xfffe;", "\ufffe"),
    ("&#13;", "\r"), ("&#x10ffff;", "\U0010ffff"),
    ("&#0000000000000000065;", "A"),
])
def test_convert_character_references_in_text(source, expected):
    assert convert(source, "HAS_CHARREF") == expected


@pytest.mark.parametrize("source, expected", [
    ("&amp;", "&"), ("&amp", "&"), ("&ampx", "&ampx"), ("&amp=", "&amp="),
    ("&amp1", "&amp1"), ("&amp;x", "&x"), ("&not-a", "\u00ac-a"),
    ("&notin", "&notin"), ("&#65x", "Ax"),
])
def test_convert_character_references_in_attribute_values(source, expected):
    assert convert(source, "HAS_CHARREF", "IN_ATTRIBUTE") == expected


# &amp; &lt; &gt; &quot; &nbsp; are decoded without the entity trie
# (character_references.pxi decode_common_reference): the same results,
# and their near misses still go through the trie.
@pytest.mark.parametrize("source", [
    "&amp;", "&lt;", "&gt;", "&quot;", "&nbsp;", "a&amp;b&lt;c&gt;d&quot;e&nbsp;f",
    "&amp", "&lt", "&gt", "&quot", "&nbsp", "&ampx;", "&lta;", "&gtx", "&quotx",
    "&nbspx", "&nbsp=", "&lt=", "&AMP;", "&LT;", "&GT;", "&QUOT;", "&Nbsp;",
    "&am", "&a", "&l", "&q", "&n", "&nb", "&nbs", "&quo", "&lt;;", "&amp;amp;",
    "&ltcc;", "&gtdot;", "&nbsp;&nbsp;", "&&amp;&",
])
def test_convert_common_references_in_text_as_the_trie_does(source):
    assert convert(source, "HAS_CHARREF") == html.unescape(source)


@pytest.mark.parametrize("source, expected", [
    ("&amp;", "&"), ("&lt;x", "<x"), ("&gt;", ">"), ("&quot;", '"'), ("&nbsp;", "\u00a0"),
    ("&ampx", "&ampx"), ("&amp=", "&amp="), ("&lt=", "&lt="), ("&nbsp=", "&nbsp="),
    ("&gtx", "&gtx"), ("&quotx", "&quotx"), ("&nbspx", "&nbspx"), ("&lta;", "&lta;"),
    ("&lt", "<"), ("&ltcc;", "\u2aa6"), ("&gtdot;", "\u22d7"), ("&amp;amp;", "&amp;"),
])
def test_convert_common_references_in_attribute_values_as_the_trie_does(source, expected):
    assert convert(source, "HAS_CHARREF", "IN_ATTRIBUTE") == expected


# A range whose only work is character references is converted in one pass
# (convert.pxi convert_character_references): '&' found 16 bytes at a time
# with the last block overlapping, the runs between references copied in
# pieces of 16, 8, 4 and single bytes, &amp; decoded in line. Every run
# length around those sizes, before, between and after references.
@pytest.mark.parametrize("reference, decoded", [
    ("&amp;", "&"), ("&lt;", "<"), ("&amp", "&"), ("&#x41;", "A"), ("&notin;", "\u2209"),
    ("&", "&"),
])
def test_convert_runs_of_every_length_around_references(reference, decoded):
    filler = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ\u00e9"
    for before in range(0, 40):
        for after in list(range(0, 36)) + [47, 48, 49, 70]:
            head, tail = filler[:before], filler[::-1][:after]
            source = head + reference + tail + reference + head
            if reference in ("&amp", "&") and tail[:1].isalnum():
                continue    # a name going on: not the reference asked about
            expected = head + decoded + tail + decoded + head
            assert convert(source, "HAS_CHARREF") == expected, source
            if reference != "&notin;" and reference != "&amp":
                assert convert(source, "HAS_CHARREF", "IN_ATTRIBUTE") == expected, source


def test_convert_decoded_cr_stays_and_input_cr_becomes_lf():
    assert convert("&#13;\r\n", "HAS_CHARREF", "HAS_CR") == "\r\n"


def test_convert_everything_at_once():
    assert convert("A\r\n&lt;\x00B", "HAS_CR", "HAS_CHARREF", "HAS_NUL",
                   "NUL_TO_REPLACEMENT", "ASCII_LOWERCASE") == "a\n<\ufffdb"


def test_convert_worst_case_growth_fits_the_contract():
    # dest must hold 3 * length bytes: NUL -> U+FFFD is the worst case.
    source = "\x00" * 1000
    assert convert(source, "HAS_NUL", "NUL_TO_REPLACEMENT") == "\ufffd" * 1000


_REFERENCE_ALPHABET = list("&#;xX0123456789abcdefAmpltgnoisuyMP ") + ["&amp", "&not", "&#x"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_REFERENCE_ALPHABET), max_size=30).map("".join))
def test_convert_agrees_with_html_unescape(text):
    # html.unescape implements the standard's text rule; it drops control and
    # noncharacter code points from numeric references where the standard
    # keeps them, so those inputs are left out.
    for m in re.finditer(r"&#(?:[xX]([0-9a-fA-F]+)|([0-9]+))", text):
        value = int(m.group(1), 16) if m.group(1) else int(m.group(2))
        if (value < 0x20 or 0x7F <= value <= 0x9F
                or 0xFDD0 <= value <= 0xFDEF or value & 0xFFFE == 0xFFFE):
            return
    assert convert(text, "HAS_CHARREF") == html.unescape(text)


def test_convert_rejects_wrong_types():
    with pytest.raises(TypeError, match="data"):
        convert_for_test("text", 0)
    with pytest.raises(TypeError, match="flags"):
        convert_for_test(b"text", "0")


# ---------------------------------------------------------------------------
# Tokens as the tree builder sees them
# ---------------------------------------------------------------------------

def records(text, **options):
    got, errors, result, errors_lost = token_records_for_test(text, **options)
    assert result == 0 and errors_lost == 0
    return got, errors


def test_tokens_are_ranges_over_the_input():
    source = '<div class="a&amp;b">x &lt; y</div>'
    got, _ = records(source)
    raw = source.encode()
    start, text, end, eof = got
    assert start["kind"] == "start" and start["name"] == "div"
    assert raw[slice(*start["span"])] == b'<div class="a&amp;b">'
    assert raw[slice(*start["text"])] == b"div"
    (attr,) = start["attrs"]
    assert raw[slice(*attr["name_span"])] == b"class"
    assert raw[slice(*attr["value_span"])] == b"a&amp;b"
    assert attr["value"] == "a&b"
    assert attr["flags"] & F["IN_ATTRIBUTE"] and attr["flags"] & F["HAS_CHARREF"]
    assert raw[slice(*text["text"])] == b"x &lt; y" and text["data"] == "x < y"
    assert end["kind"] == "end" and end["tag_id"] == start["tag_id"]
    assert eof["kind"] == "eof" and eof["span"] == (len(raw), len(raw))


def test_static_and_dynamic_names():
    got, _ = records("<DIV><my-Element ID=1 data-X=2 id=3></my-element>")
    div, custom, end = got[0], got[1], got[2]
    assert div["tag_id"] == static_tag_id("div") and div["flags"] & F["ASCII_LOWERCASE"]
    assert custom["tag_id"] >= TAG_IDS["LAST_STATIC"] and custom["name"] == "my-element"
    assert end["tag_id"] == custom["tag_id"]
    # Attributes: static id, dynamic id, duplicate (case-insensitive) dropped.
    assert [a["name"] for a in custom["attrs"]] == ["id", "data-x"]
    assert custom["attrs"][0]["name_id"] == static_attr_id("id")
    assert custom["attrs"][0]["value"] == "1"


@pytest.mark.parametrize("name, upper", [
    ("my_el", False), ("x_y_", False), ("l\u00e9l\u00c9", False), ("a@b", False),
    ("my_El", True), ("e\u00c9_Z", True), ("ab_cD", True), ("Q", True)])
def test_names_are_flagged_for_lower_casing_exactly_when_they_have_a_to_z(name, upper):
    # The name loops look at a name's bytes again only when one of them
    # lacks 0x20 ('_', '@', most non-ASCII bytes, A-Z): the flag (and the
    # name) must be the same as a byte-by-byte look gives, whole or cut.
    source = "<%s %s=1 %sx=2>" % (name, name, name)
    for chunk in (None, 1, 2, 3):
        for collect_errors in (True, False):
            options = {} if chunk is None else {"chunk_sizes": [chunk]}
            got, _ = records(source, collect_errors=collect_errors, **options)
            tag = got[0]
            assert tag["name"] == name.encode().lower().decode()
            assert bool(tag["flags"] & F["ASCII_LOWERCASE"]) == upper, (name, chunk)
            assert [a["name"] for a in tag["attrs"]] == [
                n.encode().lower().decode() for n in (name, name + "x")]


# Static names in lower case are compared as one 8-byte word where 8 bytes
# can be read (names.h lxp_static_name_find_word), byte by byte at the end
# of the input or with upper case: every static tag and attribute name, and
# its near misses, get the same id either way.
def _static_table(table_name):
    from tests.core.test_names import TABLES
    return TABLES[table_name]


def _static_names(table_name):
    return [n for n in _static_table(table_name) if n and n.isascii() and not n.startswith("#")
            and n == n.lower() and all(c not in n for c in " \t\n\f\r/>=\"'<\x00")]


@pytest.mark.parametrize("tail", [">", " z>", " zzzzzzzzzz>"], ids=["gt", "short", "long"])
def test_static_tag_names_at_every_distance_from_the_end(tail):
    for name in _static_names("tags"):
        for spelled in (name, name.upper(), name + "x", name[:-1] or "q"):
            got, _ = records("<" + spelled + tail, collect_errors=False)
            expected = static_tag_id(spelled, lowercase_source=True)
            if expected:
                assert got[0]["tag_id"] == expected, spelled
            else:
                assert got[0]["tag_id"] >= TAG_IDS["LAST_STATIC"], spelled
                assert got[0]["name"] == spelled.lower()


@pytest.mark.parametrize("tail", [">", "=1>", " zzzzzzzzzz>"], ids=["gt", "value", "long"])
def test_static_attribute_names_at_every_distance_from_the_end(tail):
    for name in _static_names("attrs"):
        for spelled in (name, name.upper(), name + "x", name[:-1] or "q"):
            got, _ = records("<p " + spelled + tail, collect_errors=False)
            attr = got[0]["attrs"][0]
            assert attr["name"] == spelled.lower(), spelled
            expected = static_attr_id(spelled, lowercase_source=True)
            if expected:
                assert attr["name_id"] == expected, spelled
            else:
                assert attr["name_id"] >= len(_static_table("attrs")), spelled


def test_svg_camel_case_names_get_their_lowercase_ids():
    got, _ = records("<foreignObject viewBox=1>")
    assert got[0]["name"] == "foreignobject"
    assert got[0]["tag_id"] == static_tag_id("foreignobject")
    assert got[0]["attrs"][0]["name"] == "viewbox"


def test_nul_in_names_becomes_replacement_character():
    got, errors = records("<a\x00b c\x00d=1>")
    assert got[0]["name"] == "a\ufffdb"
    assert got[0]["attrs"][0]["name"] == "c\ufffdd"
    assert [e["code"] for e in errors] == ["unexpected-null-character"] * 2


def test_duplicate_attribute_keeps_the_first_and_reports_where_the_name_ends():
    got, errors = records("<a x=1 X=2 y x=3>")
    assert [(a["name"], a["value"]) for a in got[0]["attrs"]] == [("x", "1"), ("y", "")]
    assert errors == [{"code": "duplicate-attribute", "line": 1, "col": 9},
                      {"code": "duplicate-attribute", "line": 1, "col": 15}]


def test_many_attributes_duplicates_found_in_linear_time():
    source = "<a " + " ".join("a%d=%d" % (i, i) for i in range(5000)) + " a17=x>"
    got, errors = records(source)
    assert len(got[0]["attrs"]) == 5000
    assert errors == [{"code": "duplicate-attribute", "line": 1,
                       "col": len(source) - 2}]


# Without an error list, attribute names outside the static table wait for
# the end of the tag and are interned there together (resolve_waiting_names);
# with one, each is interned where it ends. Both must give the same tokens.

def _without_positions(got):
    drop = ("line", "column", "end_position")
    return [{key: ([{k: v for k, v in a.items() if k not in drop} for a in value]
                   if key == "attrs" else value)
             for key, value in record.items() if key not in drop}
            for record in got]


_NAMES = ["id", "ID", "class", "x-a", "X-A", "x-b", "data-\x00", "data-\ufffd",
          "xa\u00e9", "href", "x-c", "a"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(_NAMES),
                                   st.sampled_from(["", "=1", "='v w'", '="&amp;"'])),
                         max_size=12),
                min_size=1, max_size=4),
       st.sampled_from(["", "/"]),
       st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=4))
def test_waiting_names_give_what_interning_at_each_name_gives(tags, solidus, sizes):
    source = "".join("<%sp %s>" % (solidus, " ".join(name + value for name, value in attrs))
                     for attrs in tags)
    with_errors, _ = records(source)
    expected = _without_positions(with_errors)
    for chunk_sizes in (None, sizes):
        got, errors = records(source, collect_errors=False, chunk_sizes=chunk_sizes)
        assert errors == []
        assert _without_positions(got) == expected


def test_waiting_names_keep_the_first_of_duplicates_among_static_names():
    source = "<p x-a=1 id=2 X-A=3 x-b=4 ID=5 x-a=6 x-b=7 class=8>"
    got, _ = records(source, collect_errors=False)
    assert [(a["name"], a["value"]) for a in got[0]["attrs"]] == [
        ("x-a", "1"), ("id", "2"), ("x-b", "4"), ("class", "8")]
    assert static_attr_id("x-a") == 0 and got[0]["attrs"][0]["name_id"] != 0


def test_many_waiting_names_and_duplicates():
    names = ["n%d" % i for i in range(5000)]
    source = "<a " + " ".join(names + names[::-1]) + "><b " + " ".join(names[::7]) + ">"
    got, _ = records(source, collect_errors=False)
    assert [a["name"] for a in got[0]["attrs"]] == names
    assert [a["name"] for a in got[1]["attrs"]] == names[::7]
    assert [a["name_id"] for a in got[1]["attrs"]] == \
        [a["name_id"] for a in got[0]["attrs"]][::7]


# The name caches (emit.pxi cached_name_id): a dynamic name met again is
# found by its scan hash (names.h's FNV-1a) without the dynamic table. The
# cache is a shortcut only: every name must get the id the table gives.

def _scan_hash(name):
    h = 2166136261
    for byte in name.lower().encode("utf-8"):
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return h


def _names_of_one_scan_hash():
    """Two different names with the same 32-bit scan hash (found by the
    birthday bound: a few hundred thousand candidates)."""
    seen = {}
    for k in range(2000000):
        name = "x-%06x" % k                 # (one length: the cache checks it)
        h = _scan_hash(name)
        if h in seen:
            return seen[h], name
        seen[h] = name
    raise AssertionError("no two names share a scan hash")


def _names_of_one_slot(first, count):
    """Names whose scan hashes differ but fall in the cache slot of `first`
    (NAME_CACHE_SIZE = 256 slots)."""
    slot = _scan_hash(first) & 255
    found = [n for n in ("y-%d" % k for k in range(100000))
             if _scan_hash(n) & 255 == slot and _scan_hash(n) != _scan_hash(first)]
    return found[:count]


@pytest.mark.parametrize("collect_errors", [True, False])
def test_cached_names_get_the_table_ids(collect_errors):
    same_hash = _names_of_one_scan_hash()
    assert same_hash[0] != same_hash[1]
    one_slot = _names_of_one_slot("data-a", 3)
    long_name = "data-" + "l" * 40                      # longer than an entry
    names = (["data-a", "DATA-A", "Data-b", "data-b", long_name, long_name.upper()]
             + list(same_hash) + one_slot + ["data-a"] + one_slot[::-1]
             + [same_hash[1], same_hash[0]])
    source = "".join("<my-el %s=%d></MY-EL>" % (name, k)
                     for k, name in enumerate(names))
    got, _ = records(source, collect_errors=collect_errors)
    starts = [r for r in got if r["kind"] == "start"]
    assert [r["attrs"][0]["name"] for r in starts] == [n.lower() for n in names]
    assert len({r["tag_id"] for r in got if r["kind"] in ("start", "end")}) == 1
    ids = {}
    for r in starts:
        name_id = r["attrs"][0]["name_id"]
        assert ids.setdefault(r["attrs"][0]["name"], name_id) == name_id
    assert len(set(ids.values())) == len(ids)          # one id per name


def test_cached_name_and_its_twin_with_nul_keep_the_first_of_duplicates():
    # data-\ufffd is cached after the first tag; data-\0 (the same name
    # once converted) never hits: the first of the two in a tag stays.
    source = "<p data-\ufffd=0><p data-\x00=1 data-\ufffd=2><p data-\ufffd=3 data-\x00=4>"
    for collect_errors in (True, False):
        got, _ = records(source, collect_errors=collect_errors)
        assert [[a["value"] for a in r["attrs"]] for r in got
                if r["kind"] == "start"] == [["0"], ["1"], ["3"]]


def test_text_flags():
    got, _ = records(" \t\n<p>x\x00\r\n\u00e9&amp;</p><b> x</b>")
    ws, text, leading = got[0], got[2], got[5]
    assert ws["flags"] & F["WHITESPACE_ONLY"] and ws["flags"] & F["LEADING_WHITESPACE"]
    for flag in ("HAS_NUL", "HAS_CR", "HAS_CHARREF"):
        assert text["flags"] & F[flag], flag
    assert not text["flags"] & (F["WHITESPACE_ONLY"] | F["NUL_TO_REPLACEMENT"])
    assert text["data"] == "x\x00\n\u00e9&"
    assert leading["flags"] & F["LEADING_WHITESPACE"]
    assert not leading["flags"] & F["WHITESPACE_ONLY"]


def test_text_origin_flags_and_nul_replacement():
    for state, origin in (("RCDATA state", "RCDATA"), ("RAWTEXT state", "RAW"),
                          ("Script data state", "RAW"), ("PLAINTEXT state", "RAW")):
        got, _ = records("a\x00", initial_state=state)
        assert got[0]["flags"] & F[origin], state
        assert got[0]["flags"] & F["NUL_TO_REPLACEMENT"], state
        assert got[0]["data"] == "a\ufffd"


def test_doctype_fields():
    source = '<!DOCTYPE HtMl PUBLIC "-//W3C//DTD X" \'sys\x00id\'>'
    got, _ = records(source)
    doctype = got[0]
    raw = source.encode()
    name, public, system = doctype["doctype"]
    assert raw[slice(*name)] == b"HtMl"
    assert raw[slice(*public)] == b"-//W3C//DTD X"
    assert raw[slice(*system)] == b"sys\x00id"
    assert doctype["flags"] & F["HAS_NUL"]
    assert not doctype["flags"] & F["ASCII_LOWERCASE"]   # ids keep their case
    assert tokenize_for_test(source)[0] == [
        ["DOCTYPE", "html", "-//W3C//DTD X", "sys\ufffdid", True]]


def test_positions_are_collected_only_with_errors():
    got, _ = records("a\n<b c=1>", collect_errors=False)
    assert all(r["line"] == 0 and r["column"] == 0 for r in got)
    got, _ = records("a\n<b c=1>")
    assert (got[1]["line"], got[1]["column"]) == (2, 1)
    assert (got[1]["attrs"][0]["line"], got[1]["attrs"][0]["column"]) == (2, 4)
    assert got[1]["end_position"] == (2, 8)


# ---------------------------------------------------------------------------
# Error positions
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("source, line, col", [
    ("\n\n<a\x00>", 3, 3),
    ("\r\n\r\n<a\x00>", 3, 3),
    ("\r\r<a\x00>", 3, 3),
    ("\r\n\n\r<a\x00>", 4, 3),
    ("\u00e9\u4e2d<a\x00>", 1, 5),
    ("\U0001f600<a\x00>", 1, 5),     # columns count UTF-16 code units
    ("x\r", 1, None),
])
def test_error_lines_and_columns(source, line, col):
    tokens, errors = tokenize_for_test(source)
    if col is None:
        assert errors == []
        assert tokens == [["Character", "x\n"]]
    else:
        assert errors == [{"code": "unexpected-null-character", "line": line, "col": col}]


def test_input_stream_errors_in_order_with_the_tokenizer_errors():
    tokens, errors = tokenize_for_test("\x01<a \x7f\x00=\ufdd0 \U0010fffe>\ud800")
    assert [(e["code"], e["col"]) for e in errors] == [
        ("control-character-in-input-stream", 1),
        ("control-character-in-input-stream", 5),
        ("unexpected-null-character", 6),
        ("noncharacter-in-input-stream", 8),
        ("noncharacter-in-input-stream", 10),
        ("surrogate-in-input-stream", 13),
    ]
    assert tokens[-1] == ["Character", "\ud800"]   # comes back unchanged


# ---------------------------------------------------------------------------
# The incoming buffer: every split gives the same tokens and errors
# ---------------------------------------------------------------------------

TRICKY = [
    "<!DOCTYPE html PUBLIC \"-//x\" 'y'><html lang=en>",
    "a&amp;b&notin;c&notit;d&#x41;e&#65;f&#x110000;&#0;&am;&ammmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm;",
    "<a href='x&ampy=1&amp;z' title=\"&notin\" b=&lt;>",
    "x\r\ny\r\rz\r<p\r\nid=1>\r\n",
    "<!-- a -- b --!> <!----> <!--> <!---> <!--<!-- x --> <? y > </ z> <![CDATA[q]]>",
    "<title>a</tit</title></title><textarea>&amp;</TEXTAREA>",
    "<script>a<!--b<script>c</script>d-->e</script><style></st</style>",
    "<?target data ??> <?xml x?> <?a$b?> <?_t\r\nd?>",
    "caf\u00e9 \u4e2d\u6587 \U0001f600 <b \u00e9=\U0001f600>",
    "<a b c= d\x00=e f='g\x00'>\x00</a \x00>",
    "</> <a/b> </a x> </a/> <a///>",
]
SCRIPT_LIKE = ["<!--<script>x</script>-->y</script>", "a<!-x--><!--->--></script>z"]


def _run_pieces(text, cuts, **options):
    pieces = []
    raw = text.encode("utf-8")
    last = 0
    for cut in cuts:
        pieces.append(cut - last)
        last = cut
    pieces.append(len(raw) - last)
    sizes = [p for p in pieces if p > 0]
    return tokenize_for_test(raw, chunk_sizes=sizes or None, **options)


@pytest.mark.parametrize("text", TRICKY)
def test_every_split_point_gives_the_same_tokens(text):
    whole = tokenize_for_test(text)
    raw_length = len(text.encode("utf-8"))
    for cut in range(1, raw_length):
        assert _run_pieces(text, [cut]) == whole, cut


@pytest.mark.parametrize("text", SCRIPT_LIKE)
def test_every_pair_of_split_points_in_script_data(text):
    options = {"initial_state": "Script data state", "last_start_tag": "script"}
    whole = tokenize_for_test(text, **options)
    n = len(text.encode("utf-8"))
    for first in range(1, n):
        for second in range(first + 1, n):
            assert _run_pieces(text, [first, second], **options) == whole, (first, second)


@pytest.mark.parametrize("text", TRICKY)
def test_markup_ranges_survive_the_move_to_the_own_buffer(text):
    # Markup tokens (not text, which is flushed at chunk ends) have the same
    # stream offsets however the input is cut.
    # A comment open at a chunk end comes in pieces (TOKEN_CONTINUATION):
    # joined, the pieces cover the same ranges as the whole comment.
    def markup(records_):
        out = []
        for r in records_:
            if r["kind"] in ("text", "eof"):
                continue
            item = [r["kind"], r["span"], r["text"], r.get("attrs"), r.get("doctype"),
                    r.get("target"), r["flags"], r["line"], r["column"]]
            if r["kind"] == "comment" and r["type"] & TOKEN_CONTINUATION:
                previous = out[-1]
                assert previous[0] == "comment"
                previous[1] = (previous[1][0], r["span"][1])
                previous[2] = (previous[2][0], r["text"][1])
                previous[6] |= item[6]
                continue
            out.append(item)
        return [tuple(item) for item in out]
    whole, whole_errors = records(text)
    for size in (1, 2, 3, 7):
        got, errors = records(text.encode("utf-8"), chunk_sizes=[size])
        assert markup(got) == markup(whole), size
        assert errors == whole_errors


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>/!?-=&#;'\"[]xXaAbsScript \r\n\x00\u00e9\U0001f600")),
               max_size=60),
       st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=6),
       st.sampled_from(sorted(data.TOKENIZER_STATES)), st.booleans())
def test_random_input_any_split_is_the_same(text, sizes, state, pis):
    options = dict(initial_state=state, last_start_tag="script",
                   processing_instructions=pis)
    assert tokenize_for_test(text, chunk_sizes=sizes, **options) == \
        tokenize_for_test(text, **options)


# ---------------------------------------------------------------------------
# Processing instructions (June 2026)
# ---------------------------------------------------------------------------

def _pi_cases():
    path = data.wpt_parsing_dir() / "processing-instructions.dat"
    for index, sections in enumerate(data._dat_sections(path.read_text("utf-8")), 1):
        expected = []
        for line in sections.get("document", []):
            body = line[2:].strip() if line.startswith("|") else ""
            m = re.fullmatch(r"<\?(\S+) (.*)\?>", body, re.S)
            if m:
                expected.append(["ProcessingInstruction", m.group(1), m.group(2)])
            m = re.fullmatch(r"<!-- (.*) -->", body, re.S)
            if m:
                expected.append(["Comment", m.group(1)])
        yield pytest.param("\n".join(sections["data"]), expected,
                           id="processing-instructions.dat:%d" % index)


@pytest.mark.parametrize("source, expected", list(_pi_cases()))
def test_processing_instructions_dat(source, expected):
    # The comment and PI nodes of each expected tree, in order, are the
    # comment and PI tokens (the text elements switch state as the tree
    # builder would make them).
    got, _ = records(source, switch_states=True)
    tokens = []
    for r in got:
        if r["kind"] == "pi":
            target = source.encode()[slice(*r["target"])].decode()
            tokens.append(["ProcessingInstruction", target, r["data"]])
        elif r["kind"] == "comment" and r["type"] & TOKEN_CONTINUATION:
            tokens[-1][1] += r["data"]      # the rest of a comment open at a chunk end
        elif r["kind"] == "comment":
            tokens.append(["Comment", r["data"]])
    assert tokens == expected


@pytest.mark.parametrize("source, code, col", [
    ("<?xml version='1.0'?>", "disallowed-processing-instruction-target", 6),
    ("<?XmL-StyleSheet x>", "disallowed-processing-instruction-target", 17),
    ("<?1bad>", "invalid-first-character-of-processing-instruction-target", 3),
    ("<?bad.target>", "invalid-processing-instruction-target", 6),
    ("<?", "eof-in-processing-instruction", 3),
    ("<?pi", "eof-in-processing-instruction", 5),
    ("<?pi ", "eof-in-processing-instruction", 6),
    ("<?pi data", "eof-in-processing-instruction", 10),
    ("<?pi data?", "eof-in-processing-instruction", 11),
])
def test_processing_instruction_errors(source, code, col):
    tokens, errors = tokenize_for_test(source)
    assert errors == [{"code": code, "line": 1, "col": col}]
    if code.startswith("eof"):
        assert tokens == []          # nothing is emitted for it


def test_processing_instruction_data_keeps_nul_and_markup():
    tokens, errors = tokenize_for_test("<?pi &amp;<tag\x00?>")
    assert tokens == [["ProcessingInstruction", "pi", "&amp;<tag\x00"]]
    assert errors == []


def test_processing_instructions_off_is_the_bogus_comment():
    tokens, errors = tokenize_for_test("<?pi data?>", processing_instructions=False)
    assert tokens == [["Comment", "?pi data?"]]
    assert errors == [{"code": "unexpected-question-mark-instead-of-tag-name",
                       "line": 1, "col": 2}]


# ---------------------------------------------------------------------------
# CDATA sections, state switches, the callback protocol
# ---------------------------------------------------------------------------

def test_cdata_section_only_where_allowed():
    source = "<![CDATA[a\x00]]b]]]>c"
    got, errors = records(source, cdata_allowed=True)
    assert got[0]["kind"] == "text" and got[0]["data"] == "a\x00]]b]"
    assert got[0]["flags"] & F["CDATA"] and not got[0]["flags"] & F["NUL_TO_REPLACEMENT"]
    assert errors == []
    tokens, errors = tokenize_for_test(source)
    assert tokens[0] == ["Comment", "[CDATA[a\ufffd]]b]]]"]
    assert [e["code"] for e in errors] == ["cdata-in-html-content",
                                          "unexpected-null-character"]


def test_state_switch_from_the_callback():
    got, _ = records("<title>a<b>&amp;</title><script>if(a<b)x='</scr'</script>"
                     "<plaintext></plaintext>", switch_states=True)
    kinds = [(r["kind"], r.get("name"), r.get("data")) for r in got]
    assert kinds == [
        ("start", "title", None), ("text", None, "a<b>&"), ("end", "title", None),
        ("start", "script", None), ("text", None, "if(a<b)x='</scr'"),
        ("end", "script", None), ("start", "plaintext", None),
        ("text", None, "</plaintext>"), ("eof", None, None)]


def test_appropriate_end_tag_needs_the_last_start_tag():
    tokens, _ = tokenize_for_test("a</xmp>b", initial_state="RAWTEXT state")
    assert tokens == [["Character", "a</xmp>b"]]
    tokens, _ = tokenize_for_test("a</XMP x=1>b", initial_state="RAWTEXT state",
                                  last_start_tag="xmp")
    assert tokens == [["Character", "a"], ["EndTag", "xmp"], ["Character", "b"]]


def test_callback_can_stop_the_tokenizer():
    got, _, result, _ = token_records_for_test("<a><b><c><d>", stop_after=2)
    assert result == 7
    assert [r["name"] for r in got] == ["a", "b"]


# ---------------------------------------------------------------------------
# Dynamic names: a keyed hash, and out of memory as a failure
# ---------------------------------------------------------------------------

def test_dynamic_names_do_not_collide_where_fnv_does():
    # Names whose FNV-1a (the static tables' hash) agree in 16 low bits
    # would all take one slot cluster; the table's keyed hash spreads them.
    names = load_tool("bench").fnv_colliding_names(512)
    assert len(set(names)) == 512
    table = _NameTableForTests(1000)
    slots = {table.hash(name) & 1023 for name in names}
    assert len(slots) > 300          # random placement: about 400
    assert [table.intern(name) for name in names] == list(range(1000, 1512))
    assert [table.intern(name) for name in names] == list(range(1000, 1512))
    assert table.get(1511) == names[-1]


def test_each_table_has_its_own_hash_key():
    first, second = _NameTableForTests(1000), _NameTableForTests(1000)
    names = [b"x-%d" % i for i in range(8)]
    assert [first.hash(n) for n in names] != [second.hash(n) for n in names]


def test_a_full_name_table_interns_nothing():
    table = _NameTableForTests(1000)
    table.set_limit(1)
    assert table.intern(b"x-a") == 1000
    assert table.intern(b"x-b") == 0
    assert table.intern(b"x-a") == 1000           # known names are found


@pytest.mark.parametrize("source, emitted", [
    ("<p>a<x-tag>b", ["p", "a"]),
    ("<p>a<b x-attr=1>b", ["p", "a"]),
    ("<p>a</x-tag>b", ["p", "a"]),
])
@pytest.mark.parametrize("chunk_sizes", [None, [1]], ids=["whole", "one-at-a-time"])
@pytest.mark.parametrize("collect_errors", [True, False], ids=["at-the-name", "at-the-tag-end"])
def test_no_memory_for_a_name_stops_the_tokenizer(source, emitted, chunk_sizes,
                                                  collect_errors):
    # The tag is not emitted with a made-up id: the tokenizer stops with -1,
    # which the tree builder raises as MemoryError. (Without errors, attribute
    # names are interned at the end of the tag.)
    got, _, result, _ = token_records_for_test(source, dynamic_name_limit=0,
                                               chunk_sizes=chunk_sizes,
                                               collect_errors=collect_errors)
    assert result == -1
    assert [r.get("name", r.get("data")) for r in got] == emitted


def test_errors_that_find_no_memory_are_counted():
    got, errors, result, errors_lost = token_records_for_test(
        "<a x x x>\x00", error_limit=1)
    assert result == 0
    assert [e["code"] for e in errors] == ["duplicate-attribute"]
    assert errors_lost == 2
    assert [r["kind"] for r in got] == ["start", "text", "eof"]


# ---------------------------------------------------------------------------
# Bad input and bad arguments
# ---------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200), st.lists(st.integers(1, 7), min_size=1, max_size=4))
def test_any_bytes_tokenize(raw, sizes):
    whole = tokenize_for_test(raw)
    assert tokenize_for_test(raw, chunk_sizes=sizes) == whole
    assert count_tokens(raw)[0] >= 1


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_tokenizes_and_text_comes_back(text):
    tokens, _ = tokenize_for_test(text)
    if "<" not in text and "&" not in text and "\r" not in text:
        assert tokens == ([["Character", text]] if text else [])


@pytest.mark.parametrize("kwargs, exception, name", [
    ({"data": 12}, TypeError, "data"),
    ({"data": None}, TypeError, "data"),
    ({"data": "x", "initial_state": 1}, TypeError, "initial_state"),
    ({"data": "x", "initial_state": "Bogus state"}, ValueError, "initial_state"),
    ({"data": "x", "last_start_tag": b"a"}, TypeError, "last_start_tag"),
    ({"data": "x", "processing_instructions": 1}, TypeError, "processing_instructions"),
    ({"data": "x", "chunk_sizes": 3}, TypeError, "chunk_sizes"),
    ({"data": "x", "chunk_sizes": ["1"]}, TypeError, "chunk_sizes"),
    ({"data": "x", "chunk_sizes": [0]}, ValueError, "chunk_sizes"),
    ({"data": "x", "chunk_sizes": []}, ValueError, "chunk_sizes"),
])
def test_wrong_arguments(kwargs, exception, name):
    with pytest.raises(exception, match=name):
        tokenize_for_test(**kwargs)


def test_count_tokens_arguments():
    assert count_tokens(b"<a>b</a>") == (4, 0)
    assert count_tokens(b"<a>b</a>", chunk_size=1) == (4, 0)
    assert count_tokens(b"<a\x00>", collect_errors=True) == (2, 1)
    with pytest.raises(TypeError, match="data"):
        count_tokens("<a>")
    with pytest.raises(TypeError, match="chunk_size"):
        count_tokens(b"<a>", chunk_size="1")
    with pytest.raises(ValueError, match="chunk_size"):
        count_tokens(b"<a>", chunk_size=0)
    with pytest.raises(TypeError, match="collect_errors"):
        count_tokens(b"<a>", collect_errors=1)


# ---------------------------------------------------------------------------
# Real pages (../shared/corpus/pages): any split, any bytes
# ---------------------------------------------------------------------------

def _corpus_pages():
    folder = data.corpus_dir()                     # $LEXPY_CORPUS or ../shared
    pages = sorted(folder.glob("*.htm*"))
    assert pages, "no corpus pages in %s" % folder
    return pages


@pytest.mark.parametrize("seed", [1, 2])
def test_corpus_pages_split_at_random_points(seed):
    import random
    rng = random.Random(seed)
    for path in rng.sample(_corpus_pages(), 4):
        text = path.read_bytes().decode("utf-8", "replace")
        whole = tokenize_for_test(text)
        sizes = [rng.randint(1, 200) for _ in range(11)]
        assert tokenize_for_test(text.encode("utf-8"), chunk_sizes=sizes) == whole, path.name


def test_corpus_pages_as_raw_bytes_never_fail():
    # Legacy-encoded pages fed as they are (not UTF-8): no exception, and
    # chunking changes no error (text tokens are split at chunk ends, so
    # only the errors are compared).
    for path in _corpus_pages():
        raw = path.read_bytes()
        tokens, errors = count_tokens(raw, collect_errors=True)
        assert tokens > 1
        assert count_tokens(raw, chunk_size=61, collect_errors=True)[1] == errors
