"""CSS selectors (Selectors Level 4) over lexpy trees, matched in C.

compile_selector() compiles a selector list once into a reusable,
thread-safe Selector; the DOM's query_selector(), query_selector_all(),
matches() and closest() use the same engine through a bounded cache of
compiled selectors. SelectorSyntaxError (a ValueError) reports text the
grammar rejects, with its offset."""
from lexpy.dom import dom as _dom
from lexpy.selectors.selectors import (
    Selector,
    SelectorSyntaxError,
    closest as _closest,
    compile_selector,
    matches as _matches,
    query_selector as _query_selector,
    query_selector_all as _query_selector_all,
)

__all__ = ["Selector", "SelectorSyntaxError", "compile_selector"]

# Dependency inversion: the DOM's methods call the engine registered here.
_dom._register_selector_engine(_query_selector, _query_selector_all, _matches, _closest)
