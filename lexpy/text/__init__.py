"""Text out of the tree: inner_text (the HTML standard's innerText under the
user-agent stylesheet; Element.inner_text and outer_text use it),
extract_text (readable block-structured text, or the main content only) and
to_markdown (CommonMark, GFM tables). The walks run in C over the tree with
the GIL released."""
from lexpy.text.text import extract_text, inner_text, set_inner_text, set_outer_text, to_markdown

__all__ = ["extract_text", "inner_text", "set_inner_text", "set_outer_text", "to_markdown"]

from lexpy.dom.dom import register_text_layer as _register_text_layer
from lexpy.text import text as _text

_register_text_layer(_text)
