"""The DOM: C structs in a per-document arena with Python proxies, the
serializer and the tree dump (DESIGN.md decision 7)."""

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
from lexpy.dom.options_serializer import SerializerError, serialize, serialize_tokens

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
