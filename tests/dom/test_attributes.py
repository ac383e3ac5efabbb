"""Attributes: the mapping, get/set/remove by name, namespaces."""
from collections.abc import ItemsView, KeysView, MutableMapping, ValuesView

import pytest

import lexpy
from lexpy.dom import Document, InvalidCharacterError, NamespaceError

HTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"
XMLNS = "http://www.w3.org/2000/xmlns/"


def element(name="div", namespace=None):
    doc = Document()
    if namespace is None:
        return doc.create_element(name)
    return doc.create_element_ns(namespace, name)


def test_get_set_remove_has():
    div = element()
    assert div.get_attribute("id") is None
    assert not div.has_attribute("id")
    div.set_attribute("id", "main")
    assert div.get_attribute("id") == "main"
    assert div.has_attribute("id")
    div.set_attribute("id", "longer value than before")
    div.set_attribute("id", "x")
    assert div.get_attribute("id") == "x"
    assert div.get_attribute_names() == ["id"]
    div.remove_attribute("id")
    assert div.get_attribute("id") is None
    div.remove_attribute("id")          # removing a missing one is fine
    assert div.get_attribute_names() == []


def test_html_elements_fold_attribute_names_to_lowercase():
    div = element()
    div.set_attribute("onClick", "f()")
    assert div.get_attribute_names() == ["onclick"]
    assert div.get_attribute("ONCLICK") == "f()"
    assert div.has_attribute("OnClick")
    div.remove_attribute("ONclick")
    assert div.get_attribute_names() == []


def test_foreign_elements_keep_attribute_case():
    svg = element("svg", SVG)
    svg.set_attribute("viewBox", "0 0 1 1")
    assert svg.get_attribute_names() == ["viewBox"]
    assert svg.get_attribute("viewbox") is None
    assert svg.outer_html == '<svg viewBox="0 0 1 1"></svg>'


def test_attribute_order_is_kept():
    div = element()
    for name in ("c", "a", "b"):
        div.set_attribute(name, name.upper())
    assert div.get_attribute_names() == ["c", "a", "b"]
    div.set_attribute("a", "changed")
    assert div.get_attribute_names() == ["c", "a", "b"]
    assert div.outer_html == '<div c="C" a="changed" b="B"></div>'


def test_many_attributes():
    div = element()
    for i in range(1000):
        div.set_attribute("a%d" % i, str(i))
    assert len(div.attributes) == 1000
    assert div.get_attribute("a999") == "999"
    for i in range(0, 1000, 2):
        div.remove_attribute("a%d" % i)
    assert div.get_attribute_names() == ["a%d" % i for i in range(1, 1000, 2)]


def test_mapping_interface():
    div = element()
    attributes = div.attributes
    assert isinstance(attributes, MutableMapping)
    attributes["class"] = "x"
    attributes["ID"] = "y"
    assert dict(attributes) == {"class": "x", "id": "y"}
    assert attributes["Class"] == "x"
    assert "class" in attributes and "ID" in attributes
    assert "nope" not in attributes and 3 not in attributes
    assert len(attributes) == 2
    assert list(attributes) == ["class", "id"]
    assert list(attributes.items()) == [("class", "x"), ("id", "y")]
    assert list(attributes.values()) == ["x", "y"]
    assert attributes.get("missing", "d") == "d"
    del attributes["class"]
    assert list(attributes) == ["id"]
    with pytest.raises(KeyError):
        attributes["class"]
    with pytest.raises(KeyError):
        del attributes["class"]
    attributes.update({"a": "1", "b": "2"})
    assert attributes.pop("a") == "1"
    attributes.clear()
    assert len(attributes) == 0 and div.get_attribute_names() == []
    assert repr(div.attributes) == "Attributes({})"


def test_views_are_live_and_are_the_abc_views():
    div = element()
    div.set_attribute("class", "x")
    items, keys, values = (div.attributes.items(), div.attributes.keys(),
                           div.attributes.values())
    assert isinstance(items, ItemsView) and isinstance(keys, KeysView) \
        and isinstance(values, ValuesView)
    div.set_attribute("id", "y")               # the views see the change
    assert list(items) == [("class", "x"), ("id", "y")]
    assert list(keys) == ["class", "id"] and list(values) == ["x", "y"]
    assert len(items) == len(keys) == len(values) == 2
    assert ("class", "x") in items and ("class", "y") not in items
    assert ("nope", None) not in items and "x" not in items
    assert "ID" in keys and "y" in values and "z" not in values
    assert list(reversed(keys)) == ["id", "class"]
    # The set operations of KeysView and ItemsView.
    assert keys == {"class", "id"} and keys != {"class"}
    assert keys & {"id", "z"} == {"id"} and {"id", "z"} & keys == {"id"}
    assert keys | ["z"] == {"class", "id", "z"}
    assert keys - {"id"} == {"class"} and {"id", "z"} - keys == {"z"}
    assert keys ^ {"id", "z"} == {"class", "z"}
    assert keys <= {"class", "id", "z"} and keys < {"class", "id", "z"}
    assert not keys.isdisjoint(["id"]) and keys.isdisjoint(["z"])
    assert items == {("class", "x"), ("id", "y")}
    assert items & [("id", "y")] == {("id", "y")}
    assert dict(div.attributes.items()) == {"class": "x", "id": "y"}
    assert div.attributes == {"class": "x", "id": "y"}
    assert div.attributes != {"class": "x"}
    assert repr(keys) == "AttributeKeys(['class', 'id'])"
    with pytest.raises(TypeError):
        type(keys)()


def test_mapping_mixins():
    div = element()
    attributes = div.attributes
    assert attributes.setdefault("a", "1") == "1" and attributes["a"] == "1"
    assert attributes.setdefault("a", "2") == "1"
    attributes.update([("b", "2")], c="3")
    assert attributes.popitem() == ("c", "3")
    assert attributes.pop("missing", "d") == "d"
    with pytest.raises(KeyError):
        attributes.pop("missing")
    with pytest.raises(KeyError):
        Document().create_element("p").attributes.popitem()
    assert list(attributes.items()) == [("a", "1"), ("b", "2")]
    with pytest.raises(TypeError):
        hash(attributes)
    with pytest.raises(TypeError):
        lexpy.dom.Attributes("not an element")


def test_non_ascii_values_and_names_round_trip():
    div = element()
    div.set_attribute("data-é", "café \U0001F600 \ud800")
    assert div.get_attribute("DATA-é") == "café \U0001F600 \ud800"
    assert list(div.attributes.items()) == [("data-é", "café \U0001F600 \ud800")]
    assert div.get_attribute("data-\ud800") is None


def test_mapping_survives_changes_while_iterating():
    div = element()
    for i in range(10):
        div.set_attribute("a%d" % i, "v")
    for name in div.attributes:
        del div.attributes[name]
        div.set_attribute("new-" + name, "v")
    assert len(div.attributes) == 10
    assert all(name.startswith("new-") for name in div.attributes)


def test_attribute_type_and_name_errors():
    div = element()
    with pytest.raises(TypeError):
        div.set_attribute("a", None)
    with pytest.raises(TypeError):
        div.set_attribute("a", 1)
    with pytest.raises(TypeError):
        div.set_attribute(None, "v")
    with pytest.raises(TypeError):
        div.get_attribute(1)
    with pytest.raises(TypeError):
        div.attributes["a"] = 5
    for name in ("", "a b", "a=b", "a>b", "a/b", "a\0"):
        with pytest.raises(InvalidCharacterError):
            div.set_attribute(name, "v")
        with pytest.raises(ValueError):
            div.attributes[name] = "v"
    # Names the DOM allows but HTML syntax makes unusual are fine.
    div.set_attribute("a<b", "v")
    div.set_attribute("\u00e9", "v")
    assert div.get_attribute_names() == ["a<b", "\u00e9"]


def test_namespaced_attributes():
    svg = element("svg", SVG)
    svg.set_attribute_ns(XLINK, "xlink:href", "#a")
    svg.set_attribute_ns(XML, "xml:lang", "en")
    svg.set_attribute_ns(XMLNS, "xmlns", SVG)
    svg.set_attribute_ns(XMLNS, "xmlns:xlink", XLINK)
    svg.set_attribute_ns("urn:other", "o:thing", "1")
    svg.set_attribute_ns("urn:other", "plain", "2")
    assert svg.get_attribute_names() == [
        "xlink:href", "xml:lang", "xmlns", "xmlns:xlink", "o:thing", "plain"]
    assert svg.get_attribute_ns(XLINK, "href") == "#a"
    assert svg.get_attribute("xlink:href") == "#a"     # by qualified name
    assert svg.get_attribute("href") is None
    assert svg.has_attribute_ns(XML, "lang")
    assert not svg.has_attribute_ns(None, "lang")
    assert svg.get_attribute_ns("urn:unknown", "x") is None
    assert svg.get_attribute_ns(XLINK, "never-seen-name") is None
    assert svg.attribute_nodes() == [
        (XLINK, "xlink", "href", "#a"),
        (XML, "xml", "lang", "en"),
        (XMLNS, None, "xmlns", SVG),
        (XMLNS, "xmlns", "xlink", XLINK),
        ("urn:other", "o", "thing", "1"),
        ("urn:other", None, "plain", "2"),
    ]
    # The standard's serialized names; the dump's namespace designators.
    assert svg.outer_html == (
        '<svg xlink:href="#a" xml:lang="en" xmlns="http://www.w3.org/2000/svg" '
        'xmlns:xlink="http://www.w3.org/1999/xlink" o:thing="1" plain="2"></svg>')
    doc = svg.owner_document
    doc.append_child(svg)
    assert lexpy.dump(doc).split("\n") == [
        "| <svg svg>",
        '|   o:thing="1"',
        '|   plain="2"',
        '|   xlink href="#a"',
        '|   xml lang="en"',
        '|   xmlns xlink="http://www.w3.org/1999/xlink"',
        '|   xmlns xmlns="http://www.w3.org/2000/svg"',
    ]
    # Setting again changes the value and keeps the prefix.
    svg.set_attribute_ns(XLINK, "other:href", "#b")
    assert svg.get_attribute("xlink:href") == "#b"
    svg.remove_attribute_ns(XLINK, "href")
    assert not svg.has_attribute("xlink:href")
    svg.remove_attribute_ns("urn:nothing", "href")


def test_no_namespace_attribute_beside_a_namespaced_one():
    svg = element("svg", SVG)
    svg.set_attribute("xlink:href", "plain")          # no namespace, odd name
    svg.set_attribute_ns(XLINK, "xlink:href", "namespaced")
    assert svg.get_attribute_ns(None, "xlink:href") == "plain"
    assert svg.get_attribute_ns(XLINK, "href") == "namespaced"
    assert svg.get_attribute("xlink:href") == "plain"   # the first one
    doc = svg.owner_document
    doc.append_child(svg)
    assert lexpy.dump(doc).split("\n") == [
        "| <svg svg>", '|   xlink href="namespaced"', '|   xlink:href="plain"']


@pytest.mark.parametrize("namespace,name", [
    (None, "x:a"), ("urn:x", "xml:a"), ("urn:x", "xmlns"), (XMLNS, "a"),
    (XML, "xmlns:a"),
])
def test_set_attribute_ns_namespace_errors(namespace, name):
    with pytest.raises(NamespaceError):
        element().set_attribute_ns(namespace, name, "v")


def test_set_attribute_ns_name_errors():
    div = element()
    with pytest.raises(InvalidCharacterError):
        div.set_attribute_ns(None, "a b", "v")
    with pytest.raises(InvalidCharacterError):
        div.set_attribute_ns("urn:x", " :a", "v")
    with pytest.raises(TypeError):
        div.set_attribute_ns(3, "a", "v")
    with pytest.raises(TypeError):
        div.set_attribute_ns(None, "a", None)


def test_attribute_values_keep_every_character():
    div = element()
    value = "a&b<c>d\"e'f\u00a0g\nh\0i\U0001F600"
    div.set_attribute("v", value)
    assert div.get_attribute("v") == value
    assert div.outer_html == ('<div v="a&amp;b&lt;c&gt;d&quot;e\'f&nbsp;g\nh\0i'
                              '\U0001F600"></div>')


def test_attributes_survive_clone_and_adoption():
    div = element()
    div.set_attribute("a", "1")
    div.set_attribute_ns("urn:custom", "c:b", "2")
    other = Document()
    clone = other.import_node(div)
    assert clone.owner_document is other
    assert clone.attribute_nodes() == div.attribute_nodes()
    other.append_child(div)
    assert div.owner_document is other
    assert div.attribute_nodes() == [(None, None, "a", "1"),
                                     ("urn:custom", "c", "b", "2")]


@pytest.mark.parametrize("count", [1, 4, 5, 40])
def test_iterators_see_the_attributes_of_the_moment_they_were_made(count):
    # (4 and fewer are copied into the iterator, more into memory of its own)
    div = element()
    for i in range(count):
        div.set_attribute("a%d" % i, "value-%d" % i)
    expected = [("a%d" % i, "value-%d" % i) for i in range(count)]
    items, keys, values = (iter(div.attributes.items()), iter(div.attributes),
                           iter(div.attributes.values()))
    first = next(items)
    # shorter values, which fit in the old ones' bytes; removals; additions
    for i in range(count):
        div.set_attribute("a%d" % i, "w")
    del div.attributes["a0"]
    div.set_attribute("new", "x")
    assert [first] + list(items) == expected
    assert list(keys) == [name for name, _ in expected]
    assert list(values) == [value for _, value in expected]
    assert "a0" not in div.attributes
    assert all(div.get_attribute("a%d" % i) == "w" for i in range(1, count))
    # after the iterators ended, values are overwritten in place again
    assert list(div.attributes.items())[-1] == ("new", "x")


def test_items_kept_by_the_loop_are_never_changed():
    div = element()
    for i in range(6):
        div.set_attribute("a%d" % i, str(i))
    kept = [item for item in div.attributes.items()]      # each one kept
    assert kept == [("a%d" % i, str(i)) for i in range(6)]
    seen = []
    for name, value in div.attributes.items():             # each one let go
        seen.append((name, value))
    assert seen == kept
    it = iter(div.attributes.items())
    one = next(it)
    two = next(it)
    assert one == ("a0", "0") and two == ("a1", "1") and one is not two
    assert it.__length_hint__() == 4
    assert list(it) == kept[2:] and list(it) == []
    # a tuple the last loop let go of serves the next iterator; one it kept
    # does not
    for last in div.attributes.items():
        pass
    for name, value in Document().create_element("p").attributes.items():
        pass
    other = element()
    other.set_attribute("z", "26")
    assert list(other.attributes.items()) == [("z", "26")] and last == ("a5", "5")


def test_dynamic_attribute_names_are_made_once_per_document():
    doc = lexpy.parse(b"<p data-x=1 data-y=2><i data-x=3>")
    p = doc.body.first_child
    i = p.first_child
    (x1, _), (y1, _) = p.attributes.items()
    ((x2, _),) = i.attributes.items()
    assert (x1, y1) == ("data-x", "data-y") and x1 is x2
    other = lexpy.parse(b"<p data-y=1 data-x=2>").body.first_child
    assert list(other.attributes) == ["data-y", "data-x"]
