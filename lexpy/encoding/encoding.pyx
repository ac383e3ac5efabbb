# cython: language_level=3
"""Encoding sniffing and decoding to UTF-8 (not implemented yet)."""
