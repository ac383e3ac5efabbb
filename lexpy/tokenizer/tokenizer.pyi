# Type stubs of the compiled lexpy.tokenizer.tokenizer module
# (lexpy/tokenizer/tokenizer.pyx): it has no Python API (tokenizer.pxd is
# for the other compiled stages; tests and tools drive the tokenizer through
# lexpy.tokenizer._testing, in test builds).
