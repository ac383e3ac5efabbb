# cython: language_level=3
"""The tree construction stage (not implemented yet)."""

from lexpy.tokenizer.tokenizer cimport Tokenizer
from lexpy.dom.dom cimport CDocument
