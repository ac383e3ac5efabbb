"""A streaming HTML rewriter over lexpy's own tokenizer and tree builder
(issue 39; lol-html's job with the conformant tree's element boundaries).

Design
------
The tree builder does not learn about rewriting. It got one narrow
observer (treebuilder.pxd's TreeObserver): `pushed(element, below)` when an
element enters the stack of open elements, `popped(element, from_top)` when
it leaves it (a pop, a removal from the middle, a replacement by the
adoption agency), and `moved()` when the adoption agency moves nodes that
are in the tree already. The DOM path sets no observer: the cost is one
NULL test per push and per pop (checked with callgrind against main).

The rewriter's tree is the arena DOM itself: a TreeConstruction of the
driver builds it as lexpy.parse does (same tokenizer, same tree builder,
same scripting flag, quirks mode, foster parenting, adoption agency, ...),
so the selector matcher runs on real elements with their real ancestors
and preceding siblings. The rewriter wraps the tokenizer's token callback:
after the tree builder has handled a token, the events it recorded are
turned into handler calls and output while the token is still valid
(its stream offsets: tokenizer_token_offset).

Matching runs in C (engine.pyx): after the tree builder has handled a
token, each element it pushed is matched against every handler's
selector (lexpy.selectors' match_element, no Python object); Python runs
only for a token that pushed a matched element, popped or moved one the
rewriter watches (an open matched element), or while a removal or an
edited formatting element needs every token. Bytes no handler touches
are copied without per-token Python work. With handlers the parse keeps
the GIL (TreeConstruction.feed's release_gil=False): the tokens that
reach Python would each take it back; without them it releases it.

Late matches: the selectors that read beyond the element (combinators,
:nth-*, :first-*, :lang, form states: the engine's `positional` ones)
are matched again where the parser moves an open element after its start:
the adoption agency algorithm's furthest block and the open elements
above it on the stack (its descendants, which go under the clone of the
formatting element: taken when the tree builder reports the move, since
the same token may close them), and a table that foster parenting puts an
element (or the agency its last node) before, with the open elements
above it (engine.pyx's match_moved, at the token's end). A selector that
matches such an element only there hands it to its handlers then
(_late_match): its start tag is written, so edits of its start raise
RewriteError (Element._late_refused); content and handlers at its end go
on while it is open. The engine keeps the positional matches of the open
elements (an element handed over is not handed over again). Not matched
again: an element handed over where it matched and moved out of the
selector's set (it stays handed over), an element closed before a move
(its output is written), what a <selectedcontent> copies (never
pushed), and open elements deeper than a selector reads below the moved
one (its child combinators; 16 levels for descendant combinators and
:lang, engine.pyx's LATE_REACH_MAX, which keeps each move's work
bounded).

No DOM is retained (issue 39, point 6): every element popped is queued;
a sweep (when the queue doubles, at least every 256 pops) frees the
subtree of each queued element that has a later sibling and nothing
holding it, through the DOM's node_free_during_build: it refuses a
subtree with a node reached by a Python proxy or one the tree builder
references, which the engine answers from tree_builder_is_open (the stack
of open elements) and tree_builder_held (the list of active formatting
elements, the head and form pointers, the comment being continued, the
selectedcontent state, the script to prepare). The text and comments
just before it go with it. A template's contents stay with their
template (their first element decides how they parse). The document is a
streaming one (dom_streaming_start, lexpy/dom/arena.pxi): each element
and text node is one block of the arena, freed whole into a free list of
its size class that the next nodes of that size come from, so a stream
whose content repeats reaches a steady state (tools/rewrite_memory.py:
the issue's 1 GB stream). The sweep is off when a handler's selector
reads more than the element and its ancestors (sibling combinators,
:nth-*, :first-*, form states, :lang): the matcher walks the earlier
siblings, so the tree is kept.

max_memory bounds the input held (the unfinished token, counted twice:
the rewriter's bytes and the tokenizer's copy) plus the state
(the engine's _state_bytes: the arena, which holds the open elements
with their attributes and text and what the tree builder or a handler
keeps, and the sweep's queues; and _OPEN_RECORD_BYTES for each open
matched element's Python record), checked at the end of each feed: past
it RewriteError, or with max_memory_pass_through the input not written
yet and everything after it is written unchanged (no handler runs
again; edits that wait for an element's end are not made). A text node
is state until its parent is freed: one 100 MB text node counts 100 MB.

The tree builder also answers read-only questions (treebuilder.pxd's
accessors), among them whether content written now would be wrapped in
reconstructed formatting elements (tree_builder_reconstruction_pending),
whether an element is still open (tree_builder_is_open) and whether the
parser ignores the next newline (tree_builder_skip_newline).

Why not a TreeSink with a second, bounded tree: the tree builder's
algorithms read the tree they build (the foster parent's parent, the
adoption agency's common ancestor, template contents, the form and head
pointers), so a second sink would duplicate the DOM's structure without
the selector matcher that runs on it; an observer on the arena DOM keeps
the tree builder unchanged and costs the DOM path nothing.

Output is the input's bytes with edits spliced in at token boundaries:
every event of a token lies at that token's start or end, and every later
token starts at or after the tokenizer's settled offset, so the output is
written up to that offset after each feed (the lag is the unfinished
token). Element boundaries:

- start: the start tag's bytes for an element made for the token being
  handled; an implied element (html/head/body/tbody/tr/colgroup, a
  reconstructed formatting element, a clone of the adoption agency) starts
  where the token that implied it starts (after the leading whitespace of
  a text token, character references to whitespace included). An implied
  html/head/body/tbody/tr/colgroup/p that needs a start tag (attributes,
  prepend, set_inner_content) gets one written there: the reparse makes the same element at that point. A dropped
  start tag that implied the body (or head, or html) is replaced by one.
  A formatting element the parser reconstructed at a text token or a
  start tag that did nothing else gets one for its attributes, prepend,
  content before it and (the innermost one) replaced content: end tags for it and the ones reconstructed
  inside it first (the parser takes them off the list of active
  formatting elements), then their start tags (_end_reconstructed); an
  unwrapped one gets the end tags and only the inner ones' start tags; a
  renamed one gets a start tag of the new name. A copy the parser
  reconstructs of a formatting element whose attributes were edited (it
  ended without its end tag) gets the same end tags and a start tag with
  the input's attributes (_explicit_copies). The <br> of a </br> end tag
  is its own element (not implied; `source` is the end tag): a start tag
  written in its place makes the same element (_end_tag_br);
- end: the element's own end tag when the end tag token popped it (the
  last element popped with the tag's name); a void element ends with its
  start tag; else (an implied end, the end of input, a pop from the
  middle) the start of the token that closed it. Content after an element
  whose end is implied gets its end tag written first (`</li>`), and the
  elements closed at the same point before it get theirs where they can
  (never html, head, body, form or plaintext; a foreign element unless
  br, p or script; a formatting element only at the end of input, where
  the adoption agency algorithm pops it and leaves nothing to
  reconstruct: _eof_formatting_ends). Input that ends inside a comment
  gets what ends it with the same data before content written at the
  end (_close_eof_comment).

Accepted by the rules of tree construction (each checked by the oracle's
reparse): a body, head or p the parser implies and closes at one token
gets a start tag for content inside it; markup the parser keeps in <head>
(elements only, checked by parsing it) goes into the head and next to its
elements; content before an element whose start tag implied the body goes
there when it starts the body itself; renames and unwrapping of special
elements that act only as special (_DROPPABLE_SPECIAL: no ignored end tag
whose name an ancestor has, no <li>/<dd>/<dt> loop that stopped at them
and would have found one beyond); a form's removal (a later form tag is
refused if the pointer differs); content at the end of input before a
tag the input ends inside; content after the copy of the formatting
element that the adoption agency puts into the furthest block at an end
tag, written after that end tag (_adoption_clone_after); removed or
replaced content where formatting elements are left to reconstruct, when
the list of active formatting elements is the one where that content
began (_drop_keeps_formatting), or that list followed by entries the
dropped content added, whose copies get start tags where the parser
reconstructs them (_drop_unlists; a removed <a> or <nobr> too, when its
start tag ran no adoption agency algorithm: _start_without_agency); a
removal or replaced content of an
element that holds the table the parser foster-parents from
(_fostered_push); the removal of an element of a table, a section or a
row, or of one the parser foster-parented, and text after the latter,
with an end tag the table's modes ignore (`</col>`) in the removed one's
place or after the text, so that the text around stays two runs of the
table's character tokens (_TABLE_TEXT_SEPARATOR); the content of a
foster-parented element replaced; when the adoption agency's furthest block
is a special element its start tag made a child of the formatting element
(nothing else at that token), content appended to the formatting element,
written before the furthest block's start tag (_hold_point), and content
after the formatting element, before the furthest block or at its start,
with the algorithm's first step written out: the formatting element's end
tag before it, a start tag copying the formatting element's after the
furthest block's (_split_watch), also for the furthest block's content
replaced (no copy then), unwrapped or renamed, and for the formatting
element renamed (_watch_renamed_formatting), and, with elements between
them whose end tags pop them alone (_split_chain), their end tags first and
start tags copying those the algorithm copies after the formatting
element's (_split_between); the output from that start tag is held
back until the algorithm runs or the element ends; content written at the
end of input where the parser would reconstruct formatting elements, after
end tags that take their entries off the list (_eof_unlist), and before it
after the same end tags, with start tags copying those elements written
where the parser reconstructs them later (the output held back until then;
refused if a token before takes one of the entries off the input's list:
_unlist_for_copies, _copies_of_unlisted); content before an element whose
start tag only reconstructed formatting elements, where its first token
reconstructs them too (_start_reconstructed_only) or after end and start
tags that make them again (_reopen_reconstructed: also written in place of
such an element removed), and before the <p> of a </p> (_end_tag_p, which
remove_and_keep_content removes); content before a formatting element
reconstructed inside others whose first token reconstructs nothing (a
comment, <meta>), after end tags for all of them and start tags for the
ones around it (_reconstruction_split), and the removal of such an inner
one, with end tags for all of them and start tags for the ones around it
(_reconstructed_removal), and the content of one with others inside it
replaced, after end tags for it and those (whose entries the output's
list then lacks: refused unless it ends at the end of input,
_reconstructed_inner_content); these, and the other edits of reconstructed
copies, also in a foreign integration point (foreignObject, mtext, ...)
where no foreign element down to the first HTML one has the name of an
end tag written (_reconstruction_end_tags_pass); edits of the copies the parser
reconstructs at an <a> or <nobr> start tag after the adoption agency
algorithm that tag ran, with an end tag of its name written first, which
runs the same algorithm (_reconstructed_after_agency); content after a
formatting element the
end of input closes, after an end tag written for it when nothing is left
to reconstruct (_eof_formatting_end), and an element unwrapped that the end
of input closes, its start tag having done nothing else (_eof_unwrap) or
closed elements whose end tags are written in its place
(_unwrap_start_closed); end tags for formatting elements a token closed
without theirs and left on the list, where content goes next to them, and
start tags for their copies where the parser reconstructs them
(_closed_unlistable, _unlist_closed), which a formatting element unwrapped
that a token closed gets alone (_unwrap_unlisted); text
appended to a script, checked at the script's end with the tokenizer's
script data states over its source and that text (_script_append_end); a
foreign element unwrapped whose content is text alone, read the same in its
parent (_text_only_end); an svg or math holding text alone renamed or
unwrapped, CDATA sections written as escaped text (_foreign_rename_end,
_foreign_root_unwrap); an option or optgroup renamed in its select
(_option_in_select_renamable) and an element whose start tag broke out of
foreign content renamed (_foreign_breakout_renamable); attributes and
content beside a select's options where the parser copies nothing from
nor into (_attribute_outside_mirror, _beside_outside_mirror); a deeper
block of a nest the adoption agency takes one after the other, its steps
written out one by one (_split_deep_chain, _split_deep_steps), and the
first block's at the algorithm's limit of eight steps (_split_eight);
content before a table written at its end, where the parser
foster-parents it after what it fostered earlier (_table_end_before_ok,
_table_end_close); the text a removed or unwrapped table fostered
written in its place (_removed_table_text, _unwrapped_table_text); edits
of an implied body or in it refused for their place while frameset-ok is
"ok", kept until the body is sure to stay (_detached_body_deferred);
"]]>" written where the input ends in a CDATA section (_close_eof_cdata)
and the look-back of a character reference (_numeric_reference_joins).
Refusals the oracle counts apart (the edited DOM's
own serialization reparses to another tree: no input makes it) are
inherent: text or non-head markup in or next to <head>, content next to
<html>/<head>/<body>, their removal and renaming.

The parser ignores a newline that comes first in the token after the
start tag of pre, listing or textarea (LF, CR LF, CR or a character
reference to LF); the tree builder says when it is in that position
(tree_builder_skip_newline, read before each token). A text chunk's text
is without that newline, and has U+0000 as the tree builder has it
(dropped, U+FFFD in foreign content: _text_without_nul). Where output
differs from the input right there (content written, input left out), a
newline is written first, which the parser ignores, and the input's own
is left out (_newline_first), so what follows reads as written. A CR in
written text and attribute values (those the rewriter writes again
included) is written as &#13;: the parser normalizes the input's
newlines, not references. Markup is written with its newlines normalized
as the DOM edit's fragment parser reads it (a CR at its end would join a
LF after it). A CR in raw text or comment text, and U+0000 in any text,
attribute value or comment text, is refused at the call (ValueError for
comment text). Text edits where the parser reads text in a column group
are refused where they move its split (_check_column_group_text).

Refusals (RewriteError, never a silent difference with the DOM edit),
each found by the DOM-equivalence oracle (tests/rewriter/oracle.py):
an operation that needs a start tag of its own on another implied
element; the other structural edits of a foster-parented element or of content
next to or inside table parts; content next to or inside html and head
(and elements in head), removal of html/head/body; content written where
the parser would reconstruct formatting elements (content appended to an
element is judged at its end, where it is written); edits of the
adoption agency's formatting element (its attributes, name or removal)
and furthest block (content before it or at its start, its name, its
removal unless nothing was between them on the stack: then the formatting
element's end tag is written in place of its dropped range), but where
_split_watch and _hold_point write the algorithm's first step, removals
and renames of the elements between them, and edits
of an element that left the stack from its middle; an edited formatting element that ends without its
end tag when the parser later reconstructs a copy of it; a rename between
names the tree builder treats differently, or of foreign elements;
markup in foreign content; content of raw text elements that would end
them; dropped ranges that hold foster-parented content, a form, an
<html>/<body> start tag, </body> or </html>, a template's first element,
or that leave other formatting elements to reconstruct than the list
held where they began; a dropped start tag
whose closing tag is ignored because of it; a <frameset> after dropped
content (frameset-ok) that the parser took, or ignored where a <body>
tag written before it would not set frameset-ok to "not ok" and do
nothing else (_frameset_body); content inside or after elements the parser
closes at once; anything in options mirrored into <selectedcontent>
(an edit in a select that has none yet, which may change what the parser
copies, holds the output back until the select ends, and one that comes
into it refuses the edit before any of it is written: _hold_for_select,
_mirror_affected), and markup with a <selectedcontent> in
a select; content written after end tags for a table cell (or another
marker element) that leave formatting elements to reconstruct
(_marker_ends_reconstruct);
inserted markup that the parser would not keep whole where it goes:
it leaves an element open, closes one it did not open, or its elements
close or move what is open there (_markup_kept), or its formatting
elements may make Noah's Ark take one outside it off the list of active
formatting elements (_noahs_ark_markup); markup that starts with a
comment written where the parser is after </body> or </html> (the comment
goes to the html element or the document: _check_after_body); markup with
a start tag prepended to a template whose contents begin with a table part
(the first start tag decides their insertion mode: _template_prepend_end);
content that may set frameset-ok to "not ok"
before a <frameset> the parser takes (_sets_frameset_not_ok), where the
output is not held for it (an edit in the body while the parser's
frameset-ok flag is "ok" holds the output back until the flag is "not
ok" or the input ends; a <frameset> the parser takes there gets the
input's bytes from the hold on, the DOM edit of elements out of the tree:
_frameset_watch; not with text, comment or doctype handlers); dropped
content or a dropped or edited formatting start tag that changes what
Noah's Ark takes off the list of active formatting elements (_noahs_ark_*);
foreign content inside tables and templates; content after <plaintext>
or after input that ends inside markup. Text and comment handlers
replace, remove or surround whole tokens (a text token, a comment).

What text and comment handlers write is content of the tree builder's
current node at their token (tree_builder_current_node), checked as
element content is (_check_unit): refused outside the document element,
next to comments the parser put outside the body, in the head and next to
<html>, in a frameset, where it would take the parser from "after body"
back into the body, in a table's text run unless the run keeps text other
than whitespace (foster parenting reads the run whole), in CDATA sections
and text the parser drops, in options mirrored into <selectedcontent>
(held as element edits are), where the unit's token implied or
reconstructed elements that what is written in its place would not, after
input it would join (an unclosed comment, a '<'), and markup the parser
would not keep whole there (Rewriter._check). A comment removed in a table
leaves </col> in its place. The document end's content goes into the
current node at the end of input (the first element it pops but raw text
elements, whose end tag is written first where it ends them, and the
head): refused in a template, a table, a frameset or next to <html>, where
it would be wrapped in reconstructed formatting elements, or join what
the input ends inside (_check_document_end).

Costs of this increment: selectors are matched in C as elements are
pushed (one element matcher per selector, reused), and a token comes to
Python only when a handler's selector matches an element it pushed, when
it ends a matched element that has something at its end (an element with
nothing there ends quietly: the engine keeps its key and _handle_token
closes the record at its next call), or, while an element with text or
comment handlers is open, every token. Pass-through output is cut from
the input once per feed. tools/bench_rewrite.py on the corpus (16 KiB
chunks, CPU clock, shared machine): no handlers 409 MB/s, a handler that
matches nothing 348 MB/s (lexpy.parse + to_html 453 MB/s in the same run:
the rewriter builds the same tree), a[href] read + set 43 MB/s, a text
handler on p 101 MB/s, a no-op handler on `*` 26 MB/s: what remains per
matched element is Python (the token's events, the record, the Element,
the refusal checks; _context's ancestor walk is the largest part of
set_attribute). Matching a selector with descendant combinators costs
O(depth) per element.

Encodings (lexpy/rewriter/decoding.pyx, output_encoding.py): bytes in
every encoding of the Encoding Standard. The encoding is decided by the
C code lexpy.parse runs (lexpy.encoding's input byte stream): a BOM, then
`encoding=` as the transport label, then the <meta> prescan of the first
1024 bytes, then `default_encoding` (windows-1252), then lexpy's UTF-8
autodetection over the bytes from the first non-ASCII one (the bytes
before it are tokenized at once: they read the same either way). The
input is decoded to the UTF-8 the tokenizer reads with a map back to the
input's bytes (checkpoints where the delta between the two changes, kept
only for what the output has not passed), and the output copies the
input's own bytes: untouched content, invalid sequences and a BOM pass
unchanged; valid UTF-8 needs no map. Text handlers and attribute values
see the decoded text. Inserted content is written in the document's
encoding: what it lacks becomes a numeric character reference in text,
RCDATA and attribute values, and raises RewriteError in raw text, comments
and names (output_encoding.encode_inserted); in ISO-2022-JP the output's
escape state is tracked so no two escape sequences meet. Before
autodetection has decided, inserted content is ASCII with references
(it reads the same in either outcome); input that ends with every byte
ASCII and nothing declared takes UTF-8 for content inserted at its end.
The replacement encoding passes through (one U+FFFD for text handlers)
and refuses any inserted content.

A <meta> past the prescan window: lexpy.parse honours a <meta> that the
tree builder meets while the confidence is tentative (it switches the
decoder on the fly when the bytes so far read the same in both
encodings, else re-parses the document from its first byte in the
declared encoding). The rewriter has the tree builder report these too
(decoding.pyx: InputDecoder.watch): while autodetection waits -- every
byte so far ASCII -- the first <meta> with an encoding decides it, as in
lexpy.parse; autodetection's own decision waits until the ASCII before
the first non-ASCII byte has been tokenized, so that the outcome does
not depend on how the input was cut. Once the encoding is decided (a
non-ASCII byte has been read, or the prescan, a BOM or the label
decided) the rewriter cannot re-read output it has written: a later
<meta> changes nothing. The bytes still pass unchanged (a browser that
re-reads the output in the declared encoding sees the untouched content
as it would in the input), but text handlers saw the text decoded in the
sniffed encoding and non-ASCII content inserted so far was written in it
(ASCII and character references read the same in both). Give the
encoding as `encoding=` (an HTTP charset) when the document declares it
late.
"""
from __future__ import annotations

import contextlib
import functools
import html as _html
import re
from typing import Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Set, Tuple, Union

from lexpy.driver.driver import NAMESPACES, TreeConstruction
from lexpy.encoding import encoding as _encoding
from lexpy.rewriter.decoding import NO_MAP_OFFSET, InputDecoder
from lexpy.rewriter.engine import (LOOKBACK, SCRIPT_KEPT, Context, ElementBase, ElementRecord,
                                   RewriterCore, TextChunkBase, UnitBase)
from lexpy.selectors import SelectorSyntaxError, compile_selector

__all__ = ["Rewriter", "RewriteError", "rewrite"]


class RewriteError(ValueError):
    """An operation the output cannot express (the element and why)."""


# InputDecoder.mapped_from when no stream offset maps to other input bytes.
_NO_MAP = NO_MAP_OFFSET


# Pseudo-classes that depend on content not seen yet when an element
# starts, and why.
_UNDECIDABLE = {
    "last-child": "needs the siblings that follow",
    "only-child": "needs the siblings that follow",
    "nth-last-child": "needs the siblings that follow",
    "nth-last-of-type": "needs the siblings that follow",
    "last-of-type": "needs the siblings that follow",
    "only-of-type": "needs the siblings that follow",
    "empty": "needs the element's content",
    "has": "needs the element's descendants or later siblings",
    "default": "depends on later form content",
    "indeterminate": "depends on later content",
    "-soup-contains": "needs the element's text",
    "-soup-contains-own": "needs the element's text",
    "contains": "needs the element's text",
    "checked": "depends on later content (selectedness of options)",
    "placeholder-shown": "depends on the element's content (textarea)",
    "read-only": "depends on later content",
    "read-write": "depends on later content",
    "in-range": "depends on later content",
    "out-of-range": "depends on later content",
    "valid": "depends on later content",
    "invalid": "depends on later content",
    "user-valid": "depends on later content",
    "user-invalid": "depends on later content",
    "blank": "needs the element's content",
    "dir": "depends on the text of elements with dir=auto, which comes later",
    "scope": "a stream has no scoping element",
}
_PSEUDO = re.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\\.)|::?(-?[A-Za-z][-A-Za-z0-9]*)""")


def _check_decidable(text: str) -> None:
    for match in _PSEUDO.finditer(text):
        name = match.group(2)
        if name is None:
            continue
        name = name.lower()
        if match.group(0).startswith("::"):
            raise SelectorSyntaxError("::%s: a pseudo-element matches no element a stream "
                                      "can hand to a handler" % name)
        if name in _UNDECIDABLE:
            raise SelectorSyntaxError(":%s cannot be decided by a stream when the element "
                                      "starts: it %s" % (name, _UNDECIDABLE[name]))


def _decidable_selector(selectors: str) -> Any:
    """_check_decidable, then compile_selector: the same Selector for the
    same text from lexpy.selectors' cache (a proxy or an ASGI app makes a
    rewriter per response with the same handlers: the compilation costs
    more than a small page's parse; the Selector is immutable and shared,
    each rewriter runs its own matchers over it). Refusals are raised
    each time."""
    _check_decidable(selectors)
    return compile_selector(selectors)


def _escape_text(text: str) -> str:
    # (A CR written as is reads as LF: the input stream's newlines are
    # normalized before tokenization, a character reference is not.)
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("\u00a0", "&nbsp;").replace("\r", "&#13;"))


def _escape_attribute(text: str) -> str:
    return (text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
            .replace(">", "&gt;").replace("\u00a0", "&nbsp;").replace("\r", "&#13;"))


def _markup_newlines(markup: str) -> str:
    """Markup with its newlines normalized as the parser normalizes its
    input (CR LF and CR to LF): what the fragment parser of the DOM edit
    reads, and what is then written (a CR written at its end would join a
    LF of the input after it into one newline)."""
    return markup.replace("\r\n", "\n").replace("\r", "\n") if "\r" in markup else markup


def _refuse_nul_text(what: str, content: str) -> None:
    """Text with U+0000 cannot be written: the parser drops it, or reads it
    (or a character reference to it) as U+FFFD."""
    if "\x00" in content:
        raise RewriteError("%s: the parser drops U+0000 in text or reads it as U+FFFD" % what)


# Element kinds the tree builder treats as its own (the in body insertion
# mode's named start and end tags, the head's, the table's, and the
# formatting elements): a rename into or out of these changes the tree.
_SPECIAL_NAMES = frozenset("""
a address applet area article aside b base basefont bgsound big blockquote body br
button caption center code col colgroup dd details dialog dir div dl dt em embed
fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head
header hgroup hr html i iframe image img input keygen li link listing main marquee
math menu meta nav nobr noembed noframes noscript object ol optgroup option p param
plaintext pre rb rp rt rtc ruby s script search section select selectedcontent
small source strike strong style summary svg table tbody td template textarea
tfoot th thead title tr track tt u ul wbr xmp
""".split())
_FORMATTING = frozenset("a b big code em font i nobr s small strike strong tt u".split())
# The names of _SPECIAL_NAMES that are not in the standard's special
# category (the walks down the stack of open elements pass them).
_NOT_SPECIAL = _FORMATTING | frozenset(
    "image math optgroup option rb rp rt rtc ruby selectedcontent svg".split())
# Start tags that make the parser reconstruct the active formatting
# elements and do nothing else before their element is inserted in body
# (any other start tag, and a few it names): written first, content goes
# into the formatting elements it reconstructs, as text would.
_RECONSTRUCTING_START = frozenset("span abbr cite dfn kbd q samp sub sup var time data mark "
                                  "bdi bdo label img br".split())


def _reconstructs_first(markup: str) -> bool:
    """Whether markup starts with a start tag of _RECONSTRUCTING_START."""
    match = re.match(r"<([A-Za-z][A-Za-z0-9]*)[\t\n\f\r />]", markup)
    return match is not None and match.group(1).lower() in _RECONSTRUCTING_START


def _reconstructs_for(content: str, html: bool) -> bool:
    """Whether the parser in body reconstructs the active formatting
    elements for the start of content: for a character token, whitespace
    included, but not for U+0000 (which it drops: leading NULs are passed
    over), and for markup that starts with a start tag of
    _RECONSTRUCTING_START."""
    rest = content.lstrip("\x00")
    return rest[:1] not in ("", "<") or html and _reconstructs_first(rest)


# Elements whose start tag inserts a marker into the list of active
# formatting elements.
_MARKER_ELEMENTS = frozenset("applet object marquee template td th caption".split())
_VOID = frozenset("area base br col embed hr img input keygen link meta source track wbr "
                  "basefont bgsound frame param".split())
_RAW_TEXT = frozenset("script style xmp iframe noembed noframes".split())
_RCDATA = frozenset("title textarea".split())
# End tags the rewriter must not synthesize at an implied end: the parser
# would not take them as that element's end at that point.
_NO_SYNTHESIZED_END = frozenset("html head body form plaintext".split()) | _FORMATTING
# Foreign elements an end tag of their name pops when they are the current
# node (the rules for foreign content: any other end tag), but these: </br>
# and </p> break out of foreign content, </script> runs an SVG script.
_NO_SYNTHESIZED_FOREIGN_END = frozenset("br p script".split())
_HTML_NS = "http://www.w3.org/1999/xhtml"
_HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
# The elements that bound "has an element in scope" (HTML; MathML and SVG).
_SCOPE_BOUNDARIES = frozenset("applet caption html table td th marquee object template".split())
# Start tags that break out of foreign content (the rules for foreign
# content; <font> only with color, face or size: left out, and <frameset>
# added: Rewriter._start_closed_integration_point).
_FOREIGN_BREAKOUT_TAGS = frozenset("b big blockquote body br center code dd div dl dt em embed "
                                   "h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta nobr "
                                   "ol p pre ruby s small span strong strike sub sup table tt "
                                   "u ul var frameset".split())
_FOREIGN_SCOPE_BOUNDARIES = frozenset("mi mo mn ms mtext annotation-xml foreignObject desc "
                                      "title".split())
# Elements an adoption agency's first step written out does not close with
# an end tag of their own (Rewriter._split_chain): nobr's start tag runs the
# algorithm itself; the others' end tags are read otherwise in a select or
# ruby.
_SPLIT_CHAIN_REFUSED = frozenset("nobr option optgroup rb rp rt rtc selectedcontent".split())
# Special elements whose start tag in body only closes a <p> in button
# scope and inserts them, and whose content the parser reads as any other
# body content (Rewriter._split_deep_chain): the adoption agency's
# furthest blocks whose steps the rewriter writes out one by one.
_DEEP_BLOCKS = frozenset("address article aside blockquote center details dialog dir div dl "
                         "fieldset figcaption figure footer header hgroup main menu nav ol "
                         "search section summary ul".split())
_HEADING_PREFIXES = frozenset((b"h1", b"h2", b"h3", b"h4", b"h5", b"h6"))
# Implied elements whose start tag the rewriter may write where the parser
# implied them (the reparse makes the same element there).
_SYNTHESIZED_START = frozenset("html head body tbody tr colgroup p".split())
# Edits of a formatting element the parser reconstructed that a start tag
# written for it expresses (Rewriter._end_reconstructed).
_RECONSTRUCTED_TAG_OPS = frozenset(
    "set_attribute remove_attribute prepend remove_and_keep_content rename".split())
# Elements whose text content the parser foster-parents, and the table
# parts whose neighbours it does.
_TABLE_CONTAINERS = frozenset("table tbody thead tfoot tr colgroup frameset".split())
_TABLE_PARTS = frozenset("tbody thead tfoot tr td th caption col colgroup".split())
# Special elements that a rename (to a name the tree builder treats as
# any other element) or remove_and_keep_content may drop, under the
# conditions Element._special_edit and Rewriter._popped check: their start
# tag only closes a <p> or an <li>/<dd>/<dt> (refused when it closed
# anything), no start tag inside them looks for them by name except to close
# them (then they end without their own end tag), and tree construction
# reads them otherwise only as special (an ignored end tag stops at them, the
# <li>/<dd>/<dt> loop stops at them unless they are address, div or p) or
# as a scope boundary (ul, ol: list item scope, checked the same way).
# pre and listing also make the parser drop a newline right after their
# start tag (the input's own is dropped from the output: _NEWLINE_DROPPING)
# and set frameset-ok to "not ok" (a later <frameset> is refused).
_DROPPABLE_SPECIAL = frozenset("""
address article aside blockquote center details dialog dir div dl fieldset figcaption
figure footer header hgroup main menu nav p search section summary h1 h2 h3 h4 h5 h6 li
dd dt ul ol button pre listing
""".split())
# Elements after whose start tag the parser drops a newline (its content's
# first, written as LF or as a character reference for one).
_NEWLINE_DROPPING = frozenset("pre listing textarea".split())
# Void elements in body whose start tag does nothing but reconstruct the
# active formatting elements and insert them: renamed, they get an end
# tag right after.
_PLAIN_VOID = frozenset("img br wbr embed keygen area input".split())
# Void elements in body whose start tag inserts and pops them and does
# nothing else an ordinary element's would not when it was clean (closed,
# implied and reconstructed nothing, with nothing to reconstruct: the
# ordinary start tag would reconstruct nothing either): param, source and
# track, the head's elements the in body rules insert as in head (not
# meta, which may change the encoding), and hr (whose frameset-ok flag
# Rewriter._track covers; a <p> it closed by implied end tags only gets
# end tags written before it, as for _DROPPABLE_SPECIAL). Renamed, they
# get an end tag right after.
_INSERTED_VOID = frozenset("param source track base basefont bgsound link hr".split())
# Elements the tree builder reads by name in tokens inside them (a select
# in scope, a ruby in scope) or closes where it would not close an ordinary
# element (option, optgroup and the ruby parts: implied end tags): a rename
# or remove_and_keep_content is checked at their end, with what the tokens
# inside them did (Element._select_ruby_edit, Rewriter._track_select_ruby).
_SELECT_RUBY = frozenset("select option optgroup ruby rb rt rp rtc".split())
# Edits of an element the parser foster-parented that its start tag, or
# content inside it, expresses: the parser inserts that content into it,
# as the current node, wherever it is (outside its table); its content
# replaced, and its removal (its source dropped, with an end tag the
# table ignores in its place: Element._check_removable).
_FOSTERED_OPS = frozenset("set_attribute remove_attribute prepend set_inner_content "
                          "remove".split())
# What the parser's implied end tags close.
_IMPLIED_END = frozenset("dd dt li optgroup option p rb rp rt rtc".split())
# What the <li>/<dd>/<dt> loop passes over among the special elements.
_LIST_LOOP_PASSES = frozenset("address div p".split())
_NAME = re.compile(r"^[A-Za-z][^\t\n\f\r />\x00]*$")


_MARKUP_START = frozenset(b"!/?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _ends_inside_markup(data: bytes, cdata: bool = True) -> bool:
    r"""Whether re.search(rb"<[!/?A-Za-z][^>]*$|<$|<!\[CDATA\[(?:(?!\]\]>).)*$",
    data, re.S) finds something (the input ends inside a tag, after a '<',
    or inside a CDATA section), in linear time: a '<' that starts markup
    after the last '>', or a last "<![CDATA[" with no "]]>" after it ($
    also matches before a final newline). Not cdata: the last alternative
    left out (the tokenizer is not in a CDATA section at the end of input:
    a "<![CDATA[" is a script's text, or a bogus comment's)."""
    if data.endswith(b"<") or data.endswith(b"<\n"):
        return True
    i = data.find(b"<", data.rfind(b">") + 1)
    while i >= 0:
        if i + 1 < len(data) and data[i + 1] in _MARKUP_START:
            return True
        i = data.find(b"<", i + 1)
    if not cdata:
        return False
    q = data.rfind(b"<![CDATA[")
    return q >= 0 and data.find(b"]]>", q + 9) < 0


def _dropped_processing_instruction(rest: bytes) -> bool:
    """Whether `rest`, the input's end from the data state on, is a
    processing instruction the input ends inside: '<?', a target (ASCII
    alpha or '_', then alphanumerics, '-' and '_') the input ends in, or a
    target ended by '?' or whitespace (not "xml" or "xml-stylesheet", which
    make a bogus comment) and data with no '>'. The tokenizer emits
    nothing for it at the end of input: content written before it goes
    where it would go after it."""
    match = re.match(rb"<\?(?:([A-Za-z_][A-Za-z0-9_-]*)(?:[?\t\n\f ][^>]*)?)?\Z", rest)
    if match is None:
        return False
    target = match.group(1)
    return target is None or len(target) == len(rest) - 2 or \
        target.lower() not in (b"xml", b"xml-stylesheet")


def _ends_with_tag_start(name: str, text: str) -> bool:
    """Whether text written into the raw text (or RCDATA) element `name`
    ends with the start of its end tag ("<", "</", ... "</name") or, in a
    script, of "<!--": input that follows it could complete it (content
    prepended to the element's own, which the fast path copies without
    the text check of Rewriter._check_raw_text: `<script>ipt>x` with
    "</scr" prepended ended the script early, silently)."""
    tail = text[-len(name) - 2:].lower()
    target = "</" + name
    for k in range(1, len(target) + 1):
        if tail.endswith(target[:k]):
            return True
    return name == "script" and tail.endswith(("<!", "<!-"))


# The tokenizer's script data states (_script_end_at).
(_SD, _SD_LT, _SD_END_OPEN, _SD_END_NAME, _SD_ESC_START, _SD_ESC_START_DASH, _SD_ESC,
 _SD_ESC_DASH, _SD_ESC_DASH_DASH, _SD_ESC_LT, _SD_ESC_END_OPEN, _SD_ESC_END_NAME,
 _SD_DESC_START, _SD_DESC, _SD_DESC_DASH, _SD_DESC_DASH_DASH, _SD_DESC_LT,
 _SD_DESC_END) = range(18)
_SD_TAG_END = "\t\n\f\r /"


def _script_end_at(text: str) -> int:
    """Where the first end tag that ends a script starts in `text`, read
    by the tokenizer's script data states from the script data state (the
    appropriate end tag is </script>; -1: none)."""
    state, buffer, lt = _SD, "", 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        alpha = c.isascii() and c.isalpha()
        if state == _SD:
            if c == "<":
                state, lt = _SD_LT, i
        elif state == _SD_LT:
            if c == "/":
                state, buffer = _SD_END_OPEN, ""
            elif c == "!":
                state = _SD_ESC_START
            else:
                state = _SD
                continue
        elif state in (_SD_END_OPEN, _SD_ESC_END_OPEN):
            back = _SD if state == _SD_END_OPEN else _SD_ESC
            if not alpha:
                state = back
                continue
            state = _SD_END_NAME if state == _SD_END_OPEN else _SD_ESC_END_NAME
            continue
        elif state in (_SD_END_NAME, _SD_ESC_END_NAME):
            if alpha:
                buffer += c.lower()
            elif (c in _SD_TAG_END or c == ">") and buffer == "script":
                return lt
            else:
                state = _SD if state == _SD_END_NAME else _SD_ESC
                continue
        elif state == _SD_ESC_START:
            if c != "-":
                state = _SD
                continue
            state = _SD_ESC_START_DASH
        elif state == _SD_ESC_START_DASH:
            if c != "-":
                state = _SD
                continue
            state = _SD_ESC_DASH_DASH
        elif state in (_SD_ESC, _SD_ESC_DASH, _SD_ESC_DASH_DASH):
            if c == "<":
                state, lt = _SD_ESC_LT, i
            elif c == "-":
                state = _SD_ESC_DASH if state == _SD_ESC else _SD_ESC_DASH_DASH
            elif c == ">" and state == _SD_ESC_DASH_DASH:
                state = _SD
            else:
                state = _SD_ESC
        elif state == _SD_ESC_LT:
            if c == "/":
                state, buffer = _SD_ESC_END_OPEN, ""
            elif alpha:
                state, buffer = _SD_DESC_START, ""
                continue
            else:
                state = _SD_ESC
                continue
        elif state in (_SD_DESC_START, _SD_DESC_END):
            inside = _SD_DESC if state == _SD_DESC_START else _SD_ESC
            outside = _SD_ESC if state == _SD_DESC_START else _SD_DESC
            if c in _SD_TAG_END or c == ">":
                state = inside if buffer == "script" else outside
            elif alpha:
                buffer += c.lower()
            else:
                state = outside
                continue
        elif state in (_SD_DESC, _SD_DESC_DASH, _SD_DESC_DASH_DASH):
            if c == "<":
                state = _SD_DESC_LT
            elif c == "-":
                state = _SD_DESC_DASH if state == _SD_DESC else _SD_DESC_DASH_DASH
            elif c == ">" and state == _SD_DESC_DASH_DASH:
                state = _SD
            else:
                state = _SD_DESC
        elif state == _SD_DESC_LT:
            if c == "/":
                state, buffer = _SD_DESC_END, ""
            else:
                state = _SD_DESC
                continue
        i += 1
    return -1


def _implied_beyond_document(names: List[str]) -> bool:
    """Whether the parser implied more than html, head and body (which it
    implies again wherever the content goes)."""
    return any(name not in ("html", "head", "body") for name in names)


def _may_have_taken_formatting_entries(node: Any, listed: Optional[List[Any]]) -> bool:
    """Whether the start tag of node (the token's own element, now last
    in listed: the list of active formatting elements after its last
    marker) may have taken entries off that list without popping
    anything: the `a` start tag runs the adoption agency for an earlier
    `a` no longer open (which only removes its entry), the `nobr` one
    may run it too, and the Noah's Ark clause removes the earliest of
    three entries like node (then three remain, node among them). Text
    written before such a token would make the parser reconstruct those
    entries as well."""
    if node.namespace_uri != _HTML_NS or node.local_name not in _FORMATTING:
        return False
    if node.local_name in ("a", "nobr") or listed is None:
        return True
    return sum(1 for entry in listed if entry.local_name == node.local_name and
               entry.namespace_uri == node.namespace_uri and
               dict(entry.attributes) == dict(node.attributes)) >= 3


def _only_reconstructed(kind: str, events: List[Any], last_token_push: int,
                        formatting_now: Callable[[], Optional[List[Any]]]) -> List[Any]:
    """The formatting elements the parser reconstructed at this token (in
    the order it made them: each inside the one before), when that is all
    it did besides the token's own element: a text token or a start tag
    that popped, moved and implied nothing else, nor took entries off the
    list of active formatting elements (_may_have_taken_formatting_entries).
    Else []."""
    if kind not in ("start", "text"):
        return []
    own = events[last_token_push][4] if last_token_push >= 0 else None
    found = []
    for i, event in enumerate(events):
        if event[0] == "moved" or event[0] == "popped" and event[4] != own:
            return []
        if event[0] == "pushed" and i != last_token_push:
            node = event[1]
            if not event[5] or node.namespace_uri != _HTML_NS or \
                    node.local_name not in _FORMATTING:
                return []
            found.append(node)
    if found and own is not None and \
            _may_have_taken_formatting_entries(events[last_token_push][1], formatting_now()):
        return []
    return found


def _reconstruction_end_tags_pass(parent: Any, names: Set[str]) -> bool:
    """For formatting elements the parser reconstructed in a foreign
    integration point (foreignObject, mtext, ...: text and start tags there
    follow the "in body" rules): whether end tags of theirs written there
    reach those rules, which take their entries off the list of active
    formatting elements. An end tag at a foreign current node follows the
    rules for foreign content: it walks down the stack over foreign
    elements, pops to the first whose name (lowercased) is its own, and
    at the first HTML element goes to the insertion mode's rules (whose
    adoption agency then finds no current node of its name). So no foreign
    element from the parent to that HTML element may have one of the
    names."""
    node = parent
    while node is not None and node.node_type == 1 and node.namespace_uri != _HTML_NS:
        if str(node.local_name).lower() in names:
            return False
        node = node.parent_node
    return node is not None and node.node_type == 1


def _plain_start_tag(node: Any) -> str:
    """A start tag for an HTML element as it is: its name and attributes."""
    return "<%s%s>" % (node.local_name, "".join(
        ' %s="%s"' % (key, _escape_attribute(value)) for key, value in node.attributes.items()))


_SVG_NS = "http://www.w3.org/2000/svg"
_MATHML_NS = "http://www.w3.org/1998/Math/MathML"


def _end_tag_name(r: Any) -> str:
    """The name of the end tag written for an HTML element at its implied
    end: a form renamed gets its new name's (the form element pointer is
    then the input's alone: Rewriter._form_tag), and a plaintext renamed
    (it ends at the end of input only, where its new name's end tag closes
    the new element and no other)."""
    return str(r.new_name if r.name in ("form", "plaintext") and r.new_name is not None
               else r.name)


# Markup content (html=True) is written as it is, and the parser reads it
# in the state the output is in there: the elements open around the place
# it goes, which a fragment parse (the DOM edit's) does not have. It is
# kept only where the parser reads it as the DOM edit's fragment and
# leaves that state as it found it: a probe document opens the elements of
# the holder's ancestor chain by their start tags, then the content, then
# a comment (which no insertion mode moves or reconstructs for); the
# content must end up whole in the holder, as the fragment parse in the
# holder's context gives it (the same tree, namespaces included), with the
# comment after it; and text written after it must go where it goes without
# the content (into the holder, unless the holder keeps no text there). Markup that opens
# what it does not close (`<b>x`, `<!--`, `<script>`), closes what it did
# not open (`</div>`), or whose elements close or move what is open there
# (`<div>` in a `<p>`, `<li>` in an `<li>`, a `<td>` outside a row) fails.
_PROBE = "lexpy-markup-probe"
# Text after the content in the probe: where the parser puts it tells
# whether the content left formatting elements to reconstruct (<p><b>x</p>)
# or changed the insertion mode.
_PROBE_TEXT = "x"
# The end of a refusal where output is already held for another select
# (Rewriter._hold_for_select holds for one at a time).
_HELD_FOR_ANOTHER_SELECT = "and output is held for another select"
# A start tag's name in markup content (Rewriter._noahs_ark_markup).
_START_TAG_NAME = re.compile(r"<([A-Za-z][^\t\n\f\r />]*)")
_NOAHS_ARK_MARKUP = ("its formatting elements may take an element outside it off the list "
                     "of active formatting elements (Noah's Ark), which the parser would "
                     "then not reconstruct")
# Markup whose first token (after whitespace) is a comment, a bogus comment
# or a doctype (Rewriter._check_after_body).
_LEADING_COMMENT = re.compile(r"[\t\n\f\r ]*(<!|<\?|</(?![A-Za-z>]))")
# A start tag in markup content.
_START_TAG = re.compile(r"<[A-Za-z]")
# A <form> start tag in markup content (Element._check).
_FORM_TAG = re.compile(r"<form[\t\n\f\r />]|<form$", re.I)
# A <selectedcontent> start tag in markup content (Element._check).
_SELECTEDCONTENT_TAG = re.compile(r"<selectedcontent(?![^\t\n\f\r />])", re.I)
# Tags in markup content that may change a select's selected option
# (Element._check: _hold_for_select).
_OPTION_TAG = re.compile(r"<\s*/?\s*(?:option|optgroup|select|hr|datalist)(?![^\t\n\f\r />])",
                         re.I)
# Edits that drop content: options may come in it (Element._mirror_affected).
_MIRROR_DROPS = frozenset("remove replace set_inner_content remove_and_keep_content "
                          "rename".split())


def _chain(holder: Any) -> Tuple[Tuple[str, str, str], ...]:
    """(namespace, local name, start tag) of the holder and its ancestors,
    the root first, through template contents to their template (the start
    tag by name, but annotation-xml's with its encoding, which makes it an
    HTML integration point)."""
    chain = []
    node = holder
    while node is not None:
        if node.node_type == 11:
            node = node.host
            continue
        if node.node_type != 1:
            break
        tag = "<%s>" % node.local_name
        if node.local_name == "annotation-xml" and node.has_attribute("encoding"):
            tag = '<annotation-xml encoding="%s">' % _escape_attribute(
                node.get_attribute("encoding"))
        chain.append((node.namespace_uri, node.local_name, tag))
        node = node.parent_node
    return tuple(reversed(chain))


@functools.lru_cache(maxsize=1024)
def _markup_kept(chain: Tuple[Tuple[str, str, str], ...], quirks: bool, scripting: bool,
                 content: str) -> bool:
    """Whether the parser keeps `content` whole inside the last element of
    `chain` when that chain is open, and text after it goes where text
    without it goes (see _PROBE)."""
    from lexpy.dom.dom import dump
    from lexpy.parser import parse_fragment
    namespace, name, _ = chain[-1]
    fragment = dump(parse_fragment(content, name, scripting=scripting, namespace={
        _SVG_NS: "svg", _MATHML_NS: "math"}.get(namespace, "html")))
    kept = _probe(chain, quirks, scripting, content, _PROBE_TEXT)
    if kept is not None and kept[1] and dump(kept[0]) == fragment:
        return True
    base = _probe(chain, quirks, scripting, "", _PROBE_TEXT)
    if base is not None and base[1]:
        # (Text goes into the holder there without the content.)
        return False
    kept = _probe(chain, quirks, scripting, content, "")
    return kept is not None and dump(kept[0]) == fragment


def _probe(chain: Tuple[Tuple[str, str, str], ...], quirks: bool, scripting: bool,
           content: str, text: str) -> Optional[Tuple[Any, bool]]:
    """Parse the probe document (the chain's start tags, content, text,
    the comment): the holder's nodes before the comment in a fragment of
    their own, and whether the text came last in the holder (None when the
    comment is not the holder's last child)."""
    from lexpy.parser import parse
    probe = ("" if quirks else "<!DOCTYPE html>") + \
        "".join(tag for _, _, tag in chain) + content + text + "<!--%s-->" % _PROBE
    node: Any = parse(probe, scripting=scripting)
    for namespace, name, _ in chain:
        holder = node.content if node.node_type == 1 and node.local_name == "template" and \
            node.namespace_uri == _HTML_NS else node
        node = next((child for child in holder.child_nodes if child.node_type == 1 and
                     child.local_name == name and child.namespace_uri == namespace), None)
        if node is None:
            return None
    holder = node.content if node.local_name == "template" and node.namespace_uri == _HTML_NS \
        else node
    children = list(holder.child_nodes)
    if not children or children[-1].node_type != 8 or children[-1].data != _PROBE:
        return None
    children.pop()
    text_last = False
    if text and children and children[-1].node_type == 3 and children[-1].data.endswith(text):
        text_last = True
        last = children[-1]
        if last.data == text:
            children.pop()
        else:
            last.data = last.data[:-len(text)]
    kept = node.owner_document.create_document_fragment()
    for child in children:
        kept.append(child)
    return kept, text_last


def _integration_point(node: Any) -> bool:
    """Whether the foreign element is an HTML integration point (but
    annotation-xml) or a MathML text integration point: the parser reads start tags in it as
    HTML (but mglyph and malignmark in the latter, as the fragment parser
    does with it as context), so markup written in it parses as the DOM
    edit's fragment does."""
    name = node.local_name
    if node.namespace_uri == _SVG_NS:
        return bool(name in ("foreignObject", "desc", "title"))
    if node.namespace_uri == _MATHML_NS:
        # (Not annotation-xml, an HTML integration point by its encoding
        # attribute: DOM edits parse their fragment with a context element
        # of its name alone, lexpy.parse_fragment's.)
        return bool(name in ("mi", "mo", "mn", "ms", "mtext"))
    return False


# What "in head noscript" hands to the "in head" rules, as source
# (Rewriter._head_noscript_end): a comment (not <!--> or <!--->), a
# doctype, a void head element's start tag, a style or noframes element
# with its raw text (which holds no "</style" or "</noframes" at all).
_HEAD_NOSCRIPT_TOKEN = re.compile(
    rb"<!--(?!-?>).*?-->|<!doctype[^<>]*>|<(?:basefont|bgsound|link|meta)(?=[\t\n\f\r />])"
    rb"[^<>]*>|<style(?=[\t\n\f\r />])[^<>]*>(?:(?!</style).)*</style>|"
    rb"<noframes(?=[\t\n\f\r />])[^<>]*>(?:(?!</noframes).)*</noframes>",
    re.I | re.S)

# What a table may hold for Element._empty_table_edit (besides ASCII
# whitespace): comments, bogus comments of a "<?", doctypes.
_EMPTY_TABLE_TOKEN = re.compile(rb"<!--(?!-?>).*?-->|<\?[^>]*>|<!doctype[^<>]*>", re.I | re.S)
# And, after those, templates with nothing but ASCII whitespace in them
# (no quotes in their start tags: the tag ends at its first ">"): the
# "in head" rules insert one at the current node from "in table" as from
# "in body", and its contents are read by "in template" either way.
_EMPTY_TABLE_TEMPLATE = re.compile(
    rb"<template(?=[\t\n\f\r />])[^<>\"']*>[\t\n\f\r ]*</template[\t\n\f\r ]*>", re.I)

# What a renamed <svg> or <math> may hold besides text (Rewriter.
# _foreign_rename_end): CDATA sections, written as escaped text
# (Element._escape_foreign_text), comments and doctypes (a comment goes
# to the current node, a doctype is ignored, in foreign content as "in
# body").
_FOREIGN_RENAME_TOKEN = re.compile(
    rb"<!\[CDATA\[.*?\]\]>|<!--(?!-?>).*?-->|<![dD][oO][cC][tT][yY][pP][eE][^<>]*>", re.S)


def _up_to_select(node: Any, names: Tuple[str, ...]) -> Any:
    """From `node` up its ancestors to the nearest HTML select: the first
    HTML element named in `names`, else that select; None when neither
    comes before the elements end."""
    while node is not None and node.node_type == 1:
        if node.namespace_uri == _HTML_NS and (node.local_name == "select" or
                                              node.local_name in names):
            return node
        node = node.parent_node
    return None


def _annotation_integration(node: Any) -> bool:
    """Whether the element is a MathML annotation-xml that is an HTML
    integration point by its encoding attribute (text/html or
    application/xhtml+xml, ASCII case-insensitive): the tree builder reads
    start tags in it, and the tokens inside an HTML element in it, by the
    rules of HTML content, as in the other integration points. (Its
    attribute is the input's in the output too: an element renamed inside
    it leaves it as it is. Markup written into it is another matter:
    _integration_point.)"""
    return bool(node.namespace_uri == _MATHML_NS and node.local_name == "annotation-xml" and
                (node.get_attribute("encoding") or "").lower() in ("text/html",
                                                                   "application/xhtml+xml"))


# Whitespace at the start of a text token, character references to it
# included: Rewriter._whitespace_end.
_WHITESPACE_RUN = re.compile(rb"(?:[\t\n\f\r ]|&#[xX]0*(?:9|[aAcCdD]|20)(?![0-9a-fA-F]);?"
                             rb"|&#0*(?:9|10|12|13|32)(?![0-9]);?|&Tab;|&NewLine;)+")


def _text_without_nul(text: str, node: Any) -> str:
    """A text chunk's text with U+0000 as the tree builder handles it in
    `node` (the current node): U+FFFD in foreign content (a foreign element
    that is no integration point for text), else dropped."""
    if node is not None and node.namespace_uri in (_SVG_NS, _MATHML_NS) and not (
            _integration_point(node) or node.local_name == "annotation-xml" and
            (node.get_attribute("encoding") or "").lower() in ("text/html",
                                                               "application/xhtml+xml")):
        return text.replace("\x00", "\ufffd")
    return text.replace("\x00", "")


def _elements_named(document: Any, name: str) -> List[Any]:
    """The HTML elements named `name` in tree order, template contents
    included (no recursion)."""
    found = []
    stack = [document]
    while stack:
        node = stack.pop()
        if node.node_type == 1 and node.local_name == name and node.namespace_uri == _HTML_NS:
            found.append(node)
        children = list(node.child_nodes)
        if node.node_type == 1 and node.local_name == "template" and \
                node.namespace_uri == _HTML_NS and node.content is not None:
            children = list(node.content.child_nodes) + children
        stack.extend(reversed(children))
    return found


def _fostered_text(content: str, html: bool) -> bool:
    """Whether `content` is text the table's insertion modes foster-parent
    whole: a character other than whitespace (and NUL, which they drop).
    Whitespace alone stays in the table."""
    return not html and isinstance(content, str) and \
        bool(content.replace("\x00", "").strip("\t\n\f\r "))


def _implied_before(r: Any) -> List[str]:
    """The names of the elements the parser implied before the element at
    its token (an implied element's implied_with is the token's whole list,
    itself and those after it included)."""
    names = list(r.implied_with)
    if r.implied and r.name in names:
        names = names[:names.index(r.name)]
    return names


# The output's last bytes kept for _reference_joins: the longest name of a
# character reference (32 characters) and its '&', in UTF-16 too.
_JOIN_WINDOW = 80


def _comment_source_closed(source: bytes) -> bool:
    """Whether a comment token's source (or its last piece, for a long
    comment whose start is not kept) ends the comment, rather than running
    into the end of the input: a '>' at its end is not enough, since
    `<!--<meta>` at the end of input is a comment whose data holds '>'. A
    `<!--` comment ends at its first `-->` or `--!>` (or is `<!-->` or
    `<!--->`); a bogus comment (`<!x>`, `<?x>`, `</ x>`) at its first '>',
    which its data cannot hold. A piece whose start is not seen ends the
    comment only with `-->` or `--!>`."""
    if source.startswith(b"<!--"):
        return source in (b"<!-->", b"<!--->") or len(source) >= 7 and (
            source.endswith(b"-->") or source.endswith(b"--!>"))
    if source.startswith(b"<"):
        return source.endswith(b">")
    return source.endswith(b"-->") or source.endswith(b"--!>")


def _reference_joins(before: bytes, text: str) -> bool:
    """Whether `text` written after the output's last bytes `before` would
    change the character reference the tokenizer reads at an '&' they end
    in: a numeric one ('&#' and digits) whenever the text goes on with its
    characters; a named one when the text makes a longer name of the table
    (the tokenizer takes the longest name that the characters after the
    '&' start with: '&CounterClockwiseContourIntegra' and 'l;'). Text after
    '&gtBAR', a name no longer one extends, joins nothing."""
    found = re.search(rb"&([A-Za-z0-9#]*)$", before)
    if found is None:
        return False
    run = found.group(1).decode("ascii")
    if "#" in run:
        return _numeric_reference_joins(run, text)
    # (A run whose '&' lies before the window is longer than any name.)
    references = _references()
    joined = run + text[:_LONGEST_REFERENCE]
    return any(joined[:n] in references for n in range(len(joined), len(run), -1))


def _numeric_reference_joins(run: str, text: str) -> bool:
    """For _reference_joins, the characters after the '&' holding a '#':
    whether text after them changes what the tokenizer reads there. A '#'
    after a name's first character ends the name (names are alphanumeric):
    nothing joins. After '&#' the numeric character reference states take
    an 'x' or 'X' then hexadecimal digits, or decimal digits, then an
    optional ';'; a character that is none of these ends the reference (or,
    with no digit yet, makes '&#' text): text after a run that is a
    complete prefix of a reference joins when it goes on with what that
    state takes, and after a run already ended (`&#BAR`, `&#1A`, `&#x;`)
    joins nothing."""
    if not run.startswith("#"):
        return False
    digits = run[1:]
    first, second = text[:1], text[1:2]
    hexdigits = "0123456789abcdefABCDEF"
    if digits == "":
        return first.isdigit() and first.isascii() or \
            first in ("x", "X") and second != "" and second in hexdigits
    if digits[0] in "xX":
        rest = digits[1:]
        if not all(c in hexdigits for c in rest):
            return False
        return first != "" and (first in hexdigits or rest != "" and first == ";")
    if not all(c in "0123456789" for c in digits):
        return False
    return first != "" and (first in "0123456789" or first == ";")


# The longest name of a character reference (without its '&').
_LONGEST_REFERENCE = 32


@functools.lru_cache(maxsize=None)
def _references() -> FrozenSet[str]:
    """The names of the standard's character reference table, with and
    without their ';' as it lists them (the standard library's copy of
    it, imported when first needed: html.entities costs megabytes of RSS,
    as lexpy/__init__.py notes)."""
    from html.entities import html5
    return frozenset(html5)


# What the rewriter's checks need of an element's ancestors: the engine's
# Context (RewriterCore._context computes and caches it).
_Context = Context


class _Content:
    __slots__ = ("text", "html")

    def __init__(self, text: str, html: bool) -> None:
        if not isinstance(text, str):
            raise TypeError("content must be a str, not %s" % type(text).__name__)
        self.text = _markup_newlines(text) if html else text
        self.html = bool(html)


# What the rewriter keeps of a matched element while it is open: the
# engine's ElementRecord (its fields are listed there).
_Record = ElementRecord


_REMOVED, _KEEP_CONTENT, _INNER = 1, 2, 3

# A body start tag written before content that goes before an element whose
# start tag implied the body (Element._check_before_implied).
_BODY_START = _Content("<body>", True)
# An end tag that the table's insertion modes (in table, in table body, in
# row) ignore, written in place of an element removed from a table: it ends
# the run of text before it (Element._table_text_separated).
_TABLE_TEXT_SEPARATOR = _Content("</col>", True)
# The elements whose insertion modes read text as a table's text run.
_TABLE_TEXT_HOLDERS = frozenset("table tbody thead tfoot tr colgroup".split())


def _select_hold_undone(method: Callable[..., None]) -> Callable[..., None]:
    """An Element edit whose checks began holding output for a select
    (Rewriter._hold_for_select) and then refused it: the hold is undone,
    since nothing of the edit is written (else a later <selectedcontent>
    would fail the whole rewrite for an edit that was never made)."""
    @functools.wraps(method)
    def edit(self: "Element", *args: Any, **kwargs: Any) -> None:
        rw = self._rw
        held = rw._select_held
        try:
            method(self, *args, **kwargs)
        except RewriteError:
            if held is None and rw._select_held is not None:
                rw._select_held = None
                rw._hold_select(None)
            raise
    return edit


def _detached_body_deferred(method: Callable[..., None]) -> Callable[..., None]:
    """An Element edit that the normal checks refuse for where it is (not
    for its content: _content_refused), of a body the parser made without
    a start tag while frameset-ok is "ok", or of an element inside such a
    body, and that leaves nothing of itself (no content, mode, name or
    hold noted): accepted provisionally, writing nothing, with the refusal
    kept (Element._detached_deferral). A <frameset> start tag "in body"
    with frameset-ok still "ok" removes the body (and all inside it) from
    the html element; nothing moves a node out of the body. The DOM edit
    of an element out of the document changes nothing of the document,
    and the output, written as if unedited, makes the same tree. The
    refusal is raised as soon as the body is sure to stay
    (Rewriter._detached_settle): frameset-ok "not ok" (from then on the
    parser ignores a <frameset>: checked at the end of the feed that
    carries the token that set it, or earlier at the body's pop), or the
    end of input. Only where a deferral can be (frameset-ok "ok", the
    element's start handlers) is the state noted: else the edit is called
    straight through."""
    @functools.wraps(method)
    def edit(self: "Element", *args: Any, **kwargs: Any) -> None:
        r, rw = self._record, self._rw
        if r.started or r.ended or not rw._parser_frameset_ok():
            method(self, *args, **kwargs)
            return
        state = self._detached_state()
        try:
            method(self, *args, **kwargs)
        except RewriteError as error:
            if getattr(error, "content_refused", False) or state != self._detached_state():
                raise
            # (Refused for where it is before its content was checked: the
            # content's checks first, which raise at the call.)
            self._detached_content(method.__name__, args, kwargs)
            if state != self._detached_state() or not self._detached_deferral(error):
                raise
    return edit


def _content_refused(check: Callable[..., _Content]) -> Callable[..., _Content]:
    """Rewriter._check, the checks of the content of an insertion (text
    with U+0000, text that would end a raw text element early, markup the
    parser would not keep whole where it goes...): its refusals are marked
    (content_refused), and _detached_body_deferred never keeps them: the
    issue's "invalid content for an insertion raises before anything is
    written", at the call."""
    @functools.wraps(check)
    def checked(self: Any, *args: Any, **kwargs: Any) -> _Content:
        try:
            return check(self, *args, **kwargs)
        except RewriteError as error:
            error.content_refused = True    # type: ignore[attr-defined]
            raise
    return checked


class Element(ElementBase):
    """An element handed to a handler (see Rewriter.on)."""
    __slots__ = ()

    def _refuse(self, what: str, why: str) -> RewriteError:
        return RewriteError("<%s>: %s: %s" % (self._record.name, what, why))

    def _late_refused(self, what: str, start: bool = True) -> None:
        """A late match (Rewriter._late_match): the element was matched
        after the adoption agency algorithm moved it, its start tag already
        written; its handlers' edits of its start are refused (`start`),
        and all of them when the same token closed it."""
        r = self._record
        if (r.late or self._rw._late_call is r) and (start or r.ended):
            raise self._refuse(what, "matched late: the adoption agency algorithm moved it "
                                     "after its start tag was written, and the selector "
                                     "matches it only where it went")

    def _foreign_in_table(self, what: str) -> None:
        """Foreign content inside a table or a template: the table's
        insertion modes read tags inside it (</td>, <td> in an integration
        point, or under an HTML element there) through the foreign
        elements, since a table scope does not stop at them, and pop them
        in ways a byte edit does not follow. The edit is kept, and checked
        at the element's end (_foreign_table_end), when no such tag meets
        a stack of open elements the edit changed."""
        r = self._record
        if (self._rw._context(r.node).foreign_in_table or self._in_fostered_foreign(what)) and \
                not any(fn is _foreign_table_end for fn in r.end_handlers):
            self._rw._loud(r)
            r.end_handlers.append(_foreign_table_end)

    def _in_fostered_foreign(self, what: str) -> bool:
        """Whether a foreign element is foreign content that the parser
        foster-parented out of a table still open, or inside such (`<table>
        <svg><desc>`: the <svg>, or an HTML element holding it, went before
        the table). Its ancestors in the tree are not the table's, so its
        Context does not say foreign_in_table, but the stack of open
        elements has the table below it and the table's insertion modes
        read what comes in an integration point or an HTML element there
        (`<td>` in the <desc> clears the stack back to the table, popping
        the <desc> and the <svg>): as for foreign content in a table
        (_foreign_in_table). An ancestor foster-parented from a table
        still open is an open element followed, among its siblings, by that
        table (foster parenting inserts before the table, and an element
        open when the table opened would hold it). The removal of the
        foster-parented foreign element itself is not: without it and all
        it holds, the token that popped it meets the element below, where
        the table's modes read it as they did through the integration point
        (or after the foreign content's rules popped it)."""
        r = self._record
        if r.node.namespace_uri == _HTML_NS:
            return False
        rw = self._rw
        node = r.node if what != "remove" else r.node.parent_node
        foreign = False
        while node is not None and node.node_type == 1:
            if node.namespace_uri != _HTML_NS:
                foreign = True
            elif node.local_name in ("body", "html"):
                break
            if foreign:
                sibling = node.next_sibling
                while sibling is not None:
                    if sibling.node_type == 1 and sibling.namespace_uri == _HTML_NS and \
                            sibling.local_name == "table":
                        if rw._is_open(sibling):
                            return True
                        break
                    sibling = sibling.next_sibling
            node = node.parent_node
        return False

    def _start_op(self, what: str, needs_tag: bool = True, foster_ok: bool = False,
                  attribute: Optional[str] = None) -> _Record:
        r = self._record
        self._late_refused(what)
        if r.started:
            raise ValueError("<%s>: %s is possible only in the element handler" % (r.name, what))
        self._foreign_in_table(what)
        if attribute is None or not self._attribute_outside_mirror(attribute):
            self._check_select_mirror(what)
        if r.implied and (needs_tag or what == "remove_and_keep_content") and \
                r.name not in _SYNTHESIZED_START and not (
                    what in _RECONSTRUCTED_TAG_OPS and
                    self._rw._reconstructed_index(r) is not None) and not (
                    what == "remove" and self._rw._reconstructed_index(r) == 0 and
                    self._rw._reconstruction_agency is None) and not (
                    what == "remove" and self._rw._reconstructed_removal(r, False)) and not (
                    what == "set_inner_content" and
                    self._rw._reconstructed_inner_content(r)) and not (
                    what == "set_inner_content" and
                    self._rw._reconstructed_index(r) == len(self._rw._reconstructed_nodes) - 1):
                # (Replaced content: the innermost one only; the ones inside
                # it would be dropped, and their copies with them.)
            raise self._refuse(what, "the parser made this element without a start tag "
                                     "of its own (implied)")
        if r.foster and not (foster_ok or what in _FOSTERED_OPS and r.name != "input"):
            # (An <input>'s type decides whether the parser fosters it.)
            raise self._refuse(what, "the parser moved this element out of its table "
                                     "(foster parenting)")
        if what in ("rename", "replace", "remove", "remove_and_keep_content") and \
                self._rw._listed_drop_token(r):
            raise self._refuse(what, "its start tag closed a removed copy the parser "
                                     "reconstructed, and takes the entry that copy was made "
                                     "of off the output's list of active formatting elements")
        return r

    def _check_outside(self, what: str, head_content: bool = False,
                       text_first: bool = False) -> None:
        r = self._record
        self._check_select_mirror(what)
        if not self._html():
            return
        if r.name in ("html", "head", "body"):
            raise self._refuse(what, "the parser keeps no content between <%s> and its "
                                     "neighbours" % r.name)
        # (A reconstructed formatting element gets a start tag of its own for
        # content before it (Rewriter._end_reconstructed) when it is the
        # first one reconstructed there, or when the content starts with
        # text or a start tag of _RECONSTRUCTING_START: the parser
        # reconstructs the ones before it for that token, and the content
        # goes into its parent.)
        index = self._rw._reconstructed_index(r) if r.implied else None
        reconstructed = index == 0 or index is not None and (
            what == "after" or what == "before" and (text_first or bool(r.before))) or (
            what == "after" and self._rw._adoption_clone_after(r)) or (
            what == "before" and (text_first or bool(r.before)) and
            self._rw._start_reconstructed_only(r)) or (
            what == "before" and self._rw._reopen_reconstructed(r, False)) or (
            what == "before" and self._rw._reconstruction_split(r, False))
        if r.implied and r.name not in _SYNTHESIZED_START and not reconstructed:
            raise self._refuse(what, "content written before an element the parser "
                                     "reconstructed lands inside it")
        if what == "before" or what == "replace":
            if _implied_beyond_document(r.implied_with) and not reconstructed and not (
                    what == "before" and self._rw._end_tag_p(r)):
                raise self._refuse(what, "the parser implied <%s> before this element "
                                         "at the same point" % r.implied_with[-1])
            if self._rw._reconstruction_pending(True) and not reconstructed:
                raise self._refuse(what, "content written here would be wrapped in "
                                         "reconstructed formatting elements")
            if self._rw._listed_drop_open():
                self._rw._refuse_listed_drop(r)
            if r.name == "table" and self._html() and r.table_before is None:
                # Content the parser foster-parents later goes between the
                # table and what is written before it: checked at the
                # table's end (_popped), where that content is known.
                previous = r.node.previous_sibling
                r.table_before = (previous, len(previous.data)
                                  if previous is not None and previous.node_type == 3 else 0)
                self._rw._tables_before[id(r)] = [r, 0, -1, set()]
        parent = r.node.parent_node
        if parent is not None and parent.node_type == 1 and parent.namespace_uri == _HTML_NS \
                and parent.local_name in ("html", "head") and not (
                    head_content and parent.local_name == "head"):
            raise self._refuse(what, "the parser moves content next to <%s> elsewhere "
                                     "(its parent is <%s>)" % (r.name, parent.local_name))
        if self._in_head() and not (head_content and parent is not None and
                                    parent.local_name == "head"):
            raise self._refuse(what, "the parser moves content in <head> elsewhere")
        if r.name in _TABLE_PARTS or (parent is not None and parent.node_type == 1 and
                                      parent.namespace_uri == _HTML_NS and
                                      parent.local_name in _TABLE_CONTAINERS):
            raise self._refuse(what, "content next to a table part is foster-parented")

    def _check_inside(self, what: str, head_content: bool = False) -> None:
        r = self._record
        if not self._html() and self.is_self_closing and not self._self_closed(what, False):
            raise self._refuse(what, "a self-closing foreign element has no content")
        self._check_select_mirror(what)
        # (Appended content is written at r's end, where _popped checks the
        # list the parser has then: refused there when it would be wrapped
        # in reconstructed formatting elements, or written after end tags
        # that take their entries off the list, _eof_unlist and
        # _unlist_for_copies; a self-closing one's goes at its start.)
        if not r.started and (what != "append" or self.is_self_closing) and \
                self._rw._reconstruction_pending():
            raise self._refuse(what, "content written here would be wrapped in "
                                     "reconstructed formatting elements")
        if not self._html():
            return
        if r.name == "html" or r.name == "head" and not (head_content and what != "set_inner_content"):
            raise self._refuse(what, "the parser moves content of <%s> elsewhere" % r.name)
        if r.name == "head" and what == "append":
            # (Content the parser puts into the head after its end, a <meta>
            # after </head>, would follow what is written at its end:
            # _handle_token refuses it.)
            self._rw._head_appended = True
        if self._in_head() and r.name not in _RAW_TEXT \
                and r.name not in _RCDATA and r.name != "template" and \
                not (r.name == "noscript" and self._rw._scripting):
            raise self._refuse(what, "the parser moves content of <%s> in <head> "
                                     "elsewhere" % r.name)
        if r.name in _TABLE_CONTAINERS:
            raise self._refuse(what, "content inside <%s> is foster-parented" % r.name)
        if r.name == "template":
            first = next((c for c in r.node.content.child_nodes if c.node_type == 1), None)
            if first is not None and first.local_name in _TABLE_PARTS | {"col"}:
                raise self._refuse(what, "the template's first element makes its content "
                                         "a table's")

    def _check_select_mirror(self, what: str) -> None:
        """Content of an option (or of selectedcontent) is mirrored into the
        select's selectedcontent by the parser: a reparse would mirror the
        edit, the DOM edit does not. A select without one yet may get one
        later: the output is held back until the select ends
        (Rewriter._hold_for_select)."""
        context = self._rw._context(self._record.node)
        if what in ("before", "after") and self._beside_outside_mirror():
            return
        if context.in_selectedcontent or (context.select is not None and
                                          self._rw._has_selectedcontent(context.select)):
            raise self._refuse(what, "the parser copies the selected option into "
                                     "<selectedcontent>")
        if context.select is not None and self._mirror_affected(what) and \
                not self._rw._hold_for_select(context.select):
            raise self._refuse(what, "the parser copies the selected option into "
                                     "<selectedcontent>, " + _HELD_FOR_ANOTHER_SELECT)

    def _beside_outside_mirror(self) -> bool:
        """For before and after in a select with a <selectedcontent>:
        whether the content goes where the parser copies nothing from nor
        into: the element's parent is the select, or an element with no
        option, optgroup or selectedcontent ancestor up to the select (the
        content is then no option's content, and not in the
        selectedcontent the parser replaces). Content that lands in an
        option the parser closed without an end tag is kept out of it by
        the end tag written for it (_close_implied), which pops it as the
        input's token did: the same clone, of the same content. Markup
        holding an option or a selectedcontent is checked with its content
        (Rewriter._check)."""
        met = _up_to_select(self._record.node.parent_node,
                            ("option", "optgroup", "selectedcontent"))
        return met is not None and met.local_name == "select"

    def _attribute_outside_mirror(self, name: str) -> bool:
        """For set_attribute(name) in a select: whether the attribute
        changes nothing the parser copies into a <selectedcontent> nor
        which option it copies. The parser clones the selected option's
        children (not its attributes) into the select's enabled
        selectedcontent, when an option is popped and when a
        selectedcontent is inserted ("maybe clone an option into
        selectedcontent", "update a select's selectedcontent"); which
        option is selected reads only the options' selected and disabled
        attributes, an optgroup's disabled one, and the select's multiple
        (a multiple select has no enabled selectedcontent). So: any other
        attribute of the select, an option, an optgroup, a selectedcontent
        or an element that is in no option or optgroup of the select (an
        element inside one is copied with its attributes as the input has
        them, where the reparse copies the edited ones). An element in a
        selectedcontent the parser fills later is replaced there in the
        input's tree and the output's alike."""
        node = self._record.node
        if node.namespace_uri != _HTML_NS or name.lower() in ("selected", "disabled",
                                                              "multiple"):
            return False
        if node.local_name == "select":
            return True
        met = _up_to_select(node.parent_node, ("option", "optgroup"))
        return met is None or met.local_name == "select"

    def _mirror_affected(self, what: str) -> bool:
        """Whether the edit may change what the parser copies into a
        <selectedcontent> inserted later into the select (the content of
        its selected option, or which option that is): an edit in an option
        or optgroup, one that drops content (options may come in it), an
        attribute of the select, an option or an optgroup (selected,
        disabled, multiple). Markup holding an option is checked with its
        content (Rewriter._check)."""
        node = self._record.node
        if what in _MIRROR_DROPS or what in ("set_attribute", "remove_attribute") and \
                node.local_name in ("select", "option", "optgroup"):
            return True
        met = _up_to_select(node, ("option", "optgroup"))
        return met is not None and met.local_name != "select"

    def _in_head(self) -> bool:
        parent = self._record.node.parent_node
        if parent is None or parent.node_type != 1:
            return False
        return bool(self._rw._context(parent).in_head)

    def _html(self) -> bool:
        return bool(self._record.node.namespace_uri == _HTML_NS)

    # -- names -----------------------------------------------------------
    @property
    def tag_name(self) -> str:
        return self._record.new_name or self._record.name

    @tag_name.setter
    @_detached_body_deferred
    def tag_name(self, name: str) -> None:
        try:
            self._set_tag_name(name)
        except RewriteError:
            r = self._record
            if self._rw._breakout_rename is r:
                # (Refused after all: no end tags are written before its start
                # tag, which is not clean for other edits.)
                self._rw._breakout_rename = None
                r.clean_start = False
            raise

    def _set_tag_name(self, name: str) -> None:
        r = self._start_op("rename")
        if not isinstance(name, str) or not _NAME.match(name):
            raise ValueError("not a valid tag name: %r" % (name,))
        new = name.lower()
        if new not in _SPECIAL_NAMES and self._foreign_root_renamable():
            r.new_name = new
            return
        if self._record.node.namespace_uri != "http://www.w3.org/1999/xhtml":
            raise self._refuse("rename", "a foreign element's name decides how the "
                                         "parser treats its content")
        if new != r.name and any(n.namespace_uri != _HTML_NS for n in self._rw._popped_nodes) \
                and not self._foreign_breakout_renamable():
            # (`<math><span>`: the span's start tag broke out of the math;
            # `<math><abbr>` would be a MathML element.)
            raise self._refuse("rename to <%s>" % new, "its start tag broke out of foreign "
                                                       "content; another name may not")
        if self._raw_text_element() and new not in _SPECIAL_NAMES and new != r.name and \
                not self._in_head() and r.node.parent_node.local_name != "head" and \
                self._raw_text_unwrappable():
            # (Its text is written escaped, as the renamed element's text.)
            self._escape_raw_text()
            r.new_name = new
            return
        if new not in _SPECIAL_NAMES and new != r.name and self._rcdata_renamable():
            # (Its text is written escaped, as the renamed element's text.)
            self._escape_raw_text(rcdata=True)
            r.new_name = new
            return
        if r.implied and r.name == "p" and new not in _SPECIAL_NAMES and new != r.name and \
                self._implied_p_renamable():
            # (Its start tag is written where the </p> made it, its end tag
            # in place of the </p>: _pushed_written, _popped.)
            r.new_name = new
            return
        if r.name == "template" and new not in _SPECIAL_NAMES and self._template_renamable():
            # (The DOM's rename moves the template's children, not its
            # contents: the new element is empty. Its contents are dropped
            # as set_inner_content drops them.)
            self.set_inner_content("")
            r.new_name = new
            self._rw._dropped = True     # (its start tag set frameset-ok to "not ok")
            return
        if r.name == "body" and new != r.name and self._detached_body_edit("rename to <%s>" % new):
            return
        if r.name == "table" and new not in _SPECIAL_NAMES and \
                self._empty_table_edit("rename to <%s>" % new):
            r.new_name = new
            return
        if (r.name in _SPECIAL_NAMES or new in _SPECIAL_NAMES) and new != r.name:
            if new in _SPECIAL_NAMES or not self._special_edit("rename to <%s>" % new):
                raise self._refuse("rename to <%s>" % new, "the parser treats <%s> and <%s> "
                                   "differently" % (r.name, new))
        r.new_name = new if new != r.name else None
        rw = self._rw
        if r.new_name is not None and r not in rw._tracked:
            # (An end tag of the new name inside it that the parser ignored
            # would close it in the output: Rewriter._track_token.)
            rw._tracked.append(r)
            rw._plain_renames.add(r)
        if r.new_name is not None:
            rw._watch_renamed_formatting(r)

    def _foreign_breakout_renamable(self) -> bool:
        """For a rename of an HTML element whose start tag broke out of
        foreign content (a start tag of the breakout list, or a font with
        color, face or size: the parser pops the foreign elements down to
        an HTML element or an integration point, then reprocesses the token
        in the insertion mode): the other name may not break out (it would
        be a foreign element there), so end tags are written before its
        start tag for the foreign elements the token popped (Rewriter.
        _close_implied): in foreign content, an end tag whose name is the
        current node's (lowercased) pops that node alone, and the next
        token goes to the insertion mode where the input's did. Only when
        the token popped foreign elements alone (none of br, p, script,
        whose end tags break out or run a script), from the top of the
        stack, with nothing implied beyond the document and nothing to
        reconstruct: the renamed start tag then closes nothing in the
        output, a clean start for the checks of the rename."""
        r = self._record
        rw = self._rw
        pops = rw._implied_pops
        if r.implied or r.start is None or r.foster or r.batch != rw._batch or not pops or \
                rw._reconstruction_pending(True) or _implied_beyond_document(rw._pushed_here) \
                or any(entry is None or entry[1] or
                       entry[0].lower() in _NO_SYNTHESIZED_FOREIGN_END for entry in pops):
            return False
        r.clean_start = True
        rw._breakout_rename = r
        return True

    @property
    def local_name(self) -> str:
        return self.tag_name

    @property
    def namespace_uri(self) -> Optional[str]:
        uri: Optional[str] = self._record.node.namespace_uri
        return uri

    @property
    def implied(self) -> bool:
        return self._record.implied

    @property
    def source(self) -> Optional[Tuple[int, int]]:
        """The start tag's offsets in the input (bytes as given), None when
        implied."""
        r = self._record
        if r.start is None:
            return None
        return self._rw._input_offset(r.start[0]), self._rw._input_offset(r.start[1])

    @property
    def is_self_closing(self) -> bool:
        return bool(self._record.self_closing)

    @property
    def can_have_content(self) -> bool:
        r = self._record
        if r.node.namespace_uri == "http://www.w3.org/1999/xhtml":
            return r.name not in _VOID
        return not self.is_self_closing

    @property
    def removed(self) -> bool:
        return self._record.mode in (_REMOVED,)

    # -- attributes ------------------------------------------------------
    # (_attrs, get_attribute and set_attribute: ElementBase, in C.)
    @property
    def attributes(self) -> Dict[str, str]:
        return dict(self._attrs())

    def has_attribute(self, name: str) -> bool:
        return self.get_attribute(name) is not None

    @_detached_body_deferred
    def _set_attribute(self, name: str, value: str) -> None:
        """set_attribute's checks for what ElementBase.set_attribute does
        not decide in C."""
        r = self._start_op("set_attribute", attribute=name if isinstance(name, str) else None)
        if not isinstance(value, str):
            raise TypeError("value must be a str")
        if "\x00" in value:
            error = self._refuse("set_attribute", "the parser reads U+0000 in an attribute "
                                                  "value (or a reference to it) as U+FFFD")
            error.content_refused = True    # type: ignore[attr-defined]
            raise error     # (at the call: _detached_body_deferred)
        if not _NAME.match(name) and not re.match(r"^[^\t\n\f\r />\"'=<\x00]+$", name):
            raise ValueError("not a valid attribute name: %r" % (name,))
        name = name.lower()
        attrs = self._attrs()
        for i, (key, _) in enumerate(attrs):
            if key == name:
                attrs[i] = (key, value)
                break
        else:
            attrs.append((name, value))
        r.attributes_changed = True
        self._rw._watch_agency_copy(r)

    @_detached_body_deferred
    def remove_attribute(self, name: str) -> None:
        r = self._start_op("remove_attribute")
        name = name.lower()
        attrs = self._attrs()
        kept = [(k, v) for k, v in attrs if k != name]
        if len(kept) != len(attrs):
            r.attributes = kept
            r.attributes_changed = True
            self._rw._watch_agency_copy(r)

    # -- content ---------------------------------------------------------
    def _head_ok(self, content: str, html: bool) -> bool:
        """Whether `content` is elements the parser keeps in <head> (no
        text, no comments: those would go elsewhere after </head>)."""
        return html and isinstance(content, str) and self._rw._head_content(content)

    @_detached_body_deferred
    @_select_hold_undone
    def before(self, content: str, *, html: bool = False) -> None:
        r = self._start_op("before", needs_tag=False,
                           foster_ok=self._fostered_text_before(content, html) or
                           self._fostered_markup_before(content, html))
        if self._dropped_beside(content, html):
            return
        self._foreign_table_text_before("before", content, html)
        self._check_outside("before", self._head_ok(content, html),
                            isinstance(content, str) and _reconstructs_for(content, html))
        with self._undone_if_refused():
            checked = self._rw._check(self, content, html, "outside")
            if self._table_end_before_ok(content, html):
                self._rw._defer_to_table_end(r, checked)
                return
            self._check_before_implied("before", content, html)
        r.before.append(checked)
        self._rw._split_watch(r)

    @_detached_body_deferred
    @_select_hold_undone
    def prepend(self, content: str, *, html: bool = False) -> None:
        if self._rw._agency_copy_empty(self._record):
            self._agency_copy_content("prepend", content, html)
            return
        r = self._start_op("prepend")
        self._check_content_op("prepend")
        if self._dropped_inside(content, html):
            return
        self._check_inside("prepend", self._head_ok(content, html))
        self._self_closed("prepend", html)
        if html and r.name == "template" and _START_TAG.search(content) and \
                not any(fn is _template_prepend_end for fn in r.end_handlers):
            self._rw._loud(r)
            r.end_handlers.append(_template_prepend_end)
            self._rw._watch_template_mode(r)
        # (Prepended content is written newest first, then the element's
        # content, which is not known yet: checked together, open-ended.)
        r.prepend.append(self._rw._check(self, content, html, "inside",
                                         after="".join(c.text for c in reversed(r.prepend)),
                                         open_end=True))
        self._rw._split_watch(r)

    @_detached_body_deferred
    @_select_hold_undone
    def append(self, content: str, *, html: bool = False) -> None:
        r = self._record
        self._late_refused("append", start=False)
        if r.ended:
            raise ValueError("<%s>: append after the element's end" % r.name)
        self._rw._loud(r)
        self._foreign_in_table("append")
        self._check_content_op("append")
        if self._dropped_inside(content, html):
            return
        self._check_inside("append", self._head_ok(content, html))
        if self._self_closed("append", html):
            r.prepend.insert(0, self._rw._check(self, content, html, "inside"))
            return
        r.append.append(self._rw._check_append(self, content, html,
                                               "".join(c.text for c in r.append)))
        self._rw._watch_formatting_children(r)

    @_detached_body_deferred
    @_select_hold_undone
    def after(self, content: str, *, html: bool = False) -> None:
        r = self._record
        self._late_refused("after", start=False)
        if r.ended:
            raise ValueError("<%s>: after() after the element's end" % r.name)
        self._rw._loud(r)
        self._foreign_in_table("after")
        if r.foster and not _fostered_text(content, html):
            raise self._refuse("after", "the parser moved this element out of its table "
                                        "(foster parenting)")
        if self._dropped_beside(content, html):
            return
        self._check_outside("after", self._head_ok(content, html))
        r.after.append(self._rw._check(self, content, html, "outside"))
        if r.foster and r.after[0] is not _TABLE_TEXT_SEPARATOR:
            # Text after an element the parser foster-parented: written
            # after it, in the table, the parser foster-parents it too,
            # right before the table, after the element; an end tag the
            # table ignores after it keeps the input's text after it a run
            # of its own (written last: after() content goes in reverse).
            r.after.insert(0, _TABLE_TEXT_SEPARATOR)
        self._rw._watch_formatting_children(r)

    @_detached_body_deferred
    @_select_hold_undone
    def set_inner_content(self, content: str, *, html: bool = False) -> None:
        if self._rw._agency_copy_empty(self._record):
            self._agency_copy_content("set_inner_content", content, html)
            return
        r = self._start_op("set_inner_content")
        self._check_content_op("set_inner_content")
        self._check_inside("set_inner_content")
        if self._self_closed("set_inner_content", html):
            r.prepend[:] = [self._rw._check(self, content, html, "inside")]
            return
        r.inner = self._rw._check(self, content, html, "inside")
        self._note_form_pointer()
        r.mode = _INNER

    def _agency_copy_content(self, what: str, content: str, html: bool) -> None:
        """prepend or set_inner_content of the adoption agency algorithm's
        copy of a formatting element made empty at this end tag
        (Rewriter._agency_copy_empty): the content is written where
        appended content goes (just before the end tag, into the furthest
        block, which the algorithm then moves into the copy), with the same
        checks as append. The copy has no other children: prepended content
        goes first among what is written there, replaced content replaces
        what was written there before."""
        r = self._record
        self._late_refused(what)
        self._rw._loud(r)
        self._foreign_in_table(what)
        self._check_content_op(what)
        self._check_inside("append")
        checked = self._rw._check_append(self, content, html, "")
        if what == "set_inner_content":
            r.append[:] = [checked]
        else:
            r.append.insert(0, checked)
        self._rw._watch_formatting_children(r)

    @_detached_body_deferred
    @_select_hold_undone
    def replace(self, content: str, *, html: bool = False) -> None:
        r = self._start_op("replace")
        self._check_removable("replace")
        self._foreign_table_text_before("replace", content, html)
        self._check_outside("replace")
        with self._undone_if_refused():
            self._check_before_implied("replace", content, html)
            r.before.append(self._rw._check(self, content, html, "outside"))
        self._note_form_pointer()
        self._rw._foster_text_mark(r)
        r.mode = _REMOVED

    @_detached_body_deferred
    def remove(self) -> None:
        if self._record.name != "a" and self._remove_fast():
            return      # (the common case, checked in C: ElementBase._remove_fast)
        r = self._start_op("remove")
        self._check_select_mirror("remove")
        self._check_removable("remove")
        self._note_form_pointer()
        self._rw._foster_text_mark(r)
        if r.name == "table" and self._html() and not r.implied and \
                self._parent_in_body_content(r.node.parent_node) or \
                r.name in ("tbody", "thead", "tfoot", "tr") and self._html() and \
                id(r) in self._rw._foster_text_marks:
            # (Text the parser foster-parents out of it is written in its
            # place: Rewriter._removed_table_text.)
            self._rw._table_text_kept[id(r)] = r
        r.mode = _REMOVED

    @contextlib.contextmanager
    def _undone_if_refused(self) -> Iterator[None]:
        """Checks that note what the edit writes (_check and
        _check_before_implied: frameset-ok set to "not ok", a <body> start
        tag before the element) before a later check refuses it: undone
        then, since nothing of it is written (the select hold:
        _select_hold_undone)."""
        rw, r = self._rw, self._record
        written, before = rw._frameset_written, list(r.before)
        try:
            yield
        except RewriteError:
            rw._frameset_written = written
            r.before[:] = before
            raise

    def _note_form_pointer(self) -> None:
        """Content dropped: the parser's form element pointer at its start,
        for Rewriter._form_pointer_moved at its end (unknown when the
        token that made it pushed a form after it)."""
        rw = self._rw
        if rw._counters()[1] == rw._forms:
            rw._form_starts[self._record] = rw._form_pointer()

    def _check_before_implied(self, what: str, content: str, html: bool) -> None:
        r = self._record
        if r.implied and self._rw._reconstructed_index(r) is not None:
            return      # (its start tag is written after the content: _check_outside)
        if (_reconstructs_for(content, html) or r.before) and \
                self._rw._start_reconstructed_only(r):
            return      # (it goes into the elements reconstructed for it: _check_outside)
        if self._rw._end_tag_p(r):
            return      # (it goes where the parser inserts the <p>: _end_tag_p)
        if self._rw._reopened is r:
            return      # (it goes into the elements written for it: _reopen_reconstructed)
        if r.implied_with and (html or content[:1] in ("", "\t", "\n", "\f", "\r", " ")):
            # Content that implies the same elements at the same point (markup
            # that starts the body for an element whose start tag implied the
            # body; head elements for one that implied the head only) goes
            # where the DOM edit puts it.
            implied = set(r.implied_with)
            if html and content[:1] not in ("", "\t", "\n", "\f", "\r", " ") and \
                    implied <= {"html", "head", "body"} and (
                        "body" in implied and self._rw._body_start(content) or
                        "body" not in implied and "head" in implied and
                        self._rw._head_content(content)):
                self._rw._frameset_written = True   # (frameset-ok: see _frameset_token)
                return
            if "body" in implied and implied <= {"html", "head", "body"}:
                # Else a <body> start tag goes first: the parser makes the
                # same body there (no attributes: it was implied), and the
                # content goes into it.
                if not (r.before and r.before[0] is _BODY_START):
                    r.before.insert(0, _BODY_START)
                self._rw._frameset_written = True   # (frameset-ok: see _frameset_token)
                return
            raise self._refuse(what, "the parser implied <%s> here: content before it "
                                     "would go elsewhere" % r.implied_with[-1])

    def _special_edit(self, what: str) -> bool:
        """Whether a special element may lose its name (a rename to an
        ordinary one, remove_and_keep_content): for _DROPPABLE_SPECIAL and
        _PLAIN_VOID elements in body whose start tag was clean; the rest is
        checked at their end (Rewriter._popped). Raises for the refusals
        known now."""
        r = self._record
        # (A formatting element the parser reconstructed gets a start tag of
        # the new name where it did (_end_reconstructed), which reconstructs
        # the ones before it as the parser did.)
        reconstructed = r.implied and r.name in _FORMATTING and \
            self._rw._reconstructed_index(r) is not None
        if not self._html() or r.implied and not reconstructed or r.foster:
            return False
        if r.name in _SELECT_RUBY:
            return self._select_ruby_edit(what)
        if r.name not in _DROPPABLE_SPECIAL and r.name not in _PLAIN_VOID and not (
                r.name in _FORMATTING and what.startswith("rename")) and r.name != "form" and \
                not (r.name in _INSERTED_VOID and (r.clean_start or r.name == "hr")) and \
                not self._body_noscript():
            return False
        if r.name in _FORMATTING:
            # A formatting element renamed keeps out of the list of active
            # formatting elements: equal when it ends with its own end tag
            # (checked at its end) with no element of its name open around
            # it or inside it (Noah's ark, the adoption agency's lookup).
            node = r.node.parent_node
            while node is not None and node.node_type == 1:
                if node.local_name == r.name:
                    return False
                node = node.parent_node
        parent = r.node.parent_node
        if parent is None or parent.node_type != 1 or (
                    parent.namespace_uri != _HTML_NS and not (
                        what.startswith("rename") and (_integration_point(parent) or
                                                       _annotation_integration(parent)))) or \
                parent.local_name in ("html", "head") or self._in_head() or \
                parent.local_name in _TABLE_CONTAINERS or (
                    parent.local_name in _HEADINGS and r.name not in _FORMATTING and
                    r.name not in _PLAIN_VOID and not self._in_heading_renamable(what)) or \
                parent.local_name in ("select", "option", "optgroup", "ruby", "template") and \
                not self._void_in_select_renamable(what) and \
                not (parent.local_name == "ruby" and self._in_ruby_renamable(what)) or \
                self._rw._context(r.node).tabular and r.name not in _PLAIN_VOID and \
                not self._in_cell_content():
            return False
        if not r.clean_start and not reconstructed and not (
                (r.name in _DROPPABLE_SPECIAL or r.name == "hr") and self._implied_ends_only()):
            # (A start tag that closed a <p> in button scope, or an <li>,
            # <dd> or <dt> its loop found, by implied end tags only: end
            # tags for them are written before it, Rewriter._close_implied.)
            raise self._refuse(what, "its start tag closed, implied or reconstructed "
                                     "elements, which the other start tag would not")
        if r.name == "button":
            # A scope boundary for <p>: what closes a <p> inside it would
            # close one outside it without it.
            node = parent
            while node is not None and node.node_type == 1:
                if node.namespace_uri == _HTML_NS and node.local_name == "p":
                    raise self._refuse(what, "a <p> is open outside it: what closes a <p> "
                                             "inside it would close that one")
                if node.namespace_uri == _HTML_NS and node.local_name in (
                        "applet", "caption", "html", "table", "td", "th", "marquee",
                        "object", "template", "button") or node.namespace_uri != _HTML_NS:
                    break
                node = node.parent_node
        if r.name == "form":
            self._form_name_gone(what)
        self._rw._track(r)
        return True

    def _body_noscript(self) -> bool:
        """Whether the element is an HTML noscript outside the head with
        scripting off: "in body" reads its start tag as any other start
        tag's (reconstruct the active formatting elements, insert it) and
        its content as markup, so that it is an element of the special
        category alone, like a div whose start tag closes no <p>: renamed
        or unwrapped under _special_edit's conditions (what stops at it
        by that category, end tags' walks, the list item loops, the
        adoption agency's furthest block, is tracked or refused as for
        those)."""
        r = self._record
        return self._html() and r.name == "noscript" and not self._rw._scripting and \
            not self._in_head()

    def _in_heading_renamable(self, what: str) -> bool:
        """Whether a special element (not a heading) whose parent is a
        heading may be renamed to an ordinary one or unwrapped. What the parser reads
        there: a heading's start tag pops the current node when it is a
        heading (neither element is), and a heading's end tag looks for a
        heading in scope (neither is a boundary) and pops down to it. The
        element popped by either gets its end tag written before the
        token, as in body (Rewriter._popped). Unwrapped, its parent heading
        is the current node where it was, which a heading start tag would
        pop: Rewriter._current_node_read refuses that, as for any unwrapped
        element; a heading end tag pops down to the same heading."""
        r = self._record
        return self._html() and r.name not in _HEADINGS

    def _in_ruby_renamable(self, what: str) -> bool:
        """Whether a special element whose parent is a ruby may be renamed
        to an ordinary one or unwrapped. What the parser reads of a ruby: the start tags
        of its parts (rb, rtc, rp, rt) look for a ruby in scope and then
        generate implied end tags, which pop only the implied-end elements
        (p, li, dd, dt, option, optgroup, rb, rp, rt, rtc) from the current
        node down. Neither element is a scope boundary; a special element
        that is not implied-end stops the implied end tags as the ordinary
        one does; one that is (a <p> popped by an <rt>) gets an end tag
        written before the token, as in body (Rewriter._popped), and the
        token then pops the same elements. </ruby> is any other end tag,
        whose walk stopping at the special element is tracked as for any
        rename (Rewriter._track_token). Unwrapped, the ruby is the current
        node where the element was: the ruby parts' implied end tags stop
        at it too (it is not implied-end), as Rewriter._current_node_read
        checks for every unwrapped element, and the element's own end
        tag's implied end tags are checked as in body (_implied_pops)."""
        r = self._record
        return self._html() and r.name not in _SELECT_RUBY

    def _in_cell_content(self) -> bool:
        """Whether the element is in a table only as content of a cell or a
        caption: its ancestors up to the nearest td, th or caption are HTML
        elements of the body's kind (no table, table section, row, template,
        select or foreign element between). There the parser is "in cell"
        or "in caption", which handles every token as "in body" does but
        the table's own tags (caption, col, colgroup, tbody, td, tfoot, th,
        thead, tr start tags; their end tags and </table>), and those look
        only for a cell, a caption or a table in table scope, whose
        boundaries (html, table, template) are none of the elements edited
        here: the element's name, special or not, changes nothing of what
        they do (the cell is closed by popping up to it, with the element).
        What the "in body" rules read of its name is checked as in body
        (_special_edit's other conditions, Rewriter._popped)."""
        r = self._record
        if r.foster or self._rw._context(r.node).foreign_in_table:
            return False
        node = r.node.parent_node
        while node is not None and node.node_type == 1:
            if node.namespace_uri != _HTML_NS:
                return False
            name = node.local_name
            if name in ("td", "th", "caption"):
                return True
            if name in _TABLE_CONTAINERS or name in ("template", "select", "option",
                                                     "optgroup", "html", "head"):
                return False
            node = node.parent_node
        return False

    def _void_in_select_renamable(self, what: str) -> bool:
        """Whether a void element whose parent is a select, an option or an
        optgroup may be renamed to an ordinary element: it has no content,
        so no token is read inside it; the other start tag inserts its
        element where it did (the parser's select handling reads the
        names of option, optgroup, hr, select and the form controls, not
        an ordinary element's), and the new element's end tag, written at
        once, pops it alone. What its own start tag closed (an <hr> the
        current <option>, by implied end tags) gets end tags written
        before it, or is refused (_special_edit's clean-start check); an
        edit in an option goes through the <selectedcontent> mirror check
        (_check_select_mirror, at _start_op)."""
        r = self._record
        return what.startswith("rename") and (r.name in _PLAIN_VOID or r.name in _INSERTED_VOID) \
            and r.node.parent_node.local_name in ("select", "option", "optgroup")

    def _template_renamable(self) -> bool:
        """Whether a template in body can be renamed to an ordinary
        element, written empty (its contents dropped): an HTML template
        whose start tag was clean (an ordinary start tag there would close,
        imply and reconstruct nothing either: the in head rules the
        template's start tag went through reconstruct nothing), whose
        parent is an HTML element of the body where an ordinary start tag
        inserts its element at the same place (no head, no table part's,
        select's or template's content, no foster parenting). The template
        ends with its own end tag or at the end of input, where the new
        name's end tag is written: nothing of it is left for later tokens
        (its marker and insertion mode went with it)."""
        r = self._record
        parent = r.node.parent_node
        if not self._html() or r.implied or r.foster or not r.clean_start or \
                parent is None or parent.node_type != 1 or \
                parent.namespace_uri != _HTML_NS or \
                parent.local_name in ("html", "head", "select", "option", "optgroup",
                                      "template") or self._in_head() or \
                parent.local_name in _TABLE_CONTAINERS:
            return False
        context = self._rw._context(parent)
        return not (context.tabular or context.select is not None or context.in_selectedcontent)

    def _implied_p_renamable(self) -> bool:
        """Whether a <p> the parser made for a </p> end tag with no <p> in
        button scope (it inserts one and closes it at once: an empty p
        there, nothing else) can be renamed to an ordinary element, written
        as its start tag and, in place of the </p>, its end tag: an HTML
        element of the body, where the new start tag inserts the element
        at the same place (no table part's or select's content, which
        the parser reads otherwise, no foster parenting) and reconstructs
        no formatting elements (none pending: the </p> reconstructed
        none)."""
        r = self._record
        parent = r.node.parent_node
        if not self._html() or r.foster or parent is None or parent.node_type != 1 or \
                parent.namespace_uri != _HTML_NS or \
                parent.local_name in ("html", "head", "select", "option", "optgroup",
                                      "template") or self._in_head() or \
                parent.local_name in _TABLE_CONTAINERS:
            return False
        context = self._rw._context(r.node)
        return not (context.tabular or context.select is not None or context.in_selectedcontent
                    or self._rw._reconstruction_pending(True))

    def _select_ruby_edit(self, what: str) -> bool:
        """Whether a select, an option or optgroup outside a select, a ruby
        or one of its parts (rb, rt, rp, rtc) in body may lose its name: its
        start tag was clean (the other one would close, imply and
        reconstruct nothing either), and what depends on its name is checked
        while it is open and at its end (Rewriter._track_select_ruby,
        Rewriter._select_ruby_popped): where the parser closes it without
        an end tag (implied end tags, an <option> after an <option>), one is
        written for it as for an ordinary element, and the token then closes
        the same elements and no other; a select closed by its own end tag
        has nothing special above it then (an ordinary element's end tag
        stops there); a select has no <p>, <button>, <nobr>,
        <ruby> or <a> around it (it is a scope boundary), no <option>,
        <optgroup> or <hr> inside it that closed more than an ordinary
        element's would (the current <option>), no <selectedcontent> (the
        parser copies an option into it); a ruby, no ruby part's start tag
        that closed elements (its implied end tags)."""
        r = self._record
        parent = r.node.parent_node
        if self._option_in_select_renamable(what):
            return True
        if parent is None or parent.node_type != 1 or parent.namespace_uri != _HTML_NS or \
                parent.local_name in ("html", "head", "select", "option", "optgroup",
                                      "template") or self._in_head() or \
                parent.local_name in _TABLE_CONTAINERS or parent.local_name in _HEADINGS:
            return False
        context = self._rw._context(parent)
        if context.tabular or context.in_selectedcontent or context.select is not None:
            return False
        if what == "remove_and_keep_content" and r.name in ("ruby", "select") and \
                parent.local_name in _IMPLIED_END:
            # (Implied end tags stop at it: without it, they would go on to
            # close its parent.)
            return False
        if r.name == "select":
            # A select is a scope boundary: a start tag inside it that looks
            # for one of these in scope (or runs the adoption agency for an
            # <a> or <nobr>) would find the one outside it without it.
            node = parent
            while node is not None and node.node_type == 1:
                if node.namespace_uri == _HTML_NS and node.local_name in (
                        "p", "button", "nobr", "ruby", "a"):
                    return False
                node = node.parent_node
        if not r.clean_start and not (r.name != "select" and self._implied_ends_only()):
            raise self._refuse(what, "its start tag closed, implied or reconstructed "
                                     "elements, which the other start tag would not")
        self._rw._track(r)
        return True

    def _option_in_select_renamable(self, what: str) -> bool:
        """For _select_ruby_edit: an option or optgroup whose parent is its
        select (or, for an option, an optgroup in it) renamed to an
        ordinary element. Its start tag was clean, or closed elements by
        implied end tags alone (end tags written for them before it,
        _implied_ends_only): with the select in scope, the option's start
        tag generates implied end tags (but optgroup), the optgroup's all
        of them; then both reconstruct the active formatting elements and
        insert their element, as an ordinary start tag does. While it is
        open, the tokens that read its name are start tags of option,
        optgroup and hr (their implied end tags pop it), where the end tag
        written for it as for an ordinary element (with those of what they
        closed above it) pops it first, and the token then closes what it
        closed below it; the other end tags' walks pass over it as over an
        ordinary element (option and optgroup are not special), and no scope
        stops at it. What else depends on it being an option (which option
        a <selectedcontent> copies) is the mirror check of every rename in a
        select (_check_select_mirror, at _start_op: refused with a
        selectedcontent in the select, else the output held until the select
        ends, and refused if one comes)."""
        r = self._record
        node = r.node
        parent = node.parent_node
        if not what.startswith("rename") or r.name not in ("option", "optgroup") or \
                parent is None or parent.node_type != 1 or \
                parent.namespace_uri != _HTML_NS or not (
                    parent.local_name == "select" or
                    r.name == "option" and parent.local_name == "optgroup"):
            return False
        context = self._rw._context(node)
        if context.select is None or context.in_selectedcontent or context.tabular or \
                context.in_template or self._in_head():
            return False
        if not r.clean_start and not self._implied_ends_only():
            raise self._refuse(what, "its start tag closed, implied or reconstructed "
                                     "elements, which the other start tag would not")
        self._rw._track(r)
        return True

    def _implied_ends_only(self) -> bool:
        """Whether the element's start tag closed elements by implied end
        tags (an <option> the current node, an <rt> before an <rt>), and
        did nothing else the other start tag would not: end tags written
        for them before it (Rewriter._close_implied) close the same
        elements."""
        rw = self._rw
        return self._record.start is not None and not rw._reconstruction_pending(True) and \
            not _implied_beyond_document(rw._pushed_here) and \
            all(entry is not None and entry[1] and entry[0] in _IMPLIED_END
                for entry in rw._implied_pops)

    def _form_name_gone(self, what: str) -> None:
        """A form unwrapped or renamed: the parser's form element pointer
        is this form in the input (its start tag set it) and none in the
        output. A later form tag is written so that the output's parser
        does the same, or refused (Rewriter._form_tag); its own end tag
        makes both none again."""
        r = self._record
        rw = self._rw
        key = rw._node_key(r.node)
        if rw._form_dirty is not None or rw._form_pointer() != key:
            raise self._refuse(what, "the parser's form element pointer keeps it")
        rw._form_dirty = r.name
        rw._form_out = 0
        rw._form_kept = (r, key)
        rw._form_reason = ("<form>: without its start tag the output's form element pointer "
                           "is none where the input's is this form, which decides what the "
                           "parser does with a later form tag")

    def _root_frameset(self) -> bool:
        """Whether this is an HTML <frameset> child of the html element
        (the document's frameset, in place of a body). Without its tags the
        parser goes on in "after head" (or "in body") and inserts a <body>
        there or at the end of input: no output reparses to an html element
        with no body or frameset, which the DOM's removal leaves (`<head>
        </head><frameset></frameset>`: the removal was written, and the
        reparse had a body)."""
        r = self._record
        parent = r.node.parent_node
        return self._html() and r.name == "frameset" and parent is not None and \
            parent.node_type == 1 and parent.namespace_uri == _HTML_NS and \
            parent.local_name == "html"

    def _check_removable(self, what: str) -> None:
        if self._unlists_earlier_a():
            raise self._refuse(what, "its start tag may have taken an earlier <a> off the "
                                     "list of active formatting elements, which the parser "
                                     "would reconstruct without it")
        r = self._record
        parent = r.node.parent_node
        # (A foster-parented element: the text before it and after it is
        # the table's too.)
        separate = bool(r.foster) and what == "remove"
        if parent is not None and parent.node_type == 1 and parent.namespace_uri == _HTML_NS \
                and parent.local_name in _TABLE_CONTAINERS and r.name not in _TABLE_PARTS:
            separate = self._table_text_separated(what, parent.local_name)
        elif self._table_part_separated(what, parent):
            separate = True
        if self._html() and r.name == "form" and what not in ("remove", "replace",
                                                              "remove_and_keep_content"):
            raise self._refuse(what, "the parser's form element pointer keeps it")
        parent = r.node.parent_node
        if parent is not None and parent.node_type == 11:
            raise self._refuse(what, "the first element of a template's contents decides "
                                     "how the parser reads the rest")
        if self._html() and r.name in ("html", "head", "body"):
            raise self._refuse(what, "the parser makes <%s> again" % r.name)
        if what != "remove_and_keep_content" and self._root_frameset():
            raise self._refuse(what, "the parser makes a <body> in place of the document's "
                                     "<frameset>")
        if (r.start is not None or self._rw._end_tag_p(r)) and self._rw._after_body_mode(True):
            # (After </body> or </html>, its start tag (or the </p> that
            # made it) took the parser back into the body, where the
            # comments that follow go.)
            raise self._refuse(what, "without its start tag the parser stays after </body> "
                                     "or </html>, where it puts comments outside the body")
        reconstructed = r.implied and what == "remove_and_keep_content" and \
            self._rw._reconstructed_index(r) is not None
        # (The first formatting element reconstructed at a token is dropped
        # from there to its end; its end tag, when it has one, is written
        # to take the element the list holds for it off the list: _popped.)
        reconstructed = reconstructed or r.implied and what == "remove" and (
            self._rw._reconstructed_index(r) == 0 or self._rw._reconstructed_removal(r, False))
        if r.implied and what == "remove" and self._rw._reconstructed_index(r) == 0 and \
                len(self._rw._reconstructed_nodes) > 1:
            self._rw._removal_copies.append((r, list(self._rw._reconstructed_nodes[1:])))
        if r.implied and r.name != "p" and not reconstructed and not (
                what == "remove" and self._html() and r.name in ("tbody", "tr", "colgroup")):
            # (An implied table section, row or column group goes with the
            # token that implied it, up to its end: the table is parsed
            # without them and all they hold.)
            raise self._refuse(what, "the parser made this element without a start tag "
                                     "of its own (implied)")
        if _implied_beyond_document(r.implied_with) and not reconstructed and not (
                what == "remove" and self._table_parts_implied()) and not (
                what == "remove" and not (self._html() and r.name in _VOID) and
                self._rw._reopen_reconstructed(r, False)):
            # (A void element ends at its start tag, where the parser
            # reconstructed: its removal would be refused there, ending the
            # stream; refused here, where the handler can catch it.)
            raise self._refuse(what, "its start tag also made <%s>" % r.implied_with[-1])
        if separate:
            r.before.append(_TABLE_TEXT_SEPARATOR)

    def _unlists_earlier_a(self) -> bool:
        """Whether this <a>'s start tag may have taken an earlier <a> off
        the list of active formatting elements without popping anything:
        the "in body" rule for an <a> start tag runs the adoption agency
        for an <a> listed after the last marker, which only takes one that
        is not open off the list. Such an entry is not on the stack of open
        elements, so the parser had formatting elements to reconstruct when
        the token came (what is not open on the list comes after what is):
        without the start tag, the entry stays listed and the parser
        reconstructs it at the content that follows
        (`<p><a href=1>x</p><a>y</a>`: y unwrapped would be in a copy of
        the first <a>). Not known when the call comes after its token."""
        r = self._record
        rw = self._rw
        return r.name == "a" and self._html() and not r.implied and (
            r.batch != rw._batch or bool(rw._reconstruction_pending(True)))

    def _table_text_separated(self, what: str, parent: str) -> bool:
        """Whether an element of a table, a table part or a column group
        or frameset (a template, a hidden input, a style, a frame; not a
        form, which leaves the parser's form element pointer set) can be
        removed (a void one unwrapped) without joining the text
        around it; True when an end tag the table's insertion modes ignore
        (_TABLE_TEXT_SEPARATOR) goes in its place. In a table, a section or
        a row the parser collects a run of character tokens and keeps it in
        the table when it is all whitespace, else foster-parents all of it:
        without the element, the text before it and after it would make
        one run (' ' kept and 'x' fostered would become ' x' fostered).
        The ignored end tag ends the run where the element's start tag did.
        In a column group or a frameset each character is handled alone:
        nothing joins. Other edits (content unwrapped, a replacement) are
        refused: what they leave in the table the parser reads as the
        table's."""
        r = self._record
        if not (what == "remove" or what == "remove_and_keep_content" and self._html() and
                (r.name in _VOID or self._empty_template_unwrap())):
            raise self._refuse(what, "the text around it in a table would join and be "
                                     "foster-parented otherwise")
        if self._html() and r.name == "form":
            # (A form in a table is popped at once and leaves the form
            # element pointer set to it: a later form tag is ignored.)
            raise self._refuse(what, "the parser's form element pointer keeps it")
        return parent not in ("colgroup", "frameset")

    def _table_part_separated(self, what: str, parent: Any) -> bool:
        """Whether a table part (a caption, a column group, a section, a
        row, a cell) removed from a table, a section or a row needs an end
        tag the table's modes ignore in its place (_TABLE_TEXT_SEPARATOR),
        as the other elements of a table do (_table_text_separated). Its
        start tag (or the token that implied it) ended the run of the
        table's character tokens before it ("in table text": any other
        token inserts the pending run, kept in the table when it is all
        whitespace, else foster-parented whole), and the token after its
        end starts a new run: without its source the text before it and
        after it would make one run (`<table> <tbody></tbody>x`: ' ' kept
        and 'x' fostered would become ' x' fostered). The ignored end tag
        ends the run where its start tag did. (A column group or a
        frameset reads each character alone: nothing joins there.)"""
        r = self._record
        return what == "remove" and self._html() and r.name in _TABLE_PARTS and \
            parent is not None and parent.node_type == 1 and \
            parent.namespace_uri == _HTML_NS and parent.local_name in _TABLE_TEXT_HOLDERS and \
            parent.local_name != "colgroup"

    def _empty_template_unwrap(self) -> bool:
        """An HTML template in a table, a section or a row, unwrapped: when
        its contents turn out empty it is its removal (_unwrap_as_removal,
        checked at its end: nothing between its start tag and the token
        that ends it), with an end tag the table's modes ignore in its
        place (_table_text_separated) as for its removal."""
        r = self._record
        return r.name == "template" and not r.implied and r.start is not None and \
            not r.foster

    def _table_parts_implied(self) -> bool:
        """Whether what the element's start tag implied beyond html, head
        and body is table parts (a section, a row, a column group) that no
        handler gave a start tag: a removal writes theirs (_pushed_written),
        and the parser makes the same elements from them."""
        r = self._record
        parts = [name for name in _implied_before(r) if name not in ("html", "head", "body")]
        if not all(name in ("tbody", "tr", "colgroup") for name in parts):
            return False
        node = r.node.parent_node
        for _ in parts:
            if node is None or node.node_type != 1 or node.namespace_uri != _HTML_NS:
                return False
            other = self._rw._open.get(self._rw._node_key(node))
            if other is not None and (other.synthesized or other.mode):
                return False
            node = node.parent_node
        return True

    @_detached_body_deferred
    def remove_and_keep_content(self) -> None:
        if self._rw._end_tag_p(self._record) and not self._record.started:
            self.remove()       # (the <p> of a </p>: empty, unwrapped it is removed)
            return
        r = self._start_op("remove_and_keep_content")
        if r.name == "body" and self._detached_body_edit("remove_and_keep_content"):
            return
        self._check_removable("remove_and_keep_content")
        if self._html() and r.name == "table" and \
                self._empty_table_edit("remove_and_keep_content"):
            r.mode = _KEEP_CONTENT
            return
        if self._html() and (r.name in _TABLE_PARTS or r.name in _TABLE_CONTAINERS):
            # (An empty one would be its removal; whether it is empty is
            # known only at its end, and a refusal there would end the
            # stream: refused here, where the handler can catch it.)
            raise self._refuse("remove_and_keep_content", "the parser keeps frames only "
                                                          "in a frameset" if r.name == "frameset"
                               else "table parts are implied again")
        if self._html() and r.name in _VOID:
            r.mode = _REMOVED       # (no content to keep: a removal)
            return
        if self._html() and self._raw_text_element() and self._raw_text_unwrappable():
            # (Its tags are dropped, its text kept as text.)
            self._escape_raw_text()
            r.mode = _KEEP_CONTENT
            return
        if self._rcdata_renamable():
            # (Its tags are dropped, its text kept as text.)
            self._escape_raw_text(rcdata=True)
            r.mode = _KEEP_CONTENT
            return
        if not self._html() and self._foreign_unwrappable():
            # (Self-closing: no content to keep, a removal.)
            r.mode = _REMOVED if self.is_self_closing else _KEEP_CONTENT
            return
        if not self._html() or r.name in _SPECIAL_NAMES and r.name not in _FORMATTING and \
                not self._special_edit("remove_and_keep_content"):
            why = "without its start tag the parser would treat later end tags differently"
            if r.name == "template" and self._html() and self._template_text_unwrap(why):
                return
            if r.name == "noscript" and self._html() and self._head_noscript_unwrap(why):
                return
            if self._unwrap_text_only(why):
                return
            if self._unwrap_as_removal(why):
                return
            raise self._refuse("remove_and_keep_content", why)
        if r.name in _RAW_TEXT or r.name in _RCDATA or r.name in ("plaintext", "template") or \
                r.name == "noscript" and not self._body_noscript():
            why = "its content would be parsed differently without it"
            if self._unwrap_as_removal(why):
                return
            raise self._refuse("remove_and_keep_content", why)
        r.mode = _KEEP_CONTENT
        rw = self._rw
        if r not in rw._tracked:
            # (A start tag whose handling reads the current node, met while
            # it is that node: Rewriter._current_node_read. Its walks for
            # end tags pass over it as over an ordinary element.)
            rw._tracked.append(r)
            rw._plain_renames.add(r)

    def _head_noscript_unwrap(self, why: str) -> bool:
        """For a noscript in the head, scripting off: unwrapped with its
        content kept when that content turns out to be what "in head
        noscript" hands to the "in head" rules (whitespace, comments,
        basefont, bgsound, link, meta, style and noframes: checked at its
        own end tag, Rewriter._head_noscript_end) and doctypes (ignored by
        both). Without its tags the same tokens go by the "in head" rules
        with the head as the current node: the same elements go into the
        head, in the same order. The other tokens differ (a <noscript>
        start tag, </head>, </body>, </html> are ignored in it, not in the
        head): refused. Its start tag did nothing else (clean_start)."""
        r = self._record
        parent = r.node.parent_node
        if self._rw._scripting or r.implied or r.start is None or not r.clean_start or \
                r.implied_with or r.foster or parent is None or parent.node_type != 1 or \
                parent.namespace_uri != _HTML_NS or parent.local_name != "head":
            return False
        r.mode = _KEEP_CONTENT
        self._rw._text_only_unwraps[id(r)] = self._refuse("remove_and_keep_content", why)
        self._rw._loud(r)
        return True

    def _foreign_root_renamable(self) -> bool:
        """For an <svg> or <math> whose parent is an HTML element of the body
        (or of a cell's or caption's content): renamed to an ordinary HTML
        element when it turns out to hold text alone (besides comments,
        doctypes and CDATA sections, no "<": no tag; CDATA sections and
        NULs, which foreign content reads as U+FFFD and "in body" drops,
        written as escaped text: _escape_foreign_text) and to end with its own end tag
        (checked there, Rewriter._foreign_rename_end). The "in body" rules
        for its start tag and for the other's both reconstruct the active
        formatting elements and insert the element at the current node
        (frameset-ok unchanged); its start tag did nothing else
        (clean_start). Its attributes are written as in the input: the
        parser adjusts a foreign element's attribute names (SVG's camel
        case, MathML's definitionURL, the xlink/xml/xmlns namespaces) where
        an HTML element's stay as the tokenizer lowercased them, but the
        DOM's rename copies them with setAttribute by qualified name, which
        lowercases the name on an HTML element of an HTML document and
        makes an attribute of no namespace: the names the tokenizer read
        (lowercased, unique), as the reparse of the start tag gives them.
        Text in it goes by the
        rules for foreign content (inserted at the current node; non-
        whitespace sets frameset-ok to "not ok"), in the other by "in
        body" (the same, after reconstructing the active formatting
        elements: none is pending, as none was after its start tag). Its
        end tag pops it as the current node of its name, as the other's
        end tag pops the other. Nothing may be written inside it (markup
        there is read as foreign content in the DOM edit)."""
        r = self._record
        rw = self._rw
        node = r.node
        parent = node.parent_node
        if not (node.namespace_uri == _SVG_NS and r.name == "svg" or
                node.namespace_uri == _MATHML_NS and r.name == "math") or \
                r.implied or r.start is None or not r.clean_start or r.foster or \
                r.attributes_changed or r.mode or \
                _implied_beyond_document(r.implied_with) or r.batch != rw._batch or \
                not self._parent_in_body_content(parent) or rw._context(parent).foreign_in_table:
            return False
        rw._foreign_renames[id(r)] = self._refuse(
            "rename", "a foreign element's name decides how the parser treats its content")
        rw._loud(r)
        self._escape_foreign_text()
        return True

    def _escape_foreign_text(self, lead: bool = False) -> None:
        """For an <svg> or <math> renamed to an HTML element (_foreign_root_
        renamable): its text is written as the DOM's text, escaped, so that
        a CDATA section (which the tokenizer reads only in foreign content:
        "<![CDATA[" would be a bogus comment in the output) and a NUL
        (U+FFFD in foreign content, dropped by "in body") give the same
        characters in the renamed element. Characters of a CDATA section go
        by the foreign content rules as other text does (non-whitespace
        sets frameset-ok to "not ok"), as the escaped text goes by "in
        body". A NUL made U+FFFD does not set frameset-ok in foreign
        content, where U+FFFD written as text would: refused when the
        chunk has no other character than whitespace and NULs. (The source
        between its tags is checked at its end: Rewriter.
        _foreign_rename_end.)"""
        r = self._record
        rw = self._rw
        error = self._refuse("rename", "a foreign element's name decides how the parser "
                                       "treats its content") if not lead else self._refuse(
            "remove_and_keep_content", "without its start tag the parser would treat later "
                                       "end tags differently")
        first = [lead]

        def escape(chunk: TextChunk) -> None:
            text = chunk.text
            if "\ufffd" in text and not text.replace("\ufffd", "").strip("\t\n\f\r ") or \
                    chunk._before or chunk._after or chunk._removed:
                raise error     # (or a text handler's edit of it)
            rw._foreign_escaped = chunk
            chunk._before = chunk._after = _NOTHING
            chunk._replacement = _escape_text(text)
            if first[0] and text:
                # (Unwrapped: the first character as a reference.)
                chunk._replacement = "&#%d;" % ord(text[0]) + _escape_text(text[1:])
                first[0] = False
            chunk._removed = True

        r.text_handlers = list(r.text_handlers) + [escape]
        rw._scoped_open[rw._node_key(r.node)] = None

    def _parent_in_body_content(self, parent: Any) -> bool:
        """Whether `parent`, the element's parent, is an HTML element that
        the "in body" rules insert into: one of the body (not html or head,
        not in the head), or of a cell's or a caption's content
        (_in_cell_content); not a table container, a template, a select or
        an element in one, nor in a selectedcontent. (For
        _foreign_root_renamable and _empty_table_edit.)"""
        if parent is None or parent.node_type != 1 or parent.namespace_uri != _HTML_NS or \
                parent.local_name in _TABLE_CONTAINERS or parent.local_name in (
                    "html", "head", "template", "select", "option", "optgroup") or \
                self._in_head():
            return False
        context = self._rw._context(parent)
        return not (context.tabular and not self._in_cell_content() or
                    context.select is not None or context.in_selectedcontent or
                    context.in_template)

    def _detached_body_edit(self, what: str) -> bool:
        """For a body the parser made without a start tag while frameset-ok
        is "ok": renamed or unwrapped when it turns out that a <frameset>
        start tag took it out of the document ("in body": with frameset-ok
        still "ok", the frameset's start tag removes the body from its
        parent, pops it and inserts the frameset), checked when it is
        popped (Rewriter._detached_body_end). The DOM edit of an element
        out of the document changes nothing of the document, and the
        output is written as it would be unedited: the same tokens make
        the same tree. When the body stays in the document (no such
        <frameset>), refused there."""
        r = self._record
        rw = self._rw
        if not self._html() or not r.implied or r.start is not None or \
                not rw._parser_frameset_ok():
            return False
        error = self._refuse(what, "the parser makes <body> again")
        rw._detached_bodies[id(r)] = error
        rw._loud(r)
        rw._detached_note(r.node, error)    # (raised once the body is sure to stay)
        return True

    def _detached_state(self) -> Tuple[Any, ...]:
        """What an edit notes (of the element, and the rewriter's holds):
        a refusal of _detached_body_deferred must leave it as it was. (The
        lengths of the element's content lists, not copies: an edit adds
        to them, and a refused one puts back what it added,
        _undone_if_refused; attributes are changed only by an edit that
        passed its checks.)"""
        r, rw = self._record, self._rw
        return (len(r.before), len(r.after), len(r.prepend), len(r.append), r.mode,
                r.new_name, r.inner, r.attributes_changed, rw._frameset_written, rw._dropped,
                rw._hold_for, rw._hold, rw._split_at, rw._unlist_hold, rw._select_held,
                rw._frameset_hold)

    def _detached_content(self, what: str, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> None:
        """_detached_body_deferred, an edit refused for where it is: the
        checks of what it would write, as the edit runs them once its
        placement passed (a tag name, an attribute, content: Rewriter._check
        with the content written next to it), which raise at the call
        (ValueError, TypeError, a RewriteError marked content_refused).
        Whatever they note is put back (frameset-ok "not ok" written).
        Markup next to a body: see below."""
        r, rw = self._record, self._rw
        if what == "tag_name":
            name = args[0]
            if not isinstance(name, str) or not _NAME.match(name):
                raise ValueError("not a valid tag name: %r" % (name,))
            return
        if what == "_set_attribute":
            name, value = args
            if not isinstance(value, str):
                raise TypeError("value must be a str")
            if "\x00" in value:
                error = self._refuse("set_attribute", "the parser reads U+0000 in an "
                                     "attribute value (or a reference to it) as U+FFFD")
                error.content_refused = True    # type: ignore[attr-defined]
                raise error
            if not _NAME.match(name) and not re.match(r"^[^\t\n\f\r />\"'=<\x00]+$", name):
                raise ValueError("not a valid attribute name: %r" % (name,))
            return
        if what not in ("before", "after", "replace", "prepend", "append", "set_inner_content"):
            return      # (remove, remove_and_keep_content, remove_attribute: no content)
        content: Any = args[0] if args else kwargs.get("content")
        html = bool(args[1] if len(args) > 1 else kwargs.get("html", False))
        written = rw._frameset_written
        try:
            if what in ("before", "after", "replace"):
                if r.name == "body" and html and self._html():
                    # (Next to the body, in the html element, the parser
                    # keeps no content at all (_check_outside): there the
                    # content is checked for itself only, markup as a str.)
                    _Content(content, html)
                    return
                rw._check(self, content, html, "outside")
                return
            self._check_content_op(what)
            if what == "prepend":
                rw._check(self, content, html, "inside", open_end=True,
                          after="".join(c.text for c in reversed(r.prepend)))
            elif what == "append":
                rw._check(self, content, html, "inside",
                          before="".join(c.text for c in r.append))
            else:
                rw._check(self, content, html, "inside")
        finally:
            rw._frameset_written = written

    def _detached_deferral(self, error: RewriteError) -> bool:
        """_detached_body_deferred, with frameset-ok "ok": keeps `error`
        (Rewriter._detached_note) when the element is a body made without a
        start tag (also raised at its pop: Rewriter._detached_body_end), or
        an element inside the open body (the html element's body child: a
        <frameset> start tag would take it out). Returns whether it was
        kept."""
        r, rw = self._record, self._rw
        if r.name == "body" and self._html():
            if not r.implied or r.start is not None:
                return False
            rw._detached_bodies.setdefault(id(r), error)
            rw._loud(r)
            rw._detached_note(r.node, error)
            return True
        body = rw._open_body()
        if body is None:
            return False
        node = r.node.parent_node
        while node is not None and node is not body:
            node = node.parent_node
        if node is None:
            return False
        rw._detached_note(body, error)
        return True

    def _empty_table_edit(self, what: str) -> bool:
        """For an HTML table in body (or in a cell's or a caption's
        content): renamed to an ordinary element, or unwrapped, when it
        turns out to hold only what "in table" handles as "in body" does
        with an ordinary element as the current node: ASCII whitespace
        (the "in table text" rules insert text of whitespace alone at the
        current node; non-whitespace would be foster-parented), comments
        and bogus comments (inserted at the current node), doctypes
        (ignored by both); no tag, no character reference, no NUL
        (checked at its own end tag, Rewriter._empty_table_end). Its start
        tag did nothing else (clean_start: no <p> closed, nothing implied),
        where an ordinary start tag would reconstruct nothing either (none
        pending) and insert its element at the same place (no foster
        parenting; the parent an HTML element of the body, or of a cell's
        or caption's content, where "in cell" and "in caption" read start
        tags by the "in body" rules). Renamed, its start tag may have
        implied html, head and body, as the other start tag does; unwrapped,
        it may not (a comment or whitespace there goes elsewhere). Its own
        end tag pops it as the
        current node and resets the insertion mode to the parent's ("in
        body", "in cell" or "in caption"), where the ordinary element's end
        tag (or, unwrapped, nothing) leaves the mode unchanged. The table's
        start tag set frameset-ok to "not ok", which the other start tag
        does not: the rewrite counts as having dropped input (a later
        <frameset> is refused: Rewriter._frameset_token). Unwrapped at the
        start of a <pre> or <listing>, the whitespace would come first
        there, where the parser drops a newline: refused."""
        r = self._record
        rw = self._rw
        parent = r.node.parent_node
        if r.implied or r.start is None or not r.clean_start or r.foster or (
                    r.implied_with if what == "remove_and_keep_content"
                    else _implied_beyond_document(r.implied_with)) or \
                not self._parent_in_body_content(parent):
            return False
        if what == "remove_and_keep_content" and parent.local_name in ("pre", "listing") and \
                self._first_after_pre():
            return False
        if r.batch != rw._batch or rw._reconstruction_pending(True):
            return False
        rw._text_only_unwraps[id(r)] = self._refuse(
            what, "the table holds what the parser reads otherwise in a table")
        rw._loud(r)
        rw._dropped = True
        return True

    def _first_after_pre(self) -> bool:
        """For _empty_table_edit: whether this element's start tag is the
        token right after the start tag of its <pre> or <listing> parent,
        where the parser drops a newline that comes first (so would the
        whitespace the unwrapped table leaves there be dropped). Read from
        the tree builder at the element's own token (_at_newline_point), not
        from the element's previous sibling, which the bounded rewriter may
        have freed (a text node before it: `<listing>y<table>` was refused
        there and not with the whole tree kept); at a later call, True."""
        rw = self._rw
        if self._record.batch != rw._batch:
            return True
        return bool(rw._at_newline_point(rw._token_span()[0]) == 1)

    def _template_text_unwrap(self, why: str) -> bool:
        """For an HTML template in body: unwrapped with its contents kept
        when they turn out to be text without markup or NUL (checked at its
        own end tag, Rewriter._text_only_end, as for _unwrap_text_only).
        The template's start tag goes by the "in head" rules, which insert
        it, push a marker on the list of active formatting elements and
        the "in template" mode, and set frameset-ok to "not ok"; text in
        it goes by the "in body" rules, reconstructing nothing (the marker);
        its end tag pops it, clears the list to the marker and resets the
        insertion mode from its parent. Without its tags the text goes into
        the parent by the same "in body" rules: equal when nothing was to
        be reconstructed before its start tag (which did nothing else:
        clean_start), its parent is an HTML element of the body whose mode
        the reset finds again (not the head, html, a table's, a select's or
        a template's), and frameset-ok is "not ok" after it in the output
        too (text other than whitespace sets it; else the rewrite counts
        as having dropped input, and a later <frameset> is refused:
        _text_only_end, _frameset_token)."""
        r = self._record
        rw = self._rw
        parent = r.node.parent_node
        if r.implied or r.start is None or not r.clean_start or r.implied_with or r.foster or \
                parent is None or parent.node_type != 1 or parent.namespace_uri != _HTML_NS or \
                parent.local_name in _TABLE_CONTAINERS or parent.local_name in (
                    "html", "head", "template", "select", "option", "optgroup") or \
                self._in_head():
            return False
        context = rw._context(parent)
        if context.tabular or context.select is not None or context.in_selectedcontent or \
                context.in_template:
            return False
        if r.batch != rw._batch or rw._reconstruction_pending(True):
            return False
        r.mode = _KEEP_CONTENT
        rw._text_only_unwraps[id(r)] = self._refuse("remove_and_keep_content", why)
        rw._loud(r)
        return True

    def _unwrap_text_only(self, why: str) -> bool:
        """For a foreign element (not self-closing) whose tags the parser
        reads otherwise than an ordinary one's (an integration point, or
        in an element of another namespace): unwrapped with its content
        kept when that content turns out to be text without markup or NUL
        (Rewriter._text_only_end, at its own end tag). Its start tag did
        nothing else (r.clean_start) where the parser was (not
        foster-parented), and its parent is neither an integration point
        (nor annotation-xml) nor an element whose insertion mode reads
        text itself (a table's, the head, html, template): the text is read
        the same with the parent as the current node (in the data state,
        with nothing to reconstruct: none was at its start tag, and text
        lists none), and its end tag did nothing else."""
        r = self._record
        parent = r.node.parent_node
        if self._foreign_root_unwrap(parent):
            r.mode = _KEEP_CONTENT
            self._rw._text_only_unwraps[id(r)] = self._refuse("remove_and_keep_content", why)
            self._rw._loud(r)
            self._escape_foreign_text(lead=True)
            self._rw._foreign_root_unwraps.add(id(r))
            return True
        if self._html() or self.is_self_closing or r.implied or r.start is None or \
                not r.clean_start or r.implied_with or r.foster or parent is None or \
                parent.node_type != 1:
            return False
        if parent.namespace_uri == _HTML_NS:
            if parent.local_name in _TABLE_CONTAINERS or \
                    parent.local_name in ("html", "head", "template"):
                return False
        elif _integration_point(parent) or parent.local_name == "annotation-xml":
            return False
        r.mode = _KEEP_CONTENT
        self._rw._text_only_unwraps[id(r)] = self._refuse("remove_and_keep_content", why)
        self._rw._loud(r)
        return True

    def _foreign_root_unwrap(self, parent: Any) -> bool:
        """For _unwrap_text_only: whether r is an <svg> or <math> whose
        parent is an HTML element the "in body" rules insert into
        (_parent_in_body_content, not foreign content in a table), as for
        _foreign_root_renamable: its text goes into the parent written
        escaped (_escape_foreign_text: CDATA sections and NULs as the
        DOM's characters, the first as a character reference, so that it
        joins nothing before it), and its end may come with the end of
        input or with a token that pops it from the top of the stack (a
        start tag, </br> or </p> breaking out of foreign content, an
        ancestor's end tag): without it, the same token does the same with
        its parent as the current node (Rewriter._text_only_end). Its start
        tag did nothing else (clean_start) but imply html, head and body,
        for which the start tag of the body is written in its place, as
        for any element unwrapped there."""
        r = self._record
        node = r.node
        rw = self._rw
        if not (node.namespace_uri == _SVG_NS and r.name == "svg" or
                node.namespace_uri == _MATHML_NS and r.name == "math") or \
                r.implied or r.start is None or not r.clean_start or r.foster or \
                r.self_closing or r.attributes_changed or r.mode or \
                _implied_beyond_document(r.implied_with) or r.batch != rw._batch or \
                not self._parent_in_body_content(parent) or \
                rw._context(parent).foreign_in_table:
            return False
        return True

    def _unwrap_as_removal(self, why: str) -> bool:
        """For an element whose tags cannot be dropped with its content
        kept (a special, raw text or foreign element, a template): with no
        content, unwrapping it is removing it. Taken as a removal where one
        is accepted; at its end (Rewriter._empty_unwrap_end) nothing may
        lie between its start tag and the token that ends it, else
        RewriteError with `why`."""
        r = self._record
        if r.implied or r.start is None:
            return False
        try:
            self._check_select_mirror("remove_and_keep_content")
        except RewriteError:
            return False
        self._note_form_pointer()
        r.mode = _REMOVED
        self._rw._empty_unwraps[id(r)] = self._refuse("remove_and_keep_content", why)
        return True

    def _foreign_unwrappable(self) -> bool:
        """Whether the foreign element can lose its tags with its content
        kept: its parent is an element of its namespace, and neither is
        an integration point (annotation-xml included): the content is
        read as foreign content with either as the current node (the
        parser's walks for end tags, breakouts and scopes pass over both
        alike). How it ends is checked at its end (Rewriter._popped)."""
        r = self._record
        node = r.node
        parent = node.parent_node
        if r.implied or r.foster or parent is None or parent.node_type != 1 or \
                parent.namespace_uri != node.namespace_uri:
            return False
        return not any(_integration_point(n) or n.local_name == "annotation-xml"
                       for n in (node, parent))

    def _raw_text_element(self) -> bool:
        """Whether the (HTML) element is parsed as raw text: script, style,
        ...; noscript when scripting is on (its content is then text, as
        a noframes' is); plaintext (text to the end of input)."""
        r = self._record
        return r.name in _RAW_TEXT or r.name == "plaintext" or \
            r.name == "noscript" and bool(self._rw._scripting)

    def _raw_text_unwrappable(self) -> bool:
        """Whether the raw text element (script, style, ...) can lose its
        tags with its text kept as the parent's text: its start tag was
        clean (closed nothing, nothing to reconstruct: the text would be
        wrapped in copies where the element was not), and its parent keeps
        text (an element of the body, not a table part's or a select's;
        the head, for whitespace only: other text is refused when it comes)."""
        r = self._record
        parent = r.node.parent_node
        if not r.clean_start or r.implied or r.foster or parent is None or \
                parent.node_type != 1 or parent.namespace_uri != _HTML_NS or \
                parent.local_name in ("html", "select", "option", "optgroup",
                                      "template") or \
                parent.local_name in _TABLE_CONTAINERS or \
                self._in_head() and parent.local_name != "head":
            return False
        context = self._rw._context(r.node)
        return not (context.tabular or context.select is not None or context.in_selectedcontent)

    def _rcdata_renamable(self) -> bool:
        """Whether a title or textarea of the body can lose its name (a
        rename to an ordinary element, remove_and_keep_content) with its
        text written escaped (_escape_raw_text): its text is one text node
        the parser made of RCDATA, which an ordinary element's escaped text
        makes again, where _raw_text_unwrappable says the parent takes that
        text (not in head: a title there stays in the head). The end tag of
        a renamed one is written with the new name (or left out: unwrapped).
        A textarea's start tag set frameset-ok to "not ok", which the escaped
        text does only when it has more than whitespace: a later <frameset>
        gets a <body> tag written before it, or is refused (Rewriter._dropped,
        _frameset_body)."""
        r = self._record
        return self._html() and r.name in _RCDATA and not self._in_head() and \
            r.node.parent_node is not None and r.node.parent_node.local_name != "head" and \
            self._raw_text_unwrappable()

    def _escape_raw_text(self, rcdata: bool = False) -> None:
        """A raw text element unwrapped or renamed to an ordinary element:
        its text is written as text (escaped: the DOM's text, with the
        first character of the first chunk as a character reference, so
        that it does not join what comes before it). A later <frameset> is
        refused: the text sets frameset-ok."""
        r = self._record
        first = [True]
        in_head = r.node.parent_node.local_name == "head"

        def escape(chunk: TextChunk) -> None:
            if chunk._raw_text is None and not rcdata:
                return
            chunk._raw_text = None
            parts = list(chunk._before) + [chunk._replacement if chunk._removed
                                           else chunk.text] + list(chunk._after)
            text = "".join(part for part in parts if part)
            if not text:
                chunk._removed = True
                chunk._replacement = None
                chunk._before = chunk._after = _NOTHING
                return
            if in_head:
                # (Whitespace stays in <head>: written as it is; other text
                # would leave it.)
                if text.strip("\t\n\f\r "):
                    raise RewriteError("<%s>: its text would leave <head> without its "
                                       "tags" % r.name)
                chunk._before = chunk._after = _NOTHING
                chunk._replacement = text
                chunk._removed = True
                return
            lead = ""
            if first[0]:
                lead = "&#%d;" % ord(text[0])
                text = text[1:]
            first[0] = False
            chunk._before = chunk._after = _NOTHING
            chunk._replacement = lead + _escape_text(text)
            chunk._removed = True

        r.text_handlers = list(r.text_handlers) + [escape]
        self._rw._scoped_open[self._rw._node_key(r.node)] = None
        self._rw._dropped = True

    def on_end_tag(self, fn: Callable[["EndTag"], Any]) -> None:
        r = self._record
        self._late_refused("on_end_tag", start=False)
        if r.ended:
            raise ValueError("<%s>: on_end_tag after the element's end" % r.name)
        self._rw._loud(r)
        r.end_handlers.append(fn)

    def _fostered_text_before(self, content: str, html: bool) -> bool:
        """Text before an element the parser foster-parented: written
        before its start tag, in the table, the parser foster-parents it
        too, right before the element, when it has a character other than
        whitespace (and NUL, which the table drops) and no text of the
        input joins it in the table's pending text (the input has a '>'
        right before the start tag: a tag, a comment, or text with that
        character ends there)."""
        r = self._record
        rw = self._rw
        if not r.foster or not _fostered_text(content, html) or r.start is None:
            return False
        begin = r.start[0]
        return bool(begin - 1 >= rw._raw_base and rw._source(begin - 1, begin) == b">")

    def _foreign_table_text_before(self, what: str, content: str, html: bool) -> None:
        """Text first in content before a foreign element whose start tag
        the parser read in a table's insertion mode without foster-parenting
        the element itself (it foster-parented the formatting elements it
        reconstructed for it first, and put the element into the last of
        them: `<table><b><table>\n<svg>`). Written before the start tag,
        the text is a run of the table's character tokens, and joins the
        input's text right before the start tag: whitespace there ('\n'),
        kept in the table in the input, would be foster-parented with it.
        Refused unless the input has a '>' right before the start tag (a
        tag or a comment ends there, as _fostered_text_before has it for an
        element foster-parented itself). (The checks of an HTML element's
        neighbours refuse content before an element whose start tag
        reconstructed: _check_outside.)"""
        r = self._record
        rw = self._rw
        if self._html() or r.foster or r.start is None or \
                rw._counters(-1)[0] == r.fostered:
            return
        if html and isinstance(content, str) and content[:1] == "<" and \
                (content[1:2].isalpha() or content[1:2] in ("!", "/", "?")):
            return      # (a tag or a comment first: it ends the input's run)
        begin = r.start[0]
        if begin - 1 >= rw._raw_base and rw._source(begin - 1, begin) == b">":
            return
        raise self._refuse(what, "text written before it joins the text before it in the "
                                 "table's pending text")

    def _fostered_markup_before(self, content: str, html: bool) -> bool:
        """Markup before an element the parser foster-parented: written
        before its start tag, in the table, the parser foster-parents its
        elements too, right before the element (the table's insertion
        modes hand them to the "in body" rules with foster parenting), when
        it is elements only at its top level (text or a comment there the
        table would keep or join to its pending text), holds no tag those
        modes read themselves (_TABLE_MODE_TAG, _TABLE_KEEPS_TAG) and none
        that looks for an open one of its kind past the table (a, nobr),
        and nothing is to
        reconstruct before the start tag (its elements would go into the
        copies, and the element after them)."""
        r = self._record
        if not r.foster or not html or not isinstance(content, str) or r.start is None or \
                not content.startswith("<") or _TABLE_MODE_TAG.search(content) or \
                _TABLE_KEEPS_TAG.search(content) or \
                self._rw._reconstruction_pending(True):
            return False
        construction = TreeConstruction(self._rw._scripting)
        construction.set_fragment_context("div", NAMESPACES["html"], None)
        construction.feed_text(content)
        fragment = construction.finish_fragment()
        return all(node.node_type == 1 for node in fragment.child_nodes)

    def _table_end_before_ok(self, content: str, html: bool) -> bool:
        """Content before a <table> that goes at the table's end instead
        (Rewriter._defer_to_table_end): the DOM edit puts it right before
        the table, after all the content the parser foster-parents out of
        the table while it is open, which writing it before the start tag
        would put after. Written just before what ends the table, where the
        current node is the table, a section or a row (checked there,
        Rewriter._table_end_close), the table's insertion modes hand it to
        the "in body" rules with foster parenting: the parser inserts it
        right before the table, after everything fostered earlier, as the
        DOM edit has it; and a table that fosters nothing gets it there
        too. Taken for text with a character other than whitespace (the
        table's pending text is fostered whole then; whitespace alone
        stays in the table) and for markup that is elements only at its
        top level (text or a comment there would stay in the table or join
        its pending text) with no tag the table's modes read themselves
        (_TABLE_MODE_TAG, _TABLE_KEEPS_TAG: script and style go into the
        table), no formatting or marker element (their entries on the list
        of active formatting elements would outlive the elements the
        table's end pops, and an <a> looks for an open one past the table)
        and no raw text, RCDATA or foreign element (the tokenizer or the
        foreign content rules would read the table's end). The elements'
        own content is parsed as in the DOM edit's fragment: the current
        node is one of them, and the "in body" rules' scopes stop at the
        table. Only while no content of the edit went before its start tag
        (the order of the calls is kept), and not for a table removed,
        replaced, unwrapped or renamed (refused at its end)."""
        r = self._record
        rw = self._rw
        if r.name != "table" or not self._html() or r.implied or r.before or r.mode or \
                r.new_name is not None:
            return False
        if _fostered_text(content, html):
            return True
        if not html or not isinstance(content, str) or not content.startswith("<") or \
                _TABLE_MODE_TAG.search(content) or _TABLE_KEEPS_TAG.search(content) or \
                _TABLE_END_UNSAFE_TAG.search(content):
            if id(r) in rw._table_end_before:
                raise self._refuse("before", "content before it went to its end (where the "
                                             "parser foster-parents it after what it "
                                             "fostered earlier): this content cannot follow")
            return False
        construction = TreeConstruction(rw._scripting)
        construction.set_fragment_context("div", NAMESPACES["html"], None)
        construction.feed_text(content)
        fragment = construction.finish_fragment()
        if all(node.node_type == 1 for node in fragment.child_nodes):
            return True
        if id(r) in rw._table_end_before:
            raise self._refuse("before", "content before it went to its end (where the "
                                         "parser foster-parents it after what it fostered "
                                         "earlier): this content cannot follow")
        return False

    def _dropped_inside(self, content: str, html: bool) -> bool:
        """Markup for the content of a <colgroup> or a <frameset> that the
        parser drops there whole (the fragment parsing algorithm with the
        element as its context makes no nodes of it: text, and elements
        but <col>, <frame>, <frameset>, <noframes> and <template>): the DOM
        edit adds nothing, and neither does the rewrite (written there, the
        parser would foster-parent what a colgroup drops)."""
        r = self._record
        if not html or not self._html() or r.name not in ("colgroup", "frameset"):
            return False
        return self._fragment_makes_nothing(r.name, content)

    def _fragment_makes_nothing(self, context: str, content: str) -> bool:
        """Whether the fragment parsing algorithm with an HTML element of
        this name as its context makes no nodes of `content`."""
        construction = TreeConstruction(self._rw._scripting)
        construction.set_fragment_context(context, NAMESPACES["html"], None)
        construction.feed_text(content)
        return construction.finish_fragment().first_child is None

    def _dropped_beside(self, content: str, html: bool) -> bool:
        """Markup next to a child of a <colgroup> or a <frameset> that the
        parser drops there whole (the fragment parsing algorithm with the
        parent as its context makes no nodes of it, as _dropped_inside
        finds for content inside them): the DOM edit (insertAdjacentHTML
        in the parent's context) adds nothing, and neither does the
        rewrite; written there, the parser would foster-parent what a
        colgroup drops. (The parent of such a child never changes: the
        adoption agency does not reach into a colgroup or a frameset.)"""
        parent = self._record.node.parent_node
        if not html or not isinstance(content, str) or parent is None or \
                parent.node_type != 1 or parent.namespace_uri != _HTML_NS or \
                parent.local_name not in ("colgroup", "frameset"):
            return False
        return self._fragment_makes_nothing(parent.local_name, content)

    def _self_closed(self, what: str, html: bool) -> bool:
        """Whether it is a foreign element its own self-closing start tag
        closed (the tree builder popped it at that token), in its handler:
        content for it is written in its place as `<x>content</x>`, which
        the parser reads as the same element holding that content
        (Rewriter._pushed_written). Its contents are kept in r.prepend,
        last first, in the DOM's order (append inserts at the front,
        set_inner_content replaces them): it has none of its own. Markup
        is refused: an element it leaves open would keep the end tag
        written after it from closing the element."""
        if self._record.started or not self._rw._self_closed(self._record):
            return False
        if html:
            raise self._refuse(what, "a self-closing foreign element has no content: its "
                                     "end tag written after markup may not close it")
        return True

    def _check_content_op(self, what: str) -> None:
        r = self._record
        if r.node.namespace_uri == "http://www.w3.org/1999/xhtml" and r.name in _VOID:
            raise ValueError("<%s> is a void element: it has no content (%s)" % (r.name, what))

    def __repr__(self) -> str:
        return "<rewriter Element %s>" % self.tag_name


# The start tags the "in template" insertion mode processes with the rules
# of "in head", which leave its mode as it is.
_TEMPLATE_HEAD_TAGS = frozenset("base basefont bgsound link meta noframes script style "
                                "template title".split())


def _template_ignored_end_tags(end_tag: "EndTag") -> bool:
    """Whether the parser met a </p> or </br> end tag token in the
    template's "in template" insertion mode (before its first start tag
    but the ones "in template" reads as "in head" does), which ignores
    them, where "in body", which a start tag prepended to it switches to,
    makes a <p> or a <br>: the tokens are watched from the template's
    start tag on (Rewriter._template_mode_token). True when they were not
    (the prepend came after its start tag's token)."""
    state = end_tag._rw._template_modes.pop(end_tag._record, None)
    return state is None or state[2]


def _template_prepend_end(end_tag: "EndTag") -> None:
    """Markup with a start tag prepended to a template (Element.prepend),
    checked at its end: when its contents' first element is a table part,
    refused. The first start tag in a template decides the insertion mode
    its contents are read in ("in row" for a <td>, "in body" for a <div>),
    so the markup's would have the parser read the input's table parts in
    another mode (a <td> after a <div> is ignored) than the DOM edit, which
    inserts the markup's nodes before them."""
    r = end_tag._record
    if r.node.namespace_uri != _HTML_NS:
        return
    # (The start tags "in template" processes with the rules of "in head"
    # leave the mode as it is: the first other one decides.)
    first = next((c for c in r.node.content.child_nodes if c.node_type == 1 and not (
        c.namespace_uri == _HTML_NS and c.local_name in _TEMPLATE_HEAD_TAGS)), None)
    if first is not None and first.local_name in _TABLE_PARTS or \
            _template_ignored_end_tags(end_tag):
        raise RewriteError("<template>: markup with a start tag before its first element, a "
                           "table part (or before a </p> or </br> it ignores), changes the "
                           "insertion mode the parser reads its contents in")


def _foreign_table_end(end_tag: "EndTag") -> None:
    """The end of an edited element in foreign content inside a table or a
    template (Element._foreign_in_table): refused unless
    - the end of the input pops it (whose insertion mode rules pop nothing
      before the content written at the end), or
    - an end tag of its own pops it alone, or
    - it was the current node when the token that pops it came, and its
      edits leave it open there (content inside or before it, attributes):
      the token then meets the input's stack of open elements."""
    rw = end_tag._rw
    r = end_tag._record
    handlers = r.end_handlers
    if handlers[-1] is not _foreign_table_end:
        # (Checked after the handlers registered after it, which may write
        # after the end or remove the end tag: _popped calls it again.)
        handlers.append(_foreign_table_end)
        return
    if rw._at_eof or end_tag._own and len(rw._popped_nodes) == 1:
        return
    stays_open = not (r.after or end_tag.after_content or end_tag._removed or
                      r.mode in (_REMOVED, _KEEP_CONTENT) or r.new_name is not None)
    if not (stays_open and rw._popped_nodes and rw._popped_nodes[0] is r.node):
        raise RewriteError("<%s>: foreign content inside a table or a template: what "
                           "closes it here is read by the table's insertion modes, "
                           "which the edited output would not follow" % r.name)


# Tags whose start or end tag a table's insertion mode reads otherwise than
# the "in body" mode of a fragment parse in foreign content's integration
# points does: markup holding one is refused there (Rewriter._check).
_TABLE_MODE_TAG = re.compile(
    r"<\s*/?\s*(?:table|caption|colgroup|col|tbody|thead|tfoot|tr|td|th|template"
    r"|form|input|html|head|body|frameset|select)(?![^\s/>])", re.I)


# Besides _TABLE_MODE_TAG's, tags a table's insertion modes read otherwise
# than "anything else" (which the "in body" rules handle with foster
# parenting: script, style) and tags whose "in body" rules look for an open
# element of their kind past the table (a, nobr): markup holding one is not
# foster-parented as a whole (Element._fostered_markup_before).
_TABLE_KEEPS_TAG = re.compile(r"<\s*/?\s*(?:script|style|a|nobr)(?![^\s/>])", re.I)

# The elements open above a table at its end that an end tag written there
# does not pop alone, as the table's end would (Rewriter._table_end_close):
# besides the formatting elements (the adoption agency algorithm), marker
# elements (their end tag clears the list of active formatting elements),
# the form (its pointer), and what the table's modes or the "in body"
# rules read otherwise.
_TABLE_END_UNCLOSABLE = frozenset(
    "applet marquee object template table form frameset html head body tbody thead tfoot "
    "tr td th caption colgroup col".split())


# Tags that markup written at a table's end may not hold
# (Element._table_end_before_ok): formatting and marker elements (entries
# of the list of active formatting elements), raw text, RCDATA and foreign
# elements (what ends the table would be read as their content).
_TABLE_END_UNSAFE_TAG = re.compile(
    r"<\s*/?\s*(?:%s|applet|marquee|object|textarea|title|xmp|iframe|noembed|noframes"
    r"|noscript|plaintext|svg|math)(?![^\s/>])" % "|".join(sorted(_FORMATTING)), re.I)


class EndTag:
    """The end of an element (Element.on_end_tag)."""
    __slots__ = ("_rw", "_record", "_own", "before_content", "after_content", "_removed")

    def __init__(self, rw: "Rewriter", record: _Record, own: bool) -> None:
        self._rw = rw
        self._record = record
        self._own = own
        self.before_content: List[_Content] = []
        self.after_content: List[_Content] = []
        self._removed = False

    @property
    def name(self) -> str:
        return self._record.new_name or self._record.name

    @property
    def implied(self) -> bool:
        """True when the element ends without an end tag of its own."""
        return not self._own

    def before(self, content: str, *, html: bool = False) -> None:
        # Content before the end tag is the element's last child, as
        # Element.append writes it: the same placement checks (a void
        # element has no content; the parser foster-parents what is
        # written at a table part's end and moves what is written at the
        # end of <html>, <head> and what <head> holds).
        r = self._record
        element = self._element()
        element._check_content_op("before its end tag")
        if r.new_name is not None and r.node.namespace_uri == _HTML_NS and \
                r.new_name in _VOID | _TABLE_CONTAINERS | {"html", "head"}:
            raise element._refuse("before its end tag", "its new name's element takes no "
                                                        "content written at its end")
        element._check_inside("append", element._head_ok(content, html))
        self.before_content.append(self._rw._check_end(r, content, html, "inside"))

    def after(self, content: str, *, html: bool = False) -> None:
        # Content after the end tag is the element's next sibling, as
        # Element.after writes it: the same placement checks.
        r = self._record
        element = self._element()
        if r.foster:
            raise element._refuse("after its end tag", "the parser moved this element out "
                                                       "of its table (foster parenting)")
        element._check_outside("after", element._head_ok(content, html))
        self.after_content.append(self._rw._check_end(r, content, html, "outside"))

    def _element(self) -> "Element":
        r = self._record
        if r.element is None:
            r.element = Element(self._rw, r)
        element: Element = r.element
        return element

    def remove(self) -> None:
        if self._own:
            self._removed = True


_NOTHING: Tuple[str, ...] = ()


class _Unit(UnitBase):
    """A comment, text chunk or doctype handed to a handler (its fields:
    UnitBase)."""
    __slots__ = ()

    def __init__(self, span: Tuple[int, int]) -> None:
        self._span = span
        # (Shared empty tuples until something is added: most units are
        # only read.)
        self._before = _NOTHING
        self._after = _NOTHING
        self._replacement = None
        self._removed = False

    def _content(self, content: str, html: bool) -> str:
        if not isinstance(content, str):
            raise TypeError("content must be a str")
        if html:
            return _markup_newlines(content)
        _refuse_nul_text("insert text", content)
        return _escape_text(content)

    def before(self, content: str, *, html: bool = False) -> None:
        if self._before is _NOTHING:
            self._before = []
        self._before.append(self._content(content, html))

    def after(self, content: str, *, html: bool = False) -> None:
        if self._after is _NOTHING:
            self._after = []
        self._after.append(self._content(content, html))

    def replace(self, content: str, *, html: bool = False) -> None:
        self._replacement = self._content(content, html)
        self._removed = True

    def remove(self) -> None:
        self._removed = True

    @property
    def removed(self) -> bool:
        return self._removed


class Comment(_Unit):
    __slots__ = ("_text", "_new_text")

    def __init__(self, span: Tuple[int, int], text: str) -> None:
        super().__init__(span)
        self._text = text
        self._new_text: Optional[str] = None

    @property
    def text(self) -> str:
        return self._new_text if self._new_text is not None else self._text

    @text.setter
    def text(self, value: str) -> None:
        if "-->" in value or "--!>" in value or value.startswith(">") \
                or value.startswith("->") or value.endswith("-") or "<!--" in value \
                or "\r" in value or "\x00" in value:
            raise ValueError("comment text cannot round-trip: %r" % (value,))
        self._new_text = value


class TextChunk(_Unit, TextChunkBase):
    # (Its fields: TextChunkBase; the engine's fast path makes it without
    # a call to __init__, and sets them as it does.)
    __slots__ = ()

    def __init__(self, span: Tuple[int, int], text: str, last: bool,
                 raw_text: Optional[str] = None) -> None:
        super().__init__(span)
        self.text = text
        self.last_in_text_node = last
        # The HTML raw text element (script, style, ...) the chunk is in:
        # content is written there as is (character references are not
        # decoded in raw text), and refused where it would end it.
        self._raw_text = raw_text

    def _content(self, content: str, html: bool) -> str:
        name = self._raw_text
        if name is None:
            return super()._content(content, html)
        if not isinstance(content, str):
            raise TypeError("content must be a str")
        if html:
            raise RewriteError("text in <%s>: markup cannot be written in raw text" % name)
        if "\r" in content or "\x00" in content:
            raise RewriteError("text in <%s>: the parser reads a CR in raw text as a LF, and "
                               "U+0000 as U+FFFD (nothing is decoded there)" % name)
        # Content that ends the element early by itself is refused here,
        # before anything is written (the handler may go on); one that
        # does so only with the text around it is found when the chunk is
        # written: Rewriter._check_raw_text.
        if name != "plaintext" and (
                re.search(r"</%s[\t\n\f\r />]" % name, content, re.I)
                or name == "script" and "<!--" in content):
            raise RewriteError("text in <%s>: the text written would end <%s> early (or "
                               "change how the parser reads the rest of it)" % (name, name))
        return content


class Doctype(_Unit):
    __slots__ = ("name", "public_id", "system_id")

    def __init__(self, span: Tuple[int, int], name: Optional[str],
                 public_id: Optional[str], system_id: Optional[str]) -> None:
        super().__init__(span)
        self.name = name
        self.public_id = public_id
        self.system_id = system_id


class DocumentEnd:
    __slots__ = ("_content",)

    def __init__(self) -> None:
        self._content: List[str] = []

    def append(self, content: str, *, html: bool = False) -> None:
        if not isinstance(content, str):
            raise TypeError("content must be a str")
        if not html:
            _refuse_nul_text("document end: append", content)
        self._content.append(_markup_newlines(content) if html else _escape_text(content))


Input = Union[bytes, bytearray, memoryview]

# What max_memory counts for each open matched element: its _Record, the
# Element and node proxies, their lists and dict entries (1.9 KB of peak
# RSS each for 200,000 nested <div>s under a handler on `*`, where the
# arena holds 121 bytes each; uncounted, a million nested elements grew
# 1.9 GB past any max_memory).
_OPEN_RECORD_BYTES = 2048
# The written input kept for the checks that read back from the output's
# end (Rewriter._flush_settled).
_LOOKBACK = LOOKBACK
# The longest input _eof_raw_end_tag parses again whole (a script whose
# start tag the rewriter did not see).
_WHOLE_INPUT_CHECK = 65536


class Rewriter(RewriterCore):
    """A streaming rewriter: register handlers with on() / on_document(),
    then feed() bytes and close(); each returns the output ready so far
    (or, with `sink`, passes it to sink and returns b"")."""

    _element_class = Element        # (what the engine's fast path makes)
    _text_chunk_class = TextChunk

    def __init__(self, *, encoding: Optional[str] = None,
                 default_encoding: Optional[str] = None, scripting: bool = True,
                 max_memory: Optional[int] = None,
                 sink: Optional[Callable[[bytes], Any]] = None,
                 max_memory_pass_through: bool = False) -> None:
        self._transport = _encoding.lookup(encoding) if encoding is not None else None
        self._default = _encoding.lookup(default_encoding) if default_encoding is not None else None
        self._scripting = bool(scripting)
        if max_memory is not None and (not isinstance(max_memory, int) or max_memory <= 0):
            raise ValueError("max_memory must be a positive int")
        self._max_memory = max_memory
        # Past max_memory: raise (False) or write the rest of the input
        # unchanged (True; _passing once it has happened).
        self._memory_pass_through = bool(max_memory_pass_through)
        self._passing = False
        self._sink = sink
        self._element_handlers: List[Tuple[Any, Optional[Callable[..., Any]],
                                           Optional[Callable[..., Any]],
                                           Optional[Callable[..., Any]]]] = []
        self._doctype: List[Callable[..., Any]] = []
        self._doc_text: List[Callable[..., Any]] = []
        # (Scripts whose appended text is checked again at their end:
        # _check_append; the records' ids.)
        self._script_appends: Set[int] = set()
        self._script_exact: Any = None
        self._doc_comments: List[Callable[..., Any]] = []
        self._doc_end: List[Callable[..., Any]] = []
        self._started = False
        self._closed = False
        self._error: Optional[BaseException] = None
        self._str_input = False
        # The input: raw bytes from stream offset _raw_base on.
        # The input's decoding (lexpy/rewriter/decoding.pyx): lexpy.parse's
        # sniffing, the UTF-8 the tokenizer reads, the map back to the
        # input's bytes from stream offset _mapped_from on.
        self._input = InputDecoder(self._transport.id if self._transport is not None else -1,
                                   self._default.id if self._default is not None else -1)
        self._mapped_from = _NO_MAP
        # The encoding inserted content is written in: None for UTF-8 (and
        # str input), "" while autodetection has not decided (ASCII and
        # character references only), else the document's encoding.
        self._out_encoding: Optional[str] = ""
        self._rest_written = False
        self._raw = bytearray()
        self._raw_base = 0
        self._emitted = 0               # stream offset written so far
        self._out = bytearray()
        self._out_tail = b""
        self._ready: Optional[bytes] = None     # output cut from the input at a flush
        self._taken = 0                 # output bytes handed out so far (_take)
        # The select holding an edited option, and the output offset from
        # which output is held back while it is open (_hold_for_select).
        self._select_held: Optional[Tuple[Any, int]] = None
        # Element state.
        self._open: Dict[int, _Record] = {}
        # A record's count differs from _moves once the adoption agency
        # moved it or its content (its formatting element or furthest
        # block: _moved), and the open records whose start edits are
        # written (such a move refuses them): no walk over every open
        # record per move.
        self._moves = 0
        # The record whose late match's handlers run (_late_match).
        self._late_call: Optional[_Record] = None
        self._eof_comment_closed = False
        # (the comment the input ends inside is not in the output as the
        # input has it: _close_eof_comment)
        self._eof_comment_dropped = False
        self._eof_cdata_closed = False      # ("]]>" written: _close_eof_cdata)
        self._eof_events: List[Any] = []      # (the end of input's stack events)
        self._eof_raw_closed = False        # (the end tag written: _close_eof_raw_text)
        self._eof_raw_node: Any = None      # (the raw text element the input ends in)
        # (whether the current node at the end of input may be a foreign
        # element: only there can the input end in a CDATA section)
        self._eof_foreign = True
        self._eof_raw_written = ""          # (text written at its end: _eof_raw_before_end_tag)
        self._frameset_written = False      # (frameset-ok "not ok" written: _frameset_token)
        # Output held from the first edit in the body while the parser's
        # frameset-ok flag is "ok": (output offset, input offset, the body)
        # (_frameset_watch); the flag read "not ok" once (settled), a
        # <frameset> the parser took with the output cut back (_frameset_cut).
        self._frameset_hold: Optional[Tuple[int, int, Any]] = None
        self._frameset_settled = False
        self._frameset_cut = False
        self._frameset_body_written = False  # (a <body> written for it: _frameset_body)
        self._text_edited_to = -1           # (where the last edited text chunk ends)
        self._start_written_at = -1         # (where _pushed_written last wrote a start)
        self._script_start: Optional[Tuple[Any, int]] = None    # (the last script's start)
        self._start_edited: Dict[int, _Record] = {}
        # Removed elements the adoption agency moved, by id: [the record,
        # the formatting element's name when it was the furthest block (its
        # end tag is written at its end), the token] (_moved).
        self._furthest_dropped: Dict[int, List[Any]] = {}
        # (_agency_in_dropped: id of a record -> the end tag to write at its
        # end ("" when the adoption agency's token ended it), the token,
        # the record.)
        self._agency_dropped: Dict[int, Tuple[str, int, _Record]] = {}
        self._moved_batch = -1          # (the last token the adoption agency ran at)
        self._eof_unlisted = False      # (end tags written at the end of input: _eof_unlist)
        # (removed at the end of input with entries of the list of active
        # formatting elements inside it: _eof_drop_listed)
        self._eof_dropped: Optional[_Record] = None
        # (a reconstructed formatting element removed and closed without its
        # end tag, and where it ended: _listed_drop_end)
        self._listed_drop: Optional[Tuple[_Record, int]] = None
        # Entries of the list of active formatting elements that end tags
        # written before content took off (the input's keep them): (name,
        # attributes, element) in list order until the parser reconstructs
        # them, and the output held back from there (_unlist_for_copies).
        self._unlisted: Optional[List[Tuple[str, Tuple[Tuple[str, str], ...], Any]]] = None
        self._unlist_hold: Optional[int] = None
        self._unlist_closing: List[Any] = []        # (their elements closed here)
        # (The list where a removed formatting element's start tag began,
        # without its entry, by the record's id, with the record:
        # _formatting_before_drop, _drop_unlists.)
        self._drop_lists: Dict[int, Tuple[_Record, List[Any]]] = {}
        # A formatting element with content appended to it, whose children
        # may be the adoption agency's furthest block (_hold_point): the
        # record, the output's index where its furthest block's start tag
        # begins (output from there is held back: _take), that element,
        # and the key of the furthest block the algorithm used for it.
        self._hold_for: Optional[_Record] = None
        # (The elements from its furthest block's parent up to it, when it
        # is not that parent: _split_chain.)
        self._hold_chain: List[Any] = []
        self._hold: Optional[int] = None
        self._hold_node: Any = None
        self._hold_furthest: Optional[int] = None
        self._hold_after: Optional[int] = None   # (after its start tag, when splittable)
        # An element with content before it or at its start that the
        # adoption agency may take as its furthest block (_split_watch):
        # its record, its parent (the formatting element), and the output's
        # indexes where its start tag begins and where its content begins.
        self._split: Optional[_Record] = None
        self._split_chain_nodes: List[Any] = []
        # (_agency_second_formatting: the furthest block of the first step,
        # r's parent; the token at which that step ran.)
        self._split_second: Any = None
        self._split_second_batch = -1
        self._split_at: Optional[int] = None
        self._split_after: Optional[int] = None
        # (_split_deep_chain: the special elements between the formatting
        # element's chain and the split element, outermost first; the
        # later ones pushed inside it, with the output's indexes where
        # their start tags begin and end, _split_later_point; the split
        # element whose steps were written at this batch.)
        self._split_deep: Optional[List[Any]] = None
        self._split_later: List[List[Any]] = []
        self._split_deep_batch = -1
        self._split_deep_record: Optional[_Record] = None
        self._split_eof_only: Dict[int, _Record] = {}   # (_split_eof_end)
        self._clones_after: Dict[int, _Record] = {}    # (_adoption_clone_after)
        self._formatting_at_drop: Dict[int, Any] = {}   # (_drop_keeps_formatting)
        self._markers_at_drop: Dict[int, Any] = {}      # (_drop_behind_marker)
        self._closed_at_drop: Dict[int, Tuple[_Record, List[Any]]] = {}  # (_drop_took_closed)
        self._skip: Optional[_Record] = None
        self._comment_parts: Optional[List[Any]] = None
        self._scoped_text: List[Callable[..., Any]] = []
        self._contexts: Dict[int, Tuple[Any, _Context]] = {}
        self._selects: Dict[int, Tuple[Any, bool]] = {}
        self._contexts_limit = 256
        # Closed subtrees are freed as the parse goes (off: the whole
        # document stays, for tests that compare it).
        self._bounded = True
        self._sweep_min = 256       # closed elements queued before a sweep
        self._scoped_open: Dict[int, None] = {}     # open records with text/comment handlers
        self._scoped_comments: List[Callable[..., Any]] = []
        # (Counted in C for every element pushed: set from its figures as
        # each event is handled.)
        self._foster_count = 0
        # (The removed or replaced records the parser foster-parented an
        # element out of while they were open: _fostered_push.)
        self._foster_out: Set[int] = set()
        # (Open tables with content written before them, by record id: the
        # record and the keys of the elements the parser foster-parented
        # inside it while it was open: _fostered_inside_tables.)
        self._tables_before: Dict[int, List[Any]] = {}
        # (Content before a table written at its end instead, by record id:
        # the record and the contents, Element._table_end_before_ok.)
        self._table_end_before: Dict[int, List[Any]] = {}
        # (Removed tables whose foster-parented text is written in their
        # place, by record id: _removed_table_text.)
        self._table_text_kept: Dict[int, Any] = {}
        # (The removed or replaced table containers, by id: their table and
        # what was before it when the edit was made (_foster_text_mark).)
        self._foster_text_marks: Dict[int, Tuple[Any, Any, int]] = {}
        self._plaintext = False
        self._forms = 0
        self._afe_edited: Dict[str, _Record] = {}
        # (Elements unwrapped as removals, by id, with the error if they
        # have content: Element._unwrap_as_removal.)
        self._empty_unwraps: Dict[int, RewriteError] = {}
        # (unwrapped records whose start tag's implied ends got end tags in
        # its place: _unwrap_start_closed; the records, not their ids,
        # which a later record could take)
        self._unwrapped_closed: Set[_Record] = set()
        # (The record whose start tag gets the formatting elements
        # reconstructed for it written out before its content:
        # _reopen_reconstructed.)
        self._reopened: Optional[_Record] = None
        # (Elements unwrapped if their content is text alone: checked at
        # their end, Rewriter._text_only_end.)
        self._text_only_unwraps: Dict[int, RewriteError] = {}
        # (Element._detached_body_edit: id of a body record -> the refusal
        # raised at its pop when it is still in the document.)
        self._detached_bodies: Dict[int, RewriteError] = {}
        # (Element._detached_deferral, _detached_body_edit: the body an
        # edit kept was of or in, and the first refusal kept, raised once
        # that body is sure to stay in the document: _detached_settle.)
        self._detached_pending: Optional[Tuple[Any, RewriteError]] = None
        # (Element._foreign_root_renamable: id of a record -> the refusal
        # raised at its end unless it held text alone.)
        self._foreign_renames: Dict[int, RewriteError] = {}
        # (The text chunk of a renamed <svg> or <math> written escaped:
        # Element._escape_foreign_text; not a handler's edit.)
        self._foreign_escaped: Optional[TextChunk] = None
        # (The <svg> and <math> of Element._foreign_root_unwrap, and the one
        # whose end _text_only_end took, for _popped.)
        self._foreign_root_unwraps: Set[int] = set()
        self._foreign_root_closed: Optional[_Record] = None
        # (The renamed element whose start tag broke out of foreign content,
        # at that token: Element._foreign_breakout_renamable.)
        self._breakout_rename: Optional[_Record] = None
        # (Names of those a copy cannot be written for: _explicit_copies.)
        self._afe_unwritable: Set[str] = set()
        self._reconstructed_nodes: List[Any] = []
        self._explicit: List[Any] = []
        # The first element reconstructed at this token when the parser
        # foster-parented it (_first_reconstructed_fostered), else None.
        self._reconstructed_fostered: Any = None
        # (the token whose reconstructed copies _copies_of_unlisted wrote
        # start tags for)
        self._copies_written = -1
        self._unlisted_copies: List[Any] = []   # (the copies _copies_of_unlisted wrote)
        self._split_reconstructed: Optional[_Record] = None  # (_reconstruction_split)
        self._inner_copies_unlisted: Set[int] = set()  # (_reconstructed_inner_content)
        self._removal_unlisted: List[_Record] = []  # (_reconstructed_removal)
        # (_removal_copies_listed: a removed first reconstructed copy and
        # the copies made inside it at its token.)
        self._removal_copies: List[Tuple[_Record, List[Any]]] = []
        # (The <a> or <nobr> whose adoption agency run came before the
        # token's reconstruction, its end tag not written yet:
        # _reconstructed_after_agency.)
        self._reconstruction_agency: Optional[str] = None
        self._agency_end_written = False     # (written at this token: _close_implied)
        self._dropped = False           # some input was dropped (frameset-ok)
        self._skip_newline_at: Optional[int] = None
        self._skip_lf_only_at: Optional[int] = None
        # Where output was last made to differ from the input right after
        # the start tag of pre, listing or textarea (_newline_first).
        self._newline_done = -1
        # Open records of special elements renamed or unwrapped: every token
        # is watched while there are any (_DROPPABLE_SPECIAL).
        self._tracked: List[_Record] = []
        self._plain_renames: Set[_Record] = set()   # (see Element.tag_name)
        self._select_ruby_failed: Dict[_Record, str] = {}   # (see _track_select_ruby)
        # Templates with a start tag prepended: [the current node after the
        # last token, its mode decided, an end tag it ignored met] (see
        # _template_mode_token).
        self._template_modes: Dict[_Record, List[Any]] = {}
        self._form_dirty: Optional[str] = None   # (see _popped)
        self._form_starts: Dict[Any, int] = {}   # (see Element._note_form_pointer)
        # While _form_dirty is set: the output's form element pointer (the
        # source element it stands for: 0 none, -1 not known), the form
        # unwrapped or renamed while open, and the refusal's reason (see
        # _form_tag).
        self._form_out = -1
        self._form_check_token = False
        self._token_events: Tuple[Any, ...] = (-1, (), "", 0, 0)
        self._form_kept: Optional[Tuple[Any, int]] = None
        self._form_reason = ""
        self._head_appended = False              # (see Element._check_inside)
        self._after_body = False                 # (see _after_body_token)

    # -- registration ----------------------------------------------------
    def on(self, selectors: str, *, element: Optional[Callable[[Element], Any]] = None,
           text: Optional[Callable[[TextChunk], Any]] = None,
           comments: Optional[Callable[[Comment], Any]] = None) -> "Rewriter":
        """Call `element` with each element that `selectors` (a selector
        list a stream can decide; SelectorSyntaxError names a construct
        that needs content not seen yet) matches, at its start tag, and
        `text`/`comments` with the text chunks and comments inside it.
        Before the first feed() only; returns the rewriter."""
        self._check_open("on")
        if self._started:
            raise ValueError("handlers must be registered before the first feed()")
        selector = _decidable_selector(selectors)
        self._element_handlers.append((selector, element, text, comments))
        return self

    def on_document(self, *, doctype: Optional[Callable[[Doctype], Any]] = None,
                    text: Optional[Callable[[TextChunk], Any]] = None,
                    comments: Optional[Callable[[Comment], Any]] = None,
                    end: Optional[Callable[[DocumentEnd], Any]] = None) -> "Rewriter":
        """Handlers for the whole document: the doctype, every text chunk,
        every comment, and `end` (which may append content) once the input
        has ended. Before the first feed() only; returns the rewriter."""
        self._check_open("on_document")
        if self._started:
            raise ValueError("handlers must be registered before the first feed()")
        if doctype is not None:
            self._doctype.append(doctype)
        if text is not None:
            self._doc_text.append(text)
        if comments is not None:
            self._doc_comments.append(comments)
        if end is not None:
            self._doc_end.append(end)
        return self

    # -- input -----------------------------------------------------------
    def _check_open(self, what: str) -> None:
        if self._error is not None:
            raise ValueError("the rewriter stopped at an error: %s: %s"
                             % (type(self._error).__name__, self._error)) from self._error
        if self._closed:
            raise ValueError("%s: the rewriter is closed" % what)

    def _start(self) -> None:
        self._started = True
        if not (self._element_handlers or self._doctype or self._doc_text
                or self._doc_comments or self._doc_end):
            # No handler of any kind: nothing can change, and the output is
            # the input as it comes (bytes in whatever encoding). Nothing is
            # parsed, sniffed or held.
            self._passing = True
            return
        self._construction = TreeConstruction(self._scripting)
        # (Text handlers need the stack events too: the raw text element a
        # text chunk is in. Every token comes here while an element with
        # text or comment handlers is open: _set_watch_all.)
        # (The document end's checks read the end of input's stack events:
        # _check_document_end.)
        # (Comment handlers too: an edit in an <option> is held until its
        # select ends, and only the stack events release it:
        # _hold_for_select.)
        self._attach(self._construction, bool(self._element_handlers or self._doc_text or
                                              self._doc_comments or self._doc_end),
                     bool(self._doctype or self._doc_text or self._doc_comments),
                     [selector for selector, _, _, _ in self._element_handlers],
                     self._bounded, self._sweep_min,
                     text_unread=not self._doc_text and all(
                         text is None for _, _, text, _ in self._element_handlers),
                     end_handlers=bool(self._doc_end))
        # (<meta> encodings: while autodetection waits, one decides it)
        self._input.watch(self._construction)

    def feed(self, data: Input) -> bytes:
        """Rewrite the next chunk of input (split anywhere); returns the
        output ready so far (b"" with a sink). A handler's exception
        propagates and finishes the rewriter."""
        self._check_open("feed")
        if not isinstance(data, (bytes, bytearray, memoryview)):
            # (bytes(42) would be 42 NULs)
            raise TypeError("feed takes bytes, not %s" % type(data).__name__)
        if not self._started:
            self._start()
        if self._passing:
            # (No handler, or past max_memory: passed through.)
            self._out += data
            return self._take()
        try:
            self._feed_bytes(bytes(data))
            if self._detached_pending is not None:
                self._detached_settle(False)
        except BaseException as error:
            self._fail(error)
        return self._take()

    def close(self) -> bytes:
        """End of input: runs the end events of the elements still open
        and the document's end handlers; returns the rest of the output."""
        self._check_open("close")
        if not self._started:
            self._start()
        if self._passing:
            self._closed = True
            return self._take()
        try:
            if not self._str_input:
                self._feed_bytes(None)
            if self._detached_pending is not None:
                self._detached_settle(True)
            self._closed = True
            self._run(lambda: self._construction.finish())
            self._copy_to(self._stream_length())
            self._write_rest()
            self._check_nothing_held()
        except BaseException as error:
            self._fail(error)
        self._closed = True
        return self._take()

    def _check_nothing_held(self) -> None:
        """At close: output held back for a select (_hold_for_select) is
        released by the select's pop; held still, it would be lost."""
        if self._select_held is not None:
            raise RuntimeError("internal error: the rewriter holds output for a <select> "
                               "at the end of input")

    def _fail(self, error: BaseException) -> None:
        if self.failure is not None:
            error = self.failure
        self._error = error
        self._out.clear()
        self._ready = None
        raise error

    def _take(self) -> bytes:
        if (self._hold is not None or self._split_at is not None or
                self._unlist_hold is not None) and not self._closed:
            # (Output from the hold points is kept: content may go there.)
            if self._ready is not None:
                self._out_ready()
            keep = min(i for i in (self._hold, self._split_at, self._unlist_hold)
                       if i is not None)
            out = bytes(self._out[:keep])
            del self._out[:keep]
            self._shift_holds(-keep)
        else:
            if self._ready is not None:
                out = self._ready
                self._ready = None
                if self._out:
                    out += self._out
            else:
                out = bytes(self._out)
            self._out.clear()
        if self._frameset_hold is not None:
            out = self._frameset_held(out)
        if self._select_held is not None:
            # (Held back from an edit in a select on, while it is open:
            # _hold_for_select; before what the hold points keep.)
            cut = max(0, self._select_held[1] - self._taken)
            if cut < len(out):
                self._out[:0] = out[cut:]
                self._shift_holds(len(out) - cut)
                out = out[:cut]
        self._taken += len(out)
        self._out_tail = (self._out_tail + out[-_JOIN_WINDOW:])[-_JOIN_WINDOW:]
        if self._sink is not None:
            if out:
                self._sink(out)
            return b""
        return out

    def _out_mark(self, position: Optional[int]) -> int:
        """The input copied to the output up to `position` (if given), and
        the output so far in _out: its length there, a hold point."""
        if position is not None:
            self._copy_to(position)
        if self._ready is not None:
            self._out_ready()
        return len(self._out)

    def _shift_holds(self, count: int) -> None:
        """count bytes went to the front of _out (or, negative, left it):
        the hold points (offsets into it) move by as many."""
        if self._hold is not None:
            self._hold += count
            if self._hold_after is not None:
                self._hold_after += count
        if self._unlist_hold is not None:
            self._unlist_hold += count
        if self._split_at is not None:
            self._split_at += count
            if self._split_after is not None:
                self._split_after += count
            for later in self._split_later:
                later[1] += count
                later[2] += count

    def _stream_length(self) -> int:
        return self._raw_base + len(self._raw)

    def _decide_encoding(self) -> None:
        """The input decoder has decided the encoding (as lexpy.parse
        sniffs): write the byte order mark, and encode inserted content
        in the document's encoding from now on."""
        name = self._input.encoding or "UTF-8"     # (decided: never None)
        bom = self._input.bom_length
        if bom:
            if self._ready is not None:
                self._out_ready()
            self._out += {"UTF-8": b"\xef\xbb\xbf", "UTF-16LE": b"\xff\xfe",
                          "UTF-16BE": b"\xfe\xff"}[name]
        # (Input that was all ASCII and declared nothing reads the same in
        # UTF-8: content inserted at its end is written in UTF-8, which the
        # output's own autodetection then finds.)
        self._out_encoding = None if name == "UTF-8" or self._input.ascii_undeclared else name

    def _feed_bytes(self, data: Optional[bytes]) -> None:
        """Decode a chunk (None: the end of the input) and tokenize it."""
        decided = self._input.decided
        stream = self._input.feed(data) if data is not None else self._input.finish()
        if not decided and self._input.decided:
            self._decide_encoding()
        self._mapped_from = self._input.mapped_from
        self._accept(stream)
        if not self._input.decided:
            # (a <meta> in the ASCII tokenized while autodetection waits
            # decides the encoding, as in lexpy.parse; else autodetection)
            more = self._input.take_indication()
            if self._input.decided:
                self._decide_encoding()
                self._mapped_from = self._input.mapped_from
                self._accept(more)

    def _feed_str(self, text: str) -> None:
        self._str_input = True
        self._out_encoding = None
        data = text.encode("utf-8", "surrogatepass")
        if self._passing:
            self._out += data
            return
        self._accept(data)

    def _input_offset(self, stream: int) -> int:
        return stream if self._str_input else int(self._input.offset(stream))

    # (_accept, which tokenizes a chunk of the (UTF-8) stream and flushes
    # what is settled: RewriterCore's, in engine.pyx.)

    def _flush_settled(self) -> None:
        settled = self._construction_settled()
        if self._comment_parts:
            # (A comment that came in pieces is held until its handlers
            # have seen it whole: they may remove or change it.)
            settled = min(settled, self._comment_parts[0][0])
        if settled > self._emitted and not self._out and self._ready is None \
                and settled <= self._mapped_from and self._skip is None and self._skip_newline_at is None \
                and self._skip_lf_only_at is None:
            # (The common case: the input passes through; the bytes out
            # are cut from it at once, without the output buffer.)
            with memoryview(self._raw) as raw:
                self._ready = bytes(raw[self._emitted - self._raw_base:settled - self._raw_base])
            self._emitted = settled
        else:
            self._copy_to(settled)
        if self._max_memory is not None:
            # The input held (not yet written: the unfinished token; a
            # removed element's source being skipped is not held; and the
            # written input kept behind it) and the
            # state (the engine's _state_bytes: the arena, which keeps the
            # open elements with their attributes and text, what the tree
            # builder or a handler holds, and the free lists of what was
            # freed). The output of a feed is returned (or sunk) at its end.
            # (The unfinished token counts twice: its input bytes here and
            # the tokenizer's copy of what it has read of it.)
            # (The input kept behind the output counts too: the look-back
            # and an open script's source, up to SCRIPT_KEPT: len(_raw).)
            held = (len(self._raw) + self._stream_length() - self._emitted
                    + self._input.held_bytes
                    + self._state_bytes() + len(self._open) * _OPEN_RECORD_BYTES)
            if self._hold is not None or self._split_at is not None \
                    or self._select_held is not None or self._unlist_hold is not None \
                    or self._frameset_hold is not None:
                held += len(self._out)      # (output held back: _take)
            if held > self._max_memory:
                if self._memory_pass_through:
                    self._pass_rest_through()
                    return
                raise RewriteError("max_memory (%d bytes) exceeded: %d bytes held"
                                   % (self._max_memory, held))
        # Drop what is written but the last _LOOKBACK bytes (what the end
        # of input checks read back: _check_join, _eof_position), once
        # that many more are written: the next chunk is then appended to
        # a few KiB, not copied with all the input kept so far. (Not an
        # open script's source, nor the input from where output is held
        # for a <frameset>: input_kept.)
        drop = self._emitted - self._raw_base - _LOOKBACK
        drop = self.input_kept(self._raw_base, drop, self._stream_length()) \
            if drop > _LOOKBACK else 0
        if drop:
            del self._raw[:drop]
            self._raw_base += drop
            if self._mapped_from != _NO_MAP and self._frameset_hold is None:
                self._input.release(self._emitted)

    def _pass_rest_through(self) -> None:
        """max_memory_pass_through: past max_memory the input not written
        yet, and all input after it, is written unchanged; handlers run no
        more (edits of elements still open, end tags and document-end
        insertions, are not made). Output held for a <frameset>
        (_frameset_watch) is written too, the edits made before the limit
        in it (a <frameset> after them is then read as the output has it)."""
        if self._ready is not None:
            self._out_ready()
        self._frameset_hold = None
        self._out += self._input.unwritten(self._raw, self._raw_base, self._emitted,
                                           self._stream_length())
        self._emitted = self._stream_length()
        self._passing = True
        self._select_held = None        # (no handler runs again: _take writes it all)
        # (No edit is made any more: nothing is held back.)
        self._hold_for = self._hold = self._hold_node = self._hold_furthest = None
        self._unlisted = self._unlist_hold = None
        self._split_end()
        self._raw.clear()
        self._raw_base = self._emitted

    def _construction_settled(self) -> int:
        # Every token that starts before the settled offset has been handled.
        held, _ = self._construction.buffered()
        return self._stream_length() - held

    def _source(self, begin: int, end: int) -> bytes:
        return bytes(self._raw[begin - self._raw_base:end - self._raw_base])

    # -- ancestor context ------------------------------------------------
    def _has_selectedcontent(self, select: Any) -> bool:
        found = self._selects.get(id(select))
        if found is None or not found[1]:
            # (Not cached when none is found: a <selectedcontent> may come
            # later in the select.)
            found = (select, select.query_selector("selectedcontent") is not None)
            self._selects[id(select)] = found
        return bool(found[1])

    def _hold_for_select(self, select: Any) -> bool:
        """An edit inside `select`, which holds no <selectedcontent> yet: a
        <selectedcontent> inserted into it later would get a copy of its
        selected option as the input has it (the DOM edit's), where the
        reparse copies the edited one. Output from here on is held back
        (_take) until the select ends (released) or a <selectedcontent>
        comes into it (refused before the edit is written:
        _select_events); the engine hands over both tokens. False when
        output is held for another select still open."""
        if not self._is_open(select):
            # (It ended at this token, whose end tag handlers run now: no
            # <selectedcontent> can come into it, and no pop would release.)
            return True
        if self._select_held is not None:
            return self._select_held[0] is select
        self._select_held = (select, self._taken + len(self._ready or b"") + len(self._out))
        self._hold_select(select)
        return True

    def _select_events(self, events: List[Any]) -> None:
        """A token while output is held for a select (_hold_for_select):
        a <selectedcontent> pushed into it refuses the edit (but inside
        content being dropped), its pop releases the output."""
        assert self._select_held is not None
        select = self._select_held[0]
        for event in events:
            node = event[1]
            if event[0] == "pushed" and node.local_name == "selectedcontent" and \
                    node.namespace_uri == _HTML_NS and select.contains(node) and \
                    not (self._skip is not None and self._skip.node.contains(node)):
                # (One inside content the rewrite drops is not written.)
                raise RewriteError("<select>: an edit in it: the parser copies the selected "
                                   "option into the <selectedcontent> that comes after it")
            if event[0] == "popped" and node is select:
                self._select_held = None
                self._hold_select(None)
                return

    # -- output ----------------------------------------------------------
    def _copy_to(self, position: int) -> None:
        if position <= self._emitted:
            return
        if self._skip_newline_at is not None and self._emitted > self._skip_newline_at:
            self._skip_newline_at = None    # (the input there was left out whole)
        if self._skip_newline_at is not None and self._emitted == self._skip_newline_at:
            self._skip_newline_at = None
            first = self._raw[self._emitted - self._raw_base]
            reference = re.match(rb"&#[xX]0*[aA](?![0-9a-fA-F]);?|&#0*10(?![0-9]);?|&NewLine;",
                                 bytes(self._raw[self._emitted - self._raw_base:
                                                 position - self._raw_base]))
            if reference is not None:
                self._emitted += reference.end()
            elif first == 0x0A:
                self._emitted += 1
            elif first == 0x0D:
                self._emitted += 1
                if position > self._emitted and self._raw[self._emitted - self._raw_base] == 0x0A:
                    self._emitted += 1
                elif position == self._emitted:
                    self._skip_lf_only_at = self._emitted
            if position <= self._emitted:
                return
        if self._skip_lf_only_at is not None and self._emitted == self._skip_lf_only_at:
            self._skip_lf_only_at = None
            if self._raw[self._emitted - self._raw_base] == 0x0A:
                self._emitted += 1
            if position <= self._emitted:
                return
        if self._skip is None:
            if self._ready is not None:
                self._out_ready()
            if position > self._mapped_from:
                # (The input's own bytes: not UTF-8, or invalid UTF-8.)
                self._out += self._input.original(self._raw, self._raw_base, self._emitted,
                                                  position)
            elif position - self._emitted < 4096:
                self._out += self._raw[self._emitted - self._raw_base:position - self._raw_base]
            else:
                with memoryview(self._raw) as raw:
                    self._out += raw[self._emitted - self._raw_base:position - self._raw_base]
        self._emitted = position

    def _write_rest(self) -> None:
        """At the end: input bytes after the last character (an escape
        sequence that ends ISO-2022-JP input, ...)."""
        if not self._rest_written and self._mapped_from != _NO_MAP and self._skip is None \
                and self._emitted == self._stream_length():
            self._rest_written = True
            if self._ready is not None:
                self._out_ready()
            self._out += self._input.rest(self._emitted)

    def _out_ready(self) -> None:
        # (Output is written after the bytes cut at the last flush.)
        assert self._ready is not None
        self._out[:0] = self._ready
        self._ready = None

    def _emit(self, content: Union[str, bytes], context: str = "markup") -> None:
        """Write content at the output's end: str in the document's
        encoding ("markup": text, attribute values and markup, where
        characters the encoding lacks become character references; "raw":
        the contents of a raw text element, where they are a
        RewriteError)."""
        if self._ready is not None:
            self._out_ready()
        if self._skip is None:
            if content and self._emitted != self._newline_done:
                self._newline_first(content if isinstance(content, str) else None)
            if isinstance(content, str) and content[:1] == "\n" and self._out_ends_in_cr():
                content = self._after_cr(content, context)
            if not isinstance(content, str):
                self._out += content
            elif self._out_encoding is None:
                self._out += content.encode("utf-8")
            else:
                self._out += self._input.inserted(
                    encode_inserted(content, self._out_encoding or None, context))

    def _newline_first(self, content: Optional[str] = None) -> None:
        """Output that differs from the input starts here (content written,
        or input left out): where that is right after the start tag of pre,
        listing or textarea, before any other token, the parser ignores a
        newline that comes first. One is written first, which it ignores,
        so that it reads what follows as written, and the input's own
        newline there (which it ignored) is left out (_skip_newline_at).
        Called at every such point: _emit (with the content: nothing is
        written when it cannot start with a newline and the token there
        does not start with one), and where input is left out."""
        position = self._emitted
        if self._skip is not None or position == self._newline_done:
            return
        where = self._at_newline_point(position) or self._eof_newline_point(position)
        if not where:
            return
        self._newline_done = position
        if content is not None and content[:1] not in ("\n", "&") and where == 1 and (
                self._token_kind() != "text" or self._token_text()[:1] != "\n"):
            return
        self._emit("\n")
        self._skip_newline_at = position

    def _eof_newline_point(self, position: int) -> int:
        """At the end of input, where the input ends inside a tag the
        parser drops (`<pre><a b`: end of file in a tag emits nothing), so
        that content written at the end goes before that tag
        (_eof_position): the next token after a pre, listing or textarea
        start tag is then the end-of-file token, whose offset is the end of
        the stream (where _at_newline_point finds it), and the written
        content, right after that start tag, is where the parser ignores a
        newline that comes first. _at_newline_point's value for the
        end-of-file token there, else 0."""
        if not self._at_eof:
            return 0
        length = self._stream_length()
        if position >= length or position != self._eof_position():
            return 0
        found: int = self._at_newline_point(length)
        return found

    def _out_ends_in_cr(self) -> bool:
        """Whether the output written so far ends in a carriage return,
        which the parser joins with a line feed written after it into one
        newline."""
        tail = bytes(self._out[-2:]) if len(self._out) >= 2 else \
            (self._out_tail + bytes(self._out))[-2:]
        if self._out_encoding and self._out_encoding.lower().startswith("utf-16"):
            return tail == ("\r".encode("utf-16-be" if self._out_encoding.lower()
                                         .endswith("be") else "utf-16-le"))
        return tail[-1:] == b"\r"

    def _after_cr(self, content: str, context: str) -> str:
        """Content that starts with a line feed, written after a carriage
        return: that line feed is written as a character reference, which
        the parser does not join with it (in raw text, refused)."""
        if context == "raw":
            raise RewriteError("content that starts with a line feed after a carriage "
                               "return in raw text: the parser joins them into one newline")
        return "&#10;" + content[1:]

    def _emit_contents(self, contents: List[_Content], record: _Record, inside: bool) -> None:
        if contents and self._eof_dropped is not None and self._eof_dropped is not record:
            raise RewriteError("<%s>: content written at the end of input after <%s> was "
                               "removed, whose content held elements of the list of active "
                               "formatting elements: the output's list differs there, and "
                               "the parser could reconstruct other elements around it"
                               % (record.name, self._eof_dropped.name))
        if contents and self._listed_drop_open():
            self._refuse_listed_drop(record)
        for content in contents:
            text = self._render(content, record, inside)
            self._check_after_body(content, text, record)
            if text and self._skip is None:
                self._check_join(record, text, inside)
            self._emit(text, self._context_of(content, record, inside))

    def _check_after_body(self, content: _Content, text: str, record: _Record) -> None:
        """Markup that starts with a comment (after whitespace), written
        where the parser is after </body> or </html> (before or after the
        token handled): the comment goes to the html element or the
        document there, not where the DOM edit puts it (its parse in the
        holder); whitespace stays in "after body", and any other token
        takes the parser back into the body."""
        if content.html and _LEADING_COMMENT.match(text) and (
                self._after_body_mode(True) or self._after_body_mode()):
            raise RewriteError("<%s>: insert markup: the parser is after </body> or </html> "
                               "here, where it puts a comment outside the current element"
                               % record.name)

    def _context_of(self, content: _Content, record: _Record, inside: bool) -> str:
        """What encode_inserted is to take the content as: "raw" for text
        written into a raw text element, else "markup"."""
        return "raw" if not content.html and inside and \
            (record.name in _RAW_TEXT | {"plaintext"} or
             record.name == "noscript" and self._scripting) and \
            record.node.namespace_uri == _HTML_NS else "markup"

    def _check_join(self, record: _Record, text: str, inside: bool = False) -> None:
        """Content written right after the input written so far must not
        join with it into another token."""
        if self._plaintext:
            raise RewriteError("<%s>: after <plaintext> everything is text: content "
                               "cannot be written" % record.name)
        if self._ready is not None:
            self._out_ready()
        before = (self._out_tail + bytes(self._out[-_JOIN_WINDOW:]))[-_JOIN_WINDOW:]
        if self._out_encoding in ("UTF-16LE", "UTF-16BE"):
            # (the output's last characters as ASCII for the checks below)
            before = before.decode(self._out_encoding, "replace").encode("utf-8")
        raw_eof, exact_script = self._raw_text_joins(record, inside)
        if not exact_script and (before.endswith(b"<") and not raw_eof or
                                 _reference_joins(before, text) and
                                 not (raw_eof and record.name not in _RCDATA)):
            raise RewriteError("<%s>: the content would join the input before it into "
                               "another token" % record.name)
        if self._at_eof and inside and record.node.namespace_uri == _HTML_NS and (
                record.name in _RAW_TEXT or record.name in _RCDATA or
                record.name == "noscript" and self._scripting):
            # Text at the end of input inside a raw text or RCDATA element
            # continues its text, whatever the tokenizer's state there
            # (escaped script data, a partial end tag): only an end tag the
            # input's tail and the text would make together ends it.
            if self._eof_position() < self._stream_length() and \
                    self._eof_raw_before_end_tag(record, text):
                return
            if self._script_exact is record.node:
                return      # (its whole text checked: _script_append_end)
            tail = self._source(max(self._raw_base, self._stream_length() - 16),
                                self._stream_length()).decode("utf-8", "replace")
            # (A whole end tag in the tail, '>' included, is the input's
            # own, which did not end it there: a script's double-escaped
            # text.)
            if any(found.end() > len(tail[-16:]) or not found.group().endswith(">")
                   for found in re.finditer(
                    r"</%s[\t\n\f\r />]|</%s$" % (record.name, record.name),
                    tail[-16:] + text, re.I)):
                raise RewriteError("<%s>: the text written at the end of input would "
                                   "end it" % record.name)
            return
        if self._at_eof and self._eof_position() < self._stream_length():
            return      # (written before the tag the input ends inside)
        # (Where the input ends in the text of a raw text or RCDATA element
        # (_eof_raw_node), nothing in that text is markup: its end tag
        # (_close_implied; none where it was removed) ends it. The look-back of
        # _ends_inside_markup would read it as markup, from wherever the
        # written input was last dropped: a "<![CDATA[" in a script's text
        # refused the input cut at one place and not at another. Nor is
        # the input in a CDATA section where the current node is HTML.)
        # (A CDATA section longer than the input kept: the tokenizer's state.)
        if self._at_eof and (self._last_token_end() < self._stream_length()
                             or not self._last_token_closed() or self._in_cdata_section() or
                             self._eof_raw_node is None and _ends_inside_markup(
                self._source(self._raw_base, self._stream_length()), self._eof_foreign)) and \
                not self._close_eof_comment() and not self._close_eof_raw_text() and \
                not self._eof_after_cdata() and not self._close_eof_cdata():
            raise RewriteError("<%s>: the input ends inside a tag or markup the parser "
                               "drops; content written there would join it" % record.name)

    def _raw_text_joins(self, record: _Record, inside: bool) -> Tuple[bool, bool]:
        """For _check_join's look-back ('<' or a character reference
        before the content): (raw_eof, exact_script). raw_eof: the content
        goes inside the HTML raw text or RCDATA element the input ends in
        (_eof_raw_node), not closed yet, where a '<' before it is text
        whatever follows but an end tag of the element (the tokenizer's
        less-than sign states reconsume any other character as text, and
        at the end of input everything in its text states is text): the
        end of input check after the look-back reads the input's tail with
        the content for that end tag (and a character reference joins in
        RCDATA only). exact_script: text appended to an HTML <script> whose
        whole text, the input's source with the appended text after it,
        _script_append_end ran through the tokenizer's script data states
        (escaped and double-escaped) at its end, finding its end where the
        DOM edit has it: a '<' before the text is part of that text."""
        raw_eof = inside and self._at_eof and not self._eof_raw_closed and \
            self._eof_raw_node is not None and record.node is self._eof_raw_node
        return raw_eof, inside and record.node is self._script_exact

    def _eof_raw_before_end_tag(self, record: _Record, text: str) -> bool:
        """The input ends inside an end tag of the raw text or RCDATA
        element it ends in (`</script `: the tokenizer was building that
        tag and drops it at the end of input), so content written at the
        end goes before it (_eof_position): whether `text` written there
        (after what was written there before) continues the element's text
        and leaves that tag a tag the parser drops. The text must make no
        end tag of the element with the input before it; in a script it
        must also leave the tokenizer where that tag is one (not in the
        double-escaped state: <!--<script>), checked by parsing the
        script's source from its start tag with it (as _eof_raw_end_tag)."""
        position, length = self._eof_position(), self._stream_length()
        name = record.name
        if not re.match(rb"</%s[\t\n\f\r />]" % name.encode(), self._source(position, length),
                        re.I):
            return False
        written = self._eof_raw_written + text
        tail = self._source(max(self._raw_base, position - 16), position).decode(
            "utf-8", "replace")
        if any(found.end() > len(tail) for found in re.finditer(
                r"</%s[\t\n\f\r />]" % name, tail + written, re.I)):
            return False
        if name == "script" and not self._script_continues(record, written, position):
            return False
        self._eof_raw_written = written
        return True

    def _script_continues(self, r: _Record, written: str, position: int) -> bool:
        """Whether the script r, whose source runs from its start tag to
        `position` (where the input ends inside its end tag), has the same
        text with `written` after it plus `written`, and the rest of the
        input stays a dropped tag (parsed again: bounded by the script's
        source being still kept)."""
        start = self._script_start
        if start is None or start[0] is not r.node or self._script_dropped(start[1]) or \
                start[1] <= self._start_written_at < position or \
                self._text_edited_to > start[1] or r.mode or r.new_name is not None or \
                r.prepend:
            return False
        source = self._source(start[1], position).decode("utf-8", "replace")
        rest = self._source(position, self._stream_length()).decode("utf-8", "replace")

        def script_text(markup: str) -> Optional[str]:
            construction = TreeConstruction(self._scripting)
            construction.feed_text("<body>" + markup)
            body: Any = construction.finish().body
            nodes = list(body.child_nodes) if body is not None else []
            if len(nodes) != 1 or nodes[0].node_type != 1 or nodes[0].local_name != "script" \
                    or nodes[0].namespace_uri != _HTML_NS:
                return None
            found: str = nodes[0].text_content
            return found

        alone, edited = script_text(source + rest), script_text(source + written + rest)
        added = written.replace("\r\n", "\n").replace("\r", "\n").replace("\0", "\ufffd")
        return alone is not None and edited == alone + added

    def _eof_dropping(self) -> None:
        """At the end-of-file token: an element whose content the output
        drops (removed, or its content replaced: _skip) is still open, so
        everything after its start tag is dropped, the comment the input
        ends inside (the tokenizer emits it at the end of input) included.
        The output does not end inside that comment then: _close_eof_comment
        must not write what would end it (`<div><p><!--x` with the <p>'s
        content replaced and content written after it: the `-->` would be
        text), and content may follow as it is. Not after a replaced body's
        </body> (_after_body): the comments after it are kept
        (_after_body_token), that one too."""
        if self._skip is not None and not self._after_body:
            self._eof_comment_dropped = True

    def _close_eof_comment(self) -> bool:
        """The input ends inside a comment (the tokenizer emits it at the end
        of input): write what ends it with the same data (checked by
        parsing the comment's source with it), once, so that content can
        follow. False when the input ends otherwise or nothing ends it so."""
        if self._eof_comment_closed:
            return True
        length = self._stream_length()
        begin = self._last_token_comment()
        if begin < self._raw_base or self._last_token_end() != length:
            return False
        if self._eof_comment_dropped:
            return True     # (not in the output: nothing of it to end there)
        source = self._source(begin, length).decode("utf-8", "replace")
        if not source.startswith("<"):
            return False        # (a piece of a long comment)

        def comment_data(markup: str) -> Optional[str]:
            construction = TreeConstruction(self._scripting)
            construction.feed_text("<body>" + markup)
            document = construction.finish()
            body: Any = document.body
            nodes = list(body.child_nodes) if body is not None else []
            if len(nodes) != 1 or nodes[0].node_type != 8:
                return None
            data: str = nodes[0].data
            return data

        data = comment_data(source)
        if data is None:
            return False
        for closer in ("-->", "->", ">", "!>", "--!>"):
            if comment_data(source + closer) == data:
                self._emit(closer)
                self._eof_comment_closed = True
                return True
        return False

    def _eof_raw_text(self, events: List[Any]) -> Optional[Any]:
        """At the end-of-file token: the raw text or RCDATA element that is
        the current node (the tokenizer is in its text state: everything
        after its start tag is its text), else None."""
        if not events or events[0][0] != "popped":
            return None
        node = events[0][1]
        name = node.local_name
        if node.namespace_uri != _HTML_NS or not (
                name in _RAW_TEXT or name in _RCDATA or name == "noscript" and self._scripting):
            return None
        self._eof_raw = self._open.get(events[0][4])
        return node

    def _eof_raw_end_tag(self) -> bool:
        """Whether an end tag written right after the input ends the raw
        text or RCDATA element the input ends in (_eof_raw_node) there,
        with the same text. In raw text and RCDATA it does, whatever the
        text ('<', a partial end tag, a character reference: they end as
        at the end of input). In a script it does but in the double-escaped
        states (<!--<script>): checked by parsing the script's source (from
        its start tag, _script_start, or the whole input, up to
        _WHOLE_INPUT_CHECK, when its start tag was not seen) with it, when
        that source is still kept and nothing was written in place of it
        (no start edit, no text edit, not removed: the output's text is
        then the source's)."""
        node: Any = self._eof_raw_node
        if node.local_name != "script":
            return True
        start = self._script_start
        if start is None or start[0] is not node:
            if self._stream_length() > _WHOLE_INPUT_CHECK:
                return False        # (not parsed again: bounded work and memory)
            start = (node, 0)       # (not matched: the whole input, no edit in it)
            prefix = ""
        else:
            prefix = "<body>"
        r = self._eof_raw
        # (A start written at the end of input goes after this end tag; the
        # script's removal, rename, replaced content and appended content
        # keep its record open: r.)
        if self._script_dropped(start[1]) or \
                start[1] <= self._start_written_at < self._eof_position() or \
                self._text_edited_to > start[1] or r is not None and (
                    r.mode or r.new_name is not None or r.prepend or r.append):
            return False
        # (Up to where content written at the end of input goes: before a
        # tag the input ends inside, which the parser drops.)
        source = self._source(start[1], self._eof_position()).decode("utf-8", "replace")

        def last_script(markup: str) -> Tuple[Any, int]:
            # (the script, and how many <br> elements the document has)
            construction = TreeConstruction(self._scripting)
            construction.feed_text(prefix + markup)
            document = construction.finish()
            script: Any = None
            if prefix:
                script = document.body.first_child if document.body is not None else None
            else:
                scripts = _elements_named(document, "script")
                script = scripts[-1] if scripts else None
            if script is None or script.node_type != 1 or script.local_name != "script" or \
                    script.namespace_uri != _HTML_NS:
                script = None
            return script, len(_elements_named(document, "br"))

        # (Its text the same with the end tag and a <br> after: the end tag
        # ended it, else they would be its text.)
        (alone, brs), (closed, more) = last_script(source), last_script(source + "</script><br>")
        return alone is not None and closed is not None and more == brs + 1 and \
            alone.text_content == closed.text_content

    def _script_dropped(self, start: int) -> bool:
        """Whether the source of the script open at the end of input, from
        its start tag at `start` (0: the whole input), is not kept: its
        start more than SCRIPT_KEPT bytes back (kept up to there whatever
        the chunking: input_kept), or dropped."""
        return self._stream_length() - start > SCRIPT_KEPT or start < self._raw_base

    def _close_eof_raw_text(self) -> bool:
        """The input ends in the text of a raw text or RCDATA element (a
        partial end tag, an escaped script state, a '<'): its end tag is
        written once (here or by _close_implied), so that content can
        follow, where it ends the element (_eof_raw_end_tag)."""
        if self._eof_raw_closed:
            return True
        node: Any = self._eof_raw_node
        if node is None or not self._eof_raw_end_tag():
            return False
        self._emit("</%s>" % node.local_name)
        self._eof_raw_closed = True
        return True

    def _frameset_token(self, events: List[Any], pushed: int) -> None:
        """A <frameset> start tag after the rewrite dropped input
        (_dropped) or wrote content or a <body> tag that sets frameset-ok to
        "not ok" (_frameset_written). Where the parser ignored it, written
        content leaves it ignored (frameset-ok stays "not ok", the stack of
        open elements is the same); dropped content may have held what set
        frameset-ok, and the reparse could take it. Where the parser took
        it (an HTML frameset), either may make the reparse ignore it."""
        taken = pushed >= 0 and events[pushed][1].namespace_uri == _HTML_NS and \
            events[pushed][1].local_name == "frameset"
        if not events and not (self._element_handlers or self._doc_text):
            # (No stack events are recorded without element or text
            # handlers: only units (a doctype handler) wrote.)
            taken = self._frameset_open()
        if self._dropped and not taken and not events and self._frameset_body():
            return
        if not taken and self._skip is not None and all(
                event[1].namespace_uri != _HTML_NS for event in events):
            # (Dropped with the element around it: the output has no
            # <frameset> there. The parser ignored it, or made a foreign
            # element of it inside the dropped one.)
            return
        popped = [event[1] for event in events if event[0] == "popped"]
        if taken and self._frameset_hold is not None and \
                any(node is self._frameset_hold[2] for node in popped) and (
                    self._skip is None or any(node is self._skip.node for node in popped)) and \
                self._select_held is None and self._hold is None and \
                self._split_at is None and self._unlist_hold is None and not self._after_body:
            # (The output from the hold on is cut back to the input's bytes
            # at its push, _frameset_rewind: the edits were all inside the
            # body the parser takes out of the tree at this token, open from
            # the hold on; content being dropped ends at this token too.)
            self._frameset_cut = True
            return
        if self._dropped or taken:
            raise RewriteError("<frameset>: whether the parser takes it depends on content "
                               "the rewrite %s (the frameset-ok flag)"
                               % ("dropped" if self._dropped else "wrote"))

    def _open_body(self) -> Any:
        """The HTML body that is a child of the HTML html document element
        and is open, or None (found in C: RewriterCore.open_body)."""
        return self._open_body_element()

    def _frameset_watch(self, node: Any) -> bool:
        """Before the handlers of an element: where the parser's frameset-ok
        flag is still "ok" and the element is in the body (or is it), a
        later <frameset> may take the body out of the tree, and with it
        every edit in it, where content an edit writes or drops could make
        the reparse ignore that <frameset> (_frameset_token). Output is held
        back from here (_take) until the flag is "not ok" in the input (the
        parser ignores any later <frameset> too, the edits stand), the input
        ends, or the parser takes a <frameset>: the output from here on is
        then the input's bytes (_frameset_rewind), as the DOM edit of
        elements out of the tree leaves the document as it is. Not with
        text, comment or doctype handlers (their edits may be outside the
        body: comments after </body>), nor with other output held. True
        when the hold starts here (_frameset_unwatch ends it if the
        handlers edit nothing)."""
        if self._frameset_hold is not None:
            return False
        if self._dropped or self._frameset_written or self._frameset_never() or \
                self._after_body or self._select_held is not None or self._hold is not None or \
                self._split_at is not None or self._unlist_hold is not None or \
                self._after_body_mode():
            return False
        # (In the body: up to the first open element around it (itself
        # included), which is the body or one above it on the stack of open
        # elements. Not by walking up to the body: an element's depth
        # would make each call cost that much; the elements around it up to
        # an open one are those the parser closed at its token, if any.)
        body = self._open_body()
        if body is None:
            return False
        if not self._parser_frameset_ok():
            # (With the body made, it stays "not ok" to the end: an implied
            # body sets it back to "ok" where it is made.)
            self._frameset_settled = True
            return False
        while node is not None and node.node_type == 1 and node is not body and \
                not self._is_open(node):
            node = node.parent_node
        if node is None or node.node_type != 1 or node is body.parent_node:
            return False
        node = body
        self._frameset_hold = (self._taken + len(self._ready or b"") + len(self._out),
                               self._emitted, node)
        return True

    def _frameset_unwatch(self, r: _Record) -> None:
        """After the handlers of an element whose call started a hold for
        a <frameset> (_frameset_watch): if they edited nothing (nothing to
        write at its start or end, no end tag handler), the hold ends, so
        that a handler that only reads holds nothing back. (An edit made
        later through an Element kept from them is then checked at the
        <frameset> as before the hold: _frameset_token.)"""
        if not (r.before or r.prepend or r.append or r.after or r.mode or r.new_name or
                r.attributes_changed or r.end_handlers):
            self._frameset_hold = None

    def _frameset_held(self, out: bytes) -> bytes:
        """_take with output held for a <frameset> (_frameset_watch): the
        bytes from the hold on stay in _out while the parser's frameset-ok
        flag is "ok" and the input goes on."""
        assert self._frameset_hold is not None
        if self._closed or not self._parser_frameset_ok():
            self._frameset_hold = None
            self._frameset_settled = True
            return out
        if not self._is_open(self._frameset_hold[2]):
            self._frameset_hold = None      # (the body left: no <frameset> takes it)
            return out
        cut = max(0, self._frameset_hold[0] - self._taken)
        if cut < len(out):
            self._out[:0] = out[cut:]
            self._shift_holds(len(out) - cut)
            out = out[:cut]
        return out

    def _frameset_rewind(self) -> None:
        """The parser took a <frameset> while output was held for it
        (_frameset_watch), the elements it took out of the tree popped: the
        output from the hold on is cut off and the input is copied again
        from there (the <frameset> tag on is handled as ever). Nothing of
        the edits is left: they were in the body, which the document no
        longer has."""
        assert self._frameset_hold is not None
        if self._skip is not None or self._select_held is not None or \
                self._hold is not None or self._split_at is not None or \
                self._unlist_hold is not None:
            raise RewriteError("<frameset>: whether the parser takes it depends on content "
                               "the rewrite %s (the frameset-ok flag)"
                               % ("dropped" if self._dropped else "wrote"))
        out_at, in_at, _ = self._frameset_hold
        self._frameset_hold = None
        self._frameset_cut = False
        if self._ready is not None:
            self._out_ready()
        cut = out_at - self._taken
        if cut < 0 or cut > len(self._out):
            raise RuntimeError("internal error: output held for a <frameset> was written")
        if in_at < self._raw_base:
            raise RuntimeError("internal error: input held for a <frameset> was dropped")
        del self._out[cut:]
        self._emitted = in_at
        self._dropped = self._frameset_written = False

    def _frameset_open(self) -> bool:
        """Whether the document element's last child is an open HTML
        frameset (the one the parser took at this token)."""
        html = self._construction.document_object().document_element
        last: Any = html.last_child if html is not None else None
        return bool(last is not None and last.node_type == 1 and
                    last.local_name == "frameset" and last.namespace_uri == _HTML_NS and
                    self._is_open(last))

    def _frameset_body(self) -> bool:
        """A <frameset> the parser ignored (it did nothing) after dropped
        input, read in body with the stack of open elements html, body and
        HTML elements only, none of them a template or a column group: a
        <body> start tag written before it sets the output's frameset-ok to
        "not ok" there and does nothing else (the body takes no attributes
        from it; no template is open to ignore it, no column group to be
        closed by it, no foreign element to break out of), so the reparse
        ignores the <frameset> too. Once written, frameset-ok stays "not ok"
        in the output for the rest of the input."""
        if self._frameset_body_written:
            return True
        if self._skip is not None:
            return False        # (dropped with the element around it: not in the output)
        document: Any = self._construction.document_object()
        html = document.document_element
        if html is None or html.namespace_uri != _HTML_NS or html.local_name != "html" or \
                not self._is_open(html):
            return False
        body = None
        for child in html.child_nodes:
            if child.node_type != 1 or not self._is_open(child):
                continue
            if body is not None or child.local_name != "body":
                return False        # (an open head: the body is not second)
            body = child
        if body is None:
            return False
        # (Every open element is a descendant of body: the children of open
        # elements only are walked, without recursion.)
        todo = [body]
        while todo:
            for child in todo.pop().child_nodes:
                if child.node_type != 1 or not self._is_open(child):
                    continue
                if child.namespace_uri != _HTML_NS or child.local_name in (
                        "template", "colgroup", "frameset", "head", "body", "html"):
                    return False
                todo.append(child)
        # (Right before the <frameset>: the output may not be written up to
        # it yet, and the <body> must not go into content before it.)
        self._copy_to(self._token_span()[0])
        self._emit("<body>")
        self._frameset_body_written = True
        return True

    def _close_eof_cdata(self) -> bool:
        """The input ends inside a CDATA section (the tokenizer's CDATA
        section states, in foreign content), whose characters the
        tokenizer emits as text at the end of input, ']' and ']]' it ends
        in included: write "]]>" once, so that content can follow in the
        data state. The section's characters hold no "]]>" (it would have
        ended there), and with "]]>" after them the first "]]>" is the one
        written (a ']' they end in is followed by "]]" then, not '>'): the
        section ends with the same text. Only where the output ends with
        the section's source, from its "<![CDATA[" on, as the input does
        (within _JOIN_WINDOW bytes): the rewrite may have dropped it (the
        content of an element replaced, removed), and the output is then
        not inside it. False when the input ends otherwise."""
        if self._eof_cdata_closed:
            return True
        if not self._in_cdata_section():
            return False
        length = self._stream_length()
        source = self._source(max(self._raw_base, length - _JOIN_WINDOW), length)
        start = source.rfind(b"<![CDATA[")
        if start < 0 or b"]]>" in source[start + 9:]:
            return False
        if self._ready is not None:
            self._out_ready()
        before = (self._out_tail + bytes(self._out[-_JOIN_WINDOW:]))[-_JOIN_WINDOW:]
        if not before.endswith(source[start:]):
            return False
        self._emit("]]>")
        self._eof_cdata_closed = True
        return True

    def _eof_after_cdata(self) -> bool:
        """Whether the input ends in foreign content right after a CDATA
        section's "]]>", which the tokenizer emits nothing for (the data
        state follows: content can be written after it)."""
        length = self._stream_length()
        last = self._last_token_end()
        return last >= self._raw_base and self._last_token_closed() and \
            self._source(last, length) in (b"]]>", b"<![CDATA[]]>")

    def _render(self, content: _Content, record: _Record, inside: bool) -> str:
        if content.html:
            return content.text
        if inside and self._holds_text(record.name) and record.name not in _RCDATA and \
                record.node.namespace_uri == _HTML_NS:
            return content.text
        return _escape_text(content.text)

    @_content_refused
    def _check(self, element: Element, content: str, html: bool, where: str,
               before: str = "", after: str = "", open_end: bool = False) -> _Content:
        """Content for an edit of `element`; in a raw text or RCDATA
        element, with the content written next to it (before, after; and
        open_end: input that is not known yet follows), refused when it
        would end the element early."""
        c = _Content(content, html)
        r = element._record
        if not html and "\x00" in content:
            raise element._refuse("insert text", "the parser drops U+0000 in text or reads "
                                                 "it as U+FFFD")
        if html:
            holder = r.node if where == "inside" else r.node.parent_node
            if holder is not None and holder.node_type == 1 and \
                    holder.namespace_uri != _HTML_NS and not _integration_point(holder):
                raise element._refuse("insert markup", "markup in foreign content may "
                                                       "break out of it")
            if _TABLE_MODE_TAG.search(content) and \
                    self._context(r.node).foreign_in_table:
                raise element._refuse("insert markup", "foreign content inside a table or "
                                                       "a template")
            markup_in = holder is not None and holder.node_type == 1 and not (
                holder.namespace_uri == _HTML_NS and self._holds_text(holder.local_name))
            if markup_in and _FORM_TAG.search(content):
                raise element._refuse("insert markup", "whether the parser takes a <form> "
                                      "start tag depends on its form element pointer, which "
                                      "the markup's own parse does not have")
            if markup_in and _OPTION_TAG.search(content) and \
                    self._context(holder).select is not None and \
                    not self._hold_for_select(self._context(holder).select):
                raise element._refuse("insert markup", "the parser copies the selected option "
                                      "into <selectedcontent>, " + _HELD_FOR_ANOTHER_SELECT)
            if markup_in and _SELECTEDCONTENT_TAG.search(content) and (
                    self._context(holder).select is not None or
                    holder.local_name == "select" and holder.namespace_uri == _HTML_NS):
                raise element._refuse("insert markup", "the parser copies the selected option "
                                      "into a <selectedcontent> inside a select, which the "
                                      "markup's own parse does not")
            if markup_in and _TABLE_MODE_TAG.search(content) and self._fostered_around(holder):
                raise element._refuse("insert markup", "the parser moved <%s> or an element "
                                      "around it out of its table: the table's insertion "
                                      "modes read the table tags of markup written there"
                                      % holder.local_name)
            if markup_in and not _markup_kept(
                    _chain(holder), holder.owner_document.quirks_mode == "quirks",
                    self._scripting, content):
                raise element._refuse("insert markup", "the parser would not keep it whole "
                                      "in <%s> here: it opens what it does not close, "
                                      "closes what it did not open, or its elements close "
                                      "or move what is open there" % holder.local_name)
            if markup_in and self._noahs_ark_markup(content, holder):
                raise element._refuse("insert markup", _NOAHS_ARK_MARKUP)
        if where == "inside" and r.node.namespace_uri == "http://www.w3.org/1999/xhtml":
            # Markup written into a raw text or RCDATA element is its text,
            # as the fragment parser reads it in that context; text is
            # written as is in raw text (nothing is decoded there).
            if self._holds_text(r.name):
                text = before + c.text + after
                if not html and "\r" in content and r.name not in _RCDATA:
                    raise element._refuse("insert text", "the parser reads a CR in raw text "
                                          "as a LF (nothing is decoded there)")
                if re.search(r"</%s[\t\n\f\r />]" % r.name, text + " ", re.I) or \
                        (r.name == "script" and "<!--" in text) or \
                        (open_end and _ends_with_tag_start(r.name, text)):
                    raise element._refuse("insert text", "the text would end <%s> early"
                                          % r.name)
                if r.name == "plaintext" and html:
                    raise element._refuse("insert markup", "<%s> holds raw text" % r.name)
                return c
        if not self._frameset_written and self._sets_frameset_not_ok(content, html):
            self._frameset_written = True
        return c

    def _check_append(self, element: Element, content: str, html: bool,
                      before: str) -> _Content:
        """_check for content appended to `element`: text that would end
        the element early read alone is refused at the call (the issue's
        "raises before anything is written", where the handler can catch
        it). Text appended to an HTML <script> that passes may still end
        it with the script's own text before it ("</scr" then "ipt>"):
        with no text handler (the output's script text is then the DOM's),
        it is checked again at the script's end, where its text is known
        (_script_append_end: the RewriteError comes from feed or close
        then, before the content is written)."""
        r = element._record
        exact = r.name == "script" and r.node.namespace_uri == _HTML_NS and \
            not self._doc_text and not any(h[2] is not None for h in self._element_handlers)
        checked = self._check(element, content, html, "inside", before=before)
        if exact:
            self._script_appends.add(id(r))
        return checked

    def _script_append_end(self, r: _Record, own: bool, end_tag: "EndTag",
                           span_begin: int) -> None:
        """At the end of a <script> whose appended text waited
        (_check_append): the script data states of the tokenizer, run over
        its text with the appended text and the end tag after it, must
        find no end tag before that one (at the end of input: none). Only
        where its own end tag or the end of input ends it, nothing else was
        written inside it (no prepended or replaced content, no content
        before its end tag), and its source is kept (span_begin: where its
        end tag, or the end of input, is)."""
        self._script_appends.discard(id(r))
        # (Appended text that passed _check alone is checked again where
        # the script's text is known: the text before it may end in what
        # it completes, "</scr" and "ipt>".)
        error = RewriteError(
            "<script>: insert text: the text would end <script> early (with the "
            "script's text before it)" if own else
            "<script>: the text written at the end of input would end it")
        # (At the end of input: none dropped before it (a tag the input
        # ends inside) and nothing written after the script: its text ends
        # there, the appended text with it, if no end tag is in. Its
        # source: kept from its start tag while it is open and within
        # SCRIPT_KEPT bytes, input_kept; the output's text, no text
        # handler editing it.)
        start = self._script_start
        known = not (r.mode or r.prepend or end_tag.before_content or r.inner is not None or
                     r.start is None) and (
            own or self._at_eof and not (r.after or end_tag.after_content) and
            span_begin == self._eof_position() == self._stream_length()) and \
            start is not None and start[0] is r.node and not self._script_dropped(start[1]) \
            and r.start[1] >= self._raw_base
        if not known:
            return      # (as _check found it)
        assert r.start is not None
        text = self._source(r.start[1], span_begin).decode("utf-8", "replace") + \
            "".join(c.text for c in r.append)
        if _script_end_at(text + "</script>" if own else text) != (len(text) if own else -1):
            raise error
        self._script_exact = r.node     # (_check_join: no look-back check)

    def _noahs_ark_markup(self, content: str, holder: Any) -> bool:
        """Whether markup's formatting start tags may make Noah's Ark take
        an element outside it off the list of active formatting elements
        (which the parser then no longer reconstructs; the DOM edit's
        fragment parse has no such list): an element of the name of one of
        them is an entry of that list after its last marker, or was before
        this token (popped by it, or open around the holder: the token's
        own push may have taken it off), and with the markup's start tags
        of that name there could be three before one of them is pushed.
        Names only (no attributes: an edit may have changed them), and an
        <a> with any <a> there (its start tag takes the earlier one off)."""
        if "<" not in content:
            return False
        names = {name.lower() for name in _START_TAG_NAME.findall(content)} & _FORMATTING
        if not names:
            return False
        entries = self._formatting_now()
        if entries is None:
            return True
        around = list(entries) + [node for node in self._popped_nodes
                                  if node.namespace_uri == _HTML_NS]
        node = holder
        while node is not None and node.node_type == 1 and not (
                node.namespace_uri == _HTML_NS and node.local_name in _MARKER_ELEMENTS):
            if node.namespace_uri == _HTML_NS:
                around.append(node)
            node = node.parent_node
        for name in names:
            outside = len({id(e) for e in around if e.local_name == name})
            inside = len(re.findall(r"<%s(?![^\t\n\f\r />])" % name, content, re.I))
            if outside and (name == "a" or outside + inside >= 4):
                return True
        return False

    def _fostered_around(self, holder: Any) -> bool:
        """Whether the holder or an element around it was foster-parented:
        it is open, and so is the table after it (the parser inserted it
        before the table, in whose insertion modes what is written there is
        read: the tags of _TABLE_MODE_TAG act on the table, which the probe
        of _markup_kept, by the DOM's ancestors, would not open)."""
        node = holder
        while node is not None and node.node_type == 1:
            after = node.next_sibling
            if after is not None and after.node_type == 1 and after.local_name == "table" \
                    and after.namespace_uri == _HTML_NS and self._is_open(after):
                return True
            node = node.parent_node
        return False

    def _holds_text(self, name: str) -> bool:
        """Whether an HTML element of this name holds raw text or RCDATA
        (markup written into it is its text, as the fragment parser reads
        it in that context)."""
        return name in _RAW_TEXT or name == "plaintext" or name in _RCDATA or \
            (name == "noscript" and self._scripting)

    def _unit_frameset(self, unit: _Unit) -> None:
        """_sets_frameset_not_ok for what a text, comment or doctype
        handler writes (markup or escaped text) outside raw text."""
        if self._frameset_written:
            return
        written = list(unit._before) + list(unit._after)
        if unit._removed and unit._replacement is not None:
            written.append(unit._replacement)
        if any(self._sets_frameset_not_ok(content, True) for content in written):
            self._frameset_written = True

    def _sets_frameset_not_ok(self, content: str, html: bool) -> bool:
        """Whether written content may set the parser's frameset-ok flag to
        "not ok" (text other than whitespace; markup other than elements
        the parser keeps in <head>, which do not): a <frameset> the parser
        took after it would be ignored by the reparse (_frameset_token
        refuses it; the edit's element is not in the tree the frameset
        leaves)."""
        if not content.strip("\t\n\f\r "):
            return False
        return not (html and self._head_content(content))

    def _check_end(self, record: _Record, content: str, html: bool, where: str) -> _Content:
        if record.element is None:
            record.element = Element(self, record)
        record.element._check_select_mirror("insert at its end")
        return self._check(record.element, content, html, where)

    def _self_closed(self, r: _Record) -> bool:
        """Whether r is a foreign element its own self-closing start tag
        closed (the tree builder popped it at that token)."""
        return bool(r.start is not None and r.node.namespace_uri != _HTML_NS and
                    r.self_closing and not self._is_open(r.node))

    def _start_tag(self, r: _Record) -> str:
        name = r.new_name or r.name
        parts = ["<", name]
        for key, value in r.attributes or []:
            parts.append(' %s="%s"' % (key, _escape_attribute(value)))
        if r.start is not None and r.node.namespace_uri != _HTML_NS and \
                r.self_closing and not (r.prepend and self._self_closed(r)):
            parts.append(" /")
        parts.append(">")
        return "".join(parts)

    # -- events ----------------------------------------------------------
    def _handle_token(self) -> None:
        # (Two calls read the token and its events: see engine.pyx's
        # _token_state and _events for the fields.)
        silent = self._drain_silent()
        if silent is not None:
            self._silent_ends(silent)
        (kind, begin, end, count, text_offset, self._foster_count, self._forms,
         self._plaintext, gap) = self._token_state()
        if gap and kind == "text":
            # (Tokens other than text were not seen since the last call: the
            # text is not a raw text element's that one of them started,
            # since such text does not come here unless those tokens do.)
            self._raw_text_name: Optional[str] = None
            self._raw_tail = ""
            self._raw_tail_edited = False
        if kind == "text" and not count and not self._tracked and not self._after_body:
            self._text_alone(begin, end)
            return
        events = self._events() if count else []
        if kind == "text" and count and self._source(text_offset, text_offset + 1) == b"&":
            text_offset = self._whitespace_end(text_offset, end)
        if self._select_held is not None and count:
            self._select_events(events)
        if kind == "eof":
            self._eof_dropping()
            # (The raw text element the input ends in first: the end tag
            # the input ends inside may be its, which the parser drops.)
            self._eof_raw_node = self._eof_raw_text(events)
            self._eof_events = events      # (_check_document_end)
            # (The elements still open are popped from the current node on.)
            self._eof_foreign = not events or events[0][0] != "popped" or \
                events[0][1].namespace_uri != _HTML_NS
            begin = end = text_offset = self._eof_position()
        plain = self._skip is None and not self._tracked and not self._after_body \
            and self._form_dirty is None and not self._head_appended and self._unlisted is None \
            and not self._has_late_matches()
        if count == 1 and kind == "start" and events[0][10] and plain \
                and (not (self._dropped or self._frameset_written)
                     or self._source(begin, end)[1:9].lower() != b"frameset"):
            self._start_alone(begin, end, events[0])
            return
        if count == 1 and kind == "end" and events[0][0] == "popped" and plain \
                and events[0][4] not in self._open:
            self._end_alone(events[0])
            return
        keys = [event[4] for event in events]
        # Elements closed at this token's start without end tags and not
        # closed explicitly since: (name, in the HTML namespace); None for
        # one whose content was written there (no end tag can now precede
        # that content).
        self._implied_pops: List[Optional[Tuple[Any, ...]]] = []
        self._table_end_closed: Set[int] = set()     # (_table_end_closes)
        self._at_eof = kind == "eof"
        if self._at_eof:
            self._eof_raw = None
        self._batch += 1
        # Elements the parser implied at this token before its own.
        self._pushed_here: List[str] = []
        last_token_push = -1
        if kind == "start":
            for i in range(count - 1, -1, -1):
                event = events[i]
                if event[0] == "pushed":
                    if event[10]:
                        last_token_push = i
                    break
        elif kind == "end" and count:
            last_token_push = self._end_tag_br(begin, end, events)
        if kind == "start" and (self._dropped or self._frameset_written) and \
                self._source(begin, end)[1:9].lower() == b"frameset":
            self._frameset_token(events, last_token_push)
        if kind == "start" and last_token_push >= 0 and self._skip is not None:
            self._noahs_ark_push(events[last_token_push][1])
        if kind == "start" and self._skip is not None:
            name = self._source(begin, end)[1:].split(b">")[0].split(b"/")[0].split()
            if name and name[0].lower() in (b"body", b"html") and not any(
                    event[0] == "pushed" and event[10] for event in events[:count]):
                # (Also after it popped foreign elements, a breakout of
                # foreign content: the "in body" rules give it the
                # attributes still.)
                raise RewriteError("<%s>: its source holds a <%s> start tag, whose attributes "
                                   "the parser gives to the <%s> element" % (
                                       self._skip.name, name[0].lower().decode(),
                                       name[0].lower().decode()))
        if self._form_dirty is not None and kind in ("start", "end"):
            tag = self._source(begin, end)[1:].lstrip(b"/").split(b">")[0].split(b"/")[0]
            if self._is_form_tag(begin, end):
                self._form_tag(kind, begin, end, events)
        if self._after_body and self._skip is not None:
            self._after_body_token(kind, begin, end)
        if kind == "end" and (self._skip is not None or self._open):
            name = self._source(begin, end)[2:].split(b">")[0].split(b"/")[0].split()
            if name and name[0].lower() in (b"body", b"html"):
                if self._skip is not None and self._skip.name == "body" and \
                        self._skip.mode == _INNER:
                    # The body's content is replaced: its end tag and the
                    # comments after it (the html element's, the document's)
                    # stay; what else follows goes into the body (dropped).
                    # (One the parser ignored, with a table open, is content
                    # dropped with the rest.)
                    if self._after_body_mode() and not self._after_body_foreign():
                        self._after_body = True
                        self._keep_source(begin, end)
                elif self._skip is not None:
                    raise RewriteError("<%s>: its source holds </%s>, after which the "
                                       "parser puts comments elsewhere" % (
                                           self._skip.name, name[0].lower().decode()))
        self._reconstructed_here = False
        self._reconstructed_names = set()
        afe_copy: Optional[str] = None
        for i in range(count):
            event = events[i]
            if event[0] == "pushed" and i != last_token_push and event[1].local_name in _FORMATTING:
                self._reconstructed_here = True
                self._reconstructed_names.add(event[1].local_name)
                if afe_copy is None and event[1].local_name in self._afe_edited:
                    afe_copy = event[1].local_name
                if event[1].local_name in self._afe_unwritable:
                    raise RewriteError("<%s>: the parser reconstructs a copy of an edited "
                                       "formatting element that ended without its end tag "
                                       "(the copy would carry the edit)" % event[1].local_name)
        self._token_ignored = kind == "start" and last_token_push < 0
        if kind != "text":
            # Text tokens after a raw text element's start tag are its text
            # (the tokenizer emits nothing else until its end tag).
            self._raw_text_name = None
            self._raw_tail = ""
            self._raw_tail_edited = False
            if last_token_push >= 0:
                pushed = events[last_token_push][1]
                if pushed.namespace_uri == _HTML_NS and (
                        pushed.local_name in _RAW_TEXT or pushed.local_name == "plaintext"
                        or pushed.local_name == "noscript" and self._scripting):
                    self._raw_text_name = pushed.local_name
                    if pushed.local_name == "script":
                        self._script_start = (pushed, begin)
        token_key = keys[last_token_push] if last_token_push >= 0 else None
        self._reconstructed_nodes = _only_reconstructed(kind, events, last_token_push,
                                                        self._formatting_now)
        self._reconstruction_agency = None
        self._agency_end_written = False
        self._split_reconstructed = None
        if not self._reconstructed_nodes and kind == "start":
            self._reconstructed_nodes = self._reconstructed_after_agency(events, last_token_push)
        first = self._reconstructed_nodes[0] if self._reconstructed_nodes else None
        self._reconstructed_fostered = first if first is not None and any(
            event[0] == "pushed" and event[1] is first and event[3] for event in events) else None
        self._explicit = []
        if afe_copy is not None and not self._explicit_copies(begin, events):
            raise RewriteError("<%s>: the parser reconstructs a copy of an edited "
                               "formatting element that ended without its end tag "
                               "(the copy would carry the edit)" % afe_copy)
        if self._unlisted is not None:
            if self._reconstructed_here:
                self._copies_of_unlisted(events)
            else:
                self._unlisted_kept()
        # The element an end tag token closes as its own: the last one
        # popped with its name (an end tag pops the elements above it
        # first, each implied).
        own_index = -1
        self._token_events = (self._batch, events, kind, begin, end)  # (_form_pointer_moved)
        self._popped_here = set()
        self._popped_nodes: List[Any] = []
        for i in range(count):
            event = events[i]
            if event[0] == "popped":
                self._popped_here.add(keys[i])
                self._popped_nodes.append(event[1])
                if event[11]:
                    own_index = i
        for i in range(count):
            event = events[i]
            if event[0] == "moved":
                self._moved(event[1], event[4], event[6])
                continue
            self._foster_count, self._forms, self._plaintext = event[7:10]
            key = keys[i]
            node = event[1]
            if event[0] == "pushed":
                from_token = i == last_token_push
                if from_token and self._frameset_cut:
                    self._frameset_rewind()
                if not from_token:
                    self._pushed_here.append(node.local_name)
                fresh, matches = event[5], event[6]
                if not fresh and self._head_appended and node.local_name == "head":
                    raise RewriteError("<head>: the parser puts an element into it after "
                                       "its end, after the content appended to it")
                if fresh and from_token and self._tracked and kind == "start":
                    self._implied_ends_for_tracked(node, begin)
                if event[3] and self._skip is not None:
                    self._fostered_push(node)
                if event[3] and self._tables_before:
                    self._fostered_inside_tables(node, key)
                if fresh and from_token and self._hold_for is not None:
                    self._hold_point(node, begin, count, event[3])
                later = self._split_later_point(node, begin, count, event[3]) \
                    if fresh and from_token and self._split is not None else None
                if fresh:
                    # (The parser reconstructs formatting elements for a text
                    # token's leading whitespace too.)
                    reconstructed = any(n is node for n in self._reconstructed_nodes)
                    self._pushed(key, node, from_token, event[3],
                                 (begin, end) if from_token else None,
                                 text_offset if kind == "text" and not reconstructed
                                 else begin, matches)
                    if self._explicit and self._explicit[0] is node:
                        # (After a reconstructed element given a start tag
                        # of its own: the ones reconstructed inside it too.)
                        self._explicit.pop(0)
                        self._copy_to(begin)
                        self._emit(_plain_start_tag(node))
                    r = self._open.get(key)
                    if r is not None:
                        self._quiet(key, self._quiet_level(r))
                        if (r.before or r.mode or r.new_name is not None) and \
                                node is self._hold_node:
                            self._hold_node = None  # (its content goes before it)
                    if later is not None and self._split is not None and self._skip is None:
                        # (Where a copy of the formatting element would
                        # begin in it: _split_later_point.)
                        self._split_later.append([node, later, self._out_mark(end)])
                    if node is self._hold_node and self._hold_after is None and \
                            self._hold_for is not None and (
                                self._hold_for.after or self._hold_for.new_name is not None
                                or self._agency_copy_edited(self._hold_for)
                                or len(self._hold_chain) > 1):
                        self._hold_after = self._out_mark(end)
                continue
            if self._split_later:
                self._split_later_popped(node)
            span = (text_offset, text_offset) if kind == "text" else (begin, end)
            if key == token_key:
                # A void element (or a self-closing foreign one): it ends
                # with its start tag.
                own = True
                span = (end, end)
            else:
                own = i == own_index
            r = self._open.pop(key, None)
            self._start_edited.pop(key, None)
            if r is not None:
                self._unwatch(key)
            self._scoped_open.pop(key, None)
            state = "open"
            if r is not None:
                state = self._popped(r, own, span, event[2])
            if not own and state != "closed":
                self._implied_pops.append(
                    None if state == "dirty" else
                    (node.local_name, node.namespace_uri == _HTML_NS, node))
        if self._has_late_matches():
            for node, key, bits, open_now in self._late_matches():
                self._late_match(key, node, bits, open_now)
        if kind == "end" and self._skip is not None and not self._after_body:
            name = self._source(begin, end)[2:].split(b">")[0].split(b"/")[0].split()
            if name and name[0].lower() in (b"body", b"html"):
                raise RewriteError("<%s>: its source holds </%s>, after which the parser "
                                   "puts comments elsewhere" % (
                                       self._skip.name, name[0].lower().decode()))
        if kind in ("comment", "comment-continued"):
            handlers = self._doc_comments + self._scoped("comment_handlers")
            if handlers:
                self._comment(kind, begin, end, handlers)
        elif kind == "doctype" and self._doctype:
            self._doctype_token(begin, end)
        elif kind == "text":
            handlers = self._doc_text + self._scoped("text_handlers")
            if handlers:
                self._text(begin, end, handlers)
        if kind == "eof":
            self._document_end(begin)
        self._foster_count, self._forms, self._plaintext = self._counters()
        # (A matched element open is watched on its own: the tokens that pop
        # it or move nodes come here.)
        self._prune_contexts()
        if self._tracked:
            self._track_token(kind, count, events)
        self._set_watch_all(self._watch_level())

    def _prune_contexts(self) -> None:
        if len(self._contexts) > self._contexts_limit:
            # (Bounded: the contexts of elements that have closed go; they
            # are computed again from their parents if asked for. Their
            # proxies would keep the closed subtrees from being freed.)
            self._contexts = {k: v for k, v in self._contexts.items() if self._is_open(v[0])}
            self._selects = {k: v for k, v in self._selects.items() if self._is_open(v[0])}
            self._contexts_limit = max(256, 2 * len(self._contexts))

    def _fast_token_state(self, tag: bool) -> None:
        """The per-token state _handle_token's event loops set, for a token
        the fast paths take (nothing implied, reconstructed or ignored);
        tag: a start or end tag, which ends a raw text element's text."""
        self._implied_pops = []
        self._at_eof = False
        self._batch += 1
        self._pushed_here = []
        self._reconstructed_nodes = []
        self._explicit = []
        self._reconstructed_here = False
        self._reconstructed_names = set()
        self._token_ignored = False
        self._popped_here = set()
        self._popped_nodes = []
        if tag:
            self._raw_text_name = None
            self._raw_tail = ""
            self._raw_tail_edited = False

    def _start_alone(self, begin: int, end: int, event: Tuple[Any, ...]) -> None:
        """_handle_token for a start tag that pushed its own element and
        nothing else (the most common token with element handlers), while
        no removed element is being skipped: the same state and calls,
        without the event loops."""
        self._fast_token_state(True)
        node = event[1]
        if node.namespace_uri == _HTML_NS:
            name = node.local_name
            if name in _RAW_TEXT or name == "plaintext" or name == "noscript" and self._scripting:
                self._raw_text_name = name
                if name == "script":
                    self._script_start = (node, begin)
        self._foster_count, self._forms, self._plaintext = event[7:10]
        key = event[4]
        if event[3] and self._tables_before:
            self._fostered_inside_tables(node, key)
        if event[5]:
            self._pushed(key, node, True, event[3], (begin, end), begin, event[6])
            r = self._open.get(key)
            if r is not None:
                self._quiet(key, self._quiet_level(r))
        self._foster_count, self._forms, self._plaintext = self._counters()
        self._prune_contexts()
        self._set_watch_all(self._watch_level())

    def _end_alone(self, event: Tuple[Any, ...]) -> None:
        """_handle_token for an end tag that popped one element no handler
        matched, while nothing is being dropped: the same state, without
        the event loops."""
        node = event[1]
        self._fast_token_state(True)
        if not event[11]:
            self._implied_pops.append((node.local_name, node.namespace_uri == _HTML_NS, node))
        self._popped_here = {event[4]}
        self._popped_nodes = [node]
        self._foster_count, self._forms, self._plaintext = event[7:10]
        self._scoped_open.pop(event[4], None)
        self._foster_count, self._forms, self._plaintext = self._counters()
        self._set_watch_all(self._watch_level())

    def _text_alone(self, begin: int, end: int) -> None:
        """_handle_token for a text token that moved no element (the most
        common token inside elements with text handlers): the same state,
        without the event loops."""
        self._fast_token_state(False)
        if self._scoped_open:
            handlers = self._doc_text + self._scoped("text_handlers")
        else:
            handlers = self._doc_text
        if handlers:
            self._text(begin, end, handlers)
        self._foster_count, self._forms, self._plaintext = self._counters()
        self._set_watch_all(self._watch_level())

    # -- quiet ends ------------------------------------------------------
    # A matched element whose end has nothing to write and nothing to
    # check (no content or handlers at its end, not removed, renamed or
    # replaced; attributes changed only when its own end tag closes it
    # alone from the top of the stack) ends without a call here: the
    # engine keeps its key, and the record is closed at the next call.
    @staticmethod
    def _quiet_level(r: _Record) -> int:
        # (The engine's quiet_level: one definition for both paths.)
        return r._quiet_level()

    def _loud(self, r: _Record) -> None:
        """Something was added to the element's end: its pop must come here."""
        if not r.ended:
            self._quiet(self._node_key(r.node), 0)

    def _silent_ends(self, keys: List[int]) -> None:
        for key in keys:
            r = self._open.pop(key, None)
            self._start_edited.pop(key, None)
            if r is not None:
                r.ended = True
            self._scoped_open.pop(key, None)

    def _matching(self, node: Any, matches: int) -> List[Callable[..., Any]]:
        """The element handlers of the selectors that match (`matches`:
        the engine's bit set; bit 63 for any from the 63rd on)."""
        found = []
        self._scoped_text = []
        self._scoped_comments = []
        for i, (selector, element, text, comments) in enumerate(self._element_handlers):
            if not (matches >> min(i, 63)) & 1:
                continue
            if i < 63 or selector.match(node):
                if element is not None:
                    found.append(element)
                if text is not None:
                    self._scoped_text.append(text)
                if comments is not None:
                    self._scoped_comments.append(comments)
        return found

    def _close_implied(self, r: _Record, start_tag: Optional[str] = None) -> None:
        """Write end tags for the elements closed without end tags at this
        point (content written here, or the token that closed them
        removed, must not land in them)."""
        if self._agency_end_written:
            return      # (the end tag written for the token's adoption agency run
            #  pops them as the token did: _reconstructed_after_agency)
        tags = []
        # (raw_first: the first end tag is that of the raw text or RCDATA
        # element the input ends in, which _eof_raw_end_tag found to end it
        # there with the same text, a '<' before it included: nothing for
        # _eof_end_tags_join's look-back to find.)
        raw_first = False
        formatting = self._eof_formatting_ends()
        unlisting: List[Any] = []      # (_closed_unlistable's, topmost first)
        for entry in self._implied_pops:
            if entry is None:
                raise RewriteError("<%s>: content would be written where an element it "
                                   "follows ends without an end tag, after that element's "
                                   "own content" % r.name)
            name, html = entry[0], entry[1]
            if name == "head" and html and (start_tag in ("body", "html")
                                            or "body" in r.implied_with):
                continue        # (what implies the body closes the head itself)
            if html and name in _FORMATTING and (formatting or self._formatting_end_tag(entry[2])
                                                 or any(node is entry[2]
                                                        for node in self._unlist_closing)):
                tags.append("</%s>" % name)
                continue
            if html and name in _FORMATTING and len(entry) > 2 and \
                    self._closed_unlistable(entry[2], unlisting):
                unlisting.append(entry[2])
                tags.append("</%s>" % name)
                continue
            if self._at_eof and entry[2] is self._eof_raw_node:
                # (The input ends in its text: only its end tag ends it.)
                if self._eof_raw_closed:
                    continue
                if not self._eof_raw_end_tag():
                    raise RewriteError("<%s>: the input ends inside <%s> where its end tag "
                                       "would not end it (a script's double-escaped text), "
                                       "or the rewriter cannot tell" % (r.name, name))
                self._eof_raw_closed = True
                raw_first = not tags
            if (name in _NO_SYNTHESIZED_END if html
                    else name.lower() in _NO_SYNTHESIZED_FOREIGN_END) and not (
                        html and name == "form" and self._form_end_tag(entry[2])):
                raise RewriteError("<%s>: <%s> ends without an end tag where content is "
                                   "written, and one cannot be written for it" % (r.name, name))
            if html and name == "form":
                self._form_end_written(entry[2])
            tags.append("</%s>" % name)
        if self._marker_ends_reconstruct():
            raise RewriteError("<%s>: the end tags written for the elements closed here end "
                               "<%s>, which takes the list of active formatting elements "
                               "back to entries the parser would reconstruct around the "
                               "content written next" % (r.name, next(
                                   e[0] for e in self._implied_pops
                                   if e is not None and e[1] and e[0] in _MARKER_ELEMENTS)))
        self._implied_pops = []
        if unlisting:
            self._unlist_closed(unlisting)
        if tags:
            if not raw_first:
                self._eof_end_tags_join(r)
            if self._reconstruction_agency is not None:
                # (These end tags run what the token's adoption agency run
                # did, or another thing: its copies are not given start
                # tags after them, _reconstructed_after_agency.)
                self._reconstruction_agency = None
                self._reconstructed_nodes = []
        self._emit("".join(tags))

    def _closed_unlistable(self, node: Any, earlier: List[Any]) -> bool:
        """For _close_implied, before the end of input: whether an end tag
        written for the HTML formatting element `node`, which this token
        closed without one and left on the list of active formatting
        elements (the parser reconstructs a copy of it at later content),
        closes it and takes its entry off the output's list, the copy then
        written as a start tag where the parser makes it
        (_copies_of_unlisted; the output held back until then). The token
        reconstructed nothing, found nothing to reconstruct (every entry
        after the list's last marker was open: the list holds no entry
        that is not this token's elements'), popped from the top only,
        moved nothing, pushed at most one element and no marker element,
        and popped none (the end tags go before it, where the list still
        has the marker); the elements above `node` got their end tags
        first (`earlier`), so it is the current node where its end tag
        goes: the adoption agency algorithm, finding its entry the last of
        its name on the list (no later entry of its name but those of
        `earlier`, already off), pops it and takes the entry off, and
        nothing else."""
        if self._at_eof or self._unlisted is not None or self._skip is not None or \
                self._plaintext or self._reconstructed_here or self._afe_edited or \
                node.namespace_uri != _HTML_NS or self._reconstruction_pending(True):
            return False
        pushed = self._pushed_if_popped_from_top()
        if pushed is None:
            return False
        if len(pushed) > 1 or any(
                other.namespace_uri == _HTML_NS and other.local_name in _MARKER_ELEMENTS
                for other in pushed + self._popped_nodes):
            return False
        listed = self._formatting_now()
        index = next((i for i, entry in enumerate(listed or []) if entry is node), None)
        if listed is None or index is None:
            return False
        return not any(entry.local_name == node.local_name and
                       not any(entry is other for other in earlier)
                       for entry in listed[index + 1:])

    def _pushed_if_popped_from_top(self) -> Optional[List[Any]]:
        """The elements the token being handled pushed, when it moved
        nothing and popped from the top of the stack of open elements only;
        else None."""
        batch, events = self._token_events[0], self._token_events[1]
        if batch != self._batch or any(
                event[0] == "moved" or event[0] == "popped" and not event[2]
                for event in events):
            return None
        return [event[1] for event in events if event[0] == "pushed"]

    def _unlist_closed(self, nodes: List[Any]) -> None:
        """The entries of `nodes` (_closed_unlistable's) are taken off the
        output's list by the end tags _close_implied writes now: the output
        from here is held back until the parser reconstructs their copies,
        which get start tags there (_copies_of_unlisted), or the input
        ends; a token before that takes one off the input's list is refused
        (_unlisted_kept). Kept in the list's order."""
        listed = self._formatting_now() or []
        order = {id(entry): i for i, entry in enumerate(listed)}
        nodes = sorted(nodes, key=lambda node: order[id(node)])
        self._unlisted = [(node.local_name, tuple(node.attributes.items()), node)
                          for node in nodes]
        self._unlist_hold = self._out_mark(None)

    def _eof_raw_written_end(self, r: _Record) -> None:
        """r, the raw text or RCDATA element the input ends in
        (_eof_raw_node), gets an end tag written at the end of input (content
        after it): in a script's double-escaped text (<!--<script>) the
        tokenizer takes that end tag as the script's text and goes back to
        the escaped state, so the content written after it would be script
        text too, where the DOM edit has it after the script. Only an end
        tag that _eof_raw_end_tag finds to end it there (the script's source
        parsed again with it) is written; else a RewriteError. (_close_implied
        does the same for such an element closed before another.)"""
        if not self._at_eof or r.node is not self._eof_raw_node or r.new_name is not None or \
                self._eof_raw_closed:
            return
        if not self._eof_raw_end_tag():
            raise RewriteError("<%s>: the input ends inside <%s> where its end tag would not "
                               "end it (a script's double-escaped text), or the rewriter "
                               "cannot tell" % (r.name, r.name))
        self._eof_raw_closed = True

    def _eof_end_tags_join(self, r: _Record) -> None:
        """Before end tags written at the end of input for the elements it
        closes: the input may end inside a comment (the tokenizer emits it
        there) or markup the parser drops, and end tags written right after
        it would be that comment's data (`<div>a<!--x` + `</div>`): what
        ends the comment goes first (_close_eof_comment, as for content),
        else a RewriteError. Nothing to do before the end of input, while
        the input is dropped, or after <plaintext> (where it is all text)."""
        if self._at_eof and self._skip is None and not self._plaintext:
            self._check_join(r, "</")

    def _marker_ends_reconstruct(self) -> bool:
        """For _close_implied: whether end tags written for marker
        elements (td, th, caption, template, ...) among the elements closed
        here without end tags leave, after the last marker of the list of
        active formatting elements, an entry whose element is not open
        where the content goes: each such end tag clears the list up to its
        marker, and the parser reconstructs the entries before it that are
        not open (formatting elements foster-parented and popped at a
        cell's start: <table><b><td>) around the content, which the DOM
        edit does not wrap. At the end of input the list is the one before
        the end-of-file token (which empties it), with the marker elements'
        entries; after another token that popped them it is cleared
        already."""
        # (_close_implied refused the None entries before.)
        pops = [entry for entry in self._implied_pops if entry is not None]
        closed = [entry for entry in pops if entry[1] and entry[0] in _MARKER_ELEMENTS]
        if not closed:
            return False
        entries = self._formatting_all(self._at_eof)
        if entries is None or any(len(entry) < 3 for entry in pops):
            return True     # (too long to read, or an element not known: _end_fast's)
        if self._at_eof:
            for _ in closed:
                while entries and entries.pop() is not None:
                    pass
        elif self._marker_end_exposes(len(closed)):
            return True
        exposed: List[Any] = []
        while entries and entries[-1] is not None:
            exposed.insert(0, entries.pop())
        # (An end tag written after the last marker element's for a
        # formatting element that is the last entry of its name takes it
        # off the list: the adoption agency algorithm.)
        last = max(i for i, entry in enumerate(pops) if entry[1] and entry[0] in _MARKER_ELEMENTS)
        for entry in pops[last + 1:]:
            if entry[1] and entry[0] in _FORMATTING:
                mine = [node for node in exposed if node.local_name == entry[0]]
                if mine and mine[-1] is entry[2]:
                    exposed.remove(entry[2])
        closing = {id(entry[2]) for entry in pops}
        popped = {id(node) for node in self._popped_nodes}
        return any(id(node) in closing or not (id(node) in popped or self._is_open(node))
                   for node in exposed)

    def _start_closed_integration_point(self, r: _Record, has_inside: bool,
                                        has_outside: bool) -> bool:
        """At a start tag token that pops r (not its own end): whether it
        popped a foreign integration point that is r or inside r (an svg
        foreignObject, desc or title, a MathML mi, mo, mn, ms or mtext, an
        annotation-xml with an HTML encoding) and r's edit leaves a foreign
        element that is no integration point the current node where that
        start tag comes in the output. A start tag pops an integration point
        only by the HTML insertion mode's rules (the table's "clear the
        stack back to a table context" at a <tr>, a cell closed by a <td>,
        ...): the tree construction dispatcher sent it there because the
        adjusted current node was the integration point or an HTML element
        in it (the breakout of foreign content stops at an integration
        point). Content after r (or r dropped: removed or unwrapped) leaves
        r's parent the current node, content inside it (or its content
        replaced) r itself: when that is such a foreign element, the rules
        for foreign content take the start tag and make a foreign element
        of it (`<table><svg><desc><tr>` with content after the desc: an svg
        <tr> in the svg, not a table row). Not a <frameset> (what it
        replaces is not written: Rewriter's detached body), nor a start tag
        that breaks out of foreign content (_FOREIGN_BREAKOUT_TAGS: with a
        foreign current node the parser pops the foreign elements down to
        an HTML element or an integration point and hands it to the same
        insertion mode, whose rules pop what the input's popped)."""
        events = self._token_events
        if events is None or events[0] != self._batch or events[2] != "start":
            return False
        if self._tag_name("start") in _FOREIGN_BREAKOUT_TAGS:
            return False

        def integration_point(node: Any) -> bool:
            return bool(node is not None and node.node_type == 1 and
                        node.namespace_uri != _HTML_NS and (
                            _integration_point(node) or
                            node.local_name == "annotation-xml" and
                            node.namespace_uri == _MATHML_NS and
                            (node.get_attribute("encoding") or "").lower() in (
                                "text/html", "application/xhtml+xml")))

        if not any(integration_point(node) and (node is r.node or r.node.contains(node))
                   for node in self._popped_nodes):
            return False
        candidates = []
        if has_outside or r.mode in (_REMOVED, _KEEP_CONTENT):
            candidates.append(r.node.parent_node)
        if has_inside or r.mode == _INNER or r.new_name is not None:
            candidates.append(r.node)
        return any(node is not None and node.node_type == 1 and
                   node.namespace_uri != _HTML_NS and not integration_point(node)
                   for node in candidates)

    def _marker_end_exposes(self, count: int) -> bool:
        """Whether end tags written for `count` marker elements the parser
        popped without clearing their markers (the table's "clear the
        stack back to a table context" at a <tr>: the list of active
        formatting elements holds more markers than marker elements are
        open) clear markers the input's list keeps, exposing entries that
        are not open: the parser would reconstruct them at later content,
        where the input's list hides them behind the marker."""
        entries = self._formatting_all(self._at_eof)
        if entries is None:
            return True
        if self._at_eof:
            # (The list before the end-of-file token: the elements open
            # there, but the ones the end tags close, are open where the
            # content after them goes.)
            extra = count
            popped = {id(node) for node in self._popped_nodes}
        else:
            extra = min(count, sum(1 for e in entries if e is None) - self._open_markers())
        if extra <= 0:
            return False
        if not self._at_eof and self._marker_end_keeps_entries(entries):
            return True
        for _ in range(extra):
            while entries and entries.pop() is not None:
                pass
        exposed = []
        while entries and entries[-1] is not None:
            exposed.append(entries.pop())
        if self._at_eof:
            return any(id(node) not in popped for node in exposed)
        return any(not self._is_open(node) for node in exposed)

    @staticmethod
    def _marker_end_keeps_entries(entries: List[Any]) -> bool:
        """For _marker_end_exposes, before the end of input, where the
        output's end tags clear markers the input's list keeps (`entries`:
        the input's list after the token, None for a marker): whether that
        list holds any element entry. The token that closed the marker
        element ran in the input with the list as it is; in the output it
        runs after the end tags, and each of those cleared the list up to
        its own marker first, so the token's own clearing ("clear the list
        up to the last marker" at </caption>, </td>, </th>) goes one marker
        further back, or the marker stays removed (<tr>'s "clear the stack
        back to a table context" clears nothing): the output's list lacks
        a marker the input's keeps, with the entries after it
        (<table><caption><em><object></caption>: the input keeps
        [caption's marker, <em>] and reconstructs <em> around text
        foster-parented next; the output's list is empty). An entry before
        that marker is no longer hidden behind it: reconstructed when not
        open, and found by a later end tag's adoption agency when open
        (the input's end tag falls to "any other end tag" there). Which
        markers are the stale ones the list does not say: any element
        entry refuses; a list of markers only reads the same with fewer
        markers (nothing to reconstruct, hide or clear)."""
        return any(entry is not None for entry in entries)

    def _open_markers(self, stop: Any = None) -> int:
        """How many marker elements (_MARKER_ELEMENTS) are open around the
        current node (each has a marker in the list of active formatting
        elements); with `stop`, those from the current node up to that
        ancestor, itself not counted (0 when it is no ancestor of it)."""
        count = 0
        node = self._current_node()
        while node is not None and node is not stop:
            if node.node_type == 1 and node.namespace_uri == _HTML_NS and \
                    node.local_name in _MARKER_ELEMENTS and self._is_open(node):
                count += 1
            parent = node.parent_node
            if parent is not None and parent.node_type == 11:
                parent = parent.host        # (template contents)
            node = parent if parent is not None and parent.node_type in (1, 11) else None
        return count if node is stop else 0

    def _form_end_tag(self, node: Any) -> bool:
        """Whether a </form> written for the HTML form `node`, which the
        parser closed without its end tag here, closes it in the output
        (it is the current node there: the elements closed above it get
        their end tags first). Inside a template's contents, </form> pops
        the form in scope and leaves the form element pointer alone. Else
        it removes the element the pointer is set to and sets the pointer
        to none: the pointer must be this form; the input's pointer stays
        this form, so until both are none again a later form tag is
        written or refused as after a form unwrapped (_form_tag, from
        _form_end_written). A question only: it changes nothing."""
        if self._in_template_contents(node):
            return True
        return self._form_dirty is None and self._form_pointer() == self._node_key(node)

    @staticmethod
    def _in_template_contents(node: Any) -> bool:
        parent = node.parent_node
        while parent is not None and parent.node_type == 1:
            parent = parent.parent_node
        return parent is not None and parent.node_type == 11

    def _form_end_written(self, node: Any) -> None:
        """A </form> that _form_end_tag allowed is written for `node`."""
        if self._in_template_contents(node):
            return
        self._form_dirty = "form"
        self._form_out = 0
        self._form_kept = None
        self._form_reason = ("<form>: the end tag written for it leaves the output's form "
                             "element pointer none where the input's is this form, which "
                             "decides what the parser does with a later form tag")

    def _eof_unlist(self, r: _Record, own: bool, has_inside: bool) -> str:
        """At the end of input, for content written at r's end (inside it,
        or after it when only after it) where the parser would reconstruct
        active formatting elements first: the end tags that take those
        entries off the list instead, or "" when they cannot. The entries
        reconstructed are the list's last ones (after its last marker)
        whose elements are not open; nothing follows the end of input that
        would reconstruct them. An end tag of a formatting element's name
        runs the adoption agency algorithm: written for the last entry
        first, each finds its own entry (the last of its name on the list)
        and, the element not being open, takes it off and does nothing
        else, unless the current node is an HTML element of that name not
        on the list (then it pops that). The current node where they are
        written is r (content inside it: the elements closed above it get
        their end tags first, _close_implied) or, content only after it,
        the element below it; both are HTML elements (in foreign content
        an end tag walks the stack). Written once: the entries are gone
        for the content written after it at this end of input (that of
        another element is refused: the rewriter does not follow the
        list further).""" 
        if not self._at_eof or own or self._eof_unlisted or self._unlisted is not None:
            return ""
        found = self._formatting_list()
        if found is None or r.node.namespace_uri != _HTML_NS:
            return ""
        open_keys = {self._node_key(node) for node in self._popped_nodes}
        pending = []
        for key, name in reversed(found):
            if key in open_keys:
                break
            pending.append((key, name))
        if not pending:
            return ""
        current = r.node
        if not has_inside:
            current = current.parent_node
            if current is None or current.node_type != 1:
                return ""
        if current.namespace_uri != _HTML_NS:
            return ""
        listed = {key for key, _ in found}
        if current.local_name in {name for _, name in pending} and \
                self._node_key(current) not in listed:
            return ""
        self._eof_unlisted = True
        return "".join("</%s>" % name for _, name in pending)

    def _unlist_for_copies(self, r: _Record, own: bool, has_inside: bool) -> Optional[str]:
        """Before the end of input, for content written at r's end where
        the parser would reconstruct active formatting elements first: end
        tags that take those entries off the list, as _eof_unlist writes
        them, and the copies the parser reconstructs of them later written
        as start tags where it makes them (_copies_of_unlisted). The
        entries are the list's last ones (after its last marker) whose
        elements are not open after this token; written last first, the end
        tag of each finds its own entry (the last of its name). One that
        this token closed above r (content inside r, or after r when the
        token closes r without its end tag) is still open where the content
        goes: its end tag is written with theirs (_close_implied), where it
        is the current node (the adoption agency pops it, no furthest block
        above it; no later entry has its name); the others must not be open
        there, the token must not have cleared a marker the list has there
        (its end tags would not reach the entries), and the current node
        there has none of their names (the algorithm would pop it). The
        output from here is held back until the parser reconstructs them
        (or the input ends: nothing does). Returns the end tags written
        after those of _close_implied, or None when that cannot be done."""
        if self._at_eof or self._unlisted is not None or self._skip is not None or \
                self._reconstructed_here or self._plaintext or r.foster or \
                r.node.namespace_uri != _HTML_NS or self._afe_edited:
            return None
        found = self._formatting_now()
        if not found:
            return None
        tail: List[Any] = []
        for node in reversed(found):
            if self._is_open(node):
                break
            tail.insert(0, node)
        names = [node.local_name for node in tail]
        if not tail or any(node is r.node for node in tail) \
                or any(node.namespace_uri != _HTML_NS for node in tail):
            return None
        before_token = has_inside or not own
        if before_token and any(node.namespace_uri == _HTML_NS and
                                node.local_name in _MARKER_ELEMENTS
                                for node in self._popped_nodes):
            # (The end tags go before the token, whose list still has the
            # marker this token cleared: they would not find the entries.)
            return None
        closing = {id(entry[2]) for entry in self._implied_pops
                   if entry is not None and len(entry) > 2} if before_token else set()
        popped = {id(node) for node in self._popped_nodes}
        if any(id(node) in popped and id(node) not in closing for node in tail) \
                and before_token:
            return None
        if {node.local_name for node in tail if id(node) in closing} & \
                {node.local_name for node in tail if id(node) not in closing}:
            return None
        current = r.node if has_inside else r.node.parent_node
        if current is None or current.node_type != 1 or current.namespace_uri != _HTML_NS \
                or current.local_name in names:
            return None
        self._unlist_closing = [node for node in tail if id(node) in closing]
        self._unlisted = [(node.local_name, tuple(node.attributes.items()), node)
                          for node in tail]
        self._unlist_hold = self._out_mark(None)
        return "".join("</%s>" % node.local_name for node in reversed(tail)
                       if id(node) not in closing)

    def _copies_of_unlisted(self, events: List[Any]) -> None:
        """A token where the parser reconstructs formatting elements while
        entries taken off the output's list (_unlist_for_copies,
        _unlist_closed) are on the input's: the last copies must be exactly
        those entries' (the same names and attributes, in order, made at the
        token's start with nothing else before them but the copies of
        entries the output's list holds too, which the first start tag's own
        reconstruction makes: _only_reconstructed, _reconstructed_index), and a
        start tag for each, with those attributes, makes them in the output
        where the parser made them (self._explicit, as _explicit_copies
        does): the output's list then holds them as the input's does. Each
        start tag runs the Noah's Ark clause, which the reconstruction does
        not: fewer than three entries like it after the list's last marker.
        Else RewriteError; the output held back is released."""
        assert self._unlisted is not None
        names = [entry[:2] for entry in self._unlisted]
        name = names[0][0]
        # (Copies reconstructed before them are made in the output too, by
        # the first start tag's own reconstruction.)
        implicit = len(self._reconstructed_nodes) - len(names)
        nodes = self._reconstructed_nodes[max(0, implicit):]
        if implicit < 0 or self._skip is not None or self._plaintext or \
                self._explicit or [(node.local_name, tuple(node.attributes.items()))
                                   for node in nodes] != names:
            raise RewriteError("<%s>: content was written where the parser reconstructs "
                               "formatting elements, and the copies it makes later differ "
                               "from the entries the output took off its list" % name)
        first = nodes[0]
        foster = next(event[3] for event in events if event[1] is first)
        if self._reconstructed_index(_Record(first, True, foster, None)) != implicit:
            raise RewriteError("<%s>: content was written where the parser reconstructs "
                               "formatting elements, and start tags cannot make the copies "
                               "it makes later" % name)
        found = self._formatting_now()
        index = next((i for i, node in enumerate(found or []) if node is first), None)
        listed = [(node.local_name, dict(node.attributes.items())) for node in found or []]
        own = [event[1] for event in events if event[0] == "pushed" and event[10] and
               event[1].namespace_uri == _HTML_NS and (event[1].local_name in _FORMATTING or
                                                       event[1].local_name in _MARKER_ELEMENTS)]
        if index is None or own and (
                own[-1].local_name in _MARKER_ELEMENTS or
                listed.count((own[-1].local_name, dict(own[-1].attributes.items()))) >= 3):
            # (The token's own element, pushed after the copies, may have
            # taken an entry off the list (Noah's Ark: then three like it
            # are there) or put a marker after them: the list read here is
            # not the one the start tags meet.)
            raise RewriteError("<%s>: content was written where the parser reconstructs "
                               "formatting elements, and the list the start tags for the "
                               "copies meet cannot be read here" % name)
        for k in range(len(nodes)):
            if listed[:index + k].count(listed[index + k]) >= 3:
                raise RewriteError("<%s>: a start tag written for the copy the parser "
                                   "reconstructs would take another entry off the list of "
                                   "active formatting elements (Noah's Ark)" % name)
        self._explicit = list(nodes)
        self._unlisted_copies = list(nodes)
        self._copies_written = self._batch
        self._unlisted = self._unlist_hold = None
        self._unlist_closing = []

    def _unlisted_kept(self) -> None:
        """A token (every one comes here while entries are unlisted:
        _unlist_for_copies) that reconstructed nothing: the entries the
        output took off its list must still be on the input's. A token that
        took one off (an end tag of its name, an <a> start tag's adoption
        agency) did so where the output's list has no such entry: the
        output's parser may have done something else with it (an end tag
        that closes another element of that name)."""
        assert self._unlisted is not None
        entries = self._formatting_all(self._at_eof)
        for name, _, node in self._unlisted:
            if entries is None or not any(entry is node for entry in entries):
                raise RewriteError("<%s>: content was written where the parser reconstructs "
                                   "formatting elements, and a later token took the entry "
                                   "the output took off its list off the input's" % name)

    def _formatting_end_tag(self, node: Any) -> bool:
        """Whether an end tag written for the HTML formatting element `node`,
        which the parser closed without its end tag at this token (not the
        end of input: _eof_formatting_ends), closes it in the output and
        leaves the token doing the rest as it did. The token moved nothing
        and popped only from the top (no adoption agency with a furthest
        block), so the element is the current node where the end tag is
        written (the elements closed above it get theirs first). The end
        tag runs the adoption agency algorithm for its name: it pops the
        element and takes it off the list of active formatting elements
        when its entry is the last of its name there, or it has none (then
        the current node is popped). So:
        - its entry is not on the list after the token (the token took it
          off, as the <a>/<nobr> start tags' adoption agency or clearing
          the list to the last marker do, or it had none): the list is the
          same after the token in the output;
        - no element of its name inside it (its entry may be a later one
          of its name, which the end tag would take instead: an element
          closed without leaving the list, its entry taken off by this
          token; while listed it is kept in the tree) and none open
          around it (the <nobr> start tag runs the algorithm again for a
          nobr in scope)."""
        if self._at_eof:
            return False
        pushed = self._pushed_if_popped_from_top()
        if pushed is None:
            return False
        if len(pushed) > 1 or pushed and pushed[0].namespace_uri == _HTML_NS and \
                pushed[0].local_name in _MARKER_ELEMENTS:
            # (A formatting element reconstructed takes the place of an
            # entry; a marker hides the entries before it from
            # _formatting_now.)
            return False
        name = node.local_name
        key = self._node_key(node)
        listed = self._formatting_now()
        if listed is None or any(self._node_key(entry) == key for entry in listed):
            return False
        parent = node.parent_node
        while parent is not None and parent.node_type == 1:
            if parent.local_name == name and parent.namespace_uri == _HTML_NS:
                return False
            parent = parent.parent_node
        return not any(inner.namespace_uri == _HTML_NS
                       for inner in node.query_selector_all(name))

    def _eof_formatting_ends(self) -> bool:
        """At the end of input, whether end tags written for the formatting
        elements among the elements closed here (_implied_pops, the
        topmost first) close each of them and leave nothing to
        reconstruct: each is the current node then, and the adoption
        agency algorithm pops it when it is the last element of its name in
        the list of active formatting elements (after the last marker), or
        not in the list; the entries left must be of elements still open
        after them (else the content written next is wrapped in copies)."""
        if not self._at_eof or not any(
                entry is not None and entry[1] and entry[0] in _FORMATTING
                for entry in self._implied_pops):
            return False
        found = self._formatting_list()
        if found is None:
            return False
        entries = list(found)
        last = -1
        order = {id(node): i for i, node in enumerate(self._popped_nodes)}
        for entry in self._implied_pops:
            if entry is None or len(entry) < 3:
                return False
            node = entry[2]
            if id(node) not in order:
                return False
            last = max(last, order[id(node)])
            if not (entry[1] and entry[0] in _FORMATTING):
                continue
            key = self._node_key(node)
            mine = [i for i, (k, name) in enumerate(entries) if name == entry[0]]
            if any(entries[i][0] == key for i in mine):
                if entries[mine[-1]][0] != key:
                    return False        # (the end tag finds another one)
                del entries[mine[-1]]
        still_open = {self._node_key(node) for node in self._popped_nodes[last + 1:]}
        return all(key in still_open for key, _ in entries)

    def _eof_formatting_end(self, r: _Record) -> bool:
        """At the end of input, whether an end tag written for the HTML
        formatting element r (closed there without one, after the
        elements closed above it, which get theirs first) closes it and
        leaves nothing to reconstruct around the content written after it:
        _eof_formatting_ends with r as the last of the elements closed
        here."""
        if not self._at_eof:
            return False
        pops = self._implied_pops
        self._implied_pops = pops + [(r.name, True, r.node)]
        try:
            return self._eof_formatting_ends()
        finally:
            self._implied_pops = pops

    def _head_content(self, markup: str) -> bool:
        """Whether the parser keeps `markup` in <head>, as elements only,
        and it leaves what follows unchanged (checked by parsing it)."""
        construction = TreeConstruction(self._scripting)
        construction.feed_text("<head>" + markup + "</head><i>z</i>")
        document = construction.finish()
        html = document.document_element
        parts: List[Any] = list(html.child_nodes) if html is not None else []
        if len(parts) != 2 or parts[0].local_name != "head" or parts[1].local_name != "body":
            return False
        body: List[Any] = list(parts[1].child_nodes)
        if len(body) != 1 or body[0].node_type != 1 or body[0].local_name != "i" or \
                body[0].text_content != "z":
            return False
        return all(node.node_type == 1 for node in parts[0].child_nodes)

    def _body_start(self, markup: str) -> bool:
        """Whether `markup` at the start of a document makes the parser
        imply the body before anything of it, puts nothing in the head or
        outside the body, and leaves what follows unchanged."""
        construction = TreeConstruction(self._scripting)
        construction.feed_text(markup + "<i>z</i>")
        document = construction.finish()
        html = document.document_element
        if html is None or len(list(document.child_nodes)) != 1:
            return False
        parts: List[Any] = list(html.child_nodes)
        if len(parts) != 2 or parts[0].local_name != "head" or parts[1].local_name != "body" \
                or parts[0].first_child is not None:
            return False
        last: Any = parts[1].last_child
        return bool(last is not None and last.node_type == 1 and last.local_name == "i" and
                    last.text_content == "z")

    def _eof_position(self) -> int:
        """Where content written at the end of input goes: the end, or
        before a tag the input ends inside (end of file in a tag emits
        nothing: the parser drops those bytes wherever they are)."""
        length = self._stream_length()
        last = self._last_token_end()
        if last < length and self._last_token_closed():
            rest = self._source(last, length)
            if (re.match(rb"</?[A-Za-z][^>]*\Z", rest) or _dropped_processing_instruction(rest)) \
                    and not re.search(
                    rb"<[!/?A-Za-z][^>]*$|<$|<!\[CDATA\[(?:(?!\]\]>).)*$",
                    self._source(self._raw_base, last), re.S):
                return last
            raw: Any = self._eof_raw_node
            if raw is not None and re.match(rb"</%s[\t\n\f\r /][^>]*\Z"
                                            % raw.local_name.encode(), rest, re.I):
                return last     # (an end tag of the raw text element the input ends in)
        return length

    def _keep_source(self, begin: int, end: int) -> None:
        """Write a token's source while the input around it is dropped."""
        self._copy_to(begin)
        self._out += self._raw[begin - self._raw_base:end - self._raw_base]
        self._emitted = end

    def _after_body_foreign(self) -> bool:
        """At a </body> or </html> that set the insertion mode to "after
        body" while a foreign element is the current node (`<math></body>`:
        in foreign content the end tag is handed to the "in body" rules,
        which pop nothing): the tree construction dispatcher sends the
        tokens that follow to the rules for foreign content as long as that
        element is open, which put comments into it, inside the body, not
        after it. The body's replaced content then does not end here (the
        end tag is dropped with it, and the </body> check of _handle_token
        refuses, since comments go after the body once that element is
        popped)."""
        node = self._current_node()
        return node is not None and node.namespace_uri != _HTML_NS

    def _after_body_token(self, kind: str, begin: int, end: int) -> None:
        """A token after </body> or </html> while the body's content is
        replaced: comments (and processing instructions) stay (the parser puts them outside the body),
        whitespace is the body's; anything else takes the parser back into
        the body."""
        if kind in ("comment", "comment-continued", "pi"):
            self._keep_source(begin, end)
        elif kind == "text":
            if self._source(begin, end).strip(b"\t\n\f\r "):
                self._after_body = False
        elif kind not in ("doctype", "eof") and not (
                kind == "end" and self._source(begin, end)[2:6].lower() in (b"body", b"html")):
            self._after_body = False

    def _track(self, r: _Record) -> None:
        if r not in self._tracked:
            self._tracked.append(r)
            # (A later <frameset> would be taken or not by the frameset-ok
            # flag that some of these start tags set.)
            self._dropped = True

    def _track_token(self, kind: str, count: int, events: List[Any]) -> None:
        """What a tracked element's edit depends on in the tokens while it
        is open: an end tag the parser ignored whose name an ancestor has
        (its walk down the stack, or its scope, may have stopped at the
        element because it is special or a scope boundary: without it, the
        ancestor would be closed), an <li>, <dd> or <dt> whose loop stopped
        at it and would otherwise have gone on to one of its kind."""
        self._track_select_ruby(kind, events)
        if self._template_modes:
            self._template_mode_token(kind)
        if kind in ("start", "end"):
            self._unwrapped_in_foreign(kind, count, events)
        elif kind == "comment":
            self._unwrapped_cdata()
        self._tracked = [r for r in self._tracked if not r.ended]
        if self._plain_renames:
            self._plain_renames = {r for r in self._plain_renames if not r.ended}
        if kind == "end" and count == 0:
            begin, end = self._token_span()
            name = self._source(begin, end)[2:].split(b">")[0].split(b"/")[0].split()
            tag = name[0].lower().decode("utf-8", "replace") if name else ""
            for r in self._tracked:
                if r.new_name == tag:
                    raise RewriteError("<%s>: renamed to <%s>, and an end tag </%s> inside "
                                       "it, which the parser ignored, would close it"
                                       % (r.name, tag, tag))
                if r in self._plain_renames:
                    continue    # (an ordinary element: the walk passes it either way)
                node = r.node.parent_node
                while node is not None and node.node_type == 1:
                    if node.local_name == tag:
                        r.ignored_end = True
                        break
                    node = node.parent_node
        if kind == "start":
            self._current_node_read(events)
        for event in events:
            if event[0] != "pushed":
                continue
            name = event[1].local_name
            if name not in ("li", "dd", "dt") or event[1].namespace_uri != _HTML_NS:
                continue
            node = self._loop_stop(event[1].parent_node)
            for r in self._tracked:
                if r.node is node and not (name == "li" and r.name == "li") and not (
                        name in ("dd", "dt") and r.name in ("dd", "dt")):
                    # Without it the loop goes on: does it find one?
                    beyond = self._loop_stop(node.parent_node)
                    kinds = ("li",) if name == "li" else ("dd", "dt")
                    if beyond is not None and beyond.node_type == 1 and (
                            beyond.local_name in kinds or
                            any(t.node is beyond for t in self._tracked)):
                        r.loop_stopped = True

    def _unwrapped_in_foreign(self, kind: str, count: int, events: List[Any]) -> None:
        """HTML elements unwrapped (remove_and_keep_content) whose parent
        is a foreign element (an integration point): the tokens met while
        one of them is the current node (or is under it with only unwrapped
        elements between) go by the rules of HTML content; without them,
        the foreign parent is the current node, and an end tag goes by the
        rules for foreign content, which close the foreign elements down to
        one of its name (</math>, </mtext>, </foreignObject>: the "in body"
        rules ignore them there, at a special element), and in a MathML
        text integration point an <mglyph> or <malignmark> start tag makes
        a MathML element. Refused when such a token comes."""
        unwrapped = {id(r.node): r for r in self._tracked
                     if r.mode == _KEEP_CONTENT and not r.ended and
                     r.node.namespace_uri == _HTML_NS}
        if not unwrapped:
            return

        def in_output(node: Any) -> Tuple[Any, Optional[_Record]]:
            # (What stands for `node` in the output: past the unwrapped
            # elements from it up; and the outermost of those.)
            passed = None
            while node is not None and id(node) in unwrapped:
                passed = unwrapped[id(node)]
                node = node.parent_node
            return node, passed

        if kind == "end":
            self._foreign_end_walk(events, unwrapped)
        for event in events if kind == "start" else ():
            if event[0] != "pushed" or not event[10] or \
                    event[1].local_name not in ("mglyph", "malignmark"):
                continue
            node, r = in_output(event[1].parent_node)
            if r is not None and node is not None and node.node_type == 1 and \
                    node.namespace_uri == _MATHML_NS and \
                    node.local_name in ("mi", "mo", "mn", "ms", "mtext"):
                raise RewriteError("<%s>: remove_and_keep_content: without it the parser "
                                   "would make a MathML element of the <%s> inside it"
                                   % (r.name, event[1].local_name))

    def _unwrapped_cdata(self) -> None:
        """A comment token met while an unwrapped HTML element
        (remove_and_keep_content) is the current node, or is under it
        with only unwrapped elements between: when its source is
        "<![CDATA[", the tokenizer read it as a bogus comment because the
        adjusted current node is an HTML element (the markup declaration
        open state). Without the unwrapped elements the current node is
        their parent; when that is a foreign element (an integration point:
        foreignObject, desc, title, mi, mtext, annotation-xml, ...), the
        same bytes are a CDATA section, whose characters are text: not the
        DOM edit's comment. Refused."""
        node = self._current_node()
        passed = None
        while node is not None and node.node_type == 1 and \
                node.namespace_uri == _HTML_NS:
            r = next((t for t in self._tracked if t.node is node and
                      t.mode == _KEEP_CONTENT and not t.ended), None)
            if r is None:
                break
            passed = r
            node = node.parent_node
        if passed is None or node is None or node.node_type != 1 or \
                node.namespace_uri == _HTML_NS:
            return
        begin, end = self._token_span()
        if self._source(begin, min(end, begin + 9)) == b"<![CDATA[":
            raise RewriteError("<%s>: remove_and_keep_content: without it the parser would "
                               "read the \"<![CDATA[\" inside it as a CDATA section of the "
                               "foreign <%s> around it" % (passed.name, node.local_name))

    def _foreign_end_walk(self, events: List[Any], unwrapped: Dict[int, "_Record"]) -> None:
        """An end tag token where the current node (before the token) is
        foreign in the input or in the output (the unwrapped elements
        left out): the rules for foreign content walk down the stack of
        open elements from the current node to one of the token's name,
        stopping at the first HTML element (whose insertion mode then
        handles the token); </br> and </p> pop the foreign elements down
        to an integration point or an HTML element. Without the unwrapped
        elements the walk passes where they stood, and goes on to the
        foreign elements around them: refused when it reaches one the
        input's walk did not (it would close it)."""
        if events and events[0][0] == "popped" and events[0][2]:
            top = events[0][1]
        elif events and events[0][0] == "pushed":
            top = events[0][1].parent_node
        else:
            top = self._current_node()
        name = self._tag_name("end")

        def foreign(node: Any) -> bool:
            return bool(node is not None and node.node_type == 1 and
                        node.namespace_uri != _HTML_NS)

        def stops_breakout(node: Any) -> bool:
            return not foreign(node) or _integration_point(node) or (
                node.local_name == "annotation-xml" and
                (node.get_attribute("encoding") or "").lower() in ("text/html",
                                                                  "application/xhtml+xml"))

        def walk(node: Any, skip: bool) -> Tuple[List[Any], Any]:
            # (The foreign elements the token closes, and the node it
            # reaches by its name (None: it goes to the insertion mode).)
            while skip and node is not None and id(node) in unwrapped:
                node = node.parent_node
            passed: List[Any] = []
            if not foreign(node):
                return passed, None
            while foreign(node):
                if name in ("br", "p"):
                    if stops_breakout(node):
                        return passed, None
                elif node.local_name.lower() == name:
                    return passed, node
                passed.append(node)
                node = node.parent_node
                while skip and node is not None and id(node) in unwrapped:
                    node = node.parent_node
            return (passed if name in ("br", "p") else []), None

        kept, reached = walk(top, False)
        alone, reached_alone = walk(top, True)
        if reached_alone is not reached or (name in ("br", "p") and len(alone) != len(kept)):
            node = top
            while id(node) not in unwrapped:
                node = node.parent_node
            r = unwrapped[id(node)]
            closed = reached_alone if reached_alone is not None else alone[-1]
            raise RewriteError("<%s>: remove_and_keep_content: without it an end "
                               "tag </%s> inside it would close the foreign <%s> "
                               "around it" % (r.name, name, closed.local_name))

    def _tag_name(self, kind: str) -> str:
        """The name of the start or end tag token being handled, as the
        tokenizer reads it (ASCII lowercase)."""
        begin, end = self._token_span()
        tag = self._source(begin, end)[1 if kind == "start" else 2:].split(b">")[0]
        parts = tag.split(b"/")[0].split()
        return parts[0].lower().decode("utf-8", "replace") if parts else ""

    def _watch_template_mode(self, r: _Record) -> None:
        """A template with a start tag prepended (Element.prepend): the
        tokens its "in template" insertion mode handles are watched until
        the first start tag that decides its mode (_template_ignored_end_tags
        reads what was met). Only from its own start tag's token: what came
        before this call is not known, and _template_ignored_end_tags
        refuses then."""
        if r in self._template_modes or r.start is None or \
                self._token_span()[0] != r.start[0] or self._current_node() is not r.node:
            return
        # (The current node now: its start tag's token, which may come
        # to _template_mode_token too (then "template" decides nothing),
        # or not (the engine's fast path of a start tag).)
        self._template_modes[r] = [r.node, False, False]
        if r not in self._tracked:
            self._tracked.append(r)

    def _template_mode_token(self, kind: str) -> None:
        """For each template of _template_modes whose mode is not decided
        yet: a token handled while it was the current node (in its "in
        template" insertion mode: inside a nested template, or a script,
        style or title in it, another node is) is an end tag it ignores
        (</p> or </br> noted), or a start tag that decides its mode (but
        the ones it reads as "in head" does)."""
        for r in [r for r in self._template_modes if r.ended]:
            del self._template_modes[r]     # (refused or gone before its end)
        current = self._current_node()
        name = self._tag_name(kind) if kind in ("start", "end") else ""
        for r, state in self._template_modes.items():
            before, state[0] = state[0], current
            if before is not r.node or state[1]:
                continue
            if kind == "end" and name in ("p", "br"):
                state[2] = True
            elif kind == "start" and name not in _TEMPLATE_HEAD_TAGS:
                state[1] = True

    def _track_select_ruby(self, kind: str, events: List[Any]) -> None:
        """The tokens inside a tracked select or ruby (Element._select_ruby_edit)
        whose processing read its name: the reason is kept for its end."""
        watched = [r for r in self._tracked if not r.ended and r.name in ("select", "ruby")]
        if not watched:
            return
        # (Not the token's own void element, pushed and popped at once.)
        pushed = [event[1] for event in events if event[0] == "pushed"]
        pops = [event[1] for event in events if event[0] == "popped" and
                not any(node is event[1] for node in pushed)]
        content = any(event[0] == "pushed" and event[1].local_name == "selectedcontent"
                      for event in events)
        tag = ""
        if kind == "start":
            begin, end = self._token_span()
            name = self._source(begin, end)[1:].split(b">")[0].split(b"/")[0].split()
            tag = name[0].lower().decode("utf-8", "replace") if name else ""
        # Start tags that closed elements by the implied end tags of a ruby
        # or a select in scope (an <option> or <optgroup> closes the
        # current <option> without one too): end tags written before them
        # close the same elements without it.
        closing = self._closing_tracked(tag, pops)
        if closing and not self._end_implied_before(begin):
            for r in closing:
                self._select_ruby_failed[r] = "a <%s> inside it closed elements (the " \
                    "implied end tags of a %s in scope), and end tags cannot be written " \
                    "for them" % (tag, r.name)
        if content:
            for r in watched:
                if r.name == "select" and r not in self._select_ruby_failed:
                    self._select_ruby_failed[r] = "the parser copies its selected option " \
                        "into the <selectedcontent> inside it"

    def _current_node_read(self, events: List[Any]) -> None:
        """A start tag whose element went into an unwrapped element (the
        current node then) and whose handling reads the current node: a
        heading pops a heading, an option or optgroup an option, and the
        implied end tags of rb, rtc, rp, rt and (with a select in scope)
        hr pop those of _IMPLIED_END. Without the unwrapped element its
        parent is the current node there: refused when the parent is one
        that the start tag would pop."""
        for event in events:
            if event[0] != "pushed" or not event[10]:
                continue
            node = event[1]
            name = node.local_name
            if node.namespace_uri != _HTML_NS:
                continue
            if name in _HEADINGS:
                popped = _HEADINGS
            elif name in ("option", "optgroup"):
                popped = frozenset(("option",))
                if self._select_in_scope_above(node.parent_node):
                    # (With a select in scope the "in body" rules for these
                    # generate implied end tags instead: all of them for
                    # <optgroup>, all but optgroup for <option>.)
                    popped = _IMPLIED_END if name == "optgroup" else \
                        _IMPLIED_END - {"optgroup"}
            elif name in ("rb", "rtc", "hr"):
                popped = _IMPLIED_END
            elif name in ("rp", "rt"):
                popped = _IMPLIED_END - {"rtc"}
            else:
                continue
            parent = node.parent_node
            for r in self._tracked:
                if r.mode == _KEEP_CONTENT and r.node is parent and not r.ended:
                    outer = parent.parent_node
                    if outer is not None and outer.node_type == 1 and \
                            outer.namespace_uri == _HTML_NS and outer.local_name in popped:
                        raise RewriteError("<%s>: remove_and_keep_content: a <%s> start tag "
                                           "inside it would close the <%s> around it without "
                                           "it" % (r.name, name, outer.local_name))

    def _select_in_scope_above(self, node: Any) -> bool:
        """Whether an HTML select is in scope from `node` up (the "has an
        element in scope" walk: it stops at the HTML scope boundaries and
        at the MathML and SVG ones), for an <option> or <optgroup> start
        tag met with `node` the current node (_current_node_read): with a
        select in scope the "in body" rules for them generate implied end
        tags (all, or all but optgroup for an option), else they pop a
        current <option> only."""
        while node is not None and node.node_type == 1:
            name = node.local_name
            if node.namespace_uri == _HTML_NS:
                if name == "select":
                    return True
                if name in _SCOPE_BOUNDARIES:
                    return False
            elif name in _FOREIGN_SCOPE_BOUNDARIES:
                return False
            node = node.parent_node
        return False

    def _closing_tracked(self, tag: str, pops: List[Any]) -> List[_Record]:
        """The tracked selects and rubies (not refused yet) whose name the
        start tag `tag` read to close `pops` (see _track_select_ruby)."""
        if not pops:
            return []
        return [r for r in self._tracked if not r.ended and r not in self._select_ruby_failed
                and (r.name == "ruby" and tag in ("rb", "rtc", "rp", "rt") or
                     r.name == "select" and (tag == "hr" or tag in ("option", "optgroup") and (
                         len(pops) > 1 or pops[0].local_name != "option")))]

    def _implied_ends_for_tracked(self, node: Any, begin: int) -> None:
        """Before the start tag token's element `node` is handled: when the
        token closed elements by the implied end tags of a tracked select
        or ruby, end tags for them go before it (_end_implied_before; what
        cannot take them is refused by _track_select_ruby)."""
        if node.namespace_uri != _HTML_NS:
            return
        pops = [popped for popped in self._popped_nodes if popped is not node]
        if self._closing_tracked(node.local_name, pops):
            self._end_implied_before(begin)

    def _new_end_tag_closes_them(self) -> bool:
        """At a renamed element's own end tag: whether the end tag of its
        new name (an ordinary element's) closes the elements its own end
        tag closed above it (_implied_pops) with it, as that did: they are
        HTML elements that are not special (its walk down the stack stops
        at those), and stay in the list of active formatting elements
        either way."""
        return all(entry is not None and entry[1] and (
            entry[0] not in _SPECIAL_NAMES or entry[0] in _FORMATTING or
            entry[0] in ("option", "optgroup", "ruby", "rb", "rt", "rp", "rtc"))
            for entry in self._implied_pops)

    def _end_implied_before(self, begin: int) -> bool:
        """Write end tags before the start tag token at `begin` for the
        elements its implied end tags closed and that nothing closed in
        the output yet (_implied_pops): a ruby renamed or unwrapped around
        them, the token would not close them. False when the token's start
        tag is written already, or what it closed cannot take an end tag."""
        if not self._implied_pops:
            return True         # (closed in the output by end tags written for them)
        if self._skip is not None or self._emitted > begin or any(
                entry is None or not entry[1] or entry[0] not in _IMPLIED_END
                for entry in self._implied_pops):
            return False
        self._copy_to(begin)
        self._emit("".join("</%s>" % entry[0] for entry in self._implied_pops
                           if entry is not None))
        self._implied_pops = []
        return True

    def _select_ruby_popped(self, r: _Record, own: bool) -> None:
        """The end of a tracked select, option, optgroup, ruby or ruby part
        (Element._select_ruby_edit)."""
        failed = self._select_ruby_failed.pop(r, None)
        if failed is not None:
            raise RewriteError("<%s>: %s" % (r.name, failed))
        if r.moves != self._moves:
            raise RewriteError("<%s>: the adoption agency algorithm moved this element or "
                               "its content" % r.name)
        if r.name == "select" and own:
            for node in self._popped_nodes:
                if node is r.node:
                    break
                if node.namespace_uri != _HTML_NS or node.local_name in _SPECIAL_NAMES and \
                        node.local_name not in _FORMATTING and \
                        node.local_name not in ("option", "optgroup"):
                    raise RewriteError("<select>: its end tag closed <%s>, where an "
                                       "ordinary element's end tag stops" % node.local_name)

    @staticmethod
    def _loop_stop(node: Any) -> Any:
        """Where the <li>/<dd>/<dt> start tag's loop stops going down from
        `node`: the first element that is special and not address, div or
        p (an li, dd or dt included)."""
        while node is not None and node.node_type == 1 and node.namespace_uri == _HTML_NS \
                and (node.local_name not in _SPECIAL_NAMES or
                     node.local_name in _LIST_LOOP_PASSES or
                     node.local_name in _NOT_SPECIAL):
            node = node.parent_node
        return node

    def _pushed(self, key: int, node: Any, from_token: bool, foster: bool,
                span: Optional[Tuple[int, int]], position: int, matches: int) -> None:
        # (Only new elements of the document come here: not the head pushed
        # again after </head>, not a template's contents, which selectors
        # do not match, as for query_selector_all.)
        if not matches:
            return
        handlers = self._matching(node, matches)
        if not handlers and not self._scoped_text and not self._scoped_comments:
            return
        r = _Record(node, not from_token, foster, span)
        r.self_closing = from_token and self._token_self_closing()
        r.moves = self._moves
        r.text_handlers = self._scoped_text
        r.comment_handlers = self._scoped_comments
        if r.text_handlers or r.comment_handlers:
            self._scoped_open[key] = None
        element = Element(self, r)
        r.element = element
        r.implied_with = self._pushed_here
        self._record_place(r, node)
        self._open[key] = r
        self._watch(key)
        # (html, head and body the parser implies, and the head it closes,
        # for any element of the body: not counted.)
        r.clean_start = from_token and not self._reconstruction_pending(True) and \
            not _implied_beyond_document(self._pushed_here) and \
            all(entry is not None and entry[1] and entry[0] in ("html", "head", "body")
                for entry in self._implied_pops)
        # (_frameset_never: _frameset_watch returns False with text or
        # comment handlers, which are fixed; the C test, not the call.)
        watched = not self._frameset_settled and not self._frameset_never() and \
            self._frameset_watch(node)
        for handler in handlers:
            handler(element)
        r.started = True
        if watched:
            self._frameset_unwatch(r)
        if r.before or r.prepend or r.mode or r.new_name or r.attributes_changed:
            self._start_edited[key] = r
        # An implied body (or p) the parser makes and closes at one token
        # (the end of input, </p>) gets a start tag of its own where it was
        # implied when content goes inside it: the reparse makes the same
        # element there, with the content.
        closes_at_once = key in self._popped_here
        implied_content = span is None and closes_at_once and bool(
            r.append or r.prepend or r.mode == _INNER) and \
            node.namespace_uri == _HTML_NS and r.name in ("body", "p", "head")
        if not (r.before or r.prepend or r.mode or r.new_name is not None
                or r.attributes_changed or implied_content):
            # (Nothing to write at its start: the input is copied at the
            # next write, the start of an implied element now, as below.)
            if span is None:
                self._copy_to(position)
            r.text_count = self._text_token_count()
            return
        self._pushed_written(r, key, node, span, position)

    def _record_place(self, r: _Record, node: Any) -> None:
        """What a record keeps of where its element was inserted (the
        token's foster count and form pointer, its parent if an element,
        the batch), for _pushed and _late_match."""
        r.fostered = self._foster_count
        r.forms = self._forms
        parent = node.parent_node
        r.parent_open = parent if parent is not None and parent.node_type == 1 else None
        r.synthesized = False
        r.batch = self._batch

    def _late_match(self, key: int, node: Any, bits: int, open_now: bool) -> None:
        """An element that the adoption agency algorithm moved while it was
        open and that handlers' selectors (`bits`) match only where it went
        (the engine's match_moved): a late match, handed to those handlers
        now. Its start tag was written before it matched: every edit of it
        raises RewriteError (Element._late_refused); text and comment
        handlers of those selectors get what comes inside it from here on
        (nothing, when the same token closed it)."""
        handlers = self._matching(node, bits)
        text, comments = self._scoped_text, self._scoped_comments
        if not handlers and not (open_now and (text or comments)):
            return
        r = self._open.get(key) if open_now else None
        if not open_now:
            r = _Record(node, False, False, None)
            r.late = True
            r.started = True
            r.ended = True
        elif r is None:
            r = _Record(node, False, False, None)
            r.late = True
            r.moves = self._moves
            r.implied_with = []
            self._record_place(r, node)
            r.text_count = self._text_token_count()
            r.started = True
            self._open[key] = r
            self._watch(key)
        if open_now and (text or comments):
            # (New lists: a record's may be the matching cache's.)
            r.text_handlers = list(r.text_handlers or ()) + text
            r.comment_handlers = list(r.comment_handlers or ()) + comments
            self._scoped_open[key] = None
        element = r.element if r.element is not None else Element(self, r)
        watched = not self._frameset_settled and self._frameset_watch(node)
        self._late_call = r
        try:
            for handler in handlers:
                handler(element)
        finally:
            self._late_call = None
        if watched:
            self._frameset_unwatch(r)
        if open_now:
            self._quiet(key, self._quiet_level(r))

    def _pushed_written(self, r: _Record, key: int, node: Any,
                        span: Optional[Tuple[int, int]], position: int) -> None:
        """The rest of _pushed, for an element whose handlers left
        something to write at its start (the engine's fast path of a
        start tag calls it too)."""
        self._start_written_at = position
        if r.mode in (_INNER, _KEEP_CONTENT) or r.new_name is not None:
            self._split_watch(r, True)
        if r.mode == _KEEP_CONTENT:
            self._watch_agency_copy(r)
        if span is not None and node.namespace_uri == _HTML_NS and r.name in _FORMATTING and (
                r.mode in (_REMOVED, _KEEP_CONTENT) or r.attributes_changed):
            self._noahs_ark_start(r)
        element = r.element
        assert element is not None
        closes_at_once = key in self._popped_here
        implied_content = span is None and closes_at_once and bool(
            r.append or r.prepend or r.mode == _INNER) and \
            node.namespace_uri == _HTML_NS and r.name in ("body", "p", "head")
        # (A self-closing foreign element with content: written as
        # `<x>content</x>`, Element._self_closed.)
        opened = bool(r.prepend) and self._self_closed(r)
        if (r.prepend or r.mode == _INNER) and closes_at_once and not implied_content and \
                not (node.namespace_uri == _HTML_NS and r.name in _VOID) and not opened:
            raise RewriteError("<%s>: the parser closes it at once: content cannot go "
                               "inside it" % r.name)
        start = span[0] if span is not None else position
        self._copy_to(start)
        synthesize = span is None and bool(r.prepend or r.mode == _INNER or r.attributes_changed
                                           or implied_content or r.new_name is not None)
        if span is None and r.mode == _REMOVED and not r.before and \
                self._reconstructed_removal(r, True):
            pass
        elif span is not None or not (synthesize or r.before or r.node in self._explicit or
                                      r.mode == _KEEP_CONTENT):
            pass
        elif r.mode == _KEEP_CONTENT:
            # (Unwrapped: the end tags, and start tags only for the ones
            # reconstructed inside it.)
            if r.node in self._explicit:
                self._explicit.remove(r.node)
            elif not (r.implied and any(node is r.node for node in self._reconstructed_nodes)
                      and self._end_reconstructed(r)):
                raise RewriteError("<%s>: remove_and_keep_content: the parser made this "
                                   "element without a start tag of its own (implied)" % r.name)
        elif r.node in self._explicit:
            self._explicit.remove(r.node)
            synthesize = True
            r.synthesized = True    # (its end tag is written: _popped drops no other)
        elif r.implied and self._reconstruction_split(r, True):
            synthesize = True
        elif r.implied and any(node is r.node for node in self._reconstructed_nodes):
            if not self._end_reconstructed(r):
                raise RewriteError("<%s>: a start tag with its attributes would take an "
                                   "earlier copy off the list of active formatting elements "
                                   "(Noah's Ark)" % r.name)
            synthesize = True
        if synthesize and r.name == "body":
            # (An explicit <body> sets frameset-ok to "not ok": a later
            # <frameset> would be ignored; _frameset_token refuses it.)
            self._frameset_written = True
        if self._implied_pops and (r.before or synthesize or
                                   r.mode in (_REMOVED, _KEEP_CONTENT) or
                                   r.new_name is not None and (
                                       r.name in _SELECT_RUBY or r.name in _DROPPABLE_SPECIAL or
                                       r.name == "hr" or r is self._breakout_rename)):
            self._close_implied(r, r.name if synthesize else None)
            self._unwrap_start_closed(r, span)
        r.text_count = self._text_token_count()
        if self._reopened is r and (r.before or r.mode == _REMOVED):
            self._reopened = None
            self._reopen_reconstructed(r, True)
        self._emit_contents(r.before, r, False)
        if r.mode in (_REMOVED, _KEEP_CONTENT):
            # The start tag it drops implied the body (or the head, or the
            # html element): write one there.
            for name in ("body", "head", "html"):
                if name in r.implied_with:
                    if not (r.before and r.before[0] is _BODY_START):
                        self._emit("<%s>" % name)
                        if name == "body":
                            # (It sets frameset-ok to "not ok", where the
                            # start tag it stands for may not have: a later
                            # <frameset> is refused, _frameset_token.)
                            self._frameset_written = True
                    break
            if r.mode == _REMOVED:
                # (and the table parts it implied: Element._table_parts_implied)
                for name in _implied_before(r):
                    if name in ("tbody", "tr", "colgroup"):
                        self._emit("<%s>" % name)
        if r.mode == _REMOVED:
            self._newline_first()
            if self._skip is None:
                self._skip = r
            self._dropped = True
            self._formatting_before_drop(r)
            return
        if span is not None:
            if r.mode == _KEEP_CONTENT:
                self._newline_first()
                if self._skip is None:
                    self._emitted = span[1]
                self._copy_to(span[1])
            elif r.new_name is not None or r.attributes_changed or opened:
                element._attrs()
                self._emit(self._start_tag(r))
                if self._skip is None:
                    self._emitted = span[1]
                self._copy_to(span[1])
            else:
                self._copy_to(span[1])
        elif synthesize:
            # An implied element that needs a start tag: the parser makes
            # the same element from it at this point.
            element._attrs()
            tag = self._start_tag(r)
            if self._skip is None:
                self._check_join(r, tag)
            self._emit(tag)
            r.synthesized = True
        newline_written = False
        if span is not None and r.node.namespace_uri == _HTML_NS and \
                r.name in _NEWLINE_DROPPING and (r.new_name is not None or
                                                 r.mode == _KEEP_CONTENT):
            # Renamed or unwrapped: the parser drops a newline right after
            # its start tag, and would keep it after the other one (or none):
            # drop the input's own. (What it was sets frameset-ok.)
            self._skip_newline_at = span[1]
            self._newline_done = span[1]
            self._dropped = True
        elif r.prepend and span is not None and r.node.namespace_uri == _HTML_NS \
                and r.name in _NEWLINE_DROPPING:
            # The parser drops a newline right after the start tag: write
            # one before the content, and drop the input's own.
            self._newline_done = self._emitted
            self._emit("\n")
            newline_written = True
            self._skip_newline_at = span[1]
        self._emit_contents(list(reversed(r.prepend)), r, True)
        if r is self._split and self._split_after is None:
            # (Where the copy of the formatting element begins: _split_watch.)
            self._split_after = self._out_mark(None)
        if opened:
            self._emit("</%s>" % r.name)
        if r.mode == _INNER:
            assert r.inner is not None
            self._dropped = True
            if not (opened or newline_written) and (span is not None or synthesize) and \
                    r.node.namespace_uri == _HTML_NS and \
                    (r.new_name or r.name) in _NEWLINE_DROPPING:
                # The parser drops a newline right after the start tag
                # written: one first, so that the content keeps its own.
                self._newline_done = self._emitted
                self._emit("\n")
            self._emit(self._render(r.inner, r, True), self._context_of(r.inner, r, True))
            if self._skip is None:
                self._skip = r
            self._formatting_before_drop(r)

    def _foster_text_mark(self, r: _Record) -> None:
        """A table container whose source is dropped (removed, replaced):
        its table and the node before the table now (with its
        length, a text node), for _foster_text_kept at its end. Text the
        parser foster-parents while r is open goes before that table, into
        the text node there or a new one; text anywhere else in r (a cell,
        a caption, a nested table's own place) is r's own content."""
        if r.name not in _TABLE_CONTAINERS or r.name == "frameset" or \
                r.node.namespace_uri != _HTML_NS:
            return
        table = r.node
        while table is not None and not (table.node_type == 1 and
                                         table.local_name == "table" and
                                         table.namespace_uri == _HTML_NS):
            table = table.parent_node
        if table is None or table.parent_node is None:
            return
        previous = table.previous_sibling
        self._foster_text_marks[id(r)] = (table, previous, len(previous.data)
                                          if previous is not None and
                                          previous.node_type == 3 else 0)

    def _foster_text_kept(self, r: _Record) -> bool:
        """Whether the parser foster-parented no text out of r, a table
        container marked by _foster_text_mark, while it was open: the
        node before its table is the one it was, of the same length (the
        foster-parented elements are _fostered_push's). The mark goes."""
        mark = self._foster_text_marks.pop(id(r), None)
        if mark is None:
            return False
        table, previous, length = mark
        now = table.previous_sibling
        return now is previous and (now is None or now.node_type != 3 or
                                    len(now.data) == length)

    def _removed_table_text(self, r: _Record, fostered_out: bool) -> Optional[str]:
        """For a table removed (Element.remove) whose parent the "in body"
        rules insert into (Element._parent_in_body_content): the text the
        parser foster-parented out of it while it was open, when that is
        all it moved out (no element: _fostered_push; nothing moved it),
        else None. The DOM edit keeps that text, right where the table
        was: written there, after the table's dropped source, the parent's
        "in body" rules insert it as the table's modes did with foster
        parenting (the same text node before the table, or a new one; no
        formatting element reconstructed: the table fostered none, so
        none was to reconstruct at its text, and the dropped source leaves
        the output's list of active formatting elements as it was at the
        table's start tag, which reconstructs nothing either). The text is
        the growth of the node before the table since the removal
        (_foster_text_mark): each run the parser fostered has a character
        other than whitespace, and its NULs were dropped. For a section or
        a row removed (Element.remove: its table's node marked), the text
        the parser foster-parented while it was open is written in its
        place between end tags the table's modes ignore (</col>), so that
        it is a run of the table's character tokens of its own: written
        where the current node is the table or a section (the section's or
        row's source dropped), that run has a character other than
        whitespace and the parser foster-parents it whole, right before
        the table, after what it fostered before the section or row, as
        the DOM edit keeps it."""
        entry = self._table_text_kept.pop(id(r), None)
        if entry is not r or r.mode != _REMOVED or fostered_out or r.moves != self._moves \
                or r.before and r.before != [_TABLE_TEXT_SEPARATOR]:
            # (The separator alone before a removed section or row ends
            # the run before it: Element._table_part_separated.)
            return None
        if self._at_eof and (self._last_token_end() < self._stream_length() or
                             not self._last_token_closed() or self._in_cdata_section()):
            return None     # (the input ends inside a tag or a comment it drops)
        mark = self._foster_text_marks.get(id(r))
        if mark is None or mark[0] is not r.node and r.name == "table":
            return None
        table, previous, length = mark
        now = table.previous_sibling
        if now is None or now.node_type != 3:
            return None
        if now is previous:
            text = str(now.data)[length:]
        elif now.previous_sibling is previous:
            text = str(now.data)
        else:
            return None
        if not text.strip("\t\n\f\r "):
            return None
        return text

    def _defer_to_table_end(self, r: _Record, content: _Content) -> None:
        """Content before the table r kept for its end
        (Element._table_end_before_ok, written by _table_end_close)."""
        entry = self._table_end_before.setdefault(id(r), [r, []])
        entry[1].append(content)
        self._loud(r)

    def _table_end_close(self, r: _Record, from_top: bool,
                         needs_end: bool) -> Optional[Tuple[str, List[_Content]]]:
        """At the end of the table r: None when no content before it was
        kept for its end, else what to write before that content, and the
        content. The
        content goes just before the token that ends the table (its end
        tag, a <table> start tag, or the end of input), where the parser
        foster-parents it when the current node is the table, a section or
        a row (the insertion modes "in table", "in table body" and "in
        row"); the elements that token popped above the table tell which.
        A cell or a caption open there (and what is open inside it, HTML
        elements other than raw text, RCDATA and plaintext ones, which
        would read the end tag as text, and tables, whose mode would ignore
        it) gets its end tag first: the parser
        closes it for the table's end tag or the <table> start tag as for
        that end tag (generate implied end tags, pop up to it, clear the
        list of active formatting elements up to its marker), and at the
        end of input closing it changes no node. A column group open there
        (nothing in it) gets its end tag too: the table's end tag pops it
        as that end tag does. Elements the parser foster-parented and left
        open there get their end tags, the topmost first: each is the
        current node when its end tag comes, which pops it alone (the "in
        body" rules for its end tag, with foster parenting; a <select>
        with only <option> and <optgroup> above it), as the table's end
        pops it with the rest, and at the end of input closing it changes
        no node; not a formatting or marker element (the adoption agency
        algorithm, the list of active formatting elements) nor a form (its
        pointer), _TABLE_END_UNCLOSABLE; a formatting element only at the
        end of input, with no cell or caption open, when its end tag pops
        it, takes it off the list and leaves nothing to reconstruct
        (_eof_formatting_ends: the list's entries after it are those of
        the elements still open below). Refused when any other
        element is open above the table (the content would go into it),
        when the parser moved the table or closed it from the middle of
        the stack, when the table was removed, replaced, unwrapped or
        renamed, when an end tag is written for it (content after it
        where the end is implied), and when formatting elements are left
        to reconstruct there (the content's text and start tags would
        reconstruct them, fostered, around it). Text that starts the
        content follows an end tag the table's modes ignore (</col>), so
        that no text of the input's table before it joins it in the
        table's pending text (whitespace that stays in the table)."""
        entry = self._table_end_before.pop(id(r), None)
        if entry is None or entry[0] is not r:
            return None
        why = ""
        nodes = self._popped_nodes
        index = next((i for i, node in enumerate(nodes) if node is r.node), None)
        if r.mode or r.new_name is not None:
            why = "the table was removed, replaced, unwrapped or renamed"
        elif needs_end or not from_top or index is None or r.moves != self._moves:
            why = "the parser moved it or ended it otherwise than at a token of its own"
        close = ""      # (the end tag of a cell, a caption or a column group)
        ends: List[str] = []        # (those of fostered elements, the topmost first)
        rows = True
        in_select = formatting = False
        for node in reversed(nodes[:index or 0]):
            if why:
                break
            name = node.local_name
            if close and close != "</colgroup>" and node.namespace_uri != _HTML_NS:
                # (The cell's end tag goes down the foreign elements to the
                # first HTML one, as the table's end tag does, and closes the
                # cell from there; unless one has its name. At the end of
                # input in a CDATA section, _check_join refuses.)
                if name.lower() == close[2:-1]:
                    why = "<%s> is open at its end" % name
                continue
            if rows and not ends and not close and self._at_eof and name == "template" and \
                    node.namespace_uri == _HTML_NS:
                # (At the end of input, a template open in the table, a
                # section or a row: its end tag pops it with what is open in
                # it, clears the list of active formatting elements to the
                # last marker and resets the insertion mode, as the end of
                # input does in it; a template open inside it would take the
                # end tag, refused below.)
                close = "</template>"
                continue
            if node.namespace_uri != _HTML_NS or name in _RAW_TEXT or name in _RCDATA or \
                    name in ("plaintext", "noscript", "template", "table"):
                why = "<%s> is open at its end" % name
            elif close:
                if close == "</colgroup>":
                    why = "<%s> is open at its end" % name
            elif rows and name in ("tbody", "thead", "tfoot", "tr"):
                continue
            elif rows and name in ("td", "th", "caption", "colgroup"):
                close = "</%s>" % name
            elif name in ("option", "optgroup") if in_select else \
                    (name not in _FORMATTING or self._at_eof and not close) and \
                    name not in _TABLE_END_UNCLOSABLE:
                rows = False
                in_select = in_select or name == "select"
                formatting = formatting or name in _FORMATTING
                ends.insert(0, "</%s>" % name)
            else:
                why = "<%s> is open at its end" % name
        if not why and formatting and (close or not self._eof_formatting_ends()):
            # (At the end of input, a formatting element's end tag runs the
            # adoption agency algorithm, which pops it and takes it off the
            # list of active formatting elements when it is the last of its
            # name there; _eof_formatting_ends: and leaves nothing to
            # reconstruct, which the end of input makes no difference to.)
            why = "formatting elements are left to reconstruct at its end"
        if not why and (close or ends):
            # (The elements it writes end tags for ended untouched: no
            # handler removed, unwrapped or renamed them or wrote an end
            # tag or content at their end, _implied_pops.)
            untouched = {id(entry[2]) for entry in self._implied_pops
                         if entry is not None and len(entry) > 2}
            for node in nodes[:index or 0]:
                name = node.local_name
                if node.namespace_uri == _HTML_NS and (
                        "</%s>" % name in ends or
                        close.startswith("</%s>" % name)) and id(node) not in untouched:
                    why = "<%s> was edited" % name
        if not why and not formatting and self._table_end_reconstructs(
                close in ("</td>", "</th>", "</caption>", "</template>"), index or 0):
            why = "formatting elements are left to reconstruct at its end"
        if why:
            raise RewriteError("<table>: content before it goes at its end, where the parser "
                               "foster-parents it after what it fostered earlier: %s" % why)
        if not close and not ends and entry[1] and not entry[1][0].html:
            close = _TABLE_TEXT_SEPARATOR.text
        self._table_end_closed = self._table_end_closes(nodes[:index or 0])
        return close + "".join(ends), entry[1]

    def _table_end_closes(self, above: List[Any]) -> Set[int]:
        """The ids of the elements above a table (`above`, the topmost
        first) that the end tags written at its end (_table_end_close: a
        cell's, a caption's, a column group's or a template's, which pop
        everything above it, and those of the fostered elements) close in
        the output: all but the rows and sections right above the table,
        which nothing written closes. Those elements are closed in the
        output from there on: an element that ends later at the same token
        (an append to a select around the table, at the end of input) must
        not write their end tags again (a second </p> makes a <p>:
        Rewriter._drop_table_end_closed)."""
        closed: Set[int] = set()
        leading = True
        for node in reversed(above):
            if leading and node.namespace_uri == _HTML_NS and \
                    node.local_name in ("tbody", "thead", "tfoot", "tr"):
                continue
            leading = False
            closed.add(id(node))
        return closed

    def _drop_table_end_closed(self) -> None:
        """After the end tags and content written at a table's end
        (_table_end_close): the elements those end tags closed leave the
        elements closed here without end tags (_implied_pops), so that
        content written later at the same token does not write their end
        tags a second time (the tree builder would read a stray one: a
        </p> makes an empty <p>, another is ignored or ends an element
        further down)."""
        closed = self._table_end_closed
        self._table_end_closed = set()
        if closed:
            self._implied_pops = [entry for entry in self._implied_pops
                                  if entry is None or len(entry) < 3 or id(entry[2]) not in closed]

    def _table_end_reconstructs(self, cell: bool, below: int = 0) -> bool:
        """Whether content written at a table's end (_table_end_close)
        would be wrapped in reconstructed formatting elements: the last
        entry of the list of active formatting elements there is an element
        that is not open. At an end tag, the list after it (the table's end
        tag closes a cell as the cell's end tag written first does, and
        the table's modes leave the list alone otherwise). At the end of
        input, the whole list before it (which the end of input empties),
        with the entries up to the last marker taken off for a cell or a
        caption whose end tag is written first, and the elements open
        then those the end of input pops."""
        if not self._at_eof:
            return bool(self._reconstruction_pending())
        entries = self._formatting_all(True)
        if entries is None:
            return True
        if cell:
            while entries and entries[-1] is not None:
                entries.pop()
            if entries:
                entries.pop()
        if not entries or entries[-1] is None:
            return False
        last = self._node_key(entries[-1])
        # (For a cell or a caption, its end tag pops it and every element
        # above it, and clears the list only up to the last marker: an
        # applet, marquee or object open in it put one there, and the
        # entries between the cell's marker and that one, for elements its
        # end tag popped, stay on the list, to be reconstructed at the
        # content (`<table><th><b><marquee>`: text written after </th> is
        # fostered inside a copy of the <b>). What is open after that end
        # tag is the table and what is below it (`below`: the table's
        # place among the elements the end of input pops, topmost first).)
        return not any(self._node_key(node) == last
                       for node in (self._popped_nodes[below:] if cell else self._popped_nodes))

    def _fostered_inside_tables(self, node: Any, key: int) -> None:
        """An element the parser foster-parented (seen here: the engine
        counts every one, _foster_count, but hands over only some): for
        each open table with content written before it (table_before),
        noted when the element is inside that table. The parser puts a
        foster-parented element before the last table on the stack of
        open elements (or into the last template's contents): with the
        table still open, that is the table itself, or a table (or
        template) pushed after it, which is inside it. So an element
        found inside the table went before a table nested in it, not
        between it and the content written before it; the table's end
        (_popped) discounts those from the count, and refuses when the
        count holds any other (one the engine did not hand over is not
        noted: refused, as before). The walk up is bounded: past it, not
        noted. Counted once per element (the keys of this token's)."""
        for entry in self._tables_before.values():
            r = entry[0]
            if entry[2] != self._batch:
                entry[2] = self._batch
                entry[3] = set()
            if key in entry[3]:
                continue
            parent = node.parent_node
            for _ in range(256):
                if parent is None or parent.node_type != 1:
                    break
                if parent is r.node:
                    entry[1] += 1
                    entry[3].add(key)
                    break
                parent = parent.parent_node

    def _fostered_push(self, node: Any) -> None:
        """An element the parser foster-parented while a removal or a
        replaced content is in progress: it went into the parent of the
        table (or into a template's contents), before the table. A removed
        or replaced element that holds that place drops it with its own
        source, as the DOM edit does (a table inside it); the others (the
        table itself, its parts, an element outside the table's parent) are
        marked: dropping their source would drop an element that is not
        theirs (_popped refuses)."""
        ancestors = []
        parent = node.parent_node
        while parent is not None:
            ancestors.append(parent)
            parent = parent.parent_node
        for r in self._open.values():
            if r.mode in (_REMOVED, _INNER) and not any(a is r.node for a in ancestors):
                self._foster_out.add(id(r))

    def _reconstructed_index(self, r: _Record) -> Optional[int]:
        """r's place among the formatting elements the parser reconstructed
        at this token (_only_reconstructed) when it can be given a start tag
        of its own there (_end_reconstructed); else None."""
        nodes = self._reconstructed_nodes
        index = next((i for i, node in enumerate(nodes) if node is r.node), None)
        if index is None or r.foster or self._first_reconstructed_fostered(nodes):
            return None
        names = {node.local_name for node in nodes[index:]}
        parent = nodes[0].parent_node
        # (An end tag whose name is the current node's pops that node when
        # it is not in the list.)
        if parent is None or parent.node_type != 1 or \
                parent.namespace_uri != _HTML_NS and not _reconstruction_end_tags_pass(
                    parent, names) or \
                parent.namespace_uri == _HTML_NS and parent.local_name in names:
            return None
        if "nobr" in names:
            # (A <nobr> start tag with a nobr element in scope runs the
            # adoption agency: none among the elements around it.)
            if sum(node.local_name == "nobr" for node in nodes[index:]) > 1:
                return None
            node = r.node.parent_node
            while node is not None and node.node_type == 1:
                if node.local_name == "nobr":
                    return None
                node = node.parent_node
        return index

    def _first_reconstructed_fostered(self, nodes: List[Any]) -> bool:
        """Whether the parser foster-parented the first of the formatting
        elements it reconstructed at this token (those inside it go into
        it, not foster-parented themselves). Then it may have made them for
        the pending table character tokens the token flushed, before their
        text (`<table><nobr><b><table>y<li>`: the copies hold "y", made at
        <li>), where no tag written at the token can make them."""
        return bool(nodes) and self._reconstructed_fostered is nodes[0]

    def _start_reconstructed_only(self, r: _Record) -> bool:
        """Whether r's start tag did nothing but reconstruct formatting
        elements (_only_reconstructed) and insert r into the innermost of
        them. Content written before that start tag whose first token is
        text or a start tag of _RECONSTRUCTING_START makes the parser
        reconstruct the same elements for that token (the list of active
        formatting elements is the one r's start tag found), so the content
        goes into the innermost one, before r, as the DOM edit puts it; r's
        start tag then reconstructs nothing. Not when the parser
        foster-parented them: the content's text would join the table's
        character tokens before it."""
        nodes = self._reconstructed_nodes
        return bool(nodes) and not r.implied and not r.foster and \
            self._reconstruction_agency is None and \
            len(nodes) == len(r.implied_with) and r.node.parent_node is nodes[-1] and \
            not any(event[0] == "pushed" and event[3] for event in self._token_events[1])

    def _reopen_reconstructed(self, r: _Record, write: bool) -> bool:
        """For content before an element whose start tag only reconstructed
        formatting elements (_start_reconstructed_only) that would not make
        the parser reconstruct them itself (a comment, <meta>): end tags
        for them (innermost first) take their entries off the list of
        active formatting elements, as in _end_reconstructed, then start
        tags with their attributes make them again at the same point, in the
        same order, as the list's last entries (no Noah's Ark removal: the
        list held at most three like each with these among them); the
        content goes into the innermost, before r. Not written: whether it
        can be (and r noted for _pushed_written); written: the tags."""
        nodes = self._reconstructed_nodes
        if not write:
            if not self._start_reconstructed_only(r) or self._explicit or \
                    self._copies_written == self._batch or \
                    any(node.local_name in self._afe_edited for node in nodes):
                # (_copies_written: start tags make this token's copies in
                # the output already, the entries being off its list.)
                return False
            first = _Record(nodes[0], True, False, None)
            if self._reconstructed_index(first) != 0:
                return False
            for node in nodes:
                other = self._open.get(self._node_key(node))
                if other is not None and (other.before or other.prepend or other.mode or
                                          other.new_name is not None or
                                          other.attributes_changed):
                    return False
            self._reopened = r
            return True
        for node in reversed(nodes):
            self._emit("</%s>" % node.local_name)
        for node in nodes:
            self._emit(_plain_start_tag(node))
        return True

    def _reconstructed_after_agency(self, events: List[Any], last_token_push: int) -> List[Any]:
        """The formatting elements the parser reconstructed at an <a> or
        <nobr> start tag after the adoption agency algorithm it ran for an
        earlier one (which popped that one and the elements above it, or
        only took its entry off the list of active formatting elements),
        when that is all the token did: its events are pops from the top
        of the stack (the last one the formatting element, if any), then
        the copies (only_reconstructed's conditions), then its own element.
        An end tag of that name written before the tags for the copies
        (_end_reconstructed) runs the same algorithm: the token then finds
        no entry of its name on the list (<a>) or no element of its name
        in scope (<nobr>: none around its element) and does nothing else
        but reconstruct and insert. Not inside dropped content or while
        entries are unlisted (the written end tag would meet another
        list). Else []."""
        if last_token_push < 0 or self._skip is not None or self._unlisted is not None or \
                self._explicit:
            return []
        own = events[last_token_push][1]
        name = own.local_name
        if own.namespace_uri != _HTML_NS or name not in ("a", "nobr"):
            return []
        found: List[Any] = []
        popped: List[Any] = []
        for i, event in enumerate(events):
            if i == last_token_push:
                if i != len(events) - 1:
                    return []
                continue
            if event[0] == "popped" and not found and event[2]:
                popped.append(event[1])
            elif event[0] == "pushed" and event[5] and event[1].namespace_uri == _HTML_NS and \
                    event[1].local_name in _FORMATTING and event[1].local_name != name and \
                    not event[3]:
                found.append(event[1])
            else:
                return []
        if not found or popped and (popped[-1].local_name != name or
                                    popped[-1].namespace_uri != _HTML_NS or
                                    any(node.local_name == name for node in popped[:-1])):
            return []
        listed = self._formatting_now()
        if listed is None or any(entry.local_name == name and entry is not own
                                 for entry in listed):
            return []
        node = own.parent_node
        while node is not None and node.node_type == 1:
            if node.local_name == name:
                return []
            node = node.parent_node
        self._reconstruction_agency = name
        return found

    def _reconstruction_split(self, r: _Record, write: bool) -> bool:
        """For content before a formatting element the parser reconstructed
        inside others at the same token (not the first: _reconstructed_index
        > 0), whose first token would not make the parser reconstruct the
        ones around it (a comment, <meta>, <div>): end tags for all of them
        (innermost first) take their entries off the list of active
        formatting elements (_end_reconstructed, which checks Noah's Ark
        for r's edited attributes), start tags with their attributes make
        the ones before r again at the same point, in the same order (the
        list then holds what it held: no Noah's Ark removal, as in
        _reopen_reconstructed), the content goes into the innermost of
        those, then r's start tag and those inside it (self._explicit).
        Only when the first of them can take an end tag there
        (_reconstructed_index), none is foster-parented and no other of
        them is edited. Not written: whether it can be (r noted); written:
        the tags, for the noted r."""
        nodes = self._reconstructed_nodes
        if write:
            if self._split_reconstructed is not r:
                return False
            self._split_reconstructed = None
            index = self._reconstructed_index(r)
            if index is None or r.mode in (_REMOVED, _KEEP_CONTENT) or \
                    self._explicit or not self._end_reconstructed(r):
                raise RewriteError("<%s>: before: content written before an element the "
                                   "parser reconstructed lands inside it" % r.name)
            for node in reversed(nodes[:index]):
                self._emit("</%s>" % node.local_name)
            for node in nodes[:index]:
                self._emit(_plain_start_tag(node))
            return True
        if r.mode or not self._reconstructed_inner_alone(r):
            return False
        self._split_reconstructed = r
        return True

    def _reconstructed_inner_content(self, r: _Record) -> bool:
        """For the content of a formatting element the parser reconstructed
        at this token with others inside it (not the innermost one, which
        the replaced content drops): its start tag is written where the
        parser made it, after end tags for it and those inside it
        (_end_reconstructed), whose start tags are dropped with the
        content. The output's list of active formatting elements then has
        no entries for those inside it, which the input's keeps: the
        parser would reconstruct their copies after r's end in the input
        only, so r must end at the end of input (checked there: _popped,
        self._inner_copies_unlisted). Not after an adoption agency at the
        token; for one inside others, with the gates of
        _reconstruction_split."""
        index = self._reconstructed_index(r)
        if index is None or index >= len(self._reconstructed_nodes) - 1 or \
                self._reconstruction_agency is not None or \
                index and not self._reconstructed_inner_alone(r):
            return False
        self._inner_copies_unlisted.add(id(r))
        return True

    def _reconstructed_inner_alone(self, r: _Record) -> bool:
        """The gates of _reconstruction_split and _reconstructed_removal: r
        is reconstructed inside others at this token (_reconstructed_index
        > 0), the first of them can take an end tag there, none is
        foster-parented or a copy of an edited formatting element, no
        start tags make this token's copies already (self._explicit), and
        no other of them is edited."""
        nodes = self._reconstructed_nodes
        index = self._reconstructed_index(r)
        if not index or self._explicit or \
                any(node.local_name in self._afe_edited for node in nodes) or \
                any(event[0] == "pushed" and event[3] for event in self._token_events[1]) or \
                self._reconstructed_index(_Record(nodes[0], True, False, None)) != 0:
            return False
        for node in nodes:
            other = self._open.get(self._node_key(node))
            if node is not r.node and other is not None and (
                    other.before or other.prepend or other.mode or
                    other.new_name is not None or other.attributes_changed):
                return False
        return True

    def _reconstructed_removal(self, r: _Record, write: bool) -> bool:
        """For the removal of a formatting element the parser reconstructed
        inside others at the same token (not the first: _reconstructed_index
        > 0): the dropped range starts at that token, so nothing would make
        the parser reconstruct the ones around it, which the DOM edit keeps
        (empty, or with what comes after the removed one). End tags for all
        of them (innermost first) take their entries off the list of active
        formatting elements, and start tags with their attributes make the
        ones before r again at the same point, in the same order (the list
        then holds what it held before r: no Noah's Ark removal, as in
        _reconstruction_split); r, the ones inside it and its content are
        dropped (the end of r checks, as for any removal, that the list the
        parser is left with reconstructs what the input's does:
        _popped). Only when the first of them can take an end tag there
        and no other of them is edited. Not written: whether it can be;
        written: the tags."""
        if self._reconstruction_agency is not None or not self._reconstructed_inner_alone(r):
            return False
        if write:
            nodes = self._reconstructed_nodes
            for node in reversed(nodes):
                self._emit("</%s>" % node.local_name)
            for node in nodes[:self._reconstructed_index(r) or 0]:
                self._emit(_plain_start_tag(node))
            self._removal_unlisted.append(r)
        return True

    def _removal_copies_listed(self, r: _Record, own: bool) -> None:
        """r removed, the first formatting element the parser reconstructed
        at a token with others inside it, closed by its own end tag: the
        output has none of these copies (dropped with r's range), so its
        list of active formatting elements still holds the entries they
        were made from, where the input's holds the copies or, for those
        their own end tags (dropped too) closed, nothing; the end tag
        written for r takes only the last entry of its name off. The
        output's list is the input's only when every copy inside r is
        still listed after r's end tag (the parser reconstructs a copy
        again from it, as from the entry it was made from) and none has
        r's name (that end tag would take its entry, not the one r was
        made from): else refused (`<p><b><i>x</p>y</i>z</b>w` without the
        <b> made at "y": its <i> closed, the output would make one at "w")."""
        found = next((copies for other, copies in self._removal_copies if other is r), None)
        if found is None:
            return
        self._removal_copies = [entry for entry in self._removal_copies if entry[0] is not r]
        if not own:
            return
        listed = self._formatting_now()
        if listed is None or any(node.local_name == r.name for node in found) or \
                not all(any(entry is node for entry in listed) for node in found):
            raise RewriteError("<%s>: removed, a copy the parser reconstructed with others "
                               "inside it: the output's list of active formatting elements "
                               "would still hold the entries those were made from, where the "
                               "input's has them closed" % r.name)

    def _removal_end_unlisted(self, r: _Record) -> bool:
        """For r removed, a formatting element the parser reconstructed
        inside others (_reconstructed_removal wrote the end tags at its
        token): whether its entry is off the output's list already. Then
        the end tag a removal writes for a reconstructed element closed by
        its own end tag (to take the entry the list holds for it off the
        list, for the first one reconstructed) must not be written: the
        adoption agency algorithm for it would find the copy of one of its
        name made again before it (`</b></b><b>` then `</b>`), open, and
        close that, or act as any other end tag and pop an element of its
        name around it; the input's end tag closed r only."""
        if not any(other is r for other in self._removal_unlisted):
            return False
        self._removal_unlisted = [other for other in self._removal_unlisted if other is not r]
        return True

    def _end_tag_p(self, r: _Record) -> bool:
        """Whether r is the <p> the parser inserts for a </p> end tag with
        no p in button scope (and closes at once). It goes where content
        written before that end tag goes (the current node: the end tag
        reconstructs nothing), so content before it is written there; the
        caller checks that no reconstruction is pending, which that
        content's text or start tags would run."""
        return r.implied and r.name == "p" and self._token_events[0] == self._batch and \
            self._token_events[2] == "end" and r.implied_with == ["p"] and not r.foster and \
            r.node.namespace_uri == _HTML_NS

    def _end_reconstructed(self, r: _Record) -> bool:
        """For a reconstructed formatting element that needs a start tag of
        its own: end tags for it and those reconstructed after it (inside
        it), written where the parser reconstructed them. The parser finds
        those elements out of the stack of open elements and takes them off
        the list of active formatting elements (the adoption agency's first
        steps), so it reconstructs only the ones before it; the start tags
        then make it and the ones inside it (self._explicit) at the same
        point, with the same attributes, in the same order."""
        index = self._reconstructed_index(r)
        if index is None:
            return False
        if r.attributes_changed:
            # (Noah's Ark: a fourth element with its name and attributes
            # after the list's last marker would take the first one off;
            # the ones before it there are its ancestors.)
            same = {(k, v) for k, v in r.attributes or []}
            node, count = r.node.parent_node, 0
            while node is not None and node.node_type == 1:
                if node.local_name == r.name and node.namespace_uri == _HTML_NS and \
                        set(node.attributes.items()) == same:
                    count += 1
                node = node.parent_node
            if count >= 3:
                return False
        nodes = self._reconstructed_nodes
        if self._reconstruction_agency is not None:
            self._emit("</%s>" % self._reconstruction_agency)
            self._reconstruction_agency = None
            self._agency_end_written = True
        unlisted = self._unlisted_copies if self._copies_written == self._batch else []
        for node in reversed(nodes[index:]):
            if not any(node is copy for copy in unlisted):
                # (The copies of entries the output's list does not hold
                # get start tags only: _copies_of_unlisted. An end tag
                # would take an earlier entry of its name off instead.)
                self._emit("</%s>" % node.local_name)
        self._explicit = list(nodes[index + 1:])
        return True

    def _end_tag_br(self, begin: int, end: int, events: List[Any]) -> int:
        """For a </br> end tag, which the parser handles as a <br> start tag
        without attributes: the index of the event that pushed that <br>
        (its own element: a start tag written in its place makes the same
        element at the same point), else -1."""
        if self._source(begin, end)[2:4].lower() != b"br" or \
                self._source(begin, end)[4:5] not in (b">", b"/", b" ", b"\t", b"\n",
                                                      b"\f", b"\r"):
            return -1
        for i in range(len(events) - 1, -1, -1):
            event = events[i]
            if event[0] == "pushed":
                node = event[1]
                return i if event[5] and node.local_name == "br" and \
                    node.namespace_uri == _HTML_NS else -1
        return -1

    def _explicit_copies(self, begin: int, events: List[Any]) -> bool:
        """At a token where the parser reconstructs a copy of a formatting
        element whose attributes were edited (it ended without its end tag
        and stayed in the list of active formatting elements, _popped): the
        output's list holds the edited one, whose copy would carry the edit.
        Written as for a reconstructed element that needs a start tag of its
        own (_end_reconstructed): end tags for the first such copy and those
        reconstructed after it take them off the list, then their start tags
        (the token's attributes, as the parser copies them) make them at the
        same point. False when that cannot be done here."""
        nodes = self._reconstructed_nodes
        first = next((n for n in nodes if n.local_name in self._afe_edited), None)
        if first is None or self._skip is not None:
            return False
        foster = next(event[3] for event in events if event[1] is first)
        r = _Record(first, True, foster, None)
        if self._plaintext or self._reconstructed_index(r) is None:
            return False
        self._copy_to(begin)
        self._check_join(r, "</%s>" % first.local_name)
        if not self._end_reconstructed(r):
            return False
        self._explicit.insert(0, first)
        return True

    @staticmethod
    def _named_relatives(r: _Record) -> int:
        """The elements of r's name around it and inside it. With none, the
        Noah's Ark clause never compares it with another entry of the list
        of active formatting elements (one pushed after it, while it is
        still there, was pushed inside it or reconstructs its copy first),
        and an edit of its attributes changes nothing else there; the
        clause takes an entry off only when three like the one pushed are
        there, so with fewer than three the edit cannot change what it does
        (_popped)."""
        count = len(r.node.query_selector_all(r.name))
        node = r.node.parent_node
        while node is not None and node.node_type == 1:
            if node.local_name == r.name and node.namespace_uri == _HTML_NS:
                count += 1
            node = node.parent_node
        return count

    def _moved(self, formatting: Any, formatting_key: int, furthest_key: int) -> None:
        """The adoption agency moved nodes: the furthest block (with its
        subtree) and the elements between it and the formatting element
        (cloned, or left where they are), and the furthest block's children
        into a new element. The open elements below the formatting element
        keep their content in place, and the furthest block's descendants
        keep theirs relative to each other (moved whole), so edits written
        for them hold in the reparse; the elements in between leave the
        stack from its middle (refused at their end, _popped). What is
        refused here: the formatting element's attributes, name or removal
        (the new element is made from its start tag; it stays in place, so
        content before it and at its start holds), the furthest block's
        content before it or at its start (it moves, its children go into
        the new element), its name or removal, and a removal or rename of
        an element above the formatting element (the algorithm's walk over
        the stack would see another element, or none, in the reparse).
        Content at the furthest block's end is checked there as any other
        (the new element inside it must have ended with an end tag)."""
        self._moved_batch = self._batch
        if self._hold_for is not None and self._hold_furthest is None and \
                formatting_key == self._node_key(self._hold_for.node):
            self._hold_furthest = furthest_key
        r = self._open.get(formatting_key)
        if r is not None:
            r.moves = -1        # (its count differs: _popped refuses content at its end)
            # (Renamed, its furthest block watched: _formatting_content_held
            # writes the first step, or the end refuses it: moves.)
            if r.mode and not (r.mode == _KEEP_CONTENT and
                               self._agency_copy_held(r, furthest_key)) or \
                    r.new_name and not (
                    r is self._hold_for and self._hold_furthest == furthest_key) or \
                    r.attributes_changed and not self._agency_copy_held(r, furthest_key):
                raise RewriteError("<%s>: the adoption agency algorithm moved this element "
                                   "or its content after its edits were written" % r.name)
        if self._split_deep is not None and self._split_deep_batch != self._batch and (
                self._split_second is None or not self._agency_steps_left()):
            self._split_deep_steps(formatting)
        deep = self._split_deep_record if self._split_deep_batch == self._batch else None
        self._agency_second_first(formatting, furthest_key)
        r = self._open.get(furthest_key)
        split = r is not None and r is self._split
        if split and r is not None:
            self._split_furthest(r, formatting, formatting_key)
        if r is not None and (r.before or r.prepend or r.mode or r.new_name) and \
                not split and r is not deep and \
                not self._drops_furthest_block(r, formatting, formatting_key):
            raise RewriteError("<%s>: the adoption agency algorithm moved this element "
                               "or its content after its edits were written" % r.name)
        risky = {id(r.node): r for key, r in self._start_edited.items()
                 if (r.mode or r.new_name is not None) and key != formatting_key
                 and not self._furthest_dropped_now(r) and not (split and key == furthest_key)
                 and not (r is self._split and self._split_second_batch == self._batch)
                 and r is not deep}
        if risky:
            # (The formatting element does not move: its ancestors are the
            # open elements below it.)
            node = formatting.parent_node
            while node is not None and risky:
                risky.pop(id(node), None)
                node = node.parent_node
            for r in risky.values():
                if self._agency_in_dropped(r, formatting, formatting_key, furthest_key):
                    continue
                if self._dropped_inside(r, furthest_key):
                    continue
                raise RewriteError("<%s>: the adoption agency algorithm moved this element "
                                   "or its content after its edits were written" % r.name)

    def _watch_formatting_children(self, r: _Record) -> None:
        """Content appended to an HTML formatting element: while it is open
        every token comes here (_tracked), so that the start tags of its
        children that may become the adoption agency's furthest block mark
        where that content goes if they do (_hold_point). One such element
        at a time."""
        if self._hold_for is not None or r.node.namespace_uri != _HTML_NS or \
                r.name not in _FORMATTING or r.mode or r.new_name is not None:
            return
        self._hold_for = r
        if r not in self._tracked:
            self._tracked.append(r)

    def _watch_renamed_formatting(self, r: _Record) -> None:
        """An HTML formatting element renamed in its start handler: watched
        as one with content appended (_watch_formatting_children), so that
        when the adoption agency algorithm, run by its own end tag, ends it
        with a furthest block its start tag made its child, the first step
        is written out there (_formatting_content_held): the new name's end
        tag before the furthest block, a start tag copying the input's
        element (its name and attributes, as the parser's copy) after the
        furthest block's. The input's end tag then closes that copy, as the
        algorithm's later steps did. One such element at a time."""
        if self._hold_for is not None or r.node.namespace_uri != _HTML_NS or \
                r.name not in _FORMATTING or r.mode or r.attributes_changed or \
                r.implied or r.foster:
            return
        self._hold_for = r
        if r not in self._tracked:
            self._tracked.append(r)

    def _watch_agency_copy(self, r: _Record) -> None:
        """An HTML formatting element whose attributes were changed
        (set_attribute, remove_attribute) or which was unwrapped
        (remove_and_keep_content): the adoption agency algorithm's copies of
        it are made from its start tag, and would carry the edit, or not be
        made at all. Watched as a renamed one (_watch_renamed_formatting):
        when the algorithm, run by its own end tag, ends it with a furthest
        block its start tag made its child, the first step is written out
        there (_formatting_content_held): its end tag (none when unwrapped)
        before the furthest block, a start tag copying the input's element
        (the attributes the parser's copy has) after the furthest block's.
        One such element at a time. Not an <a> whose attributes alone
        changed: its own end tag ends it quietly (quiet_level), with no
        call to _popped to end the watch, and watching every link rewritten
        would send every token inside one through _handle_token."""
        if self._hold_for is not None or r.node.namespace_uri != _HTML_NS or \
                r.name not in _FORMATTING or r.mode not in (0, _KEEP_CONTENT) or \
                r.new_name is not None or r.implied or r.foster or \
                r.name == "a" and not r.mode:
            return
        self._hold_for = r
        if r not in self._tracked:
            self._tracked.append(r)

    def _agency_copy_held(self, r: _Record, furthest_key: int) -> bool:
        """Whether the adoption agency algorithm's first step for r, an
        element whose attributes changed or which was unwrapped, can be
        written out at its end (_watch_agency_copy,
        _formatting_content_held): it is the element watched, this is the
        furthest block watched, no element of its name is around it or
        inside it (_named_relatives: the Noah's Ark clause compares none
        with it, nor with the copy written), and, unwrapped, no end tag
        inside it was read otherwise for its start tag (_popped's checks
        of an unwrapped element, which the written step skips)."""
        return r is self._hold_for and self._hold_furthest == furthest_key and \
            self._named_relatives(r) == 0 and not (
                r.mode == _KEEP_CONTENT and (r.ignored_end or r.loop_stopped))

    @staticmethod
    def _agency_copy_edited(r: _Record) -> bool:
        """Whether the adoption agency algorithm's copy of r, a formatting
        element, made from its start tag, would differ in the reparse:
        its attributes changed, or its start tag dropped (unwrapped)."""
        return bool(r.attributes_changed) or r.mode == _KEEP_CONTENT

    def _end_tag_of(self, name: str) -> bool:
        """Whether the token being handled is an end tag named `name`."""
        _, _, kind, begin, end = self._token_events
        tag = self._source(begin, end)[2:2 + len(name) + 1].lower()
        return kind == "end" and tag[:len(name)] == name.encode() and \
            tag[len(name):] in (b">", b"/", b" ", b"\t", b"\n", b"\f", b"\r")

    def _hold_point(self, node: Any, begin: int, count: int, foster: bool) -> None:
        """The start tag token at `begin` pushed `node` and did nothing else
        (no element popped, reconstructed or implied, no foster parenting).
        When node is a special HTML element and its parent is the formatting
        element with content appended to it (_hold_for), which was the
        current node then, node is the furthest block of an adoption agency
        run for that element while it is open (the first special element
        above it on the stack): the algorithm moves node and all after it
        out and ends the element, whose children are then those before
        node. The content appended goes right before node's start tag: the
        reparse goes through the same run. Output from there is held back
        (_take) until the element ends (_formatting_content_held). With
        elements between them (node's parent is not the formatting element,
        _split_chain), the algorithm's first step is written out there."""
        r = self._hold_for
        if r is None or r.ended or count != 1 or foster \
                or node.namespace_uri != _HTML_NS or node.local_name not in _SPECIAL_NAMES \
                or node.local_name in _VOID or self._skip is not None \
                or self._reconstruction_pending(True):
            return
        # (With elements between them, their end tags and copies are
        # written too: _split_chain, _formatting_content_held.)
        chain = [r.node] if node.parent_node is r.node else \
            self._split_chain(node.parent_node, node.local_name)
        if chain is None or not any(n is r.node for n in chain):
            return
        if (r.after or r.new_name is not None or len(chain) > 1 or
                self._agency_copy_edited(r)) and (
                node.local_name in _NEWLINE_DROPPING or
                len(chain) == 1 and not self._splittable(r.node, node.local_name)):
            return
        self._hold = self._out_mark(begin)
        self._hold_node = node
        self._hold_after = None
        self._hold_chain = chain

    def _formatting_content_held(self, r: _Record, end_tag: "EndTag",
                                 has_outside: bool) -> bool:
        """At the end of the formatting element with content appended to it
        (_watch_formatting_children): when the adoption agency algorithm
        ended it at this token with the furthest block whose start tag is
        the hold point (_hold_point), that content is written there and
        True returned. The hold ends either way."""
        index, node, furthest = self._hold, self._hold_node, self._hold_furthest
        after, chain = self._hold_after, self._hold_chain
        self._hold_for = self._hold = self._hold_node = self._hold_furthest = None
        self._hold_after = None
        self._hold_chain = []
        # (Renamed: _watch_renamed_formatting. Its own end tag ran the
        # algorithm, and no element of its name is left inside it. With
        # elements between it and the furthest block: _split_between.)
        renamed = r.new_name is not None or self._agency_copy_edited(r)
        between = [] if not chain or chain[0] is r.node else \
            self._split_between(chain, r.node)
        split = has_outside or renamed or bool(between)
        if index is None or node is None or furthest is None or between is None or \
                split and (after is None or not self._agency_steps_left()) or \
                self._moved_batch != self._batch or furthest != self._node_key(node) or \
                r.mode and r.mode != _KEEP_CONTENT or renamed and (
                    not self._end_tag_of(r.name) or end_tag._removed or end_tag.after_content
                    or r.node.query_selector(r.name) is not None) or \
                self._skip is not None:
            if self._agency_copy_edited(r) and r.moves == -1:
                # (Its attributes changed or its start tag dropped: the
                # parser's copies would differ, _agency_copy_held.)
                raise RewriteError("<%s>: the adoption agency algorithm moved this element "
                                   "or its content after its edits were written" % r.name)
            return False
        def write() -> None:
            assert between is not None
            self._emit("".join("</%s>" % n.local_name for n in chain[:len(between)]))
            self._emit_contents(r.append, r, True)
            self._emit_contents(end_tag.before_content, r, True)
            if split:
                # (The algorithm's first step written: _split_watch. An
                # unwrapped element has no start tag to end.)
                if r.mode != _KEEP_CONTENT:
                    self._emit("</%s>" % (r.new_name or r.name))
                self._emit_contents(end_tag.after_content, r, False)
                self._emit_contents(list(reversed(r.after)), r, False)
                self._emit("".join(_plain_start_tag(n) for n in reversed(between)
                                   if n is not None))
        if split and after is not None:      # (split: after is set)
            self._emit_at(after, lambda: self._emit(_plain_start_tag(r.node)))
        self._emit_at(index, write)
        self._unwrapped_closed.discard(r)     # (as _popped, for an unwrapped one)
        return True

    def _emit_at(self, index: int, write: Callable[[], None]) -> None:
        """What write() emits goes at `index` of the output held back (the
        content written at the output's end meanwhile stays after it)."""
        if self._ready is not None:
            self._out_ready()
        tail = bytes(self._out[index:])
        del self._out[index:]
        write()
        self._out += tail

    def _split_watch(self, r: _Record, edited: bool = False) -> None:
        """Content before r or at its start, at r's start tag: when r is a
        special HTML element that its start tag, doing nothing else (no
        element popped, reconstructed or implied, no foster parenting), made
        a child of an HTML formatting element that was the current node and
        the last entry of the list of active formatting elements (the one
        before it, if any, open), the adoption agency algorithm run for that
        element while r is open takes r as its furthest block. Its first
        step then moves r out after the formatting element and puts a copy
        of it (made from its start tag) into r, around r's content. Written
        as that: the formatting element's end tag before r's content
        before it, and its start tag (its attributes as the parser copies
        them) after r's start tag and content at its start
        (_split_furthest); the reparse takes the same steps after that one.
        The output from r's start tag is held back until the algorithm runs
        or r ends (_split_end). One such element at a time. The same with
        elements between r and the formatting element (_split_chain): their
        end tags before the formatting element's, start tags copying those
        the algorithm copies after it (_split_between). Content replaced,
        unwrapped or renamed (edited, at _pushed_written) goes the same way,
        with no copy of the formatting element for replaced content."""
        if self._split is r:
            return
        parent = r.node.parent_node
        # (clean_start: its start tag closed, implied and reconstructed
        # nothing. edited: its start handlers replaced its content,
        # unwrapped or renamed it: _pushed_written. A parent that is not a
        # formatting element: _split_chain.)
        if self._split is not None or not edited and (
                    r.mode or r.new_name is not None or r.started) or r.implied or \
                r.foster or r.ended or r.batch != self._batch or not r.clean_start or \
                r.start is None or \
                r.node.namespace_uri != _HTML_NS or r.name not in _SPECIAL_NAMES or \
                r.name in _NEWLINE_DROPPING or r.name in _VOID or parent is None or \
                parent.node_type != 1 or \
                parent.namespace_uri != _HTML_NS or \
                not self._is_open(parent) or self._skip is not None or \
                self._reconstruction_pending(True) or self._hold_for is not None:
            return
        chain = self._split_chain(parent, r.name)
        second = self._agency_second_formatting(parent, r.name) if chain is None else None
        # (Deeper: special elements between r and the formatting
        # element's chain, _split_deep_chain; for the second step's of
        # _agency_second_formatting, written that way only when the steps
        # reach their limit, _moved.)
        deep = self._split_deep_chain(parent, r.name) if chain is None else None
        if deep is not None and second is not None and not (
                len(deep[0]) == 1 and deep[0][0] is second and len(deep[1]) == 1):
            second = None
        if chain is None and second is None and deep is None and (
                parent.local_name not in _FORMATTING or not self._splittable(parent, r.name)):
            return
        begin = r.start[0]
        if self._emitted > begin:
            return
        self._split_at = self._out_mark(begin)
        self._split = r
        self._split_chain_nodes = chain or (deep[0] if deep is not None and second is None
                                            else None) or \
            [second if second is not None else parent]
        self._split_second = parent if second is not None else None
        self._split_deep = deep[1] if deep is not None else None
        self._split_later = []
        self._split_after = None
        self._loud(r)       # (its end comes here: _popped ends the hold)
        if r not in self._tracked:
            self._tracked.append(r)

    def _split_deep_chain(self, parent: Any, child: str) -> Optional[Tuple[List[Any], List[Any]]]:
        """For r (named `child`), a special HTML element whose start tag,
        doing nothing else, made it a child of `parent`, the current node
        (_split_watch): when parent and its ancestors up to a non-special
        element P are open _DEEP_BLOCKS elements B1..B(k-1) (outermost
        first) and P's chain is one _split_chain writes out for B1, the
        adoption agency algorithm run by the end tag of a formatting
        element F of that chain while r is open takes B1, ..., B(k-1), r,
        and the blocks opened inside r the same way as its furthest
        blocks, one per step: step 1 moves B1 out (with copies of the
        elements between), a copy of F takes B1's children; step i moves
        B(i) out of the copy of step i-1 to the end of B(i-1), a copy
        takes B(i)'s children; after eight steps the last copy stays open
        and listed, before that a step with no furthest block pops it.
        Written as that (_split_deep_steps): F's end tag before r's start
        tag (and content before r), which runs steps 1..k-1 in the reparse
        (the same stack and list there) and pops the last copy, then a
        start tag copying F after each block's start tag from r on, and
        F's end tag before the next one's (each pops its copy, the
        current node, as a step with no furthest block). (The chain and
        the blocks) or None when not so."""
        if child not in _DEEP_BLOCKS:
            return None
        blocks: List[Any] = []
        node = parent
        while node is not None and node.node_type == 1 and node.namespace_uri == _HTML_NS \
                and node.local_name in _DEEP_BLOCKS and self._is_open(node):
            blocks.append(node)
            node = node.parent_node
        if not blocks or node is None or node.node_type != 1 or \
                node.namespace_uri != _HTML_NS or not self._is_open(node):
            return None
        blocks.reverse()
        chain = self._split_chain(node, blocks[0].local_name)
        if chain is None:
            return None
        return chain, blocks

    def _split_later_point(self, node: Any, begin: int, count: int, foster: bool) -> Optional[int]:
        """A start tag at `begin` pushed `node` and did nothing else while
        an element is held for the adoption agency's steps (_split_watch):
        when node is a _DEEP_BLOCKS element made a child of the innermost
        block held (the split element, or the last one noted here), the
        current node, the algorithm may take it as its next furthest block
        (_split_deep_steps): the output's index where its start tag
        begins (the index where it ends is noted after it is written)."""
        r = self._split
        if r is None or r.mode == _INNER or self._skip is not None or count != 1 or foster \
                or node.namespace_uri != _HTML_NS or node.local_name not in _DEEP_BLOCKS:
            return None
        last = self._split_later[-1][0] if self._split_later else r.node
        if node.parent_node is not last or self._emitted > begin:
            return None
        return self._out_mark(begin)

    def _split_later_popped(self, node: Any) -> None:
        """An element popped while blocks are noted (_split_later_point):
        a block that ends before the algorithm runs is no furthest block,
        nor are the ones noted after it."""
        for i, later in enumerate(self._split_later):
            if later[0] is node:
                del self._split_later[i:]
                return

    def _split_steps(self, formatting: Any, blocks: List[Any], loose: bool) -> Optional[int]:
        """At the adoption agency algorithm run for `formatting`, an
        element of the chain held (_split_chain_nodes): the number of its
        steps with a furthest block, when the token's events are exactly
        those of steps over `blocks` in order (_split_deep_chain): the walk
        over the elements between (_split_between), then per step the
        formatting element (F, then the copy of the step before) moved,
        popped and a copy of it pushed, the furthest block of step i being
        blocks[i-1] (any block after them when `loose`), then, before the
        limit of eight steps, pops ending with the last copy (the step
        with no furthest block), or nothing after the eighth. None when
        not so."""
        between = self._split_between(self._split_chain_nodes, formatting)
        if between is None:
            return None
        events = self._token_events[1] if self._token_events[0] == self._batch else []
        i = sum(1 if node is None else 2 for node in between)
        current = formatting
        steps = 0
        while i < len(events) and events[i][0] == "moved":
            if events[i][1] is not current or i + 2 >= len(events) or \
                    events[i + 1][0] != "popped" or events[i + 1][1] is not current or \
                    events[i + 2][0] != "pushed" or \
                    events[i + 2][1].local_name != formatting.local_name or \
                    events[i + 2][1].namespace_uri != _HTML_NS:
                return None
            if steps < len(blocks):
                if events[i][6] != self._node_key(blocks[steps]):
                    return None
            elif not loose:
                return None
            current = events[i + 2][1]
            steps += 1
            i += 3
        rest = events[i:]
        if steps == 0 or steps > 8 or steps == 8 and rest or steps < 8 and (
                not rest or any(event[0] != "popped" for event in rest) or
                rest[-1][1] is not current):
            return None
        return steps

    def _split_unedited(self, nodes: List[Any], r: _Record) -> bool:
        """Whether none of `nodes` (the elements the adoption agency's
        steps written out copy, move or pop) but r has edits whose output
        those steps would carry otherwise (as _agency_formatting_edited)."""
        for node in nodes:
            f = self._open.get(self._node_key(node))
            if f is not None and f is not r and (self._agency_formatting_edited(f) or
                                                 f.before or f.prepend):
                return False
        return True

    def _split_deep_steps(self, formatting: Any) -> bool:
        """The adoption agency algorithm ran for `formatting` while the
        element held by _split_deep_chain is open: when its steps are the
        blocks' (_split_steps) and nothing they touch is edited, written
        out (_split_deep_chain): F's end tag where r's output begins; for
        the steps from r's on, a start tag copying F after each furthest
        block's start tag and content at its start (none for r's content
        replaced: the copies are inside what it drops), F's end tag before
        the next one's start tag (and content before it). After eight
        steps the last copy stays open and listed, as the reparse's is:
        the input's end tag is left out (it would pop it). Before that,
        it is written: it pops the last copy as the input's did (the
        elements above it are the same). r's content replaced with the
        eighth copy left listed inside it: only if r ends at the end of
        input (_split_eof_end). True when written (the hold ends)."""
        r, deep = self._split, self._split_deep
        events = self._token_events[1] if self._token_events[0] == self._batch else []
        first = next((event for event in events if event[0] == "moved"), None)
        if r is None or deep is None or first is None or first[1] is not formatting or \
                not any(node is formatting for node in self._split_chain_nodes) or \
                self._token_events[2] != "end" or not self._end_tag_of(formatting.local_name):
            return False
        at, after, later = self._split_at, self._split_after, list(self._split_later)
        k = len(deep) + 1
        blocks = deep + [r.node] + [entry[0] for entry in later]
        inner = r.mode == _INNER
        steps = self._split_steps(formatting, blocks, inner)
        if steps is None or at is None or steps < k and steps != 8 or \
                r.mode not in (0, _INNER, _KEEP_CONTENT) or \
                self._skip is not (r if inner else None) or \
                after is None and not inner and k <= steps or \
                not self._split_unedited(self._split_chain_nodes + blocks, r):
            return False
        name = formatting.local_name
        copy = _plain_start_tag(formatting)
        writes: List[Tuple[int, int, str]] = [(at, 0, "</%s>" % name)]
        if not inner:
            for j in range(k, steps + 1):
                end_at = after if j == k else later[j - k - 1][2]
                assert end_at is not None
                writes.append((end_at, 2 * j, copy))
                if j > k:
                    writes.append((later[j - k - 1][1], 2 * j - 1, "</%s>" % name))
        self._split_end()
        self._split_deep_batch = self._batch
        self._split_deep_record = r
        if inner and steps == 8 and k <= 8:
            self._split_eof_only[id(r)] = r
        skip, self._skip = self._skip, None     # (written while its content is skipped)
        for index, _, text in sorted(writes, reverse=True):
            self._emit_at(index, functools.partial(self._emit, text))
        self._skip = skip
        if steps == 8 and skip is None:
            _, _, _, begin, end = self._token_events
            self._copy_to(begin)
            self._emitted = end
        return True

    def _agency_second_formatting(self, parent: Any, child: str) -> Any:
        """For r (named `child`), a special HTML element whose start tag,
        doing nothing else, made it a child of `parent`, the current node:
        when parent is a special HTML element whose parent is an HTML
        formatting element F (not nobr) that is open, the last entry of the
        list of active formatting elements and the only one of its name
        (the entry before it, if any, open: _splittable), F's end tag run
        while r is open takes parent as its first furthest block (moving
        the content before r into a copy of F) and r as the second (r goes
        after that copy, and a second copy takes r's children). Written as
        that (_agency_second_furthest): F's end tag before r and the
        content before it, which runs the first step in the reparse and
        pops its copy, and a start tag copying F after r's start tag and
        content at its start; the input's end tag then does the rest. F,
        or None when not so."""
        formatting = parent.parent_node
        if child in _HEADINGS or parent.local_name not in _SPECIAL_NAMES or \
                parent.local_name in _NOT_SPECIAL or parent.local_name in _HEADINGS or \
                formatting is None or formatting.node_type != 1 or \
                formatting.namespace_uri != _HTML_NS or \
                formatting.local_name not in _FORMATTING or formatting.local_name == "nobr" or \
                not self._is_open(formatting) or \
                not self._splittable(formatting, parent.local_name):
            return None
        listed = self._formatting_now()
        if listed is None or sum(1 for n in listed if n.local_name == formatting.local_name) != 1:
            return None
        return formatting

    def _agency_second_first(self, formatting: Any, furthest_key: int) -> None:
        """At a step of the adoption agency algorithm: the first step
        _agency_second_formatting expects (for F, with r's parent as its
        furthest block, the first step of the token) is noted."""
        second = self._split_second
        if second is None or not self._split_chain_nodes:
            return
        events = self._token_events[1] if self._token_events[0] == self._batch else []
        if formatting is self._split_chain_nodes[0] and \
                furthest_key == self._node_key(second) and \
                events and events[0][0] == "moved" and events[0][1] is formatting:
            self._split_second_batch = self._batch

    @staticmethod
    def _agency_formatting_edited(f: Optional[_Record]) -> bool:
        """Whether the formatting element of the adoption agency algorithm
        (its record, if any) has edits that its end tag, or its copies made
        from its start tag, would carry otherwise in the output written for
        the algorithm: as _split_furthest refuses them."""
        return f is not None and bool(
            f.mode or f.new_name is not None or f.attributes_changed or
            f.append or f.after or f.end_handlers)

    def _agency_second_furthest(self, r: _Record, formatting: Any, formatting_key: int) -> None:
        """The adoption agency algorithm took r as its furthest block with
        r's parent the first step's (_agency_second_formatting): F's end
        tag before r (and the content before it), a start tag copying F
        after r's start tag and its content there (none when r's content is
        replaced: the copy would be inside what it drops). Refused unless
        this is the token's second step, for the copy of F its first step
        made (the token's events: F moved, popped, its copy pushed, then
        this step), F has no edits, and the steps stopped by themselves
        (the output's end tag then runs one more)."""
        chain, at, after = self._split_chain_nodes, self._split_at, self._split_after
        first_batch = self._split_second_batch
        self._split_end()
        f_node = chain[0] if chain else None
        f = self._open.get(self._node_key(f_node)) if f_node is not None else None
        events = self._token_events[1] if self._token_events[0] == self._batch else []
        kinds = [(event[0], event[1]) for event in events[:4]]
        if f_node is None or first_batch != self._batch or at is None or after is None or \
                len(kinds) < 4 or kinds[0] != ("moved", f_node) or \
                kinds[1] != ("popped", f_node) or kinds[2] != ("pushed", formatting) or \
                kinds[3] != ("moved", formatting) or \
                not self._agency_steps_left() or \
                self._skip is not (r if r.mode == _INNER else None) or \
                r.mode not in (0, _INNER, _KEEP_CONTENT) or self._agency_formatting_edited(f):
            raise RewriteError("<%s>: the adoption agency algorithm moved this element "
                               "or its content after its edits were written" % r.name)
        skip, self._skip = self._skip, None     # (written while its content is skipped)
        if r.mode != _INNER:
            self._emit_at(after, lambda: self._emit(_plain_start_tag(f_node)))
        self._emit_at(at, lambda: self._emit("</%s>" % f_node.local_name))
        self._skip = skip

    def _split_chain(self, parent: Any, child: str) -> Optional[List[Any]]:
        """For a furthest block candidate (named `child`) whose start tag
        made it a child of `parent`, the current node: the open elements
        the adoption agency algorithm may walk over from it, `parent` and
        its ancestors up to the first special one (_split_watch), when its
        first step, with any formatting element among them, can be written
        out (_split_furthest): they are HTML elements whose end tag, met
        as the current node, pops them alone (ordinary elements, and
        formatting elements but nobr, each in the list of active
        formatting elements after its last marker, whose tail they are,
        the entry before them open), no name of them is there three times
        (the Noah's Ark clause does nothing for the copies written), the
        parent of the outermost is open, no open table is after any of
        them (foster parenting), and the child is not a heading. None when
        not, or with no formatting element among them."""
        if child in _HEADINGS:
            return None
        chain = []
        node = parent
        while node is not None and node.node_type == 1 and node.namespace_uri == _HTML_NS \
                and (node.local_name not in _SPECIAL_NAMES or
                     node.local_name in _NOT_SPECIAL) and self._is_open(node):
            if node.local_name in _SPLIT_CHAIN_REFUSED:
                return None
            chain.append(node)
            node = node.parent_node
        formatting = [n for n in reversed(chain) if n.local_name in _FORMATTING]
        if not formatting or node is None or node.node_type != 1 or \
                not self._is_open(node) or not self._splittable(parent, child, True):
            return None
        listed = self._formatting_now()
        if not listed or len(listed) < len(formatting) or \
                any(a is not b for a, b in zip(listed[-len(formatting):], formatting)) or \
                len(listed) > len(formatting) and not self._is_open(listed[-len(formatting) - 1]):
            return None
        names = [n.local_name for n in listed]
        if any(names.count(n.local_name) > 2 for n in formatting):
            return None
        return chain

    def _splittable(self, formatting: Any, child: str, tables_only: bool = False) -> bool:
        """Whether the adoption agency's first step for the open formatting
        element, run at a furthest block its child (named `child`), can be
        written as its end tag before that child and a start tag copying it
        after the child's (_split_watch): it is the last entry of the list
        of active formatting elements and the one before it, if any, is
        open (the start tag reconstructs nothing, Noah's Ark compares it
        with the same entries as the element's own start tag did, and the
        copy's entry keeps its place), it is not foster-parented (a table's
        insertion mode would read what is written after its end tag), its
        parent is open (after its end tag the parent is the current node
        and takes what follows: not so for a parent that left the stack,
        as a form at </form>), and the child is not a heading (a heading's
        start tag pops a heading that is the current node: the formatting
        element's parent may be one after its end tag)."""
        parent = formatting.parent_node
        if child in _HEADINGS or parent is None or parent.node_type != 1 or \
                not self._is_open(parent):
            return False
        node = formatting
        while node is not None and node.node_type == 1:
            sibling = node.next_sibling
            while sibling is not None:
                if sibling.node_type == 1 and sibling.local_name == "table" and \
                        sibling.namespace_uri == _HTML_NS and self._is_open(sibling):
                    return False
                sibling = sibling.next_sibling
            node = node.parent_node
        if tables_only:
            return True
        listed = self._formatting_now()
        if not listed:
            return False
        return listed[-1] is formatting and (len(listed) == 1 or self._is_open(listed[-2]))

    def _agency_steps_left(self) -> bool:
        """Whether the adoption agency algorithm at this token stopped by
        itself, not at its limit of eight steps with a furthest block: the
        output that writes its first step out runs the others from its own
        end tag, up to eight more (_split_watch)."""
        events = self._token_events[1] if self._token_events[0] == self._batch else ()
        return sum(1 for event in events if event[0] == "moved") < 8

    def _split_furthest(self, r: _Record, formatting: Any, formatting_key: int) -> None:
        """The adoption agency algorithm took r as its furthest block
        (_split_watch): the formatting element's start tag after r's start
        tag and its content there, its end tag before r (and the content
        before r). Unless it is not the formatting element r was watched
        for, or that one has edits of its own (then _moved refuses)."""
        if self._split_second is not None:
            self._agency_second_furthest(r, formatting, formatting_key)
            return
        if self._split_deep is not None:
            # (Not the steps _split_deep_steps writes: r is no first step's.)
            self._split_end()
            raise RewriteError("<%s>: the adoption agency algorithm moved this element "
                               "or its content after its edits were written" % r.name)
        eight = self._split_eight(r, formatting) if not self._agency_steps_left() else None
        chain, at, after = self._split_chain_nodes, self._split_at, self._split_after
        self._split_end()
        f = self._open.get(formatting_key)
        between = self._split_between(chain, formatting)
        if between is None or at is None or after is None or \
                not (self._agency_steps_left() or eight is not None) or \
                self._skip is not (r if r.mode == _INNER else None) or \
                r.mode not in (0, _INNER, _KEEP_CONTENT) or (
                    f is not None and (
                    f.mode or f.new_name is not None or f.attributes_changed or
                    f.append or f.after or f.end_handlers)):
            raise RewriteError("<%s>: the adoption agency algorithm moved this element "
                               "or its content after its edits were written" % r.name)
        skip, self._skip = self._skip, None     # (written while its content is skipped)
        for index, _, text in sorted(eight or (), reverse=True):
            # (The later steps, _split_eight: after r's.)
            self._emit_at(index, functools.partial(self._emit, text))
        if r.mode != _INNER:
            # (Replaced content: the copy would be inside what it drops.)
            self._emit_at(after, lambda: self._emit(_plain_start_tag(formatting)))
        self._emit_at(at, lambda: self._emit(
            "".join("</%s>" % node.local_name for node in chain[:len(between)]) +
            "</%s>" % formatting.local_name +
            "".join(_plain_start_tag(node) for node in reversed(between) if node is not None)))
        self._skip = skip
        if eight is not None and skip is None:
            # (The eighth copy stays open and listed: _split_eight.)
            _, _, _, begin, end = self._token_events
            self._copy_to(begin)
            self._emitted = end

    def _split_eight(self, r: _Record, formatting: Any) -> Optional[List[Tuple[int, int, str]]]:
        """The adoption agency algorithm took r as its first furthest block
        (_split_furthest) and ran its eight steps, the last copy left open
        and listed: the input's end tag after the first step written out
        would run only seven more and pop the eighth copy. When the steps
        after r's took the blocks noted inside r (_split_later_point) in
        order (_split_steps) and nothing they touch is edited, they are
        written out as _split_deep_steps writes them: F's end tag before
        each block's start tag (and content before it, popping the copy
        of the step before, the current node), a start tag copying F after
        it; the input's end tag is left out (_split_furthest). What to
        write (output index, order, text), or None. For r's content
        replaced, nothing (the copies are inside what it drops), and only
        if r ends at the end of input (_split_eof_end)."""
        later = list(self._split_later)
        blocks = [r.node] + [entry[0] for entry in later]
        if self._split_steps(formatting, blocks, r.mode == _INNER) != 8 or \
                not self._split_unedited(self._split_chain_nodes + blocks, r):
            return None
        if r.mode == _INNER:
            # (No copies: they are inside what it drops. _split_eof_end.)
            self._split_eof_only[id(r)] = r
            return []
        name = formatting.local_name
        copy = _plain_start_tag(formatting)
        writes: List[Tuple[int, int, str]] = []
        for j in range(2, 9):
            writes.append((later[j - 2][1], 2 * j - 1, "</%s>" % name))
            writes.append((later[j - 2][2], 2 * j, copy))
        return writes

    def _split_eof_end(self, r: _Record) -> None:
        """The end of an element whose content was replaced, the adoption
        agency's steps written out before it (_split_deep_steps,
        _split_eight) with the eighth copy left open and listed inside
        what it drops: refused unless the end of input ends it (after
        which the parser reconstructs nothing; before, it would make a
        copy of that entry for content after r, which the reparse lacks)."""
        if self._split_eof_only.pop(id(r), None) is not None and not self._at_eof:
            raise RewriteError("<%s>: the adoption agency algorithm left a copy of a "
                               "formatting element listed inside its replaced content, "
                               "which the parser would reconstruct after it" % r.name)

    def _split_between(self, chain: List[Any], formatting: Any) -> Optional[List[Any]]:
        """At the adoption agency algorithm's first step for `formatting`
        with the furthest block _split_watch watched: the elements between
        them (_split_chain, innermost first), each given as itself when
        the algorithm copied it (its end tag and a start tag copying it
        are written before the furthest block) or None when it only took
        it off the stack (its end tag alone); None when `formatting` is not
        in the chain or the token's events before that step are not those
        of the walk over the elements between, in order."""
        index = next((i for i, node in enumerate(chain) if node is formatting), -1)
        if index < 0:
            return None
        events = self._token_events[1] if self._token_events[0] == self._batch else []
        between: List[Any] = []
        i = 0
        for node in chain[:index]:
            if i >= len(events) or events[i][0] != "popped" or events[i][1] is not node:
                return None
            i += 1
            if i < len(events) and events[i][0] == "pushed" and \
                    events[i][1].local_name == node.local_name and node.local_name in _FORMATTING:
                between.append(node)
                i += 1
            else:
                between.append(None)
        if i >= len(events) or events[i][0] != "moved" or events[i][1] is not formatting:
            return None
        return between

    def _split_end(self) -> None:
        """The end of what _split_watch held: the output is released."""
        self._split = None
        self._split_at = self._split_after = None
        self._split_chain_nodes = []
        self._split_second = None
        self._split_deep = None
        self._split_later = []

    def _adoption_clone_after(self, r: _Record) -> bool:
        """Whether content after r can be written after the end tag token
        being handled: r is the copy of the formatting element that the
        adoption agency algorithm made at this end tag and put into the
        furthest block, taking its children (the other copies it makes go
        around the furthest block, reconstructed ones are not made here).
        The algorithm's next step, finding no furthest block above it, pops
        it from the top of the stack, and its parent, the furthest block,
        is then the current node: content after the end tag lands right
        after it. Whether that step came is known at its end
        (_clone_popped); the record is kept for it."""
        if self._moved_batch != self._batch or self._token_events[2] != "end" or \
                r.node.namespace_uri != _HTML_NS or r.name not in _FORMATTING or \
                r.batch != self._batch or any(n is r.node for n in self._reconstructed_nodes):
            return False
        self._clones_after[id(r)] = r
        return True

    def _clone_popped(self, r: _Record, own: bool, from_top: bool) -> None:
        """The end of a copy the adoption agency made with content after it
        (_adoption_clone_after): refused unless the end tag that made it
        popped it from the top of the stack as its own, with nothing after
        it in its parent (another step of the algorithm moved nothing out
        of it or past it, and did not stop with it open)."""
        if not (own and from_top and r.batch == self._batch and
                r.node.next_sibling is None):
            raise RewriteError("<%s>: the adoption agency algorithm made this copy and "
                               "did not end it at once: content after it would go "
                               "elsewhere" % r.name)

    def _start_without_agency(self, r: _Record) -> bool:
        """For an <a> or <nobr> start tag that made r: whether it ran no
        adoption agency algorithm (which would take an earlier entry of
        its name off the list of active formatting elements). An <a> runs
        it for an entry of its name after the last marker, a <nobr> for a
        nobr element in scope. An open one leaves the stack of open
        elements at the token (the algorithm pops it, or the step after it
        removes it: a popped event of that name); a closed one is the list's
        last entry that is not open (entries after it would have made the
        parser reconstruct it first), so the parser had formatting elements
        to reconstruct before the token. With neither, the list before the
        token is the one without r's entry, as for the other formatting
        elements."""
        batch, events, kind = self._token_events[:3]
        return batch == self._batch and kind == "start" and \
            not self._reconstruction_pending(True) and not any(
                event[0] == "moved" or event[0] == "popped" and
                event[1].local_name == r.name and event[1].namespace_uri == _HTML_NS
                for event in events)

    def _formatting_before_drop(self, r: _Record) -> None:
        """The list of active formatting elements (after its last marker)
        where r's dropped content begins, for _drop_keeps_formatting: for a
        removed element, only when its start tag, dropped too, did not
        change the list (not a formatting element or one that inserts a
        marker, nothing reconstructed for it)."""
        whole = self._formatting_all()
        self._markers_at_drop[id(r)] = (r, None if whole is None else whole.count(None),
                                        self._markers_pushed_inside(r))
        if r.mode == _REMOVED and r.node.namespace_uri == _HTML_NS and r.name in _FORMATTING:
            self._noahs_ark_start(r)
        if r.mode == _REMOVED and r.node.namespace_uri == _HTML_NS and \
                r.name in _FORMATTING and (r.name not in ("a", "nobr") or
                                           self._start_without_agency(r)) and \
                not self._reconstructed_nodes:
            # (Its start tag pushed its entry, last: the list before it is
            # the one without it, for _drop_unlists alone. An <a> or <nobr>
            # start tag may have run the adoption agency algorithm first:
            # _start_without_agency.)
            entries = self._formatting_now()
            if entries and entries[-1] is r.node:
                self._drop_lists[id(r)] = (r, entries[:-1])
                self._note_closed_entries(r, entries[:-1])
            return
        if r.mode == _REMOVED and (
                r.node.namespace_uri != _HTML_NS or r.name in _FORMATTING or
                r.name in _MARKER_ELEMENTS or self._reconstructed_nodes):
            return
        entries = self._formatting_now()
        if entries is not None:
            entries = self._entries_outside(r, entries)
            self._formatting_at_drop[id(r)] = entries
            self._note_closed_entries(r, entries)

    def _markers_pushed_inside(self, r: _Record) -> int:
        """For _formatting_before_drop: the marker elements (HTML td, th,
        caption, template, applet, object, marquee) open inside r where its
        dropped content begins, which the token that made r made after it
        (an implied <tbody> and <tr> made at a <td>): each put its marker
        on the list, which the dropped content holds, not the list where
        it begins (_marker_left_listed compares the markers after r's end
        with those outside r: a <td> inside a removed <tbody> whose </td>
        cleared an applet's marker instead of its own leaves its marker,
        which the output lacks). Counted from the current node up to r (0
        when r is not an ancestor of the current node)."""
        return self._open_markers(r.node)

    def _entries_outside(self, r: _Record, entries: List[Any]) -> List[Any]:
        """The list of active formatting elements `entries`, seen after the
        token that made r, without the entries inside r: elements the same
        token pushed after it (a formatting element's start tag reconstructs
        copies and puts itself inside the last one, r), which are r's
        replaced content, not the list where that content begins
        (`<div><p><b><i>x</p><b>y</div>z`, the <i> copy made at the second
        <b> given new content: that <b>'s entry, listed at the end, is the
        dropped content's)."""
        if r.mode != _INNER:
            return entries
        return [e for e in entries if e is r.node or not r.node.contains(e)]

    def _noahs_ark_same(self, node: Any, attributes: Any) -> List[Any]:
        """The open elements with node's name and `attributes` (a set of
        pairs) above it on the stack of open elements and after its last
        marker (node's ancestors up to the first marker element): the ones
        the list of active formatting elements compares with it when node
        is pushed (Noah's Ark)."""
        same: List[Any] = []
        e = node.parent_node
        while e is not None and e.node_type == 1:
            if e.namespace_uri == _HTML_NS and (e.local_name in _MARKER_ELEMENTS or
                                               e.local_name == "html"):
                break
            if e.namespace_uri == _HTML_NS and e.local_name == node.local_name and \
                    set(e.attributes.items()) == attributes:
                same.append(e)
            e = e.parent_node
        return same

    def _noahs_ark_lost(self, node: Any) -> List[Any]:
        """The elements like node (_noahs_ark_same) that are open but not
        on the list of active formatting elements: Noah's Ark took them
        off (at node's push or an earlier one's; the adoption agency takes
        an element off the stack with it). All of them when the list is
        too long to read."""
        same = self._noahs_ark_same(node, set(node.attributes.items()))
        now = self._formatting_now()
        if now is None:
            return same
        return [e for e in same if not any(e is n for n in now)]

    def _noahs_ark_push(self, node: Any) -> None:
        """A formatting element pushed by its start tag inside a dropped
        range (every token comes here then): when Noah's Ark took an
        element whose start tag the output keeps (an ancestor of the
        dropped range, or the element whose content is replaced) off the
        list of active formatting elements, the output, without the
        dropped content, keeps it there and reconstructs it later."""
        skip = self._skip
        if skip is None or node.namespace_uri != _HTML_NS or node.local_name not in _FORMATTING:
            return
        for e in self._noahs_ark_lost(node):
            if e.contains(skip.node) and not (e is skip.node and skip.mode == _REMOVED):
                raise RewriteError("<%s>: the content it drops took an element outside "
                                   "it off the list of active formatting elements "
                                   "(Noah's Ark): the output would reconstruct it"
                                   % skip.name)

    def _noahs_ark_end(self, r: _Record) -> None:
        """The end of a formatting element whose start tag was dropped
        (its content kept): an element like it around it that Noah's Ark
        took off the list of active formatting elements while it was open
        (r among the three compared) stays on the output's list, which
        has no r (one taken off before r was refused at its start:
        _noahs_ark_start)."""
        if self._noahs_ark_lost(r.node):
            raise RewriteError("<%s>: an element like it pushed inside it took another "
                               "off the list of active formatting elements (Noah's "
                               "Ark); without its start tag the output keeps that one"
                               % r.name)

    def _noahs_ark_start(self, r: _Record) -> None:
        """A formatting element whose start tag the rewrite drops or edits:
        refused when Noah's Ark took an element off the list of active
        formatting elements at its push, or would with its new
        attributes."""
        if self._noahs_ark_lost(r.node) or r.attributes_changed and len(self._noahs_ark_same(
                r.node, {(k, v) for k, v in r.attributes or []})) >= 3:
            raise RewriteError("<%s>: its start tag takes another element off the list of "
                               "active formatting elements (Noah's Ark) in the input or the "
                               "output" % r.name)

    def _drop_behind_marker(self, markers: int) -> bool:
        """Whether the token that ends r, whose content is dropped, put a
        marker on the list of active formatting elements (a <td>, <th>,
        <caption>... start tag) after entries that are not open: the checks
        of the dropped content read the list after its last marker, where
        those entries do not show, and the parser reconstructs them once
        the marker is cleared (`<table><span><nobr>y<td>x</table><i>`, the
        span removed: without it no <nobr> is listed, and none made at
        <i>). markers: the markers on the list where the dropped content
        began (-1: not known). True when so (or when the list cannot be
        read)."""
        whole = self._formatting_all()
        if whole is None or markers < 0:
            return whole is None
        if whole.count(None) <= markers:
            return False
        # (The entries between the markers there were at the drop's start
        # and the last marker now.)
        seen = 0
        last = len(whole) - 1 - whole[::-1].index(None)
        for node in whole[:last]:
            if node is None:
                seen += 1
            elif seen >= markers and not self._is_open(node):
                return True
        return False

    def _marker_left_listed(self, r: _Record, own: bool, markers: int) -> bool:
        """Whether r, an HTML applet, object or marquee whose start tag the
        output does not have (removed, replaced, unwrapped, renamed), was
        closed by a token other than its own end tag, which left its marker
        on the list of active formatting elements (the table's "clear the
        stack back to a table context", `</table>`: they pop it and clear
        nothing), hiding entries before it whose elements are not open:
        the input's parser reconstructs none of them at the content that
        follows, the output's (without the marker) reconstructs them
        (`<table><i><applet><col>&nbsp;`: the <i> foster-parented and the
        applet in it, popped by <col>; the fostered text goes into a copy
        of the <i> without the applet). Known when the list holds more
        markers than marker elements are open (_open_markers) and an entry
        before its last marker is not open; not at the end of input, after
        which nothing is reconstructed. The same for r whose content is
        dropped (removed, replaced), which may have held such an element: a
        caption's or a cell's end clears the list up to the last marker,
        the marker element's in the input and r's own in the output
        (`<table><i><caption><applet><tbody><math>`: the caption's content
        replaced, the <math> went into a copy of the <i>): when the list
        holds more markers than where the dropped content began (`markers`,
        Rewriter._formatting_before_drop; -1: not known), less the one of a
        cell or caption r, which its end clears."""
        if self._at_eof:
            return False
        marker_element = not own and r.node.namespace_uri == _HTML_NS and \
            r.name in ("applet", "object", "marquee") and \
            (r.mode in (_REMOVED, _KEEP_CONTENT) or r.new_name is not None)
        if not marker_element and r.mode not in (_REMOVED, _INNER):
            return False
        whole = self._formatting_all()
        if whole is None:
            return True
        if whole.count(None) <= self._open_markers():
            return False
        if not marker_element and markers >= 0 and whole.count(None) <= markers - (
                1 if r.node.namespace_uri == _HTML_NS and r.name in ("td", "th", "caption")
                or self._token_cleared_to_marker() else 0):
            return False
        if not marker_element and self._marker_end_keeps_entries(whole):
            # (The dropped content's marker element was closed by the
            # token, leaving its marker: the output, without that element,
            # lacks a marker the input's list keeps, as after an end tag
            # written for it (_marker_end_keeps_entries): an entry after
            # it is gone from the output's list, and an open one before it
            # is found by a later end tag's adoption agency.)
            return True
        last = len(whole) - 1 - whole[::-1].index(None)
        return any(node is not None and not self._is_open(node) for node in whole[:last])

    def _token_cleared_to_marker(self) -> bool:
        """For _marker_left_listed: whether the token popped a cell, a
        caption or a template (HTML), whose end clears the list of active
        formatting elements up to the last marker once, so that the list
        after it holds one marker less than before the token unless the
        content between held a marker element the token closed without
        clearing its marker: the input's clearing then takes that element's
        marker (<table><caption><em><object></caption>: [caption's marker,
        <em>] stays) and the output's, without the dropped <object>, the
        caption's (the list empties). An applet, object or marquee the token
        pops without being its end tag clears nothing."""
        return any(node.namespace_uri == _HTML_NS and node.local_name in ("td", "th", "caption",
                                                                          "template")
                   for node in self._popped_nodes)

    def _drop_keeps_formatting(self, r: _Record, at_drop: Any) -> bool:
        """Whether the formatting elements left to reconstruct at r's end,
        whose content is dropped (removed or replaced), are the same in the
        output: the list of active formatting elements is the one where the
        dropped content began (at_drop: _formatting_before_drop), entry for
        entry. None of its elements is then inside the dropped content, and
        the dropped content took none off the list; the elements below r on
        the stack are the same in the output (its content cannot pop them
        without r), so the parser reconstructs the same elements later."""
        if at_drop is None:
            return False
        now = self._formatting_now()
        return now is not None and len(now) == len(at_drop) and all(
            a is b for a, b in zip(now, at_drop))

    def _note_closed_entries(self, r: _Record, entries: List[Any]) -> None:
        """The entries of the list of active formatting elements where r's
        dropped content begins (_formatting_before_drop) that are not open
        there: _drop_took_closed."""
        closed = [e for e in entries if not self._is_open(e)]
        if closed:
            self._closed_at_drop[id(r)] = (r, closed)

    def _drop_took_closed(self, r: _Record) -> bool:
        """Whether an entry of the list of active formatting elements that
        was not open where r's dropped content began (_note_closed_entries)
        is gone from the list at r's end: the dropped content took it off
        (an <a> start tag, or an end tag of its name, runs the adoption
        agency algorithm for it, which takes one that is not open off the
        list) or reconstructed it (its copy has its place). The output,
        without that content, keeps it listed and reconstructs it at the
        content that follows, where the input's list differs
        (`<div><a href=1>x</div><div><a>y</a></div>z`, the second div
        removed: z would go into a copy of the first <a>)."""
        entry = self._closed_at_drop.pop(id(r), None)
        if entry is None or entry[0] is not r:
            return False
        now = self._formatting_now()
        return now is None or any(not any(e is node for node in now) for e in entry[1])

    def _drop_unlists(self, r: _Record, own: bool, at_drop: Any, markers: int = -1) -> bool:
        """Whether the formatting elements left to reconstruct at the end of
        r, whose content is dropped, are the list where the dropped content
        began (at_drop: _formatting_before_drop) followed by entries that
        content added, none of them open: the output, without that content,
        has the list where it began, and the copies the parser reconstructs
        of those entries later are written as start tags where it makes them
        (_copies_of_unlisted; the output held back until then); with no such
        entries the lists are the same. r ended by
        its own end tag, or by a token that finds the same in both lists:
        not a formatting element's start tag, nor the end tag of an added
        entry's name; an end tag that ran the adoption agency algorithm
        moved nothing (no furthest block: it pops the formatting element
        and takes its entry off in both)."""
        if at_drop is None or self._at_eof or self._unlisted is not None or \
                self._afe_edited or self._plaintext or r.foster or self._reconstructed_here \
                or self._skip not in (None, r):
            return False
        now = self._formatting_now()
        if now is None:
            return False
        kept = [e for e in at_drop if any(e is node for node in now)]
        gone = [e for e in at_drop if not any(e is node for node in now)]
        if len(now) < len(kept) or any(a is not b for a, b in zip(now, kept)):
            return False
        tail = now[len(kept):]
        if not own:
            _, events, kind, begin, end = self._token_events
            words = self._source(begin, end)[1:].lstrip(b"/").split(b">")[0].split(b"/")[0].split()
            if kind not in ("start", "end") or not words or \
                    any(event[0] == "moved" for event in events):
                return False
            name = words[0].lower().decode("latin-1")
            if name in _FORMATTING and (kind == "start" or
                                        any(node.local_name == name for node in tail)):
                return False
            # (The entry the end tag's algorithm took off: its element,
            # popped by it.)
            if gone and (kind != "end" or len(gone) != 1 or gone[0].local_name != name or
                         not any(gone[0] is node for node in self._popped_nodes)):
                return False
        elif gone:
            return False
        if not tail:
            return True     # (the same list in both: the same reconstructed later)
        if markers > 0 and not any(r.node.contains(node) for node in tail):
            whole = self._formatting_all()
            if whole is not None and whole.count(None) < markers:
                # (A marker there was where the dropped content began (r's
                # own, or one its start tag's token put on) is cleared: at_drop,
                # read after it, lacks the entries before it, which the
                # content dropped inside r cannot reach. The same in both.)
                return True
        if any(self._is_open(node) or node.namespace_uri != _HTML_NS for node in tail):
            return False
        self._unlisted = [(node.local_name, tuple(node.attributes.items()), node)
                          for node in tail]
        self._unlist_hold = self._out_mark(None)
        return True

    def _agency_in_dropped(self, r: _Record, formatting: Any, formatting_key: int,
                           furthest_key: int) -> bool:
        """Whether r, an element whose content is replaced, which the
        adoption agency algorithm run by the formatting element's end tag
        moved whole with the furthest block's children (r is inside the
        furthest block, not the furthest block itself), is expressed with
        that token as it is: the reparse runs the same steps over the same
        stack of open elements and list of active formatting elements, but
        for r's content, which the algorithm does not walk. So when nothing
        inside r was open at the token or is on the list (no event of the
        token is of a node inside r; r, if still open, is the current node,
        and no entry of the list is inside r), and the formatting element
        has no edits (the handlers of its end would be dropped with the
        token, and the algorithm's copies of it are made from its start
        tag). The token ends r (it pops it, written as it is) or is inside
        the range dropped: then it is written at r's end
        (_agency_dropped_end, where the input's stack is the one it met but
        for r's content). Refused when a second such token is inside r."""
        if r.mode != _INNER or self._skip is not r or \
                self._token_events[2] != "end" or not self._end_tag_of(formatting.local_name) or \
                formatting.namespace_uri != _HTML_NS or \
                self._node_key(r.node) == furthest_key or r.new_name is not None:
            return False
        if self._agency_formatting_edited(self._open.get(formatting_key)):
            return False
        events = self._token_events[1] if self._token_events[0] == self._batch else ()
        inside = r.node.contains
        if any(event[1] is not r.node and inside(event[1]) for event in events):
            return False
        open_ = self._is_open(r.node)
        if open_ and self._current_node() is not r.node:
            return False
        listed = self._formatting_all()
        if listed is None or any(node is not None and inside(node) for node in listed):
            return False
        node = r.node.parent_node
        while node is not None and node.node_type == 1:
            if self._node_key(node) == furthest_key:
                noted = self._agency_dropped.get(id(r))
                if noted is not None and noted[2] is r and noted[1] != self._batch:
                    raise RewriteError("<%s>: the adoption agency algorithm moved this "
                                       "element or its content after its edits were "
                                       "written" % r.name)
                self._agency_dropped[id(r)] = ("</%s>" % formatting.local_name if open_ else "",
                                               self._batch, r)
                return True
            node = node.parent_node
        return False

    def _agency_dropped_end(self, r: _Record) -> None:
        """At the end of r (_agency_in_dropped): the end tag that ran the
        adoption agency algorithm inside its dropped range, written where
        that range ends."""
        noted = self._agency_dropped.pop(id(r), None)
        if noted is not None and noted[2] is r and noted[0]:
            self._emit(noted[0])

    def _agency_ended_inner(self, r: _Record) -> bool:
        """Whether r, its content replaced, ended at the end tag that ran
        the adoption agency algorithm (_agency_in_dropped): the formatting
        elements the token pushed are the algorithm's copies, made in the
        reparse too, not reconstructed after content the output drops."""
        noted = self._agency_dropped.get(id(r))
        return noted is not None and noted[2] is r and noted[1] == self._batch and \
            not noted[0]

    def _dropped_inside(self, r: _Record, furthest_key: int) -> bool:
        """Whether r is an element being removed (its range dropped) that
        the adoption agency moved whole with the furthest block's children
        (it is inside the furthest block): the reparse, without it, runs
        the same step, when the token is not dropped with it (it ends at
        this token, _popped) or a later step makes it the furthest block
        (_drops_furthest_block); a later step that moves an element out of
        it is refused there."""
        if r.mode != _REMOVED or self._skip is not r or self._furthest_dropped_earlier(r):
            return False
        node = r.node.parent_node
        while node is not None and node.node_type == 1:
            if self._node_key(node) == furthest_key:
                self._furthest_dropped.setdefault(id(r), [r, None, self._batch])
                return True
            node = node.parent_node
        return False

    def _furthest_dropped_now(self, r: _Record) -> bool:
        """Whether the removed element r was noted in _furthest_dropped at
        this token (an earlier step of the adoption agency algorithm run by
        it moved r, or took r as its furthest block): the steps of one
        token are expressed together (_dropped_inside,
        _drops_furthest_block)."""
        noted = self._furthest_dropped.get(id(r))
        return noted is not None and noted[2] == self._batch

    def _furthest_dropped_earlier(self, r: _Record) -> bool:
        """Whether the removed element r was noted in _furthest_dropped at
        an earlier token: an end tag that ran the adoption agency algorithm
        inside r's dropped range (r stayed open after it). A second such
        end tag, also inside that range, moving r (inside a furthest block,
        or as the furthest block) again is not expressed by the one end
        tag written at r's end: the first token's steps (the copies it
        made of the formatting elements, the furthest block it moved) are
        not run in the reparse, whose parser sees only the end tag written
        there (<a><b><div><div><div>x</a>y</b>z, the second <div> removed,
        gave <a><b><div></b>). Refused (_moved)."""
        noted = self._furthest_dropped.get(id(r))
        return noted is not None and noted[2] != self._batch

    def _drops_furthest_block(self, r: _Record, formatting: Any, formatting_key: int) -> bool:
        """Whether the removed furthest block r is expressed by the
        formatting element's end tag written in place of its dropped range
        (at its end, _popped): r was pushed with the formatting element as
        the current node, or with the element the algorithm's copy of it
        went into at this token (nothing between them on the stack, so the
        algorithm cloned nothing and moved r alone into the formatting
        element's parent), and without r that end tag pops the formatting
        element and takes it off the list, as the algorithm did (its
        later steps, inside r, are dropped with it)."""
        parent = formatting.parent_node
        if r.mode != _REMOVED or r.before or r.new_name is not None or \
                self._skip is not r or r.node.parent_node is not parent or \
                (r.parent_open is not formatting and r.parent_open is not parent) or \
                formatting.namespace_uri != _HTML_NS:
            return False
        f = self._open.get(formatting_key)
        if f is not None and (f.after or f.append or f.end_handlers):
            return False    # (written at its end, before the end tag written here)
        noted = self._furthest_dropped.get(id(r))
        if noted is not None and (noted[2] != self._batch or noted[1] is not None):
            return False    # (_furthest_dropped_earlier)
        self._furthest_dropped[id(r)] = [r, formatting.local_name, self._batch]
        return True

    def _form_tag(self, kind: str, begin: int, end: int, events: List[Any]) -> None:
        """A <form> or </form> tag while the output's form element pointer
        (_form_out) may differ from the parser's. Written so that the
        output's parser does what the input's did, or refused:
        - a <form> the parser ignored (its pointer is set), where the
          output's pointer is none: written as </form>, which the output's
          parser ignores as well (with its pointer none; in the modes that
          ignore a <form> or send it to "in body", a </form> goes the same
          way), unless a foreign element named form is open (a </form>
          in foreign content would close it); where the output's pointer is
          set too: written as it is;
        - a <form> the parser inserted, setting its pointer, where the
          output's pointer is none: the output's parser does the same;
        - a </form> that closed nothing, or the end tag of the form
          unwrapped or renamed (_form_kept), where the output's pointer is
          none: both pointers are none after it.
        When both pointers are the same again, the gap is closed."""
        out = self._form_out
        now = self._form_pointer()
        pushed = [event[4] for event in events if event[0] == "pushed"]
        popped = [event[4] for event in events if event[0] == "popped" and event[11]]
        if kind == "start":
            if not events and out > 0:
                return
            if not events and out == 0 and not self._foreign_form_open():
                self._copy_to(begin)
                self._emit("</form>")
                self._emitted = max(self._emitted, end)
                return
            if out == 0 and now and now in pushed:
                self._form_dirty = None
                self._form_kept = None
                return
        elif out == 0 and now == 0 and (not events or self._form_kept is not None and
                                        self._form_kept[1] in popped):
            self._form_dirty = None
            self._form_kept = None
            return
        raise RewriteError(self._form_reason)

    def _foreign_form_open(self) -> bool:
        """Whether a foreign element named form is in the rewriter's tree
        (open or kept)."""
        document = self._construction.document_object()
        return any(node.namespace_uri != _HTML_NS
                   for node in document.query_selector_all("form"))

    def _form_pointer_moved(self, r: _Record, own: bool, start: Optional[int]) -> bool:
        """Whether the content dropped with r (removed, or its content
        replaced) left the parser's form element pointer other than at
        r's start, where the output leaves it. Known from the pointer
        itself for an element other than a form, when no form was pushed
        at this token after r's end: the same element (or none) then, and
        none when forms were pushed inside r. Else: a form was pushed
        inside r, or r is a form that ended without its own end tag."""
        html_form = r.name == "form" and r.node.namespace_uri == _HTML_NS
        if start is None or html_form:
            # (A form the parser popped at once, in a table, leaves the
            # pointer on it: its removal leaves the output's none.)
            return bool(self._forms != r.forms or html_form and not own or html_form and
                        self._form_pointer() == self._node_key(r.node))
        now = self._form_pointer()
        batch, events, kind, begin, end = self._token_events
        # (A token the fast paths took, not recorded: one push and its pop,
        # or one pop; no form tag but a form's own </form>.)
        if batch == self._batch and kind in ("start", "end") and self._is_form_tag(begin, end):
            # (The pointer before this token, which does the same in the
            # output if the pointers agree before it: a <form> that set it
            # found none; a </form> that closed the form it pointed to
            # (as its own) found that one.)
            if kind == "start" and any(event[0] == "pushed" and event[4] == now
                                       for event in events):
                now = 0
            elif kind == "end" and not now:
                closed = [event[4] for event in events if event[0] == "popped" and event[11]]
                now = closed[-1] if closed else 0
            self._form_check_token = True
        elif self._counters()[1] != self._forms:
            return True
        return bool(now != start or now and self._forms != r.forms)

    def _form_pointer_before(self, r: _Record, start: Optional[int]) -> int:
        """The output's form element pointer after r's dropped content: the
        parser's at r's start (-1: not known); for a form removed, the one
        before it (none, when the form set it)."""
        if start is None:
            return -1
        if r.name != "form" or r.node.namespace_uri != _HTML_NS:
            return start
        if r.mode == _REMOVED and start == self._node_key(r.node):
            return 0
        return -1

    def _is_form_tag(self, begin: int, end: int) -> bool:
        """Whether the tag token at begin..end is a <form> or </form>."""
        tag = self._source(begin, end)[1:].lstrip(b"/").split(b">")[0].split(b"/")[0]
        return tag[:4].lower() == b"form" and tag[4:5] in (b"", b" ", b"\t", b"\n", b"\f",
                                                          b"\r")

    def _table_template_end_ok(self, r: _Record, own: bool, end_tag: "EndTag",
                               first: Any) -> bool:
        """Whether content written at the end of a template whose contents
        the parser reads with a table's insertion modes (its first element
        is a table part) goes where the DOM edit puts it: its own end tag
        pops it alone (it is the current node: the insertion mode is "in
        table", "in table body" or "in row", whose rules insert text and
        other markup at the current node, the template's contents, foster
        parenting aside), its first element is not a <col> (text and
        markup in "in column group" are ignored there), and the content
        holds no tag those modes read themselves."""
        if not own or len(self._popped_nodes) != 1 or self._popped_nodes[0] is not r.node or \
                first.local_name == "col":
            return False
        return not any(c.html and _TABLE_MODE_TAG.search(c.text)
                       for c in list(r.append) + list(end_tag.before_content))

    def _renamed_formatting_eof(self, r: _Record, from_top: bool) -> bool:
        """Whether a renamed formatting element without an end tag of its
        own stays open to the end of input, as the current node when the
        parser pops it there: nothing after it in the input reconstructs it
        (it is on the stack of open elements to the end) and no end tag
        closes it, so that being off the list of active formatting
        elements changes nothing but the Noah's Ark clause and the adoption
        agency's lookup, which _popped's check of elements of its name
        inside it and _special_edit's around it cover (and the adoption
        agency moving it or its content, r.moves)."""
        return bool(self._at_eof and from_top and r.moves == self._moves)

    def _popped(self, r: _Record, own: bool, span: Tuple[int, int], from_top: bool) -> str:
        """The end of a matched element. Returns "closed" (an end tag of its
        own or a written one closes it here), "dirty" (content was written
        inside it at an implied end) or "open"."""
        end_tag = EndTag(self, r, own)
        for fn in r.end_handlers:
            fn(end_tag)
        r.ended = True
        position = span[0]
        if self._script_appends and id(r) in self._script_appends:
            self._script_append_end(r, own, end_tag, span[0])
        if self._empty_unwraps and id(r) in self._empty_unwraps:
            self._empty_unwrap_end(r, span, self._empty_unwraps.pop(id(r)))
        if self._text_only_unwraps and id(r) in self._text_only_unwraps:
            self._text_only_end(r, own, span, self._text_only_unwraps.pop(id(r)))
        if self._detached_bodies and id(r) in self._detached_bodies:
            self._detached_body_end(r, self._detached_bodies.pop(id(r)))
        if self._foreign_renames and id(r) in self._foreign_renames:
            self._foreign_rename_end(r, own, span, end_tag, self._foreign_renames.pop(id(r)))
        has_inside = bool(r.append or end_tag.before_content)
        has_outside = bool(r.after or end_tag.after_content)
        if self._hold_for is r and self._formatting_content_held(r, end_tag, has_outside):
            return "closed"
        if self._split is r:
            self._split_end()
        if self._split_eof_only:
            self._split_eof_end(r)
        needs_end = not own and (has_outside or r.new_name is not None)
        removes_end_tag = own and (end_tag._removed or r.mode == _KEEP_CONTENT
                                   or r.mode == _REMOVED)
        if r.new_name is not None and r.name in _FORMATTING and r in self._tracked and (
                not own and not self._renamed_formatting_eof(r, from_top) or
                r.node.query_selector(r.name) is not None):
            raise RewriteError("<%s>: a renamed formatting element must end with its own "
                               "end tag and hold no element of its name" % r.name)
        if r.attributes_changed and r.name in _FORMATTING and r.node.namespace_uri == _HTML_NS \
                and not r.mode and self._named_relatives(r) >= 3:
            # (The clause compares the input's attributes in the input and
            # the edited ones in the output: it may take another entry off.)
            raise RewriteError("<%s>: with elements of its name around it or inside it, "
                               "the Noah's Ark clause may take another entry off the list "
                               "of active formatting elements than in the input" % r.name)
        if r.mode == _KEEP_CONTENT and r.node.namespace_uri == _HTML_NS and \
                r.name in _FORMATTING:
            self._noahs_ark_end(r)
        if (r.new_name is not None or r.mode == _KEEP_CONTENT) and r in self._tracked:
            if r.ignored_end:
                raise RewriteError("<%s>: an end tag inside it was ignored (the parser's "
                                   "walk down the stack stops at <%s>, not at an ordinary "
                                   "element)" % (r.name, r.name))
            if r.loop_stopped and r.name not in _LIST_LOOP_PASSES:
                raise RewriteError("<%s>: an <li>, <dd> or <dt> inside it stopped looking "
                                   "for an open one at <%s>" % (r.name, r.name))
            if r.name in _SELECT_RUBY and r.node.namespace_uri == _HTML_NS:
                self._select_ruby_popped(r, own)
        inside = self._tables_before.pop(id(r), [r, 0])[1] if self._tables_before else 0
        table_end = self._table_end_close(r, from_top, needs_end) \
            if self._table_end_before else None
        if r.table_before is not None and (r.before or r.mode == _REMOVED):
            # (An element foster-parented while it was open went before it,
            # or before a table inside it: counted, since the bounded
            # rewriter may have freed it by now, once closed; those seen
            # inside it are discounted, _fostered_inside_tables.)
            previous = r.node.previous_sibling
            if previous is not r.table_before[0] or \
                    self._foster_count != r.fostered + inside or (
                    previous is not None and previous.node_type == 3 and
                    len(previous.data) != r.table_before[1]):
                raise RewriteError("<table>: the parser foster-parented content before it: "
                                   "that content goes between it and what is written "
                                   "before it")
        if (has_inside or has_outside or r.new_name) and r.moves != self._moves:
            raise RewriteError("<%s>: the adoption agency algorithm moved this element or "
                               "its content" % r.name)
        if self._clones_after.pop(id(r), None) is not None:
            self._clone_popped(r, own, from_top)
        if (has_inside or has_outside or r.new_name or r.mode or r.attributes_changed) \
                and not from_top and not self._attributes_only_left(r, has_inside or has_outside):
            raise RewriteError("<%s>: the parser closed this element from the middle of "
                               "the stack of open elements" % r.name)
        if r.foster and (end_tag.after_content or r.after and
                         r.after[0] is not _TABLE_TEXT_SEPARATOR):
            raise RewriteError("<%s>: the parser moved this element out of its table "
                               "(foster parenting)" % r.name)
        if needs_end and (_end_tag_name(r) in _NO_SYNTHESIZED_END if r.node.namespace_uri == _HTML_NS
                          else r.name.lower() in _NO_SYNTHESIZED_FOREIGN_END) and not (
                              r.mode == 0 and r.new_name is None and
                              r.node.namespace_uri == _HTML_NS and (
                                  r.name == "form" and self._form_end_tag(r.node) or
                                  r.name in _FORMATTING and (self._formatting_end_tag(r.node) or
                                                             self._eof_formatting_end(r))) or
                              r.new_name is not None and r.name in _FORMATTING and
                              r.node.namespace_uri == _HTML_NS and
                              self._renamed_formatting_eof(r, from_top)):
            raise RewriteError("<%s>: its end is implied and an end tag cannot be "
                               "written for it" % r.name)
        if needs_end and not own and r.node.namespace_uri == _HTML_NS and \
                r.name in _MARKER_ELEMENTS and self._marker_end_exposes(1):
            raise RewriteError("<%s>: the end tag written for it takes the list of active "
                               "formatting elements back to entries the parser would "
                               "reconstruct later, which its marker hides" % r.name)
        if not own and (has_inside or has_outside or r.mode or r.new_name) and \
                self._start_closed_integration_point(r, has_inside, has_outside):
            raise RewriteError("<%s>: the start tag that closes it went by the HTML rules "
                               "at an integration point it closes too, which the output "
                               "would close or drop first (the rules for foreign content "
                               "would take that start tag)" % r.name)
        if r.implied and r.new_name and not r.synthesized:
            raise RewriteError("<%s>: renaming an implied element" % r.name)
        adoption_new = has_inside and r.batch == self._batch and \
            self._adoption_new_closed(r, own)
        if has_inside and r.batch == self._batch and not r.synthesized and \
                not (r.node.namespace_uri == _HTML_NS and r.name in _VOID) and not adoption_new:
            raise RewriteError("<%s>: the parser closes it at once: content cannot go "
                               "inside it" % r.name)
        if has_inside and r.name == "template" and r.node.namespace_uri == _HTML_NS:
            first = next((c for c in r.node.content.child_nodes if c.node_type == 1), None)
            if first is not None and first.local_name in _TABLE_PARTS | {"col"} and \
                    not self._table_template_end_ok(r, own, end_tag, first):
                raise RewriteError("<template>: its first element makes its content a "
                                   "table's: text and markup at its end go elsewhere")
        if has_inside and r.implied and not r.synthesized and r.batch == self._batch and \
                not adoption_new:
            raise RewriteError("<%s>: the parser made and closed it at one token: content "
                               "inside needs a start tag there" % r.name)
        skipped = r.mode in (_REMOVED, _INNER)
        if r.mode == _KEEP_CONTENT and not own and (
                self._implied_pops or r.name in _FORMATTING or
                r.node.namespace_uri != _HTML_NS and not self._foreign_unwrap_closed(r)) and \
                not self._eof_unwrap(r) and not self._unwrap_unlisted(r) and \
                self._foreign_root_closed is not r:
            # (Closed alone by a token that closes it as an ancestor's end
            # tag, a start tag that closes an open element of its kind, or
            # the end of input: without it, the same token closes nothing
            # here. A token ignored because of it is refused below.)
            raise RewriteError("<%s>: without its start tag, what closes it here would "
                               "act otherwise" % r.name)
        self._unwrapped_closed.discard(r)
        start = self._form_starts.pop(r, None)
        if skipped and self._form_pointer_moved(r, own, start) and self._form_dirty is None:
            # The dropped content set the parser's form element pointer: the
            # reparse differs only at a later <form> or </form> tag, which
            # _form_tag writes so that it does not, or refuses.
            self._form_dirty = r.name
            self._form_out = self._form_pointer_before(r, start)
            self._form_reason = ("<%s>: its dropped content set the parser's form element "
                                 "pointer, which decides what the parser does with a later "
                                 "form tag" % r.name)
            if self._form_check_token:
                # (This token is a form tag: it must do in the output what
                # it did in the input, from the pointer before it.)
                _, events, kind, begin, end = self._token_events
                self._form_tag(kind, begin, end, events)
        self._form_check_token = False
        if self._form_kept is not None and self._form_kept[0] is r:
            self._form_kept = None
        if has_outside and r.parent_open is not None and not self._is_open(r.parent_open) \
                and not any(node is r.parent_open for node in self._popped_nodes) \
                and not self._moved_to_open_parent(r):
            raise RewriteError("<%s>: its parent left the stack of open elements before "
                               "it ended: content after it would go elsewhere" % r.name)
        if (skipped or r.mode == _KEEP_CONTENT or needs_end) and not own and self._token_ignored:
            raise RewriteError("<%s>: the tag that closes it is ignored because of it, and "
                               "would not be without it" % r.name)
        # (Content written inside it, or its content replaced, leaves it
        # the heading the end tag closes: only its removal, its tags
        # dropped, or an end tag written for it before that end tag
        # changes which.)
        if (r.mode in (_REMOVED, _KEEP_CONTENT) or needs_end) and not own and \
                r.name in _HEADINGS and \
                self._source(*span)[2:4].lower() in _HEADING_PREFIXES and \
                (needs_end or self._heading_below(r)):
            raise RewriteError("<%s>: the heading end tag that closes it would close another "
                               "heading without it" % r.name)
        fostered_out = id(r) in self._foster_out
        self._foster_out.discard(id(r))
        kept_text = self._removed_table_text(r, fostered_out) if self._table_text_kept else None
        no_foster_text = self._foster_text_kept(r)
        if skipped and (self._foster_count != r.fostered and fostered_out or (
                r.name in _TABLE_CONTAINERS and self._text_token_count() != r.text_count
                and not no_foster_text and kept_text is None)):
            raise RewriteError("<%s>: the parser moved content out of it (foster "
                               "parenting): dropping its source would drop that too" % r.name)
        if id(r) in self._inner_copies_unlisted:
            self._inner_copies_unlisted.discard(id(r))
            if not self._at_eof:
                raise RewriteError("<%s>: set_inner_content: the end tags written for the "
                                   "formatting elements the parser reconstructed inside it "
                                   "took their entries off the list of active formatting "
                                   "elements, which the input keeps past its end" % r.name)
        at_drop = self._formatting_at_drop.pop(id(r), None)
        marked = self._markers_at_drop.pop(id(r), None)
        markers = marked[1] if marked is not None and marked[0] is r and \
            marked[1] is not None else -1
        if skipped and self._drop_behind_marker(markers):
            raise RewriteError("<%s>: the content it drops leaves formatting elements to "
                               "reconstruct (behind a marker the parser puts on the list "
                               "at its end)" % r.name)
        if self._marker_left_listed(r, own, markers - marked[2] if markers >= 0 and
                                    marked is not None else markers):
            raise RewriteError("<%s>: the marker its start tag put on the list of active "
                               "formatting elements stays there after the token that closed "
                               "it, hiding entries the parser would reconstruct without it"
                               % r.name)
        drop_entry = self._drop_lists.pop(id(r), None)
        drop_list = drop_entry[1] if drop_entry is not None and drop_entry[0] is r else at_drop
        took_closed = self._drop_took_closed(r)
        if skipped and (self._reconstruction_pending(True) or self._reconstruction_pending()
                        or self._reconstructed_here and not self._agency_ended_inner(r)
                        or took_closed) \
                and not self._drop_keeps_formatting(
                            r, at_drop) and not self._drop_unlists(r, own, drop_list, markers):
            raise RewriteError("<%s>: the content it drops leaves formatting elements to "
                               "reconstruct" % r.name)
        if has_inside and own and self._reconstruction_pending(True) and \
                not self._reconstruction_pending():
            # (Content written before its own end tag, where the list of
            # active formatting elements has entries to reconstruct, which
            # the end tag clears to the last marker: a caption, cell or
            # other marker element's end, `<table><caption><table><i>y
            # </table></caption>`: the <i> foster-parented into the
            # caption is closed by </table> and stays listed. The content's
            # text or start tags would reconstruct it; the DOM edit has no
            # copy. Found by tests/rewriter/test_foster_nested_tables.py.)
            raise RewriteError("<%s>: content written at its end would be wrapped in "
                               "reconstructed formatting elements (its end tag clears "
                               "them from the list)" % r.name)
        unlist: Optional[str] = ""
        inside_reconstructs = has_inside and not self._text_tokens_inside(r)
        if (inside_reconstructs or has_outside) and self._reconstruction_pending(not own):
            unlist = self._eof_unlist(r, own, inside_reconstructs) or \
                self._unlist_for_copies(r, own, inside_reconstructs)
            if unlist is None:
                raise RewriteError("<%s>: content written at its end would be wrapped in "
                                   "reconstructed formatting elements" % r.name)
        if (r.mode in (_REMOVED, _KEEP_CONTENT) or r.new_name or r.attributes_changed) \
                and not own and r.name in _FORMATTING and not self._at_eof and not (
                    self._unlisted is not None and
                    any(entry[2] is r.node for entry in self._unlisted)):
            # (An entry _drop_unlists took: the output has none for it.)
            # It stays in the list of active formatting elements: a copy the
            # parser reconstructs later is made from its start tag, edited
            # in the output and not in the DOM. (An error then.)
            if r.name in self._reconstructed_names:
                raise RewriteError("<%s>: the parser reconstructs a copy of this edited "
                                   "formatting element (the copy would carry the edit)"
                                   % r.name)
            self._afe_edited[r.name] = r
            if r.mode or r.new_name or self._named_relatives(r):
                self._afe_unwritable.add(r.name)
        if r.mode == _REMOVED:
            self._eof_drop_listed(r, own)
            # Skip to the end of the element, then the after content.
            self._copy_to(span[1] if own else position)
            if self._skip is r:
                self._skip = None
            # (The elements closed here before it were inside it: dropped.)
            self._implied_pops = []
            unlisted = self._removal_end_unlisted(r)
            self._removal_copies_listed(r, own)
            if own and r.implied and r.name in _FORMATTING and \
                    r.node.namespace_uri == _HTML_NS and not r.synthesized and not unlisted:
                self._emit("</%s>" % r.name)    # (reconstructed: Element._check_removable)
            self._listed_drop_end(r, own, position)
            dropped = self._furthest_dropped.pop(id(r), None)
            if dropped is not None and dropped[1] is not None:
                self._emit("</%s>" % dropped[1])
            elif dropped is not None and dropped[2] != self._batch:
                raise RewriteError("<%s>: the adoption agency algorithm moved this element "
                                   "or its content after its edits were written" % r.name)
            if kept_text is not None and r.name == "table":
                self._emit_contents([_Content(kept_text, False)], r, False)
            elif kept_text is not None:
                # (In the table, between end tags its modes ignore: no text
                # of the input joins it in the table's pending text.)
                self._emit_contents([_TABLE_TEXT_SEPARATOR, _Content(kept_text, False),
                                     _TABLE_TEXT_SEPARATOR], r, False)
            self._emit_contents(end_tag.after_content, r, False)
            self._emit_contents(list(reversed(r.after)), r, False)
            return "closed"
        self._copy_to(position)
        if r.mode == _INNER and self._skip is r:
            self._skip = None
            self._implied_pops = []
            self._agency_dropped_end(r)
        if needs_end and not own:
            self._eof_raw_written_end(r)
        if not own and (needs_end or unlist):
            self._eof_end_tags_join(r)
        if self._implied_pops and not adoption_new and (has_inside or needs_end or removes_end_tag
                                   or (own and r.new_name is not None and
                                       not self._new_end_tag_closes_them())):
            self._close_implied(r)
        if unlist and inside_reconstructs:
            self._emit(unlist)
            unlist = ""
        if table_end is not None:
            # (The end tags with the content: what ends a comment or a tag
            # the input ends inside goes first, _check_join.)
            self._emit_contents(([_Content(table_end[0], True)] if table_end[0] else []) +
                                table_end[1], r, False)
            self._drop_table_end_closed()
        self._emit_contents(r.append, r, True)
        self._emit_contents(end_tag.before_content, r, True)
        if own:
            if removes_end_tag:
                self._newline_first()
                if self._skip is None:
                    self._emitted = span[1]
                self._copy_to(span[1])
            elif r.new_name is not None:
                self._emit("</%s>" % r.new_name)
                if self._skip is None:
                    self._emitted = span[1]
                self._copy_to(span[1])
            else:
                self._copy_to(span[1])
        elif needs_end:
            if r.name == "form" and r.new_name is None and r.node.namespace_uri == _HTML_NS:
                self._form_end_written(r.node)
            self._emit("</%s>" % (r.new_name or r.name))
        if unlist:
            self._emit(unlist)
        self._emit_contents(end_tag.after_content, r, False)
        self._emit_contents(list(reversed(r.after)), r, False)
        if own or needs_end:
            return "closed"
        if r.mode == _KEEP_CONTENT and not has_inside:
            # (Unwrapped: the output has no start tag of it, so nothing of
            # it to close; an end tag written for it where content follows
            # would be a stray one, which makes a <p> or ends another.)
            return "closed"
        return "dirty" if has_inside else "open"

    def _text_tokens_inside(self, r: _Record) -> bool:
        """Whether content written at the end of r, inside it, is read by
        the tokenizer as r's text: r is an HTML raw text element (script,
        style, xmp, iframe, noembed, noframes, noscript with scripting on),
        an RCDATA one (title, textarea) or plaintext, and keeps its name
        (renamed, the content is markup of the other element). The parser's "text"
        mode inserts that text as it comes, reconstructing no active
        formatting elements; end tags written there to take entries off the
        list (_eof_unlist, _unlist_for_copies) would be text of r
        (`<table><i><tr><style>`: the <i> foster-parented, then closed by
        the row, stays listed, and </i> appended to the style was its
        text)."""
        return r.new_name is None and r.node.namespace_uri == _HTML_NS and (
            r.name in _RAW_TEXT or r.name in _RCDATA or r.name == "plaintext" or
            r.name == "noscript" and self._scripting)

    def _heading_below(self, r: _Record) -> bool:
        """For r, a heading a heading end tag of another name closed, its
        tags dropped (removed or unwrapped): whether that end tag may close
        another heading in the output, which has no r: an HTML heading
        among r's ancestors up to the first element that bounds a scope
        (the end tag looks for a heading in scope); unless r was
        foster-parented or the adoption agency moved something while it
        was open (its ancestors are then not the elements below it on the
        stack of open elements), which count as one. With none, the end
        tag finds no heading in scope in the output and is ignored, as
        the DOM edit has it: r closed there, nothing else."""
        if r.foster or r.moves != self._moves:
            return True
        node = r.node.parent_node
        while node is not None and node.node_type == 1:
            if node.namespace_uri == _HTML_NS:
                if node.local_name in _HEADINGS:
                    return True
                if node.local_name in _SCOPE_BOUNDARIES:
                    return False
            elif node.local_name in _FOREIGN_SCOPE_BOUNDARIES:
                return False
            node = node.parent_node
        return False

    def _listed_drop_end(self, r: _Record, own: bool, position: int) -> None:
        """r removed: when it is a formatting element the parser
        reconstructed (its removal drops it from there,
        Element._check_removable) and a token closed it without its end tag,
        the output's list of active formatting elements still holds the
        entry r copied, not open, where the input's held r, open: content
        written at r's end, before that token, would be wrapped in a copy of
        that entry (`<a><table><td><a><table></table><a></tr><a></table>
        <b>X</b>C<a>Y`, the copy of the <a> made at <b> removed and text
        before the last <a>): refused (_listed_drop_open). A <nobr> start
        tag that closed r (the adoption agency algorithm for the <nobr> in
        scope) reconstructs the active formatting elements first: in the
        output, where nothing is open for that entry, it makes a copy of it
        (`<p><nobr>x</p>y<nobr>z`, the copy made at y removed: an empty
        <nobr> before the last): refused. (An <a> start tag runs the
        algorithm before it reconstructs, and takes the output's entry off
        as it took r's; other tokens that close r leave its entry listed,
        and the output's entry as well.)"""
        if not own and r.implied and r.name in _FORMATTING and \
                r.node.namespace_uri == _HTML_NS and not r.synthesized:
            if self._token_events[0] == self._batch and self._token_events[2] == "start" \
                    and self._tag_name("start") == "nobr":
                raise RewriteError("<%s>: removed, a copy the parser reconstructed that a "
                                   "<nobr> start tag closed: without it, that tag "
                                   "reconstructs a copy of the element it copied first"
                                   % r.name)
            self._listed_drop = (r, position)

    def _listed_drop_open(self) -> bool:
        """Whether content written now goes where a removed reconstructed
        formatting element ended, before the token that closed it
        (_listed_drop_end)."""
        if self._listed_drop is None:
            return False
        if self._emitted > self._listed_drop[1]:
            self._listed_drop = None    # (the token is written: over)
            return False
        return self._skip is None

    def _listed_drop_token(self, r: _Record) -> bool:
        """Whether r's start tag is the token that closed a removed
        reconstructed formatting element (_listed_drop_end): dropped or
        renamed, the output's list keeps the entry that copy was made of,
        which the token took off there, and the parser reconstructs it at
        the content that follows (an <a> start tag renamed)."""
        return self._listed_drop_open() and r.start is not None and \
            self._listed_drop is not None and r.start[0] == self._listed_drop[1]

    def _refuse_listed_drop(self, record: _Record) -> None:
        assert self._listed_drop is not None
        raise RewriteError("<%s>: content written where <%s>, a copy the parser reconstructed, "
                           "was removed, before the token that closed it: the output's list "
                           "of active formatting elements still holds the element it copied, "
                           "which the parser reconstructs around that content"
                           % (record.name, self._listed_drop[0].name))

    def _eof_drop_listed(self, r: _Record, own: bool) -> None:
        """At the end of input, r removed and closed by it: when an entry
        of the list of active formatting elements (before the end-of-file
        token) is r or inside it, the output's list differs from the
        input's where content is written next at this end of input (a
        copy the dropped content reconstructed leaves the output's entry
        on the element it copied, which is closed: the parser reconstructs
        it around that content). Content other handlers write after it at
        this end of input is refused then (_emit_contents); alone, nothing
        follows the removal."""
        if not self._at_eof or own or self._eof_dropped is not None:
            return
        entries = self._formatting_all(True)
        if entries is None or any(node is not None and (node is r.node or r.node.contains(node))
                                  for node in entries):
            self._eof_dropped = r

    def _unwrap_unlisted(self, r: _Record) -> bool:
        """Whether r, an HTML formatting element unwrapped
        (remove_and_keep_content) that a token closed before the end of
        input without its end tag, its entry left on the list of active
        formatting elements, gives the DOM edit when the copy the parser
        reconstructs of it later is written as a start tag with its
        attributes there (_copies_of_unlisted: the output's list never had
        its entry). Formatting elements are neither special nor scope
        boundaries: without r the token, which popped from the top only and
        moved nothing, closes the same elements but r. Its start tag did
        nothing else (r.clean_start), the adoption agency moved nothing
        while it was open, and the entry is unlisted as _closed_unlistable
        asks (nothing to reconstruct before the token, no marker pushed or
        popped by it; none of its name after it on the list)."""
        if not r.clean_start or r.foster or r.moves != self._moves or \
                r.node.namespace_uri != _HTML_NS or r.name not in _FORMATTING or \
                not self._closed_unlistable(r.node, []):
            return False
        self._unlist_closed([r.node])
        return True

    def _unwrap_start_closed(self, r: _Record, span: Optional[Tuple[int, int]]) -> None:
        """After _close_implied wrote end tags in place of the start tag of
        r, unwrapped: when closing those elements is all the start tag did
        besides making r (what r.clean_start asks but the elements it
        closed: no formatting element to reconstruct before it, nothing
        implied beyond html, head and body), the output, without r's start
        tag, is where the input was after it but for r: _eof_unwrap takes
        it as a clean start (_unwrapped_closed)."""
        if r.mode == _KEEP_CONTENT and span is not None and not r.clean_start and \
                not self._reconstruction_pending(True) and \
                not _implied_beyond_document(self._pushed_here):
            self._unwrapped_closed.add(r)

    def _foreign_unwrap_closed(self, r: _Record) -> bool:
        """Whether r, a foreign element unwrapped with its parent of its
        namespace (Element._foreign_unwrappable: neither is an integration
        point or annotation-xml, so neither is special nor a scope
        boundary), closed by a token other than its own end tag (before
        the end of input), gives the DOM edit without its tags. What pops
        it with its parent: an end tag whose walk for foreign content
        reaches an element of its name below it (the walk passed over r,
        whose name is not the token's: Rewriter._foreign_end_walk checks
        the output's walk), or that reaches an HTML element and goes by
        the insertion mode, whose rules read foreign elements only as
        special or scope boundaries (r is neither), or as the current node
        for parse errors; a start tag that breaks out of foreign content
        (or </br>, </p>), which pops down to an HTML element or an
        integration point, with r or without it. No list of active
        formatting elements holds a foreign element. Not when the adoption
        agency moved anything since its start, nor foster-parented."""
        if self._implied_pops or self._at_eof or r.foster or r.moves != self._moves or \
                self._text_only_unwraps and id(r) in self._text_only_unwraps:
            return False
        node = r.node
        parent = node.parent_node
        if parent is None or parent.node_type != 1 or \
                parent.namespace_uri != node.namespace_uri or \
                any(_integration_point(n) or n.local_name == "annotation-xml"
                    for n in (node, parent)):
            return False
        return any(n is parent for n in self._popped_nodes)

    def _eof_unwrap(self, r: _Record) -> bool:
        """Whether r, an HTML element unwrapped (remove_and_keep_content)
        and closed by the end of input, gives the DOM edit without its
        tags: the end of input pops every element with it or without it.
        Its start tag did nothing else (closed, implied and reconstructed
        nothing: r.clean_start) and put it where the parser was (not
        foster-parented); while it was open, its content went into it, the
        tags in it passed over it as over an ordinary element (an end tag
        that stopped at it, or a loop for <li>/<dd>/<dt>, is refused before
        this), and a formatting one left the entries before it open (the
        parser reconstructs the same ones without its entry; Noah's Ark:
        _noahs_ark_end)."""
        if not (self._at_eof and (r.clean_start or r in self._unwrapped_closed) and
                not r.foster and r.moves == self._moves and r.node.namespace_uri == _HTML_NS):
            return False
        # (Its ancestors left the stack with it, at the end of input: one
        # taken off from below it before (a </form>) left it the current
        # node, where without it the content after went to the parent.)
        popped = {id(node) for node in self._popped_nodes}
        parent = r.node.parent_node
        while parent is not None and parent.node_type == 1:
            if id(parent) not in popped:
                return False
            parent = parent.parent_node
        return True

    @staticmethod
    def _attributes_only_left(r: _Record, content: bool) -> bool:
        """Whether r, which left the stack of open elements from its middle
        (the adoption agency algorithm took it off as an element between
        the formatting element and the furthest block, or </form> took the
        form), was edited only in its start tag's attributes and is no
        formatting element: no copy of it is made from its start tag (the
        algorithm clones only elements of the list of active formatting
        elements), so the element stays where it is with the edited
        attributes, in the output as in the DOM edit."""
        return (r.attributes_changed and not content and r.new_name is None and not r.mode
                and not (r.node.namespace_uri == _HTML_NS and r.name in _FORMATTING))

    def _empty_unwrap_end(self, r: _Record, span: Tuple[int, int],
                          error: RewriteError) -> None:
        """The end of an element unwrapped as a removal (Element.
        _unwrap_as_removal): it must have had no content, its start tag
        followed at once by the token that ended it; else `error` (the
        refusal the operation would have raised at once)."""
        content = r.node.content if r.name == "template" and \
            r.node.namespace_uri == _HTML_NS else None
        if r.start is None or r.start[1] != span[0] or r.node.first_child is not None or (
                content is not None and content.first_child is not None):
            raise error

    def _text_only_end(self, r: _Record, own: bool, span: Tuple[int, int],
                       error: RewriteError) -> None:
        """The end of an element unwrapped when its content is text alone
        (Element._unwrap_text_only): its own end tag closes it, nothing
        moved it, and its source between its tags (at most _LOOKBACK
        bytes: the input kept behind the token, whatever the chunking)
        holds no "<" (a tag, a comment, a CDATA section) and no NUL (which
        foreign content and "in body" read differently); else `error`."""
        if id(r) in self._foreign_root_unwraps:
            self._foreign_root_unwraps.discard(id(r))
            self._foreign_root_unwrap_end(r, own, span, error)
            return
        if not own and self._at_eof and r.name == "table" and \
                r.node.namespace_uri == _HTML_NS and r.mode == _KEEP_CONTENT and \
                r.new_name is None and r.start is not None and \
                span[0] - r.start[1] <= _LOOKBACK and r.start[1] >= self._raw_base and \
                self._unwrapped_table_text(r, self._source(r.start[1], span[0])):
            return      # (the end of input closes it: the text goes as with its end tag)
        if not own and self._at_eof and r.name == "table" and \
                r.node.namespace_uri == _HTML_NS and r.start is not None and \
                r.moves == self._moves and self._last_token_end() == self._stream_length() \
                and self._last_token_closed() and \
                span[0] - r.start[1] <= _LOOKBACK and r.start[1] >= self._raw_base:
            # (Renamed or unwrapped, the end of input closes it as it
            # closes the table, "in table" handing it to the "in body"
            # rules: the source up to there checked as up to its end tag;
            # the input ends after a whole token.)
            self._empty_table_end(self._source(r.start[1], span[0]), error)
            return
        if not own or r.start is None or r.moves != self._moves or \
                span[0] - r.start[1] > _LOOKBACK or r.start[1] < self._raw_base:
            raise error
        source = self._source(r.start[1], span[0])
        if r.name == "table" and r.node.namespace_uri == _HTML_NS:
            if r.mode == _KEEP_CONTENT and r.new_name is None and \
                    self._unwrapped_table_text(r, source):
                return
            self._empty_table_end(source, error)
            return
        if r.name == "noscript" and r.node.namespace_uri == _HTML_NS:
            self._head_noscript_end(source, error)
            return
        if r.name == "template" and r.node.namespace_uri == _HTML_NS:
            # (Comments and doctypes in a template go by the "in body" rules
            # as they do without it: a comment is inserted at the current
            # node, the template's contents or the parent; a doctype is
            # ignored.)
            if b"--!>" in source:
                raise error
            source = _EMPTY_TABLE_TOKEN.sub(b"", source)
        if b"<" in source or b"\0" in source:
            raise error
        if r.name == "template" and r.node.namespace_uri == _HTML_NS and \
                not re.sub(rb"&[^&;\s]*;?", b"", source).strip(b"\t\n\f\r "):
            # (Element._template_text_unwrap: the template's start tag set
            # frameset-ok to "not ok"; text of whitespace alone (or
            # character references) may leave it "ok" in the output.)
            self._dropped = True

    def _foreign_root_unwrap_end(self, r: _Record, own: bool, span: Tuple[int, int],
                                 error: RewriteError) -> None:
        """The end of an <svg> or <math> unwrapped (Element.
        _foreign_root_unwrap): its source between its tags is checked as a
        renamed one's (_foreign_rename_end: text, comments, doctypes,
        non-empty CDATA sections), and it ends with its own end tag, the
        end of input, or a token that pops it from the top of the stack;
        nothing moved it. Else `error`."""
        if not (own or self._at_eof or self._popped_nodes and self._popped_nodes[0] is r.node) \
                or r.start is None or r.moves != self._moves or \
                span[0] - r.start[1] > _LOOKBACK or r.start[1] < self._raw_base:
            raise error
        source = self._source(r.start[1], span[0])
        if b"--!>" in source or b"<![CDATA[]]>" in source or \
                b"<" in _FOREIGN_RENAME_TOKEN.sub(b"", source):
            raise error
        self._foreign_root_closed = r

    def _head_noscript_end(self, source: bytes, error: RewriteError) -> None:
        """The source between the tags of a noscript unwrapped in the head
        (Element._head_noscript_unwrap) must be, token by token: comments
        (that end at the first "-->", with no "--!>" and not abrupt),
        doctypes, start tags of basefont, bgsound, link, meta, and style or
        noframes with their raw text up to their end tag, and ASCII
        whitespace between them; no NUL. Anything else (another tag, a
        bogus comment, text) raises `error`: this reads the input more
        strictly than the tokenizer, never less."""
        if b"\0" in source or b"--!>" in source:
            raise error
        rest = _HEAD_NOSCRIPT_TOKEN.sub(b"", source)
        if rest.strip(b"\t\n\f\r "):
            raise error

    def _foreign_rename_end(self, r: _Record, own: bool, span: Tuple[int, int],
                            end_tag: "EndTag", error: RewriteError) -> None:
        """The end of an <svg> or <math> renamed (Element.
        _foreign_root_renamable): closed by its own end tag, nothing moved
        it, nothing written inside it, no other edit of its content, and
        its source between its tags (at most _LOOKBACK bytes) holds no "<"
        but those of CDATA sections, comments and doctypes (no "--!>",
        which the pattern would read past), and no empty CDATA section; or
        the end of input closes it, which closes the renamed element as
        well; else `error`. (Its text, NULs
        and CDATA sections included, is written escaped: Element.
        _escape_foreign_text.)"""
        if not (own or self._at_eof or self._popped_nodes and self._popped_nodes[0] is r.node) \
                or r.start is None or r.moves != self._moves or r.mode or \
                r.prepend or r.append or end_tag.before_content or \
                span[0] - r.start[1] > _LOOKBACK or r.start[1] < self._raw_base:
            raise error
        source = self._source(r.start[1], span[0])
        if b"--!>" in source or b"<![CDATA[]]>" in source or \
                b"<" in _FOREIGN_RENAME_TOKEN.sub(b"", source):
            raise error     # (an empty CDATA section gives no text to write in its place)
        if r.self_closing and not (own and span[0] == r.start[1]):
            # (Self-closing, the parser popped it at its start tag: an HTML
            # element's start tag ignores the flag, and the end tag of its
            # new name is written right after it, as for any element renamed
            # that ends without an end tag of its own, Rewriter._popped.)
            raise error

    def _detached_note(self, body: Any, error: RewriteError) -> None:
        """An edit of or in `body` refused and kept (Element.
        _detached_deferral, _detached_body_edit): the first one kept is
        raised if the body stays (_detached_settle)."""
        if self._detached_pending is None:
            self._detached_pending = (body, error)

    def _detached_settle(self, end: bool) -> None:
        """While an edit's refusal is kept (_detached_note), at the end of
        each feed and at the end of input (`end`, before the end of input's
        pops: its token takes no body out): a body a <frameset> took out of
        the document (no parent) stays out, the kept refusals are void (the
        DOM edits changed nothing); a body still in it with frameset-ok
        "not ok" (the parser ignores any later <frameset>: "in body", and
        nothing sets the flag back with the body made), or at the end of
        input, stays: the refusal is raised."""
        assert self._detached_pending is not None
        body, error = self._detached_pending
        if body.parent_node is None:
            self._detached_pending = None
        elif end or not self._parser_frameset_ok():
            raise error

    @staticmethod
    def _detached_body_end(r: _Record, error: RewriteError) -> None:
        """The pop of a body renamed or unwrapped (Element.
        _detached_body_edit): it must be out of the document (a <frameset>
        start tag removed it from the html element), else `error`."""
        if r.node.parent_node is not None:
            raise error

    def _unwrapped_table_text(self, r: _Record, source: bytes) -> bool:
        """For a table unwrapped (Element._empty_table_edit) whose source
        between its tags is text alone (no "<": one run of character
        tokens, which "in table text" takes whole; no NUL): the parser
        foster-parented that text before the table when it has a
        character other than whitespace, else inserted it into the table;
        either way the DOM edit leaves it in the table's place, with
        nothing else of the table. Unwrapped, the "in body" rules of the
        parent (_parent_in_body_content) insert the same text there (its
        character references, newlines and NULs read as in the table: the
        tokenizer's data state either way), reconstructing nothing (none
        pending at the table's start tag, which did nothing else:
        _empty_table_edit). The table holds nothing else: its children
        are that text or none; nothing moved it."""
        if b"<" in source or b"\0" in source or r.moves != self._moves:
            return False
        child = r.node.first_child
        return child is None or child.node_type == 3 and child.next_sibling is None

    def _empty_table_end(self, source: bytes, error: RewriteError) -> None:
        """The source between the tags of a table renamed or unwrapped
        (Element._empty_table_edit) must be, token by token: comments (that
        end at the first "-->", with no "--!>" and not abrupt), bogus
        comments of a "<?" (to the first ">"), doctypes, templates with
        whitespace alone in them (_EMPTY_TABLE_TEMPLATE), and ASCII
        whitespace between them; no NUL. Anything else raises `error`:
        this reads the input more strictly than the tokenizer, never
        less."""
        if b"\0" in source or b"--!>" in source:
            raise error
        rest = _EMPTY_TABLE_TEMPLATE.sub(b"", _EMPTY_TABLE_TOKEN.sub(b"", source))
        if rest.strip(b"\t\n\f\r "):
            raise error

    def _adoption_new_closed(self, r: _Record, own: bool) -> bool:
        """Whether r is the element the adoption agency algorithm made at
        this end tag for the furthest block's children (it took them all
        and went into the stack just above the furthest block) and popped
        again at the same token, the current node then (no furthest block
        above it in the algorithm's next pass): content written just before
        the end tag goes to the end of the furthest block, the current node
        there, and the algorithm moves it into r after r's other content.
        The elements popped before it at this token left the stack from its
        middle (the formatting element, the ones between it and the
        furthest block): the content is inside them in the input too, so
        no end tag is written for them. Not when content written there
        would be wrapped in reconstructed formatting elements. The same at
        an <a> or <nobr> start tag that ran the algorithm ("in body": for
        an <a> listed after the last marker, a <nobr> in scope), which pops
        r from the top of the stack, not as its own: content written just
        before the start tag goes to the furthest block as well (not when
        the parser had formatting elements to reconstruct there, which a
        <nobr> start tag reconstructs before the algorithm runs), and the
        start tag's own element goes in after r."""
        start = not own and self._token_events[2] == "start" and \
            self._tag_name("start") in ("a", "nobr")
        if not ((own and self._token_events[2] == "end" or start) and r.implied and
                r.name in _FORMATTING and r.node.namespace_uri == _HTML_NS
                and not r.foster and self._token_events[0] == self._batch):
            return False
        events = self._token_events[1]
        parent = r.node.parent_node
        sibling = r.node.next_sibling
        if parent is None or parent.node_type != 1 or sibling is not None and not (
                start and sibling.next_sibling is None and events and
                events[-1][0] == "pushed" and events[-1][10] and
                events[-1][4] == self._node_key(sibling)):
            return False
        parent_key = self._node_key(parent)
        key = self._node_key(r.node)
        pushed = popped = -1
        for i, event in enumerate(events):
            if event[0] == "pushed" and event[4] == key:
                pushed = i
            elif event[0] == "popped" and event[4] == key:
                popped = i
        if pushed < 0 or popped < pushed or start and not events[popped][2]:
            return False
        # (The pass that made it: moved with the furthest block r's parent.)
        if not any(event[0] == "moved" and event[6] == parent_key for event in events[:pushed]):
            return False
        if any(event[0] == "popped" and event[2] for event in events[:popped]):
            return False        # (an element above it, or above the furthest block)
        if any(event[0] != "popped" for event in events[pushed + 1:popped]):
            return False
        return not self._reconstruction_pending(True)

    def _agency_copy_empty(self, r: _Record) -> bool:
        """Whether r, in its handler, is the copy of a formatting element
        that the adoption agency algorithm made at this end tag for the
        furthest block's children and popped again at once
        (_adoption_new_closed, the end tag popping it as its own), when
        that furthest block was empty: the element the token before this
        one made for its start tag and pushed last (the engine's
        _last_token_pushed), so the current node when this end tag came,
        with nothing inserted into it. The algorithm's step moved its
        children, none, into r: r is empty, and content written just
        before the end tag goes into the furthest block, the current node
        there, and the same step moves it into r, with nothing else
        (Element._agency_copy_content). The furthest block takes the
        content as its own children by the "in body" rules: an HTML
        element that is not a table part or container (text there is a
        table's text run), not one whose start tag makes the parser drop a
        newline that comes next (pre, listing), not inside a select.
        (Its other edits are refused still: the copies a later token makes
        of r's entry would not carry a rename or attributes, and r cannot
        be removed: the algorithm makes it from the end tag.)"""
        if not r.implied or r.started or self._token_events[0] != self._batch or \
                self._token_events[2] not in ("end", "start"):
            return False
        parent = r.node.parent_node
        if parent is None or parent.node_type != 1 or parent.namespace_uri != _HTML_NS or \
                parent.local_name in _TABLE_CONTAINERS or parent.local_name in _TABLE_PARTS or \
                parent.local_name in _NEWLINE_DROPPING or parent.local_name in ("select",
                                                                               "template") or \
                self._node_key(parent) != self._last_token_pushed():
            return False
        context = self._context(parent)
        if context.select is not None or context.in_selectedcontent:
            return False
        if self._token_events[2] == "start":
            # (An <a> or <nobr> start tag that ran the algorithm: it pops r
            # from the top, not as its own end tag's element.)
            return self._adoption_new_closed(r, False)
        events = self._token_events[1]
        own = -1
        for i, event in enumerate(events):
            if event[0] == "popped" and event[11]:
                own = i
        if own < 0 or events[own][4] != self._node_key(r.node):
            return False
        return self._adoption_new_closed(r, True)

    def _moved_to_open_parent(self, r: _Record) -> bool:
        """Whether r, whose parent at its start left the stack before r
        ended, was moved by the adoption agency algorithm (as its furthest
        block, or inside it) into an element still open, as its last child:
        content written after r's end goes to the current node, which is
        that parent then (r's parent is below r in the stack: the algorithm
        keeps the chain of clones, or r itself, above the common ancestor;
        not when r went before a table, by foster parenting, nor when r was
        foster-parented itself). A parent popped at this token, after r,
        was open where the content goes."""
        parent = r.node.parent_node
        return (not r.foster and parent is not None and parent.node_type == 1
                and parent is not r.parent_open and r.node.next_sibling is None
                and (self._is_open(parent) or any(node is parent for node in self._popped_nodes))
                and not self._reconstruction_pending())

    # -- comments, doctype, text, end ------------------------------------
    def _scoped(self, field: str) -> List[Callable[..., Any]]:
        """The text (or comment) handlers of the matched elements open now
        (the innermost last)."""
        found: List[Callable[..., Any]] = []
        if not self._scoped_open:
            return found
        for key in self._scoped_open:
            r = self._open.get(key)
            if r is not None and not r.ended:
                found.extend(getattr(r, field))
        return found

    def _comment(self, kind: str, begin: int, end: int,
                 handlers: List[Callable[..., Any]]) -> None:
        # (A long comment comes in pieces: the handler sees it whole.)
        if kind == "comment":
            self._comment_parts = []
        if self._comment_parts is None:
            self._comment_parts = []
        self._comment_parts.append((begin, end, self._token_text()))
        raw = self._source(begin, end)
        if not (raw.endswith(b">") or self._stream_length() == end and self._closed):
            return
        parts, self._comment_parts = self._comment_parts, None
        start = parts[0][0]
        comment = Comment((start, end), "".join(p[2] for p in parts))
        for handler in handlers:
            handler(comment)
        if comment._before or comment._after or comment._removed:
            self._check_unit(comment, "comment")
        self._unit_frameset(comment)
        self._copy_to(start)
        for content in comment._before:
            self._emit(content)
        if comment._removed:
            self._newline_first(comment._replacement or None)
            if comment._replacement is not None:
                self._emit(comment._replacement)
            if self._skip is None:
                self._emitted = end
        elif comment._new_text is not None:
            self._emit("<!--%s-->" % comment._new_text)
            if self._skip is None:
                self._emitted = end
        if (comment._removed or comment._new_text is not None) and \
                end == self._stream_length():
            self._eof_comment_dropped = True      # (_close_eof_comment)
        self._copy_to(end)
        for content in comment._after:
            self._emit(content)

    def _doctype_token(self, begin: int, end: int) -> None:
        raw = self._source(begin, end).decode("utf-8", "replace")
        match = re.match(r"(?is)<!doctype\s*([^\s>]*)", raw)
        name = match.group(1).lower() if match and match.group(1) else None
        public = re.search(r'(?is)public\s*(["\'])(.*?)\1', raw)
        system = re.search(r'(?is)(?:system\s*|(["\'])[^"\']*\1\s*)(["\'])(.*?)\2', raw)
        doctype = Doctype((begin, end), name, public.group(2) if public else None,
                          system.group(3) if system else None)
        for handler in self._doctype:
            handler(doctype)
        self._unit_out(doctype, begin, end)

    def _text(self, begin: int, end: int, handlers: List[Callable[..., Any]]) -> None:
        text = self._token_text()
        if self._at_newline_point(begin) == 1 and text[:1] == "\n":
            text = text[1:]     # (the parser ignores it)
        if "\x00" in text:
            text = self._text_without_nul(text)
        chunk = TextChunk((begin, end), text, True, getattr(self, "_raw_text_name", None))
        for handler in handlers:
            handler(chunk)
        self._text_rest(chunk, begin, end)

    def _text_without_nul(self, text: str) -> str:
        """(The engine's text_chunk calls it for text with U+0000.)"""
        return _text_without_nul(text, self._current_node())

    def _text_rest(self, chunk: TextChunk, begin: int, end: int) -> None:
        """_text after the handlers (the engine's fast path calls it for a
        chunk in raw text or edited)."""
        if chunk is self._foreign_escaped:
            if chunk._before or chunk._after or not chunk._removed or \
                    chunk._replacement != _escape_text(chunk.text) and \
                    chunk._replacement != "&#%d;" % ord(chunk.text[:1] or " ") + \
                    _escape_text(chunk.text[1:]):
                # (A text handler after Element._escape_foreign_text's.)
                raise RewriteError("text %r: its element is renamed from a foreign "
                                   "element: it cannot be edited" % chunk.text[:20])
            if self._token_cdata():
                self._foreign_cdata_out(chunk, begin, end)
                return
        if chunk._raw_text is not None and chunk._raw_text != "plaintext":
            self._check_raw_text(chunk, begin, end)
        if (chunk._before or chunk._after or chunk._removed) and self._emitted > begin:
            raise RewriteError("text %r: the parser implied an element inside it; it "
                               "cannot be edited" % chunk.text[:20])
        if chunk._before or chunk._after or chunk._removed:
            self._text_edited_to = end
            if chunk._raw_text in (None, "plaintext") and chunk is not self._foreign_escaped:
                self._check_unit(chunk, "text")
        self._unit_out(chunk, begin, end)

    def _foreign_cdata_out(self, chunk: TextChunk, begin: int, end: int) -> None:
        """The text of a CDATA section in a renamed <svg> or <math> (Element.
        _escape_foreign_text) written as escaped text in place of the whole
        section, "<![CDATA[" and "]]>" included (outside foreign content the
        tokenizer reads "<![CDATA[" as a bogus comment). Only a section whose
        text is this one chunk, with both markers in the input at hand
        around it; else refused."""
        if self._skip is not None or begin - 9 < max(self._emitted, self._raw_base) or \
                self._source(begin - 9, begin) != b"<![CDATA[" or \
                self._source(end, end + 3) != b"]]>":
            raise RewriteError("<%s>: rename: a foreign element's name decides how the "
                               "parser treats its content" % self._current_node().local_name)
        self._text_edited_to = end
        self._copy_to(begin - 9)
        self._emitted = begin
        self._emit(chunk._replacement or "")
        self._emitted = end + 3

    def _check_raw_text(self, chunk: TextChunk, begin: int, end: int) -> None:
        """Text written into a raw text element must not end it early (its
        end tag) nor, in a script, start an escaped state (<!--): checked
        over the text before it in the element, so that a pattern split
        across chunks is found however the input was cut."""
        name = chunk._raw_text or ""
        edited = bool(chunk._before or chunk._after or chunk._removed)
        if chunk._removed:
            middle = chunk._replacement or ""
        else:
            middle = self._source(begin, end).decode("utf-8", "replace")
        text = "".join(chunk._before) + middle + "".join(chunk._after)
        tail = getattr(self, "_raw_tail", "")
        tail_edited = getattr(self, "_raw_tail_edited", False)
        joined = tail + text
        pattern = r"</%s[\t\n\f\r />]" % name + ("|<!--" if name == "script" else "")
        for match in re.finditer(pattern, joined, re.I):
            if match.end() > len(tail) and (edited or match.start() < len(tail) and tail_edited):
                raise RewriteError("text in <%s>: the text written would end <%s> early (or "
                                   "change how the parser reads the rest of it)" % (name, name))
        self._raw_tail = joined[-12:]
        self._raw_tail_edited = edited or (tail_edited and len(text) < 12)

    def _check_unit(self, unit: Union["TextChunk", "Comment"], kind: str) -> None:
        """What a text or comment handler wrote (before, after or in place
        of its unit) goes into the current node where the unit is, as
        content of it: refused (RewriteError, before any of it is written)
        where the reparse would put it or what follows elsewhere than the
        DOM edit does: outside the document element, next to comments the
        parser put outside the body, in the head or next to <html>, text
        runs of a table (foster parenting reads the whole run), frameset
        content, markup in foreign content or that the parser would not
        keep whole there (Rewriter._check), content of an option mirrored
        into <selectedcontent>, and content that changes what the parser
        implied or reconstructed at the unit's token. A comment removed in
        a table leaves </col> in its place (the text around stays two runs,
        as in the input)."""
        label = "text %r" % unit.text[:20] if kind == "text" else "comment"
        written = list(unit._before) + list(unit._after)
        if unit._removed and unit._replacement is not None:
            written.append(unit._replacement)
        markup = [content for content in written if "<" in content]

        def refuse(why: str) -> RewriteError:
            return RewriteError("%s: %s" % (label, why))

        if kind == "text" and written and not unit.text.strip("\t\n\f\r ") and \
                self._source(max(unit._span[0], self._raw_base), unit._span[1]).strip(
                    b"\t\n\f\r ") and any(self._event(i)[0] in ("popped", "pushed")
                                           for i in range(self._event_count())):
            # (`<head> \x00`: the space goes into the head, then the NUL,
            # which is not in the text, takes the parser out of it: the
            # current node below is where the token ended, not where this
            # text went.)
            raise refuse("the parser left the element its text went into later in its "
                         "token: content written next to it would go elsewhere")
        node = self._current_node()
        dropped = not unit.text.replace("\x00", "") or self._whitespace_ignored(unit) or (
            node is not None and node.namespace_uri == _HTML_NS and
            node.local_name in _NEWLINE_DROPPING and
            self._source(*unit._span) in (b"\n", b"\r", b"\r\n") and
            (node.first_child is None or node.first_child is node.last_child and
             node.first_child.node_type == 3 and node.first_child.data == ""))
        if kind == "text" and (written or unit._removed) and (
                self._token_cdata() or dropped):
            raise refuse("its characters are a CDATA section's, or the parser drops them")
        if unit._after:
            # (A long comment's start may be dropped already: its end is.)
            source = self._source(max(unit._span[0], self._raw_base), unit._span[1])
            if kind == "comment" and not _comment_source_closed(source) or \
                    kind == "text" and (source.endswith(b"<") or source.endswith(b"</") or
                                        _reference_joins(source[-_JOIN_WINDOW:],
                                                         unit._after[0])):
                raise refuse("the content written after it would join it into another "
                             "token")
        if kind == "text" and unit._removed and unit.text.strip("\t\n\f\r "):
            self._dropped = True        # (text that may set frameset-ok: _frameset_token)
        if kind == "text" and any(self._event(i)[0] == "pushed"
                                  for i in range(self._event_count())):
            leading = (list(unit._before) + ([unit._replacement or ""]
                                             if unit._removed else []))[:1]
            if unit._removed and not unit._before and not unit._replacement or leading and \
                    not _html.unescape(leading[0])[:1].strip("\t\n\f\r <") and \
                    not _reconstructs_first(leading[0]):
                raise refuse("the parser implied or reconstructed elements at its token, "
                             "which the content written in its place must do too")
        if node is None or kind == "comment" and self._after_body_mode():
            if written:
                raise refuse("the parser puts this unit outside the document element or the "
                             "body, where content written next to it goes elsewhere")
            return
        if kind == "text" and self._after_body_mode(True):
            if self._after_body_mode() and any(
                    _html.unescape(content).strip("\t\n\f\r ") and
                    not re.fullmatch(r"(?s)(?:[\t\n\f\r ]*<!--.*?-->)*[\t\n\f\r ]*", content)
                    for content in written):
                raise refuse("content written here takes the parser back into the body, "
                             "where it puts the comments that follow")
            if any(_LEADING_COMMENT.match(content) for content in markup):
                raise refuse("the parser is after </body> or </html> here, where it puts a "
                             "comment outside the current element")
            if unit._removed and not self._after_body_mode() and not \
                    _html.unescape(unit._replacement or "")[:1].strip("\t\n\f\r <"):
                raise refuse("its text took the parser back into the body, which what "
                             "follows needs")
        name = node.local_name
        html_element = node.namespace_uri == _HTML_NS
        if html_element and self._holds_text(name):
            return      # (raw text: TextChunk._content and _check_raw_text)
        context = self._context(node)
        if html_element and name == "template" and any(_START_TAG.search(c) for c in markup) \
                and not any(c.node_type == 1 for c in node.content.child_nodes):
            raise refuse("the first start tag in a template decides the insertion mode "
                         "its contents are read in")
        if written and (name == "html" and html_element or context.in_head and not (
                name == "head" and all(
                    "<" in content and self._head_content(content) or
                    not _html.unescape(content).strip("\t\n\f\r ") for content in written))):
            raise refuse("the parser moves content in <head> or next to <html> elsewhere")
        if isinstance(unit, TextChunk) and html_element and (written or unit._removed):
            self._check_column_group_text(unit, node, refuse)
        if html_element and (name in _TABLE_TEXT_HOLDERS or name == "template" and next(
                (c.local_name in _TABLE_PARTS | {"col"} for c in node.content.child_nodes
                 if c.node_type == 1), False)):
            if kind == "comment" and name == "template":
                if written:
                    raise refuse("content written in a template of table parts is read "
                                 "in a table's insertion modes")
                return
            if kind == "comment":
                if written:
                    raise refuse("content written in <%s> is foster-parented or taken as "
                                 "the table's" % name)
                unit._replacement = _TABLE_TEXT_SEPARATOR.text
                return
            middle = _html.unescape(unit._replacement or "") if unit._removed else unit.text
            result = "".join(_html.unescape(content) for content in unit._before) + middle + \
                "".join(_html.unescape(content) for content in unit._after)
            if markup or not unit.text.strip("\t\n\f\r ") or \
                    not result.strip("\t\n\f\r "):
                raise refuse("the parser foster-parents a table's text run whole or keeps "
                             "it whole in the table, by whether it is all whitespace")
        if written and context.tabular and name == "frameset" or \
                written and html_element and name == "frameset":
            raise refuse("the parser drops text and most elements in a frameset")
        self._check_in_option(node, context, refuse)
        if kind == "comment" and written and self._reconstruction_pending():
            raise refuse("content written here would be wrapped in reconstructed "
                         "formatting elements")
        if markup:
            holder = Element(self, _Record(node, False, False, None))
            for content in markup:
                try:
                    self._check(holder, content, True, "inside")
                except RewriteError as error:
                    raise refuse(str(error).split(": ", 1)[-1]) from None

    def _check_column_group_text(self, unit: "TextChunk", node: Any,
                                 refuse: Callable[[str], RewriteError]) -> None:
        """Text edited where the parser is "in column group": it handles each
        character alone, whitespace inserted, anything else (NUL too) either
        - with a <colgroup> current node, popping it (the token's events:
          the only text that pops one): the leading whitespace of the run
          goes into the column group, the rest from the first other
          character on into the table's text run; the content written must
          leave that split where the DOM edit has it (before the chunk:
          whitespace alone when the chunk starts with whitespace, else
          starting with another character; a replacement or removal only of
          a chunk that starts with another character, by content starting
          with one); or
        - with the template as the current node (its contents' first start
          tag but the ones "in template" reads as "in head" was a <col>),
          dropped: the content written keeps its whitespace alone, so it
          must be whitespace alone where the chunk's whitespace is in the
          tree, and hold none where the chunk is dropped whole.
        Markup in either is refused."""
        space = "\t\n\f\r "
        popped = any(event[0] == "popped" and event[1] is not None and
                     event[1].local_name == "colgroup" and event[1].namespace_uri == _HTML_NS
                     for event in (self._event(i) for i in range(self._event_count())))
        in_template = not popped and node.local_name == "template" and next(
            (c.local_name == "col" and c.namespace_uri == _HTML_NS
             for c in node.content.child_nodes if c.node_type == 1 and not (
                 c.namespace_uri == _HTML_NS and c.local_name in _TEMPLATE_HEAD_TAGS)), False)
        if not (popped or in_template):
            return
        why = "the parser handles text in a column group character by character"
        before = "".join(_html.unescape(content) for content in unit._before)
        replacement = _html.unescape(unit._replacement or "") if unit._removed else None
        written = [before, replacement or ""] + [_html.unescape(c) for c in unit._after]
        if any("<" in content for content in
               list(unit._before) + list(unit._after) + [unit._replacement or ""]):
            raise refuse(why + " (markup)")
        if in_template:
            if any(c in space for c in unit.text):
                if any(content.strip(space) for content in written):
                    raise refuse(why + ": it keeps the whitespace alone")
            elif any(c in space for content in written for c in content):
                raise refuse(why + ": it drops all but whitespace")
            return
        def spaced(text: str) -> bool:
            return text[:1] != "" and text[0] in space
        if spaced(unit.text):
            split = bool(unit._removed or before.strip(space))
        elif unit._removed:
            run = "".join(written)
            split = not run or spaced(run)
        else:
            split = spaced(before)
        if split or b"\x00" in self._source(*unit._span):
            raise refuse(why + ": whitespace before its first other character goes into "
                         "the column group, the rest into the table's text")

    def _whitespace_end(self, position: int, end: int) -> int:
        """Where a text token's leading whitespace ends: _token_state's
        offset (after the whitespace bytes) past character references to
        whitespace too (the tree builder reads characters: one it ignores
        before <html> or <head>, or puts into the head, is written before
        the start tag of what it implied)."""
        match = _WHITESPACE_RUN.match(self._source(position, end))
        return position + (match.end() if match else 0)

    def _whitespace_ignored(self, unit: Union["TextChunk", "Comment"]) -> bool:
        """A text chunk all whitespace whose token implied the html or head
        element: the parser ignored that whitespace (before <html> or
        <head>), so it is in no node."""
        return not unit.text.strip("\t\n\f\r ") and any(
            self._event(i)[0] == "pushed" and self._event(i)[1].local_name in ("html", "head")
            and self._event(i)[1].namespace_uri == _HTML_NS for i in range(self._event_count()))

    def _unit_out(self, unit: _Unit, begin: int, end: int) -> None:
        if not (unit._before or unit._removed or unit._after):
            return      # (the input is written as it is, at the next copy)
        context = "raw" if getattr(unit, "_raw_text", None) else "markup"
        if context == "markup":
            self._unit_frameset(unit)
        self._copy_to(begin)
        for content in unit._before:
            self._emit(content, context)
        if unit._removed:
            self._newline_first(unit._replacement or None)
            if unit._replacement is not None:
                self._emit(unit._replacement, context)
            if self._skip is None:
                self._emitted = end
        self._copy_to(end)
        for content in unit._after:
            self._emit(content, context)

    def _check_in_option(self, node: Any, context: Any,
                         refuse: Callable[[str], RewriteError]) -> None:
        """Content written into `node` inside an <option>, <optgroup> or
        <selectedcontent> (up to their select): the parser copies the
        selected option into a <selectedcontent>, so it is refused where
        one is in the select already or the content is in one, and else
        output is held until the select ends (_hold_for_select)."""
        ancestor = node
        while ancestor is not None and ancestor.node_type == 1 and not (
                ancestor.local_name == "select" and ancestor.namespace_uri == _HTML_NS):
            if ancestor.namespace_uri == _HTML_NS and ancestor.local_name in (
                    "option", "optgroup", "selectedcontent"):
                if context.in_selectedcontent or context.select is None or \
                        self._has_selectedcontent(context.select) or \
                        not self._hold_for_select(context.select):
                    raise refuse("the parser copies the selected option into "
                                 "<selectedcontent>")
                return
            ancestor = ancestor.parent_node

    def _check_document_end(self, contents: List[str]) -> None:
        """Content of the document end handlers goes into the current node
        at the end of input: the first element the end of input pops but
        raw text elements, the head and templates (and what is in them),
        which it closes before the parser stops. Refused where the reparse
        puts it elsewhere: into such an element still open (unless its end
        tag can be written first: _close_eof_raw_text), into the head or a
        template, outside the body or next to <html>, into a table (foster
        parenting) or a frameset, into reconstructed formatting elements,
        into what the input ends inside (_check_join), and markup the
        parser would not keep whole there (Rewriter._check)."""
        def refuse(why: str) -> RewriteError:
            return RewriteError("document end: append: " + why)

        events = self._eof_events
        pushed = any(event[0] == "pushed" for event in events)
        current = None
        raw = None
        for event in events:
            node = event[1]
            if event[0] != "popped":
                continue
            html_element = node.namespace_uri == _HTML_NS
            if html_element and self._holds_text(node.local_name) and \
                    node.local_name != "plaintext":
                raw = node
                continue
            if html_element and node.local_name == "template" or \
                    self._context(node).in_template:
                raise refuse("the input ends in a <template>, where the parser would put "
                             "content written at its end")
            if self._context(node).in_head:
                continue        # (the body the parser implies after it: `pushed`)
            current = node
            break
        if current is None:
            raise refuse("no element is open at the end of input")
        name = current.local_name
        html_element = current.namespace_uri == _HTML_NS
        markup = [content for content in contents if "<" in content]
        first = _html.unescape(contents[0])[:1] if contents else ""
        if pushed and not (first.strip("\t\n\f\r <") or _reconstructs_first(contents[0])):
            raise refuse("the parser implied elements at the end of input, where content "
                         "that does not start with text or a start tag goes elsewhere")
        if self._after_body_mode(True) and any(_LEADING_COMMENT.match(c) for c in markup):
            raise refuse("the parser is after </body> or </html> here, where it puts a "
                         "comment outside the current element")
        if html_element and name in _TABLE_TEXT_HOLDERS | {"html", "frameset"}:
            raise refuse("content written into <%s> goes elsewhere (foster parenting, a "
                         "frameset, or next to <html>)" % name)
        if self._reconstruction_pending(True):
            raise refuse("content written here would be wrapped in reconstructed "
                         "formatting elements")
        record = _Record(current, False, False, None)
        holder = Element(self, record)
        self._check_in_option(current, self._context(current), refuse)
        for content in markup:
            try:
                self._check(holder, content, True, "inside")
            except RewriteError as error:
                raise refuse(str(error).split(": ", 1)[-1]) from None
        if raw is not None and not self._close_eof_raw_text():
            raise refuse("the input ends in <%s>, whose end tag cannot be written there"
                         % raw.local_name)
        if contents:
            self._check_join(record, "".join(contents), inside=True)

    def _document_end(self, position: int) -> None:
        self._copy_to(position)
        self._write_rest()
        if self._doc_end:
            end = DocumentEnd()
            for handler in self._doc_end:
                handler(end)
            if end._content:
                self._check_document_end(end._content)
            for content in end._content:
                self._emit(content)


def rewrite(html: Union[str, bytes], rewriter: Rewriter) -> Any:
    """Rewrite a whole input: str in, str out; bytes in, bytes out."""
    if isinstance(html, str):
        rewriter._check_open("rewrite")
        if not rewriter._started:
            rewriter._start()
        try:
            rewriter._feed_str(html)
        except BaseException as error:
            rewriter._fail(error)
        head = rewriter._take()
        return (head + rewriter.close()).decode("utf-8", "surrogatepass")
    if isinstance(html, (bytes, bytearray, memoryview)):
        head = rewriter.feed(html)
        return head + rewriter.close()
    raise TypeError("html must be str or bytes, not %s" % type(html).__name__)


# The stream adapters (lexpy/rewriter/streams.py; issue 39 point 7).
from lexpy.rewriter.streams import rewrite_stream  # noqa: E402
from lexpy.rewriter.output_encoding import encode_inserted  # noqa: E402

__all__ += ["rewrite_stream"]
