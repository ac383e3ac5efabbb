"""The tokenizer: states of the standard over UTF-8 bytes, one unified token
at a time (DESIGN.md decisions 1-5)."""

__all__: list = []
