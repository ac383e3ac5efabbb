"""Tests of lexpy/core: the static and dynamic name tables."""
