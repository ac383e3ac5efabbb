"""The standard's error handling in every decoder: truncated sequences,
invalid trailing bytes, ASCII after a leading byte (restored, never masked),
ISO-2022-JP escapes, UTF-16 lone surrogates, UTF-8's maximal subparts.

Explicit cases worked out from the decoders' steps, then lexpy against a
literal transcription of the standard (tests/encoding_reference.py): over
every two-byte sequence of the multi-byte encodings, and over random bytes.
"""
import pytest
from hypothesis import given, settings, strategies as st

import lexpy.encoding as enc
from tests import encoding_reference as ref

FFFD = "\ufffd"

CASES = {
    "UTF-8": [
        (b"\x80", FFFD),
        (b"\xc0\x80", FFFD * 2),                  # overlong lead
        (b"\xc1\xbf", FFFD * 2),
        (b"\xe0\x80\x80", FFFD * 3),              # overlong: 0x80 is below E0's 0xA0
        (b"\xe0\xa0\x80", "\u0800"),
        (b"\xed\xa0\x80", FFFD * 3),              # a surrogate
        (b"\xed\x9f\xbf", "\ud7ff"),
        (b"\xf0\x8f\xbf\xbf", FFFD * 4),
        (b"\xf4\x90\x80\x80", FFFD * 4),          # above U+10FFFF
        (b"\xf4\x8f\xbf\xbf", "\U0010ffff"),
        (b"\xf5\x80", FFFD * 2),
        (b"\xff\xfe\xfd", FFFD * 3),
        (b"\xf0\x9f\x98", FFFD),                  # truncated: one U+FFFD
        (b"\xf0\x9f\x98A", FFFD + "A"),           # ASCII after a partial sequence
        (b"\xe2\x82", FFFD),
        (b"\xe2\x82\xe2\x82\xac", FFFD + "\u20ac"),
        (b"\xc3", FFFD),
        # Unicode's example of maximal subparts (U+FFFD substitution).
        (b"\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64",
         "a" + FFFD * 3 + "b" + FFFD + "c" + FFFD * 2 + "d"),
    ],
    "Shift_JIS": [
        (b"\x82\x22", FFFD + '"'),                # the standard's security example
        (b"\x82", FFFD),
        (b"\x81\x7f", FFFD + "\x7f"),
        (b"\x81\xfd", FFFD),
        (b"\x80", "\x80"),
        (b"\xa0", FFFD),
        (b"\xfd\xfe\xff", FFFD * 3),
        (b"\xf0\x40", "\ue000"),                  # EUDC
        (b"\xf9\xfc", "\ue757"),
        (b"\x5c\x7e", "\\~"),
    ],
    "EUC-KR": [
        (b"\xb0", FFFD),
        (b"\xb0\x22", FFFD + '"'),
        (b"\x80", FFFD),
        (b"\xff", FFFD),
        (b"\xb0\xa1\xb0", "\uac00" + FFFD),
        (b"\x81\x40", FFFD + "@"),                # 0x40 is below 0x41
    ],
    "Big5": [
        (b"\x88\x62", "\u00ca\u0304"),
        (b"\x88\x64", "\u00ca\u030c"),
        (b"\x88\xa3", "\u00ea\u0304"),
        (b"\x88\xa5", "\u00ea\u030c"),
        (b"\xa4", FFFD),
        (b"\xa4\x22", FFFD + '"'),
        (b"\xa4\x7f", FFFD + "\x7f"),
        (b"\xa4\xa0", FFFD),
        (b"\x80", FFFD),
        (b"\xff", FFFD),
        (b"\xa4\x40", "\u4e00"),
    ],
    "gb18030": [
        (b"\x80", "\u20ac"),
        (b"\xff", FFFD),
        (b"\x81", FFFD),
        (b"\x81\x30", FFFD),                      # end-of-queue masks the '0'
        (b"\x81\x30\x81", FFFD),
        (b"\x81\x30\x22", FFFD + '0"'),
        (b"\x81\x30\x81\x22", FFFD + "0" + FFFD + '"'),
        (b"\x81\x30\x81\x30", "\x80"),
        (b"\x84\x31\xa4\x39", "\uffff"),          # the last BMP pointer, 39419
        (b"\x84\x31\xa5\x30", FFFD),              # 39420: no code point
        (b"\x90\x30\x81\x30", "\U00010000"),      # 189000
        (b"\xe3\x32\x9a\x35", "\U0010ffff"),      # 1237575
        (b"\xe3\x32\x9a\x36", FFFD),
        (b"\xfe\x39\xfe\x39", FFFD),
        (b"\x81\x35\xf4\x37", "\ue7c7"),          # pointer 7457
        (b"\xa1\x7f", FFFD + "\x7f"),
        (b"\xa1\xff", FFFD),
        (b"\xa3\xa0", "\u3000"),
    ],
    "EUC-JP": [
        (b"\x8e", FFFD),
        (b"\x8e\xa1", "\uff61"),
        (b"\x8e\xe0", FFFD),                      # 0xE0 is swallowed: not ASCII
        (b"\x8e\x22", FFFD + '"'),
        (b"\x8f", FFFD),
        (b"\x8f\xa1", FFFD),
        (b"\x8f\xa1\x22", FFFD + '"'),
        (b"\x8f\x22", FFFD + '"'),
        (b"\x8f\xb0\xa1", "\u4e02"),
        (b"\xa1\x22", FFFD + '"'),
        (b"\xb0\xa1", "\u4e9c"),
        (b"\x80", FFFD),
        (b"\xff", FFFD),
        (b"\x5c\x7e", "\\~"),
    ],
    "ISO-2022-JP": [
        (b"\x1b", FFFD),
        (b"\x1b$", FFFD + "$"),
        (b"\x1b(", FFFD + "("),
        (b"\x1b(X", FFFD + "(X"),
        (b"\x1bA", FFFD + "A"),
        (b"\x1b$B\x30", FFFD),                    # a truncated pair
        (b"\x1b$B\x30\x21", "\u4e9c"),
        (b"\x1b$B\x30\x1b(B", FFFD),
        (b"\x1b$B\x30\x21\x1b(BA", "\u4e9cA"),
        (b"\x1b(B\x1b(B", FFFD),                  # an escape right after an escape
        (b"\x1b(BA\x1b(B", "A"),
        (b"\x1b$B\x1b(BA", FFFD + "A"),
        (b"\x0e\x0f", FFFD * 2),
        (b"\x80\xff", FFFD * 2),
        (b"\x1b(J\x0e", FFFD),
        (b"\x1b(J\\~", "\u00a5\u203e"),
        (b"\x1b$B\x21", FFFD),
        (b"\x1b$B\x7f", FFFD),
        (b"\x1b$B\x21\x7f", FFFD),
        (b"\x1b(I\x60", FFFD),
        (b"\x1b(I\x21", "\uff61"),
        (b"\x1b$@\x30\x21", "\u4e9c"),
        (b"\x1b$A", FFFD + "$A"),
    ],
    "UTF-16LE": [
        (b"\x00", FFFD),
        (b"A\x00\x00", "A" + FFFD),
        (b"\x00\xd8", FFFD),                      # a lone leading surrogate
        (b"\x00\xd8A\x00", FFFD + "A"),
        (b"\x00\xdc", FFFD),                      # a lone trailing surrogate
        (b"\x00\xdcA\x00", FFFD + "A"),
        (b"\x00\xd8\x00\xd8\x00\xdc", FFFD + "\U00010000"),
        (b"\x3d\xd8\x00", FFFD),
        (b"\x3d\xd8\x00\xde", "\U0001f600"),
    ],
    "UTF-16BE": [
        (b"\x00", FFFD),
        (b"\xd8\x00", FFFD),
        (b"\xd8\x00\x00A", FFFD + "A"),
        (b"\xdc\x00", FFFD),
        (b"\xd8\x3d\xde\x00", "\U0001f600"),
        (b"\xd8\x00\xd8\x00\xdc\x00", FFFD + "\U00010000"),
    ],
    "x-user-defined": [(b"\x7f\x80\xff", "\x7f\uf780\uf7ff")],
    "replacement": [(b"", ""), (b"x", FFFD), (b"\x00\x00", FFFD)],
    "windows-1252": [(b"\x80\x81\x9f\xff", "\u20ac\x81\u0178\u00ff")],
    "ISO-8859-3": [(b"\xa5", FFFD)],
}


@pytest.mark.parametrize("name,data,expected",
                         [(n, d, e) for n, cases in CASES.items() for d, e in cases],
                         ids=["%s:%s" % (n, d.hex()) for n, cases in CASES.items()
                              for d, _ in cases])
def test_error_handling(name, data, expected):
    assert enc.decode(data, name, bom=False) == expected
    assert ref.decode_without_bom(data, name) == expected, "the reference disagrees"


MULTI_BYTE = ["gb18030", "GBK", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR",
              "UTF-16LE", "UTF-16BE", "UTF-8"]


def assert_same_as_reference(data, name):
    got = enc.decode(data, name, bom=False)
    want = ref.decode_without_bom(data, name)
    if got == want:
        return
    # Narrow the difference down to a short input for the report.
    for size in (3, 12, 48):
        for start in range(0, len(data), size):
            piece = data[start:start + size]
            if enc.decode(piece, name, bom=False) != ref.decode_without_bom(piece, name):
                raise AssertionError("%s: %s: lexpy %r, the standard %r" % (
                    name, piece.hex(" "), enc.decode(piece, name, bom=False),
                    ref.decode_without_bom(piece, name)))
    raise AssertionError("%s: lexpy and the standard differ on a long input" % name)


@pytest.mark.parametrize("name", MULTI_BYTE)
def test_every_two_byte_sequence_is_decoded_as_the_standard_says(name):
    # Every leading byte 0x80-0xFF with every second byte, then "A" (which
    # shows whether the state was left clean), and once more at the end.
    data = b"".join(bytes([lead, trail]) + b"A"
                    for lead in range(0x80, 0x100) for trail in range(0x100))
    assert_same_as_reference(data, name)
    for lead in range(0x80, 0x100):
        assert_same_as_reference(bytes([lead]), name)


@pytest.mark.parametrize("name", ["gb18030", "EUC-JP", "ISO-2022-JP"])
def test_three_and_four_byte_sequences(name):
    if name == "gb18030":
        seconds, thirds = range(0x2E, 0x3B), (0x80, 0x81, 0x9A, 0xFE, 0xFF, 0x41)
        data = b"".join(bytes([first, second, third, fourth]) + b"A"
                        for first in (0x80, 0x81, 0x84, 0x85, 0x8F, 0x90, 0xE3, 0xE4, 0xFE)
                        for second in seconds for third in thirds
                        for fourth in range(0x2E, 0x3B))
    elif name == "EUC-JP":
        data = b"".join(bytes([0x8F, second, third]) + b"A"
                        for second in range(0x80, 0x100) for third in range(0x100))
    else:
        data = b"".join(b"\x1b" + bytes([second, third]) + b"A\x1b(BB"
                        for second in range(0x100) for third in range(0x100))
    assert_same_as_reference(data, name)


def bytes_of(name):
    """Random input weighted towards the bytes that matter to the decoder."""
    interesting = {
        "ISO-2022-JP": [0x1B, 0x24, 0x28, 0x40, 0x42, 0x49, 0x4A, 0x0E, 0x0F, 0x5C, 0x7E,
                        0x21, 0x30, 0x7F],
        "gb18030": [0x80, 0x81, 0x84, 0x30, 0x39, 0x3A, 0xFE, 0xFF, 0xA1, 0x40, 0x7F],
        "GBK": [0x80, 0x81, 0x84, 0x30, 0x39, 0x3A, 0xFE, 0xFF, 0xA1, 0x40, 0x7F],
        "UTF-16LE": [0x00, 0xD8, 0xDB, 0xDC, 0xDF, 0x41],
        "UTF-16BE": [0x00, 0xD8, 0xDB, 0xDC, 0xDF, 0x41],
        "UTF-8": [0x80, 0xBF, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xA0, 0x9F, 0x90, 0x8F],
        "EUC-JP": [0x8E, 0x8F, 0xA1, 0xFE, 0xDF, 0xE0, 0x22],
    }.get(name, [0x80, 0x81, 0xA1, 0xFE, 0xFF, 0x40, 0x7F, 0x22])
    return st.lists(st.one_of(st.sampled_from(interesting), st.integers(0, 255)),
                    max_size=40).map(bytes)


ALL_NAMES = [e.name for e in enc.ENCODINGS]


@pytest.mark.parametrize("name", ALL_NAMES)
def test_random_input_is_decoded_as_the_standard_says(name):
    @settings(max_examples=150, deadline=None)
    @given(bytes_of(name))
    def check(data):
        assert enc.decode(data, name, bom=False) == ref.decode_without_bom(data, name)
        assert enc.decode(data, name) == ref.decode(data, name)
    check()
