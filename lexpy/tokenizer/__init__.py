"""The tokenizer: states of the standard over UTF-8 bytes, one unified token
at a time (DESIGN.md decisions 1-5).

Its C API (tokenizer.pxd) is for the other compiled stages. The Python
functions here are for tests and tools, not part of lexpy's public API:
tokenize_for_test (the html5lib tokenizer-test shape of tokens and errors)
and count_tokens (tokenizing to a no-op consumer, for the benchmark).
"""
from lexpy.tokenizer.tokenizer import count_tokens, tokenize_for_test

__all__: list[str] = []
