"""Every public name of lexpy, and every public method and property of its
classes, has a docstring (beyond the signature Cython embeds)."""
import inspect

import pytest

import lexpy


def _documentation(name, value):
    doc = (getattr(value, "__doc__", None) or "").strip()
    lines = doc.splitlines()
    if lines and (("%s(" % name in lines[0] and (lines[0].rstrip().endswith(")")
                                                 or "->" in lines[0]))
                  or lines[0].startswith("%s: " % name)):
        lines = lines[1:]              # the signature embedded by Cython
    return "\n".join(lines).strip()


def _public_members():
    for name in lexpy.__all__:
        if name.startswith("__"):
            continue
        value = getattr(lexpy, name)
        yield name, name, value
        if inspect.isclass(value):
            for attribute, member in vars(value).items():
                if attribute.startswith("_") or isinstance(member, int):
                    continue
                yield "%s.%s" % (name, attribute), attribute, member


MEMBERS = list(_public_members())


def test_the_api_is_there():
    names = {qualified for qualified, _, _ in MEMBERS}
    assert {"parse", "parse_fragment", "Parser.feed", "Parser.close",
            "Parser.buffered_bytes", "dump", "serialize", "Node.to_html",
            "Node.iter", "Node.get_elements_by_tag_name", "Node.get_element_by_id",
            "Node.children", "Node.text_content", "Element.class_list",
            "Document.errors", "ParseError.message"} <= names


@pytest.mark.parametrize("qualified, name, value", MEMBERS,
                         ids=[qualified for qualified, _, _ in MEMBERS])
def test_public_names_have_docstrings(qualified, name, value):
    assert _documentation(name, value), "%s has no docstring" % qualified
