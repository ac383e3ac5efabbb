"""The long-run scans of raw text and quoted attribute values (scan.h,
lxp_scan4_run): a run past its first 64 bytes is scanned out of line, 64
bytes a step, with AVX2 where the CPU has it and SSE2 otherwise. Each stop
byte (the end of the run, '&', NUL, CR) at every offset of a long run, and
runs ending at every offset near the end of the input, must give what the
spec's byte-at-a-time states give, on both paths."""
import pytest

import lexpy
from tests.helpers import require_test_build

testing = require_test_build("lexpy.tokenizer._testing")

FILL = "abcdefghij klmnop;{}()=-+'\"/\t\n" * 8          # no stop byte of any scan


@pytest.fixture(params=["sse2", "avx2"])
def scan_path(request):
    used = testing.scan_with_avx2(request.param == "avx2")
    try:
        if request.param == "avx2" and not used:
            pytest.skip("this CPU has no AVX2")
        yield request.param
    finally:
        testing.scan_with_avx2(True)


def expected_text(raw):
    """The text the tree holds for raw text: CR LF and CR become LF, NUL
    becomes U+FFFD (in style and script data)."""
    return raw.replace("\r\n", "\n").replace("\r", "\n").replace("\0", "\ufffd")


def stops(fill, stop):
    for offset in range(0, 150):
        yield fill[:offset] + stop + fill[offset:offset + 60]


@pytest.mark.parametrize("stop", ["\r", "\0", "\r\n", "&amp;", "<b>"])
def test_raw_text_stop_at_every_offset(scan_path, stop):
    for raw in stops(FILL.replace("'", "").replace('"', ""), stop):
        doc = lexpy.parse("<style>%s</style>" % raw)
        style = doc.head.first_child
        assert style.text_content == expected_text(raw), repr(raw)


@pytest.mark.parametrize("stop", ["\r", "\0", "\r\n", "&amp;", "&lt;", '"', "'"])
def test_quoted_value_stop_at_every_offset(scan_path, stop):
    fill = FILL.replace('"', "").replace("&", "")
    for quote in "\"'":
        for value in stops(fill.replace(quote, ""), stop):
            if stop == quote:
                continue
            doc = lexpy.parse("<p title=%s%s%s>x" % (quote, value, quote))
            want = (expected_text(value).replace("&amp;", "&").replace("&lt;", "<"))
            assert doc.body.first_child.get_attribute("title") == want, repr(value)


def test_runs_ending_near_the_end_of_the_input(scan_path):
    """A run that reaches the end of the input (no stop byte) at every
    length: the long scan's last blocks and its byte loop."""
    for length in range(0, 200):
        raw = FILL[:length]
        doc = lexpy.parse("<style>" + raw.replace("<", ""))
        assert doc.head.first_child.text_content == expected_text(raw)
        value = raw.replace('"', "")
        doc = lexpy.parse('<p title="%s"></p>' % value + "x" * (length % 7))
        assert doc.body.first_child.get_attribute("title") == expected_text(value)


def test_script_data_is_scanned_the_same(scan_path):
    for raw in stops(FILL, "\r"):
        doc = lexpy.parse("<script>%s</script>" % raw)
        assert doc.head.first_child.text_content == expected_text(raw)


# A '<' in RCDATA, RAWTEXT or script data whose next byte shows it to be
# text stays in scan_text's run (states_data.pxi); the ones that may start
# an end tag ('</'), or an escape in script data ('<!'), still go to the
# less-than sign state, also when the '<' is the last byte of a chunk.
TEXT_STATES = [("RCDATA state", "title"), ("RAWTEXT state", "style"),
               ("Script data state", "script")]
LESS_THAN_TEXT = "a<b << c<1<=2 <x </ </1 </y <? <\t"


def spec_tokens(text, tag):
    """The tokens the spec gives for `text` + the end tag, by hand: the
    text is one character token (no '&' in it, no '<!--' in script data)."""
    return [["Character", text], ["EndTag", tag]]


@pytest.mark.parametrize("state, tag", TEXT_STATES)
def test_less_than_sign_that_is_text(state, tag):
    for cut in range(len(LESS_THAN_TEXT) + 1):
        text = LESS_THAN_TEXT[:cut] + "<!x" + LESS_THAN_TEXT[cut:]
        data = text + "</%s>" % tag
        for chunks in (None, [1], [cut or 1, 2]):
            tokens, errors = testing.tokenize_for_test(data, state, tag, chunk_sizes=chunks)
            assert tokens == spec_tokens(text, tag), (data, chunks)
            assert errors == []


def test_script_escape_after_less_than_signs_that_are_text():
    """'<!--' after '<'s that stay text still escapes the script data: the
    '</script>' inside '<!--<script>' does not end it."""
    data = "a<b<c<!--<script>x</script>y-->z</script>"
    for chunks in (None, [1], [3]):
        tokens, _ = testing.tokenize_for_test(data, "Script data state", "script",
                                              chunk_sizes=chunks)
        assert tokens == [["Character", data[:-len("</script>")]], ["EndTag", "script"]]


@pytest.mark.parametrize("stop", ["\r", "\0", "-", "<", "<!", "\r\n"])
def test_comment_stop_at_every_offset(scan_path, stop):
    fill = FILL.replace("-", "")
    for data in stops(fill, stop):
        doc = lexpy.parse("<!--%s-->" % data)
        assert doc.first_child.data == expected_text(data), repr(data)


@pytest.mark.parametrize("stop", ["\r", "\0", "-", "<", "<b", "\r\n"])
def test_escaped_script_stop_at_every_offset(scan_path, stop):
    """Script data escaped ('<!--' in a script): its own loop."""
    fill = FILL.replace("-", "").replace("<", "")
    for raw in stops(fill, stop):
        text = "<!--" + raw + "-->"
        doc = lexpy.parse("<script>%s</script>" % text)
        assert doc.head.first_child.text_content == expected_text(text), repr(raw)
