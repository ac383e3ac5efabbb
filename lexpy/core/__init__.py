"""The bottom layer every other layer depends on: the generated names
(names.h), the dynamic name tables, the parse-error list and the UTF-8
helpers (core.pxd, names.pxd, utf8.pxd, for the other compiled modules).
Nothing here is part of lexpy's public API."""

__all__: list[str] = []
