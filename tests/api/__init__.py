"""Tests of lexpy's public API as a whole: parse, Parser, the command line, threads."""
