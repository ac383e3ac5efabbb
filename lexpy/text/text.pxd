# Text out of the C tree: inner_text (the HTML standard's rendered text
# collection steps under the UA stylesheet), extract_text (block-structured
# plain text, optionally of the main content only) and to_markdown. Only
# C structs and functions here; the Python API is in api.pxi.

from libc.stdint cimport uint8_t, uint32_t, int64_t
from lexpy.dom.dom cimport CNode, CElement, CDocument


# The box an element generates under the UA stylesheet (display.pxi).
cdef enum Box:
    BOX_NONE                      # display: none, or not rendered here
    BOX_INLINE
    BOX_BLOCK
    BOX_PARAGRAPH                 # <p>: a block with 2 required line breaks
    BOX_LIST_ITEM
    BOX_TABLE
    BOX_TABLE_ROW_GROUP
    BOX_TABLE_ROW
    BOX_TABLE_CELL
    BOX_TABLE_CAPTION
    BOX_TABLE_COLUMN
    BOX_INLINE_BLOCK
    BOX_REPLACED                  # an atomic inline; children not rendered
    BOX_LINE_BREAK                # <br>
    BOX_CONTENTS                  # display: contents
    BOX_DEPENDS                   # (the table's mark: attributes decide)


cdef enum TextMode:
    MODE_INNER_TEXT               # the standard's innerText
    MODE_PLAIN                    # extract_text's readable text


# One growing UTF-8 buffer and the white-space state between items
# (writer.pxi).
cdef struct TextWriter:
    uint8_t* data
    size_t length
    size_t capacity
    size_t start                  # where this text starts (breaks before it
                                  # are dropped)
    bint failed                   # out of memory: later writes do nothing
    uint32_t pending_breaks       # required line break count waiting
    bint pending_space            # a collapsed space waiting
    bint line_start               # collapsible spaces vanish here
    uint8_t prefix[256]           # written at the start of each new line
    size_t prefix_length
    size_t prefix_trimmed         # without trailing spaces (empty lines)
    bint need_prefix              # a newline was written, the prefix not yet
    uint8_t marker[64]            # container markers ("> ", "- ") waiting for
    size_t marker_length          # the first line of their content; they
    size_t marker_base            # follow prefix[:marker_base]
    uint8_t opens[64]             # Markdown emphasis openers waiting for
    size_t opens_length           # content (an empty <em> writes nothing)
    bint line_begin               # Markdown: nothing on this line yet
    uint32_t line_digits          # Markdown: digits since the line began
    bint measured                 # writer_measure: the text's code points
    size_t code_points            # and largest code point (for its str)
    uint32_t max_char


cdef struct TextOptions:
    uint32_t mode                 # TextMode
    bint scripting                # the document's scripting flag (noscript)
    bint links                    # extract_text: write link targets
    bint alt_text                 # extract_text: write image alternatives
    bint list_bullets             # extract_text: "- " / "1. " before items
    uint32_t aria_hidden          # the document's id of aria-hidden (0: none)
    bint raw_html                 # to_markdown: HTML Markdown cannot express
                                  # as raw HTML (else its text)
    uint8_t* removed              # per element in pre-order: left out (main
                                  # content), or NULL
    uint32_t* subtree             # elements in each element's subtree


# State of one walk (collect.pxi).
cdef struct Walk:
    uint32_t preformatted         # open elements with white-space: pre
    uint32_t svg_text             # open SVG <text> elements
    int64_t* lists                # per open list: next number, -1: bullets
    size_t lists_length
    size_t lists_capacity
    uint8_t* boxes                # the box of each open element (a stack)
    size_t boxes_length
    size_t boxes_capacity


cdef int write_markdown(TextWriter* w, CNode* root, TextOptions* o) noexcept nogil
cdef Box html_box(CElement* element, bint scripting) noexcept nogil
cdef bint element_being_rendered(CElement* element, bint scripting) noexcept nogil
cdef int collect_text(TextWriter* w, CNode* root, TextOptions* o) noexcept nogil


# extract_text for callers in C (lexpy.corpus.urls): its options for a node
# of `doc`; its walk of an element (of a template: its contents), document
# or fragment `root` into `w` (which it initialises) without the GIL, the
# caller counting the document as read meanwhile (CDocument.readers); and
# the str of what was written (MemoryError when the walk ran out of
# memory), which frees w.
cdef void plain_text_options(TextOptions* o, CDocument* doc, bint links, bint alt_text,
                             bint list_bullets)
cdef void extract_text_walk(TextWriter* w, CNode* root, TextOptions* o,
                            bint main_content) noexcept nogil
cdef str writer_finish(TextWriter* w)
