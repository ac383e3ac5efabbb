"""The HTML Standard's Sanitizer API, server-side: lexpy.Sanitizer (the
SanitizerConfig model), Element.set_html / set_html_unsafe,
parse_html / parse_html_unsafe, and sanitize() for strings, whose result is
checked by reparsing it (fail closed). The walk runs in C over the tree
(lexpy.sanitizer.walk)."""
from lexpy.dom.dom import register_sanitizer_layer as _register_sanitizer_layer
from lexpy.sanitizer.api import (
    Sanitizer, _Layer, parse_html, parse_html_unsafe, sanitize, set_html)

__all__ = ["Sanitizer", "parse_html", "parse_html_unsafe", "sanitize", "set_html"]

_register_sanitizer_layer(_Layer)
