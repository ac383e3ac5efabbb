"""Tests of lexpy/text: inner_text, extract_text, to_markdown."""
