"""Tests of lexpy/dom: nodes, the arena, mutation, the serializer, pickling."""
