"""Tests of lexpy.corpus."""
