"""The tokenizer: states of the standard over UTF-8 bytes, one unified token
at a time (DESIGN.md decisions 1-5).

Its C API (tokenizer.pxd) is for the other compiled stages; it has no
Python API. Tests and tools drive it through lexpy.tokenizer._testing
(tokenize_for_test: the html5lib tokenizer-test shape of tokens and errors;
count_tokens: tokenizing to a no-op consumer, for the benchmark), which
only a test build has (LEXPY_TEST_BUILD=1).
"""

__all__: list[str] = []
