"""The DOM: C structs in a per-document arena with Python proxies, the
serializer and the tree dump (DESIGN.md decision 7)."""

__all__: list = []
