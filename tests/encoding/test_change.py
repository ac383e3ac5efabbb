"""Changing the encoding while parsing
(https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing)
and its on-the-fly switch."""
import pytest

import lexpy.encoding as enc


@pytest.mark.parametrize("current,new,result", [
    ("windows-1252", "koi8-r", "KOI8-R"),
    ("windows-1252", "windows-1252", None),        # same: the confidence becomes certain
    ("windows-1252", "latin1", None),              # a label of the same encoding
    ("windows-1252", "utf-16le", "UTF-8"),         # UTF-16 -> UTF-8
    ("windows-1252", "utf-16be", "UTF-8"),
    ("UTF-8", "utf-16", None),                     # ... which may be the one in use
    ("windows-1252", "x-user-defined", None),      # x-user-defined -> windows-1252
    ("UTF-8", "x-user-defined", "windows-1252"),
    ("UTF-16LE", "koi8-r", None),                  # UTF-16 in use: never changes
    ("UTF-16BE", "utf-8", None),
    ("Shift_JIS", "EUC-JP", "EUC-JP"),
    ("GBK", "gb18030", "gb18030"),
    ("windows-1252", "iso-2022-kr", "replacement"),
])
def test_change_encoding(current, new, result):
    changed = enc.change_encoding(current, new)
    assert (changed.name if changed else None) == result


def test_change_encoding_bad_labels():
    with pytest.raises(LookupError):
        enc.change_encoding("utf-8", "bogus")
    with pytest.raises(LookupError):
        enc.change_encoding("bogus", "utf-8")


@pytest.mark.parametrize("current,new,converted,same", [
    ("windows-1252", "KOI8-R", b"<html><head><meta charset=koi8-r>", True),
    ("windows-1252", "KOI8-R", b"<p>caf\xe9", False),
    ("windows-1252", "UTF-8", b"", True),
    ("windows-1252", "Shift_JIS", b"\\~", True),   # WHATWG Shift_JIS maps ASCII to ASCII
    ("windows-1252", "ISO-2022-JP", b"<p>", True),
    ("windows-1252", "ISO-2022-JP", b"<p>\x1b$B", False),
    ("ISO-2022-JP", "windows-1252", b"a\x0eb", False),
    ("windows-1252", "x-user-defined", b"abc", True),
    ("windows-1252", "replacement", b"abc", False),
    ("windows-1252", "UTF-16LE", b"abc", False),
    ("GBK", "gb18030", b"\x81\x30\x81\x30\xc4\xe3", True),      # the same decoder
    ("ISO-8859-8", "ISO-8859-8-I", b"\xe0\xe1", True),
    ("ISO-8859-8", "windows-1255", b"\xe0\xe1", False),
])
def test_can_switch_on_the_fly(current, new, converted, same):
    assert enc.can_switch_on_the_fly(current, new, converted) is same
    if same and converted:
        assert enc.decode(converted, current, bom=False) == enc.decode(converted, new, bom=False)
