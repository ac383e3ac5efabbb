"""Tests of lexpy/selectors."""
