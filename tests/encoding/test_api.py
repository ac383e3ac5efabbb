"""The public face of lexpy.encoding: __all__, the .pyi stub, docstrings."""
import ast
from pathlib import Path

import pytest

import lexpy.encoding as enc
from lexpy.encoding import encoding as module

STUB = Path(module.__file__).with_name("encoding.pyi")


def stub_names():
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return {name for name in names if not name.startswith("_")}


def test_the_stub_declares_exactly_the_public_api():
    assert stub_names() == set(enc.__all__)
    for name in enc.__all__:
        assert getattr(enc, name) is getattr(module, name)


@pytest.mark.parametrize("name", [n for n in enc.__all__ if callable(getattr(enc, n))])
def test_public_callables_have_docstrings(name):
    assert (getattr(enc, name).__doc__ or "").strip()


def test_encodings_are_read_only():
    utf8 = enc.lookup("utf-8")
    with pytest.raises(AttributeError):
        utf8.name = "x"
