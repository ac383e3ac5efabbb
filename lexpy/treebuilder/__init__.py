"""Tree construction: the insertion modes of the standard over the
tokenizer's tokens, building the DOM's C structs (DESIGN.md decision 6)."""

__all__: list[str] = []
