"""Encoding sniffing (BOM, transport label, <meta> prescan) and decoders to
the UTF-8 core (DESIGN.md decision 1)."""

__all__: list[str] = []
