"""Tests of lexpy/tokenizer."""
