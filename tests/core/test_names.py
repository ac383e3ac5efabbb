"""The static name tables of names.h and the dynamic name table."""
import pytest

from tests.helpers import require_test_build

t = require_test_build("lexpy.core._testing")

import importlib.util
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("gen_names", ROOT / "tools" / "gen_names.py")
gen_names = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen_names)
TABLES = gen_names.build()

NS_HTML, NS_MATHML, NS_SVG = 1, 2, 3


def test_every_static_tag_is_found_by_exact_name():
    for tag_id, name in enumerate(TABLES["tags"]):
        if name.startswith("#"):
            assert t.static_tag_id(name) == 0
        else:
            assert t.static_tag_id(name) == tag_id, name
            assert t.static_tag_name(tag_id) == name


def test_tokenizer_case_lookup_finds_only_lowercase_names():
    assert t.static_tag_id("DIV", lowercase_source=True) == t.static_tag_id("div")
    fixed = t.static_tag_id("foreignObject")
    lower = t.static_tag_id("foreignobject")
    assert fixed and lower and fixed != lower
    assert t.static_tag_id("foreignObject", lowercase_source=True) == lower


def test_every_static_attribute_is_found():
    for attr_id, name in enumerate(TABLES["attrs"]):
        if attr_id:
            assert t.static_attr_id(name) == attr_id, name
            assert t.static_attr_name(attr_id) == name
    assert t.static_attr_id("ViewBox", lowercase_source=True) == t.static_attr_id("viewbox")


def test_unknown_names():
    assert t.static_tag_id("custom-element") == 0
    assert t.static_attr_id("data-x") == 0
    assert t.static_tag_id("") == 0


@pytest.mark.parametrize("name,ns,category", [
    ("p", NS_HTML, "SPECIAL"), ("b", NS_HTML, "FORMATTING"),
    ("br", NS_HTML, "VOID"), ("td", NS_HTML, "SCOPE"),
    ("ul", NS_HTML, "SCOPE_LIST_ITEM"), ("button", NS_HTML, "SCOPE_BUTTON"),
    ("table", NS_HTML, "SCOPE_TABLE"), ("rtc", NS_HTML, "IMPLIED_END"),
    ("tbody", NS_HTML, "IMPLIED_END_THOROUGH"),
    ("mi", NS_MATHML, "MATHML_TEXT_INTEGRATION"),
    ("foreignObject", NS_SVG, "HTML_INTEGRATION"),
    ("foreignObject", NS_SVG, "SCOPE"), ("annotation-xml", NS_MATHML, "SPECIAL"),
])
def test_categories(name, ns, category):
    bit = TABLES["cat_bits"][category]
    assert t.tag_category(t.static_tag_id(name), ns) & bit


def test_category_depends_on_namespace():
    special = TABLES["cat_bits"]["SPECIAL"]
    title = t.static_tag_id("title")
    assert t.tag_category(title, NS_HTML) & special
    assert t.tag_category(title, NS_SVG) & special
    assert not t.tag_category(title, NS_MATHML) & special
    assert not t.tag_category(t.static_tag_id("div"), NS_SVG) & special
    assert t.tag_category(10 ** 6, NS_HTML) == 0


def test_dynamic_table_interns_dense_ids():
    table = t._NameTableForTests(1000)
    ids = [table.intern(("name%d" % i).encode()) for i in range(500)]
    assert ids == list(range(1000, 1500))
    assert table.intern(b"name7") == 1007
    assert table.get(1007) == b"name7"
    assert table.get(999) is None and table.get(1500) is None
    assert table.intern(b"") == 1500 and table.get(1500) == b""
    assert table.count == 501
