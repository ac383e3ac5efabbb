"""Tests of lexpy/treebuilder (through lexpy/driver's parses)."""
