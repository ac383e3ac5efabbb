"""The DOM: C structs in a per-document arena with Python proxies, the
serializer and the tree dump (DESIGN.md decision 7)."""
from typing import TYPE_CHECKING, Any

from lexpy.dom.dom import (
    Attributes,
    CharacterData,
    ClassList,
    Comment,
    Document,
    DocumentFragment,
    DocumentType,
    Element,
    HierarchyRequestError,
    InvalidCharacterError,
    NamespaceError,
    Node,
    NotFoundError,
    NotSupportedError,
    ProcessingInstruction,
    Text,
    dump,
)

__all__ = [
    "Attributes",
    "CharacterData",
    "ClassList",
    "Comment",
    "Document",
    "DocumentFragment",
    "DocumentType",
    "Element",
    "HierarchyRequestError",
    "InvalidCharacterError",
    "NamespaceError",
    "Node",
    "NotFoundError",
    "NotSupportedError",
    "ProcessingInstruction",
    "SerializerError",
    "Text",
    "dump",
    "serialize",
    "serialize_tokens",
]


if TYPE_CHECKING:
    from lexpy.dom.options_serializer import SerializerError, serialize, serialize_tokens


def __getattr__(name: str) -> Any:
    # The html5lib-options serializer is imported on first use (it brings
    # html.entities and re: megabytes of RSS a parse does not need).
    if name in ("SerializerError", "serialize", "serialize_tokens"):
        from lexpy.dom import options_serializer
        value = getattr(options_serializer, name)
        globals()[name] = value
        return value
    raise AttributeError("module 'lexpy.dom' has no attribute %r" % name)
