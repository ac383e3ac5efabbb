"""Names and labels: every label of the Encoding Standard's encodings.json
resolves to its encoding (https://encoding.spec.whatwg.org/#concept-encoding-get)."""
import pickle

import pytest

import lexpy.encoding as enc
from tests import encoding_reference as ref

LABELS = [(label, name) for name, labels, _ in ref.encodings() for label in labels]


def test_the_encodings_are_those_of_the_standard_in_its_order():
    assert [e.name for e in enc.ENCODINGS] == [name for name, _, _ in ref.encodings()]
    assert len(LABELS) == 228


@pytest.mark.parametrize("label,name", LABELS, ids=[label for label, _ in LABELS])
def test_every_label_resolves(label, name):
    assert enc.lookup(label).name == name
    assert enc.lookup(label.upper()).name == name
    assert enc.lookup(label.title()).name == name
    assert enc.lookup(label.encode("ascii")).name == name


@pytest.mark.parametrize("label,name", LABELS[::7])
def test_ascii_whitespace_is_trimmed(label, name):
    for space in ("\t", "\n", "\x0c", "\r", " "):
        assert enc.lookup(space + label + space * 2).name == name


def test_only_ascii_whitespace_is_trimmed():
    for padded in ("\x0butf-8", "utf-8\x0b", "\xa0utf-8", "utf-8\u3000", "utf-8\x00"):
        with pytest.raises(LookupError):
            enc.lookup(padded)


def test_case_folding_is_ascii_only():
    # U+212A KELVIN SIGN lowercases to "k" in Unicode, not in ASCII.
    with pytest.raises(LookupError):
        enc.lookup("\u212aoi8-r")
    with pytest.raises(LookupError):
        enc.lookup("utf\u20138")


@pytest.mark.parametrize("label", ["", " ", "utf-9", "latin-1", "utf-16-le", "x" * 64,
                                   "windows-1252x", "utf8 utf8", "iso-8859-1\x00"])
def test_unknown_labels_raise_lookup_error_naming_the_label(label):
    with pytest.raises(LookupError) as info:
        enc.lookup(label)
    assert repr(label) in str(info.value)


def test_wrong_types_raise_type_error():
    for bad in (None, 1252, 1.0, ["utf-8"]):
        with pytest.raises(TypeError):
            enc.lookup(bad)


def test_encodings_are_singletons_with_their_labels():
    assert enc.lookup("latin1") is enc.lookup("windows-1252")
    assert enc.lookup(enc.lookup("sjis")) is enc.lookup("Shift_JIS")
    for e in enc.ENCODINGS:
        assert enc.lookup(e.name) is e
        assert set(e.labels) == {label for label, name in LABELS if name == e.name}
        assert pickle.loads(pickle.dumps(e)) is e
    assert repr(enc.lookup("utf8")) == "<Encoding UTF-8>"
