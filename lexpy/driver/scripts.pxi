# Script execution points: what the parse driver does at a script end tag
# when an on_script callback is set (the tree builder pauses the tokenizer
# there, treebuilder.pxd tree_builder_set_scripts_run).
#
# https://html.spec.whatwg.org/multipage/parsing.html#scriptEndTag
# https://html.spec.whatwg.org/multipage/scripting.html#prepare-the-script-element
# https://html.spec.whatwg.org/multipage/dynamic-markup-insertion.html#document.write()
#
# The callback stands for the script runner: the driver calls it where the
# standard executes a script, with a ScriptWriter whose write() is
# document.write at the insertion point. Python code only: it runs with the
# GIL held, between the tokenizer's pauses.

# The deepest script nesting level: document.write of a script that writes
# itself stops here with ScriptNestingError (the standard sets no limit;
# browsers stop such recursion too).
MAX_SCRIPT_NESTING = 64


class ScriptNestingError(RecursionError):
    """Scripts written by document.write nested deeper than
    MAX_SCRIPT_NESTING (a script that writes itself)."""


# https://mimesniff.spec.whatwg.org/#javascript-mime-type
_JAVASCRIPT_MIME_TYPES = frozenset((
    "application/ecmascript", "application/javascript", "application/x-ecmascript",
    "application/x-javascript", "text/ecmascript", "text/javascript",
    "text/javascript1.0", "text/javascript1.1", "text/javascript1.2",
    "text/javascript1.3", "text/javascript1.4", "text/javascript1.5", "text/jscript",
    "text/livescript", "text/x-ecmascript", "text/x-javascript"))

_ASCII_WHITESPACE = "\t\n\x0c\r "
XLINK_NAMESPACE = "http://www.w3.org/1999/xlink"

# What prepare_script decides.
cdef enum ScriptPreparation:
    NOT_RUN = 0                   # returned early: nothing runs
    RUN_NOW = 1                   # an inline classic script: executed at once
    PARSER_BLOCKING = 2           # external, parser-blocking
    AFTER_PARSING = 3             # external, defer or async: run when the
                                  # parse is over (the callback's writes are
                                  # ignored then)


_ASCII_LOWER_TABLE = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                   "abcdefghijklmnopqrstuvwxyz")


def _ascii_lower(str text):
    return text.translate(_ASCII_LOWER_TABLE)


cdef bint is_connected(CNode* node) noexcept:
    """Whether the node's root is a document (a script in a template's
    contents, or removed from the tree, is not connected)."""
    while node.parent != NULL:
        node = node.parent
    return node.type == DOCUMENT_NODE


cdef ScriptPreparation prepare_script(object script, CElement* element,
                                      bint external_scripts) except *:
    """The steps of "prepare the script element" for a parser-inserted
    script that decide whether it runs and when (the type, nomodule, the
    for/event attributes, src); module and import map scripts are not run
    (lexpy's callback runs classic scripts). An SVG script goes through the
    same type checks (SVG's own processing model has no blocking)."""
    cdef str type_string, language, source
    cdef object value, src
    if not is_connected(&element.node):
        return NOT_RUN
    if element.ns == NS_SVG:
        # SVG's script: its href (or xlink:href) names an external script,
        # which runs at once when it runs.
        src = script.get_attribute("href")
        if src is None:
            src = script.get_attribute_ns(XLINK_NAMESPACE, "href")
    else:
        src = script.get_attribute("src")
    if src is None and not script.text_content:
        return NOT_RUN
    value = script.get_attribute("type")
    language = script.get_attribute("language")
    if value == "" or (value is None and language == "") or \
            (value is None and language is None):
        type_string = "text/javascript"
    elif value is not None:
        type_string = value.strip(_ASCII_WHITESPACE)
    else:
        type_string = "text/" + language
    if _ascii_lower(type_string) not in _JAVASCRIPT_MIME_TYPES:
        return NOT_RUN                # a module, an import map or a data block
    if script.has_attribute("nomodule"):
        return NOT_RUN
    if script.has_attribute("event") and script.has_attribute("for"):
        if _ascii_lower(script.get_attribute("for").strip(_ASCII_WHITESPACE)) != "window":
            return NOT_RUN
        if _ascii_lower(script.get_attribute("event").strip(_ASCII_WHITESPACE)) \
                not in ("onload", "onload()"):
            return NOT_RUN
    if src is None:
        return RUN_NOW
    if not external_scripts or src == "":
        return NOT_RUN                # (an empty src: an error event)
    if element.ns == NS_SVG:
        return RUN_NOW
    if script.has_attribute("defer") or script.has_attribute("async"):
        return AFTER_PARSING
    return PARSER_BLOCKING


cdef class ScriptWriter:
    """document.write for the script an on_script callback runs: write()
    inserts markup at the parser's insertion point, where the parser reads
    it before the rest of the input (scripts in it run at once, nested).
    Usable only while that callback runs (ValueError afterwards); once the
    parse is over (a deferred script), writes are ignored -- lexpy has no
    document.open()."""
    cdef object construction          # the TreeConstruction
    cdef bint running

    def write(self, *text):
        """Insert the strings, concatenated, at the insertion point and
        parse them (document.write)."""
        for piece in text:
            if not isinstance(piece, str):
                raise TypeError("write() takes str, not %s" % type(piece).__name__)
        self._write("".join(text))

    def writeln(self, *text):
        """write() followed by a newline (document.writeln)."""
        for piece in text:
            if not isinstance(piece, str):
                raise TypeError("writeln() takes str, not %s" % type(piece).__name__)
        self._write("".join(text) + "\n")

    def _write(self, str text):
        if not self.running:
            raise ValueError("write() after the on_script callback that got this "
                             "writer returned")
        self.construction._script_write(text)

    @property
    def active(self):
        """Whether write() may be called (the callback is running)."""
        return self.running
