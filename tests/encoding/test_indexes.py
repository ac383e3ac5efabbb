"""Every byte sequence that an encoding's index maps decodes to the index's
code point: for each encoding of the standard, the sequences are built from
the index files (read here, independently of the generator) with the
pointer arithmetic of the encoding's decoder, decoded by lexpy, and compared
code point by code point."""
import pytest

import lexpy.encoding as enc
from tests import encoding_reference as ref

SINGLE_BYTE = [name for name, _, heading in ref.encodings()
               if heading == "Legacy single-byte encodings"]


def decode(data, name):
    return enc.decode(bytes(data), name, bom=False)


def unmapped(trailing):
    """What an unmapped two-byte sequence decodes to: U+FFFD, and an ASCII
    trailing byte is restored to the input (so a U+0022 cannot be masked)."""
    return "\ufffd" + (chr(trailing) if trailing < 0x80 else "")


def check(name, sequences):
    """sequences: [(bytes, expected str)]. Decoded all at once; on a
    difference, the first sequence that decodes wrongly is reported."""
    data = b"".join(s for s, _ in sequences)
    expected = "".join(e for _, e in sequences)
    if decode(data, name) == expected:
        return
    for sequence, want in sequences:
        got = decode(sequence, name)
        assert got == want, "%s: %s decodes to %r, not %r" % (
            name, sequence.hex(" "), got, want)
    raise AssertionError("%s: the concatenation decodes differently" % name)


@pytest.mark.parametrize("name", SINGLE_BYTE)
def test_single_byte(name):
    table = ref.index("iso-8859-8" if name == "ISO-8859-8-I" else name.lower())
    sequences = [(bytes([b]), chr(b)) for b in range(0x80)]
    sequences += [(bytes([0x80 + p]), chr(table[p]) if p in table else "\ufffd")
                  for p in range(128)]
    check(name, sequences)


@pytest.mark.parametrize("name", ["gb18030", "GBK"])
def test_gb18030_two_bytes(name):
    table = ref.index("gb18030")
    sequences = []
    for pointer, code_point in sorted(table.items()):
        leading, trailing = divmod(pointer, 190)
        trailing += 0x40 if trailing < 0x3F else 0x41
        sequences.append((bytes([leading + 0x81, trailing]), chr(code_point)))
    assert len(sequences) == 23940
    sequences += [(b"\x80", "\u20ac"), (b"\xff", "\ufffd")]
    check(name, sequences)


def gb18030_four_bytes(pointer):
    b1, rest = divmod(pointer, 10 * 126 * 10)
    b2, rest = divmod(rest, 10 * 126)
    b3, b4 = divmod(rest, 10)
    return bytes([b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30])


@pytest.mark.parametrize("name", ["gb18030", "GBK"])
def test_gb18030_four_bytes(name):
    ranges = ref.index("gb18030-ranges")
    # Every BMP pointer, the range boundaries, and a sample of the
    # supplementary planes; plus pointers that map to nothing.
    pointers = set(range(0, 39420)) | set(ranges) | {p - 1 for p in ranges if p}
    pointers |= set(range(189000, 1237576, 997)) | {1237575}
    pointers |= {39420, 100000, 188999, 1237576, 1500000, 1587599}
    sequences = []
    for pointer in sorted(pointers):
        code_point = ref.index_gb18030_ranges_code_point(pointer)
        sequences.append((gb18030_four_bytes(pointer),
                          "\ufffd" if code_point is None else chr(code_point)))
    check(name, sequences)
    assert decode(gb18030_four_bytes(7457), name) == "\ue7c7"


def test_big5():
    table = ref.index("big5")
    sequences = []
    for pointer in sorted(set(table) | set(ref.BIG5_PAIRS)):
        leading, trailing = divmod(pointer, 157)
        trailing += 0x40 if trailing < 0x3F else 0x62
        expected = (ref.BIG5_PAIRS[pointer] if pointer in ref.BIG5_PAIRS
                    else [table[pointer]])
        sequences.append((bytes([leading + 0x81, trailing]),
                          "".join(map(chr, expected))))
    assert len(sequences) >= 18590
    check("Big5", sequences)


def test_euc_jp():
    jis0208, jis0212 = ref.index("jis0208"), ref.index("jis0212")
    sequences = []
    for pointer in range(94 * 94):
        leading, trailing = divmod(pointer, 94)
        sequence = bytes([leading + 0xA1, trailing + 0xA1])
        sequences.append((sequence, chr(jis0208[pointer]) if pointer in jis0208 else "\ufffd"))
        sequences.append((b"\x8f" + sequence,
                          chr(jis0212[pointer]) if pointer in jis0212 else "\ufffd"))
    sequences += [(bytes([0x8E, b]), chr(0xFF61 - 0xA1 + b)) for b in range(0xA1, 0xE0)]
    check("EUC-JP", sequences)


def test_iso_2022_jp():
    jis0208 = ref.index("jis0208")
    pairs, expected = [], []
    for pointer in range(94 * 94):
        leading, trailing = divmod(pointer, 94)
        pairs.append(bytes([leading + 0x21, trailing + 0x21]))
        expected.append(chr(jis0208[pointer]) if pointer in jis0208 else "\ufffd")
    # One escape for all pairs, and text after each return to ASCII: an
    # escape right after another is an error.
    sequences = [(b"\x1b$B" + b"".join(pairs) + b"\x1b(B-", "".join(expected) + "-")]
    # ESC $ @ is JIS C 6226 and decodes with the same index.
    sequences.append((b"\x1b$@\x30\x21\x1b(B-", chr(jis0208[(0x30 - 0x21) * 94]) + "-"))
    sequences.append((b"\x1b(I" + bytes(range(0x21, 0x60)) + b"\x1b(B-",
                      "".join(chr(0xFF61 - 0x21 + b) for b in range(0x21, 0x60)) + "-"))
    sequences.append((b"\x1b(J\x5c\x7e\x41\x1b(B-", "\u00a5\u203eA-"))
    check("ISO-2022-JP", sequences)


def test_shift_jis():
    jis0208 = ref.index("jis0208")
    sequences = []
    for pointer in range(94 * 2 * 60):           # every (lead, trail) pair
        leading, trailing = divmod(pointer, 188)
        leading += 0x81 if leading < 0x1F else 0xC1
        trailing += 0x40 if trailing < 0x3F else 0x41
        if leading > 0xFC:
            break
        if 8836 <= pointer <= 10715:
            expected = chr(0xE000 - 8836 + pointer)
        elif pointer in jis0208:
            expected = chr(jis0208[pointer])
        else:
            expected = unmapped(trailing)
        sequences.append((bytes([leading, trailing]), expected))
    assert {p for p in jis0208} <= set(range(len(sequences)))
    sequences += [(bytes([b]), chr(b)) for b in range(0x81)]
    sequences += [(bytes([b]), chr(0xFF61 - 0xA1 + b)) for b in range(0xA1, 0xE0)]
    check("Shift_JIS", sequences)


def test_euc_kr():
    table = ref.index("euc-kr")
    sequences = []
    for pointer in range(126 * 190):
        leading, trailing = divmod(pointer, 190)
        sequences.append((bytes([leading + 0x81, trailing + 0x41]),
                          chr(table[pointer]) if pointer in table else unmapped(trailing + 0x41)))
    check("EUC-KR", sequences)


def scalar_values(step=1):
    return [chr(c) for c in range(0, 0x110000, step) if not 0xD800 <= c <= 0xDFFF]


@pytest.mark.parametrize("name,codec", [("UTF-16LE", "utf-16-le"), ("UTF-16BE", "utf-16-be"),
                                        ("UTF-8", "utf-8")])
def test_unicode_encodings_decode_every_scalar_value(name, codec):
    text = "".join(scalar_values()[:0x10000] + scalar_values(251))
    check(name, [(text.encode(codec), text)])


def test_x_user_defined():
    check("x-user-defined", [(bytes([b]), chr(b if b < 0x80 else 0xF780 + b - 0x80))
                             for b in range(256)])


def test_replacement():
    check("replacement", [(b"", "")])
    check("replacement", [(b"<html>", "\ufffd")])
    assert decode(bytes(range(256)) * 10, "replacement") == "\ufffd"
