"""The DOM-equivalence oracle of issue 39 (point 4): for an operation the
rewriter accepts on an element, lexpy.parse(output) must dump the same as
the same operation done with the DOM API on lexpy.parse(input); an
operation it cannot express must raise RewriteError.

One run edits one element (the k-th element handed to a `*` handler, in
the order the parser inserts them) with one operation. The element is
found in the DOM of lexpy.parse(input) by its position in tree order
(template contents included) in the rewriter's own tree, which is the
same tree.

What each run is counted as:
- tried: the DOM edit is defined; accepted (the reparse must equal it:
  else a mismatch) or refused (RewriteError, by reason). An element the
  parser took out of the tree (a <frameset> that replaced the body it is
  in) has a DOM edit too: one that leaves the document as it is, so the
  output must reparse to the input's tree, or be refused (counted apart:
  NOT_IN_TREE).
- not applicable, by reason: the DOM refuses the edit (text or markup
  next to the document element, a second document element), and then the
  rewriter must refuse it too (an acceptance is a mismatch); or the
  rewriter raises ValueError (content of a void element, whose DOM edit
  no serialization keeps).
Elements of template contents are not handed to handlers (as
query_selector_all does not match them), so no run edits one.

The markup content is `<span>M</span>` in the base operations and, in
MARKUP_OPERATIONS, eight contents that exercise the parser, each with the
four insertions (before, after, prepend, append).

The units set (UNIT_OPERATIONS, check_units) edits one text chunk,
comment or the document end per run, with on_document's handlers: text
and comments replaced, removed, or with text or markup before or after
them, and text or markup appended at the end of input (see the comment
above UNIT_MARKUP for what the DOM side of each is); and whitespace and
newlines written as text (UNIT_SPACES: " \t", LF, CR LF, CR). Its map of
where each chunk's characters went also compares the chunks with the tree
(check_unit_texts): where a chunk's token put characters into the tree,
they are the chunk's text, but where the insertion mode takes some out
(_mode_drops). tests/rewriter/test_oracle.py runs the small cases in
chunks of 1 and 7 bytes too.
"""
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple, Union

import lexpy
from lexpy.rewriter import Rewriter, RewriteError, rewrite

TEXT = 'X&<"\u00a0'
MARKUP = "<span>M</span>"
# Markup the parser keeps in <head> (what real pages inject there).
HEAD_MARKUP = '<meta name="x"><script src="/x.js"></script>'

ATTRIBUTE = ("data-x", 'v"&<\u00a0')
RENAME = "abbr"


def elements_in_order(root) -> List[object]:
    """Every element under `root` in tree order, template contents
    included (no recursion)."""
    return [node for node in _nodes_in_order(root) if node.node_type == 1]


def _nodes_in_order(root) -> List[object]:
    """Every node under `root` in tree order, template contents included."""
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        children = list(node.child_nodes)
        if getattr(node, "local_name", None) == "template" and \
                node.namespace_uri == "http://www.w3.org/1999/xhtml" and \
                node.content is not None:
            children = list(node.content.child_nodes) + children
        if node is not root:
            found.append(node)
        stack.extend(reversed(children))
    return found


def _fragment_nodes(markup, context, scripting):
    fragment = lexpy.parse_fragment(markup, context.local_name,
                                    namespace=_namespace(context), scripting=scripting)
    return list(fragment.child_nodes)


def _namespace(element):
    uri = element.namespace_uri
    return {"http://www.w3.org/2000/svg": "svg",
            "http://www.w3.org/1998/Math/MathML": "math"}.get(uri, "html")


def _content_parent(element):
    if element.local_name == "template" and element.namespace_uri == "http://www.w3.org/1999/xhtml":
        return element.content
    return element


# Each operation: (name, rewriter side, DOM side).
def _dom_remove_and_keep(el):
    parent = el.parent_node
    holder = _content_parent(el)
    for child in list(holder.child_nodes):
        parent.insert_before(child, el)
    el.remove()


def _dom_rename(el):
    doc = el.owner_document
    new = doc.create_element(RENAME)
    for name, value in el.attributes.items():
        new.set_attribute(name, value)
    for child in list(el.child_nodes):
        new.append_child(child)
    el.replace_with(new)


def _dom_inner(el):
    holder = _content_parent(el)
    for child in list(holder.child_nodes):
        child.remove()
    holder.append(TEXT)


def _dom_insert_markup(el, where, scripting, markup=MARKUP):
    """insertAdjacentHTML's edit: `markup` parsed as a fragment in the
    context of the element it goes into (the parent for before/after),
    its nodes inserted there."""
    if where in ("before", "after"):
        parent = el.parent_node
        if parent is None or parent.node_type != 1:
            raise _NotApplicable("markup next to an element whose parent is not an element "
                                 "(insertAdjacentHTML throws)")
        nodes = _fragment_nodes(markup, parent, scripting)
        (el.before if where == "before" else el.after)(*nodes)
    else:
        holder = _content_parent(el)
        nodes = _fragment_nodes(markup, el, scripting)
        (holder.prepend if where == "prepend" else holder.append)(*nodes)


class _NotApplicable(ValueError):
    """An edit the DOM API refuses (insertAdjacentHTML next to the
    document element)."""


OPERATIONS: Dict[str, Tuple[Callable, Callable]] = {
    "remove": (lambda e: e.remove(), lambda el: el.remove()),
    "remove_and_keep_content": (lambda e: e.remove_and_keep_content(), _dom_remove_and_keep),
    "before_text": (lambda e: e.before(TEXT), lambda el: el.before(TEXT)),
    "after_text": (lambda e: e.after(TEXT), lambda el: el.after(TEXT)),
    "prepend_text": (lambda e: e.prepend(TEXT), lambda el: _content_parent(el).prepend(TEXT)),
    "append_text": (lambda e: e.append(TEXT), lambda el: _content_parent(el).append(TEXT)),
    "before_markup": (lambda e: e.before(MARKUP, html=True),
                      lambda el, scripting: _dom_insert_markup(el, "before", scripting)),
    "append_markup": (lambda e: e.append(MARKUP, html=True),
                      lambda el, scripting: _dom_insert_markup(el, "append", scripting)),
    "before_head_markup": (lambda e: e.before(HEAD_MARKUP, html=True),
                           lambda el, scripting: _dom_insert_markup(el, "before", scripting,
                                                                    HEAD_MARKUP)),
    "append_head_markup": (lambda e: e.append(HEAD_MARKUP, html=True),
                           lambda el, scripting: _dom_insert_markup(el, "append", scripting,
                                                                    HEAD_MARKUP)),
    "set_attribute": (lambda e: e.set_attribute(*ATTRIBUTE),
                      lambda el: el.set_attribute(*ATTRIBUTE)),
    "rename": (lambda e: setattr(e, "tag_name", RENAME), _dom_rename),
    "set_inner_content": (lambda e: e.set_inner_content(TEXT), _dom_inner),
}


# The widened markup set: contents that exercise the parser where they go
# (a balanced block, an unclosed formatting element, a closed one, a <p>
# left open, a table part, a void element, a comment, text with a
# character reference), each with every insertion of insertAdjacentHTML.
MARKUPS = ("<div>M</div>", "<b>M", "<i>M</i>", "<p>M", "<td>M", "<img>", "<!--c-->",
           "M&amp;N")
INSERTIONS = ("before", "after", "prepend", "append")


def _markup_operation(where: str, markup: str) -> Tuple[Callable, Callable]:
    return (lambda e: getattr(e, where)(markup, html=True),
            lambda el, scripting: _dom_insert_markup(el, where, scripting, markup))


MARKUP_OPERATIONS: Dict[str, Tuple[Callable, Callable]] = {
    "%s_markup %s" % (where, markup): _markup_operation(where, markup)
    for markup in MARKUPS for where in INSERTIONS}


@dataclass
class Figures:
    tried: int = 0
    accepted: int = 0
    refused: Counter = field(default_factory=Counter)
    not_applicable: int = 0
    # Why each not applicable one is: the DOM refuses it too, or the
    # rewriter's ValueError (content of a void element).
    inapplicable: Counter = field(default_factory=Counter)
    mismatches: List[str] = field(default_factory=list)
    # (operation, element name, reason) -> count, and one example input each.
    detail: Counter = field(default_factory=Counter)
    examples: Dict[Tuple[str, str, str], str] = field(default_factory=dict)

    def add(self, other: "Figures") -> None:
        self.tried += other.tried
        self.accepted += other.accepted
        self.refused.update(other.refused)
        self.not_applicable += other.not_applicable
        self.inapplicable.update(other.inapplicable)
        self.mismatches.extend(other.mismatches)
        self.detail.update(other.detail)
        for key, example in other.examples.items():
            self.examples.setdefault(key, example)

    def summary(self) -> str:
        refused = sum(self.refused.values())
        unserializable = sum(n for reason, n in self.refused.items()
                             if reason.endswith(NO_SERIALIZATION))
        lines = ["tried %d, accepted %d, refused %d (%.2f%%), not applicable %d, "
                 "mismatches %d" % (self.tried, self.accepted, refused,
                                    100.0 * refused / max(1, self.tried),
                                    self.not_applicable, len(self.mismatches)),
                 "  of the refused: %d (%.2f%% of tried) where the edited DOM's own "
                 "serialization reparses to another tree, %d (%.2f%%) where it does not"
                 % (unserializable, 100.0 * unserializable / max(1, self.tried),
                    refused - unserializable,
                    100.0 * (refused - unserializable) / max(1, self.tried))]
        gone = sum(n for reason, n in self.refused.items() if NOT_IN_TREE in reason)
        if gone:
            lines.append("  of the refused: %d of elements the parser took out of the tree"
                         % gone)
        for reason, n in self.inapplicable.most_common():
            lines.append("  not applicable %6d  %s" % (n, reason))
        for reason, n in self.refused.most_common():
            lines.append("  refused %6d  %s" % (n, reason))
        return "\n".join(lines)

    def details(self, limit: int = 60) -> str:
        """The refusals where the edited DOM survives its own serialization
        (the rewriter's limits), by operation and element, with an example."""
        lines = []
        for key, n in self.detail.most_common():
            if key[2].endswith(NO_SERIALIZATION):
                continue
            lines.append("  %6d  %s <%s>: %s\n          e.g. %s" % (n, key[0], key[1], key[2],
                                                                 self.examples[key]))
            if len(lines) >= limit:
                break
        return "\n".join(lines)


def _reason(error: RewriteError) -> str:
    text = str(error)
    # "<name>: what: why" -> "why" with the names taken out.
    text = re.sub(r"<[^>]*>", "<x>", text)
    return text.split(": ", 1)[-1]


def _normalized_dump(doc) -> str:
    doc.normalize()
    for element in elements_in_order(doc):
        if element.local_name == "template" and element.content is not None:
            element.content.normalize()
    return lexpy.dump(doc)


_BASELINES: Dict[Tuple[str, bool], List[Optional[int]]] = {}


def _positions(data: str, scripting: bool) -> List[Optional[int]]:
    """For each element handed to a `*` handler (in the order the parser
    inserts them), its position in tree order in the final tree of
    lexpy.parse(data) (None when it is not in the final tree): found with
    a rewrite that edits nothing, so that a refused operation, which may
    stop its own rewrite, can still be done the DOM way."""
    key = (data, scripting)
    found = _BASELINES.get(key)
    if found is not None:
        return found
    nodes: List[object] = []
    rw = Rewriter(scripting=scripting).on("*", element=lambda e: nodes.append(e._record.node))
    rw._bounded = False     # (the whole tree kept, to find the positions in)
    rewrite(data, rw)
    order = elements_in_order(rw._construction.document_object())
    where = {id(e): i for i, e in enumerate(order)}
    found = [where.get(id(node)) for node in nodes]
    if len(_BASELINES) > 64:
        _BASELINES.clear()
    _BASELINES[key] = found
    return found


NO_SERIALIZATION = "(the edited DOM's own serialization reparses to another tree)"
# Appended to a refusal's reason when the element is not in the final tree.
NOT_IN_TREE = "(of an element the parser took out of the tree)"


def _serializes(dom, expected: str, scripting: bool) -> bool:
    """Whether the edited DOM's serialization reparses to it: then some
    input expresses the edit, and a refusal is the rewriter's limit; when
    not, no byte edit of the rewriter is known to express it."""
    return _normalized_dump(lexpy.parse(dom.to_html(), scripting=scripting)) == expected


def _run(rw: Rewriter, data: str, chunked: Union[bool, int]) -> Tuple[Optional[str],
                                                                      Optional[RewriteError]]:
    """The rewrite of `data` (chunked: in 7-byte chunks, or in chunks of
    that many bytes when it is a number): its output, or None and the
    RewriteError that stopped it."""
    try:
        if chunked:
            size = 7 if chunked is True else int(chunked)
            encoded = data.encode("utf-8")
            out = b"".join(rw.feed(encoded[i:i + size]) for i in range(0, len(encoded), size))
            return (out + rw.close()).decode("utf-8"), None
        return rewrite(data, rw), None
    except RewriteError as error:
        return None, error


def check(data: str, scripting: bool, operation: str, chunked: bool = False,
          label: str = "", indexes: Optional[List[int]] = None) -> Figures:
    """Every element of `data` (or the elements at `indexes`, in the order
    the parser inserts them) edited with `operation`, one run each. An
    operation the DOM refuses too (a Document with a Text child, content
    of a void element, ...) is not applicable; a refused one is counted
    by reason, with NO_SERIALIZATION appended when the edited DOM does not
    survive its own serialization (the refusals the rewriter is not known
    to be able to avoid)."""
    figures = Figures()
    rw_op, dom_op = OPERATIONS[operation] if operation in OPERATIONS \
        else MARKUP_OPERATIONS[operation]
    positions = _positions(data, scripting)
    dom_size = None
    todo = list(indexes) if indexes is not None else None
    index = todo.pop(0) if todo else 0
    while True:
        def attempt(bounded):
            """The rewrite with the operation on element `index`: (output or
            None, the error, the element's node); bounded: closed subtrees
            freed after every token, else the whole tree kept (to map the
            element to lexpy.parse's by its position)."""
            seen = [0]
            target: List[object] = []
            outcome: List[Optional[BaseException]] = [None]

            def handler(element):
                if seen[0] == index:
                    target.append(element._record.node)
                    try:
                        rw_op(element)
                    except RewriteError as error:
                        outcome[0] = error
                    except ValueError as error:   # not applicable (void content, ...)
                        outcome[0] = error
                seen[0] += 1

            rw = Rewriter(scripting=scripting).on("*", element=handler)
            rw._bounded = bounded
            rw._sweep_min = 1
            output, error = _run(rw, data, chunked)
            if outcome[0] is None:
                outcome[0] = error
            return rw, output, outcome[0], target

        if index < 0 or index >= len(positions):
            break
        rw, output, error, target = attempt(False)
        if operation in OPERATIONS:
            # Freeing closed subtrees as the stream goes changes nothing
            # (checked with the base operations; the markup set's edits
            # are judged on the holder's open ancestors, which the
            # bounded tree keeps).
            _, bounded_output, bounded_error, _ = attempt(True)
            if (bounded_output, repr(bounded_error)) != (output, repr(error)):
                figures.mismatches.append(
                    "%s %s on element %d: the bounded rewriter gives %r (%r), the whole "
                    "tree %r (%r)\ninput:  %r" % (label, operation, index, bounded_output,
                                                  bounded_error, output, error, data))
        if not target:
            break
        position = positions[index]
        if todo is None:
            index += 1
        elif todo:
            index = todo.pop(0)
        else:
            index = -1      # (the last one: the loop ends after it)
        if error is not None and not isinstance(error, RewriteError):
            # (The rewriter's ValueError: content of a void element.)
            figures.not_applicable += 1
            figures.inapplicable["the rewriter raises ValueError: " + _reason(error)] += 1
            continue
        dom = lexpy.parse(data, scripting=scripting)
        dom_elements = elements_in_order(dom)
        if dom_size is None:
            dom_size = len(dom_elements)
            if error is None and dom_size != len(elements_in_order(
                    rw._construction.document_object())):
                raise AssertionError("the rewriter's tree differs from lexpy.parse's: %r" % data)
        if position is None:
            # The parser took the element out of the tree (a <frameset>
            # replaced the body it is in): the DOM edit of an element that
            # is not in the document leaves the document as it is, so the
            # output must reparse to the input's tree, or be refused.
            name = str(target[0].local_name)
            suffix = " " + NOT_IN_TREE
        else:
            element = dom_elements[position]
            name = element.local_name
            suffix = ""
            try:
                if operation.endswith("_markup") or operation in MARKUP_OPERATIONS:
                    dom_op(element, scripting)
                else:
                    dom_op(element)
            except ValueError as refusal:
                # The DOM refuses it (a Document with a Text child, markup
                # next to the document element, ...): so must the rewriter.
                _dom_refuses(figures, refusal, error, "%s %s on element %d <%s>" % (
                    label, operation, position, name), data, output)
                continue
        _judge(figures, dom, error, output, scripting, "%s %s on element %s <%s>" % (
            label, operation, position, name), (operation, name), data, label, suffix)
    return figures


def _dom_refuses(figures: Figures, refusal: ValueError, error: Optional[BaseException],
                 run: str, data: str, output: Optional[str]) -> None:
    """A run whose DOM edit the DOM refuses: an acceptance is a mismatch,
    a refusal not applicable."""
    if error is None:
        figures.mismatches.append("%s: accepted, but the DOM refuses it (%s)\ninput:  %r\n"
                                  "output: %r" % (run, refusal, data, output))
    else:
        figures.not_applicable += 1
        figures.inapplicable["the DOM refuses it too: " + re.sub(
            r"<[^>]*>", "<x>", str(refusal))] += 1


def _judge(figures: Figures, dom, error: Optional[BaseException], output: Optional[str],
           scripting: bool, run: str, key: Tuple[str, str], data: str, label: str,
           suffix: str = "") -> None:
    """A tried run, `dom` edited the DOM way: refused (counted by reason),
    or accepted and its output's reparse compared with `dom`."""
    figures.tried += 1
    expected = _normalized_dump(dom)
    if error is not None:
        reason = _reason(error) + suffix
        if not _serializes(dom, expected, scripting):
            reason += " " + NO_SERIALIZATION
        figures.refused[reason] += 1
        detail = key + (reason,)
        figures.detail[detail] += 1
        figures.examples.setdefault(detail, "%s: %r" % (label, data[:200]))
        return
    figures.accepted += 1
    assert output is not None
    got = _normalized_dump(lexpy.parse(output, scripting=scripting))
    if got != expected:
        figures.mismatches.append(
            "%s (%s)\ninput:  %r\noutput: %r\nexpected:\n%s\ngot:\n%s"
            % (run, "script-on" if scripting else "script-off", data, output, expected, got))


# -- The units set: text, comment and document-end handlers ----------------
#
# A text handler's edit of a text chunk is the DOM edit of the characters
# that chunk's token put into the tree: the range [start, end) of the Text
# node they were appended to (the tree builder only ever appends to a Text
# node), found in a run that edits nothing by comparing the lengths of
# every Text node between the handler calls (the characters of a table's
# text run reach the tree at the next token: they are matched by their
# text then). A comment handler's edit is the DOM edit of the Comment node
# its token made. The document end's content goes where the DOM would put
# content appended to the document as it stands at the end of input: into
# the current node then (the stack of open elements' last element, past
# raw text elements, which the end of input closes; a template's contents
# for a template), text appended, markup parsed as a fragment there.

UNIT_MARKUP = "<span>M</span>"
UNIT_COMMENT = "<!--c-->"
_TABLE_TEXT = frozenset("table tbody thead tfoot tr".split())
# (and noscript with scripting on: a raw text element then)
_CLOSED_AT_EOF = frozenset("script style xmp iframe noembed noframes textarea title".split())


@dataclass
class _UnitMap:
    # For each text chunk (in handler order): [(text node index, start,
    # end)] in the final tree, [] when its characters are in no node (the
    # parser dropped them), None when they were not found.
    texts: List[Optional[List[Tuple[int, int, int]]]] = field(default_factory=list)
    # For each comment: its node's index in the final tree (None: not found).
    comments: List[Optional[int]] = field(default_factory=list)
    # The current node at the end of input (its index among the nodes), or
    # None when no element is open.
    end: Optional[int] = None
    # Text chunks whose text is not the characters their token put into the
    # tree: (chunk index, the chunk's text, the tree's characters).
    disagree: List[Tuple[int, str, str]] = field(default_factory=list)


_UNIT_MAPS: Dict[Tuple[str, bool], _UnitMap] = {}


def _mode_drops(text: str, added: str, current) -> bool:
    """Whether the tree builder's insertion mode takes characters of a text
    token out that a text chunk keeps: whitespace before <html> and <head>
    (the chunk's leading whitespace), text other than whitespace in a
    frameset; or the characters reach the tree at other tokens than the
    chunk's (template contents, whose elements go to no handler, whose
    table text runs go in at them)."""
    if text.endswith(added) and not text[:len(text) - len(added)].strip("\t\n\f\r "):
        return True
    node = current
    while node is not None and node.parent_node is not None:
        node = node.parent_node
    if node is not None and node.node_type == 11:
        return True         # (template contents)
    html = node.document_element if node is not None and node.node_type == 9 else None
    return html is not None and any(child.local_name == "frameset"
                                    for child in html.child_nodes if child.node_type == 1)


def _unit_map(data: str, scripting: bool) -> _UnitMap:
    """Where each text chunk's characters and each comment of `data` are in
    its tree, and its current node at the end of input (a run of the
    rewriter that edits nothing, with the whole tree kept)."""
    key = (data, scripting)
    found = _UNIT_MAPS.get(key)
    if found is not None:
        return found
    rw = Rewriter(scripting=scripting)
    rw._bounded = False
    lengths: Dict[int, Tuple[object, int]] = {}     # id -> (text node, length)
    comments_seen: Dict[int, object] = {}
    texts: List[Optional[List[Tuple[object, int, int]]]] = []
    pending: List[Tuple[int, str]] = []     # chunks whose characters are not found yet
    comments: List[Optional[object]] = []
    eof_open: List[object] = []
    unclaimed: List[List[object]] = []     # [node, start, end]: characters no chunk took yet
    # The characters put into Text nodes at each token (by its start).
    added_at: Dict[int, List[str]] = {}
    disagree: List[Tuple[int, str, str]] = []

    def growth():
        new_comments = []
        document = rw._construction.document_object()
        for node in _nodes_in_order(document):
            if node.node_type == 3:
                old = lengths.get(id(node))
                size = len(node.data)
                if old is None or old[1] != size:
                    start = old[1] if old else 0
                    lengths[id(node)] = (node, size)
                    added_at.setdefault(rw._token_span()[0], []).append(node.data[start:size])
                    for entry in unclaimed:
                        if entry[0] is node and entry[2] == start:
                            entry[2] = size
                            break
                    else:
                        unclaimed.append([node, start, size])
            elif node.node_type == 8 and id(node) not in comments_seen:
                comments_seen[id(node)] = node
                new_comments.append(node)
        return new_comments

    def attribute():
        # Each pending chunk takes the characters that are its text, when
        # exactly one run of them is; else the pending ones are not found.
        while pending:
            index, text = pending[0]
            if not text:
                texts[index] = []
                pending.pop(0)
                continue
            match = [g for g in unclaimed if g[0].data[g[1]:g[2]] == text]
            if len(match) > 1 or not match and any(
                    text.startswith(g[0].data[g[1]:g[2]]) for g in unclaimed):
                for index, _ in pending:
                    texts[index] = None
                pending.clear()
                unclaimed.clear()
                return
            if not match:
                return      # (not in the tree yet: a table's text run)
            texts[index] = [tuple(match[0])]
            unclaimed.remove(match[0])
            pending.pop(0)

    def point(*_):
        growth()
        attribute()

    def on_text(chunk):
        texts.append(None)
        growth()
        current = rw._current_node()
        added = "".join(added_at.get(rw._token_span()[0], ()))
        if added and added != chunk.text and not (
                current is not None and current.local_name in _TABLE_TEXT | {"template"}) \
                and not _mode_drops(chunk.text, added, current):
            disagree.append((len(texts) - 1, chunk.text, added))
        pending.append((len(texts) - 1, chunk.text))
        attribute()
        if pending and pending[-1][0] == len(texts) - 1 and not (
                current is not None and current.local_name in _TABLE_TEXT | {"template"}):
            # Not in the tree, and not a table's text run the parser
            # inserts later: dropped (nothing else grew), or not found.
            pending.pop()
            texts[-1] = [] if not unclaimed else None
            # (The characters left unclaimed may be this chunk's, found
            # under another text: no later chunk may take them for its own,
            # e.g. a table's text run of the same text.)
            unclaimed.clear()

    def on_comment(comment):
        new_comments = growth()
        attribute()
        comments.append(new_comments[-1] if len(new_comments) == 1 else None)

    def on_element(element):
        point()
        node = element._record.node

        def ended(end_tag):
            if rw._token_kind() == "eof":
                eof_open.append(node)
            point()
        element.on_end_tag(ended)

    rw.on("*", element=on_element)
    rw.on_document(text=on_text, comments=on_comment, end=lambda end: point())
    rewrite(data, rw)
    for index, _ in pending:
        # (never in the tree: the parser dropped them)
        texts[index] = None if unclaimed else []
    order = _nodes_in_order(rw._construction.document_object())
    where = {id(node): i for i, node in enumerate(order)}
    result = _UnitMap()
    for found in texts:
        if found is None:
            result.texts.append(None)
        else:
            result.texts.append([(where[id(node)], start, end) for node, start, end in found
                                 if id(node) in where] if all(id(n) in where for n, _, _ in found)
                                else None)
    result.comments = [where.get(id(node)) if node is not None else None for node in comments]
    result.disagree = disagree
    for node in eof_open:
        # The end of input closes raw text elements, the head (and what is
        # in it) and templates (and their contents) before the parser
        # stops: the current node then is the first other one it pops.
        if node.namespace_uri == "http://www.w3.org/1999/xhtml" and \
                node.local_name in _CLOSED_AT_EOF | {"head", "template"} | (
                    {"noscript"} if scripting else set()):
            continue
        parent = node.parent_node
        while parent is not None and parent.node_type == 1:
            if parent.local_name in ("head", "template") and \
                    parent.namespace_uri == "http://www.w3.org/1999/xhtml":
                break
            parent = parent.parent_node
        if parent is None or parent.node_type != 9:
            continue
        result.end = where.get(id(node))
        break
    if len(_UNIT_MAPS) > 64:
        _UNIT_MAPS.clear()
    _UNIT_MAPS[key] = result
    return result


def _insert_at(text_node, offset, nodes):
    """Split `text_node` at `offset` (a code point index) and put `nodes`
    between the halves."""
    data = text_node.data
    text_node.data = data[:offset]
    rest = data[offset:]
    if rest:
        text_node.after(rest)
    text_node.after(*nodes)


def _content_nodes(content, html, parent, scripting):
    if not html:
        return [content]
    if parent is not None and parent.node_type == 11 and parent.host is not None:
        parent = parent.host        # (template contents: parsed in the template)
    if parent is None or parent.node_type != 1:
        raise _NotApplicable("markup next to a node whose parent is not an element")
    return _fragment_nodes(content, parent, scripting)


def _dom_text_edit(where, content, html):
    def edit(ranges, scripting):
        if not ranges:
            raise _NotApplicable("text the parser dropped")
        first_node, first_start, _ = ranges[0]
        last_node, _, last_end = ranges[-1]
        parent = first_node.parent_node
        inserted = _content_nodes(content, html, parent, scripting) if content is not None \
            else []
        if where == "after":
            _insert_at(last_node, last_end, inserted)
        elif where == "before":
            _insert_at(first_node, first_start, inserted)
        else:       # replace / remove
            for node, start, end in reversed(ranges[1:]):
                node.data = node.data[:start] + node.data[end:]
            first_node.data = first_node.data[:first_start] + first_node.data[
                ranges[0][2]:]
            _insert_at(first_node, first_start, inserted)
    return edit


def _unit_op(where, content, html):
    if where == "remove":
        return lambda u: u.remove()
    return lambda u: getattr(u, where)(content, html=html)


def _dom_comment_edit(where, content, html):
    def edit(node, scripting):
        parent = node.parent_node
        inserted = _content_nodes(content, html, parent, scripting) if content is not None \
            else []
        if parent.node_type == 9 and any(isinstance(n, str) for n in inserted):
            raise _NotApplicable("text next to a comment of the document")
        if where == "before":
            node.before(*inserted)
        elif where == "after":
            node.after(*inserted)
        else:
            node.before(*inserted)
            node.remove()
    return edit


def _dom_end_append(content, html):
    def edit(node, scripting):
        holder = _content_parent(node)
        nodes = _fragment_nodes(content, node, scripting) if html else [content]
        holder.append(*nodes)
    return edit


# name -> (kind, rewriter side, DOM side)
UNIT_OPERATIONS: Dict[str, Tuple[str, Callable, Callable]] = {}
for _where in ("before", "after", "replace", "remove"):
    for _content, _html in ((TEXT, False), (UNIT_MARKUP, True), (UNIT_COMMENT, True)):
        if _where == "remove" and _content is not TEXT:
            continue
        _label = "" if _where == "remove" else " " + ("text" if not _html else _content)
        UNIT_OPERATIONS["text %s%s" % (_where, _label)] = (
            "text", _unit_op(_where, _content, _html),
            _dom_text_edit(_where, None if _where == "remove" else _content, _html))
        UNIT_OPERATIONS["comment %s%s" % (_where, _label)] = (
            "comment", _unit_op(_where, _content, _html),
            _dom_comment_edit(_where, None if _where == "remove" else _content, _html))
for _content, _html in ((TEXT, False), (UNIT_MARKUP, True), (UNIT_COMMENT, True)):
    UNIT_OPERATIONS["end append %s" % ("text" if not _html else _content)] = (
        "end", lambda d, c=_content, h=_html: d.append(c, html=h), _dom_end_append(_content, _html))
# Whitespace and newlines written as text: where the parser ignores a
# newline (after the start tag of pre, listing, textarea), next to the
# input's own (a CR written before a LF), and in a table's text runs.
UNIT_SPACES = (" \t", "\n", "\r\n", "\r")
for _content in UNIT_SPACES:
    for _where in ("before", "after", "replace"):
        UNIT_OPERATIONS["text %s %r" % (_where, _content)] = (
            "text", _unit_op(_where, _content, False), _dom_text_edit(_where, _content, False))
    UNIT_OPERATIONS["comment before %r" % _content] = (
        "comment", _unit_op("before", _content, False),
        _dom_comment_edit("before", _content, False))
    UNIT_OPERATIONS["end append %r" % _content] = (
        "end", lambda d, c=_content: d.append(c), _dom_end_append(_content, False))


def check_unit_texts(data: str, scripting: bool, label: str = "") -> Figures:
    """The text handler's chunks against the tree: where a chunk's token
    put characters into the tree (outside a table's text runs, which the
    parser inserts at a later token), the chunk's text is those characters
    (the newline the parser ignores after <pre> left out, NULs as it
    handles them): a mismatch when not."""
    figures = Figures()
    for index, text, added in _unit_map(data, scripting).disagree:
        figures.mismatches.append("%s text chunk %d: the handler's text %r, the tree's %r\n"
                                  "input:  %r" % (label, index, text, added, data))
    return figures


def check_units(data: str, scripting: bool, operation: str, chunked: Union[bool, int] = False,
                label: str = "") -> Figures:
    """Every text chunk (or comment, or the document end) of `data`
    edited with the unit `operation`, one run each, compared with the DOM
    edit as `check` compares element edits."""
    figures = Figures()
    kind, rw_op, dom_op = UNIT_OPERATIONS[operation]
    units = _unit_map(data, scripting)
    count = {"text": len(units.texts), "comment": len(units.comments), "end": 1}[kind]
    for index in range(count):
        seen = [0]
        outcome: List[Optional[BaseException]] = [None]

        def handler(unit):
            if seen[0] == index:
                try:
                    rw_op(unit)
                except ValueError as error:     # RewriteError included
                    outcome[0] = error
            seen[0] += 1

        rw = Rewriter(scripting=scripting)
        rw.on_document(**{{"text": "text", "comment": "comments", "end": "end"}[kind]: handler})
        output, error = _run(rw, data, chunked)
        error = outcome[0] or error
        if error is not None and not isinstance(error, RewriteError):
            figures.not_applicable += 1
            figures.inapplicable["the rewriter raises ValueError: " + _reason(error)] += 1
            continue
        dom = lexpy.parse(data, scripting=scripting)
        nodes = _nodes_in_order(dom)
        name = kind
        try:
            if kind == "text":
                ranges = units.texts[index]
                if ranges is None:
                    figures.not_applicable += 1
                    figures.inapplicable["the chunk's characters were not found in the tree"] \
                        += 1
                    continue
                if ranges:
                    name = "text in %s" % getattr(nodes[ranges[0][0]].parent_node,
                                                  "local_name", "#document")
                    dom_op([(nodes[i], s, e) for i, s, e in ranges], scripting)
                # (no ranges: the parser dropped the text; the DOM edit of
                # nothing leaves the document as it is)
            elif kind == "comment":
                position = units.comments[index]
                if position is None:
                    figures.not_applicable += 1
                    figures.inapplicable["the comment was not found in the tree"] += 1
                    continue
                name = "comment in %s" % getattr(nodes[position].parent_node, "local_name",
                                                 "#document")
                dom_op(nodes[position], scripting)
            else:
                if units.end is None:
                    raise _NotApplicable("no element open at the end of input")
                name = "end in %s" % nodes[units.end].local_name
                dom_op(nodes[units.end], scripting)
        except ValueError as refusal:
            _dom_refuses(figures, refusal, error, "%s %s on unit %d <%s>" % (
                label, operation, index, name), data, output)
            continue
        _judge(figures, dom, error, output, scripting, "%s %s on unit %d <%s>" % (
            label, operation, index, name), (operation, name), data, label)
    return figures


# -- The pairs set: two edits in one run -----------------------------------
#
# One run edits two different elements (the i-th and the j-th handed to a
# `*` handler, i < j) with one operation each; the expected tree is both DOM
# edits applied to one parsed tree, in the order the elements are handed
# over. The run is accepted when the rewriter accepted both, refused when
# it refused either (counted by the reason of the first refusal). An
# element the parser took out of the tree has a DOM edit that leaves the
# document as it is (as in `check`).

# The operations the pairs set combines: those that change what the parser
# sees around the element (its start and end tags dropped, content next to
# it or inside it) and those that keep its tags but change them.
PAIR_OPERATIONS = ("remove", "remove_and_keep_content", "before_text", "after_text",
                   "prepend_text", "append_text", "append_markup", "before_markup",
                   "set_attribute", "rename", "set_inner_content")
# Cases with at most this many elements get every pair of elements; larger
# ones a seeded sample of PAIR_SAMPLE pairs.
PAIR_ALL_ELEMENTS = 8
PAIR_SAMPLE = 28
# Pairs of operations tried on each pair of elements (a seeded sample).
PAIR_OPERATION_PAIRS = 6


def _dom_apply(operation: str, element, scripting: bool) -> None:
    dom_op = OPERATIONS[operation][1] if operation in OPERATIONS \
        else MARKUP_OPERATIONS[operation][1]
    if operation.endswith("_markup") or operation in MARKUP_OPERATIONS:
        dom_op(element, scripting)
    else:
        dom_op(element)


def _in_document(node, document) -> bool:
    """Whether `node` is in `document`'s tree (template contents included)."""
    while node is not None:
        if node is document:
            return True
        parent = node.parent_node
        if parent is None and node.node_type == 11:
            parent = getattr(node, "host", None)
        node = parent
    return False


def pair_edits(data: str, scripting: bool, seed: str = "",
               all_elements: int = PAIR_ALL_ELEMENTS, sample: int = PAIR_SAMPLE,
               per_pair: int = PAIR_OPERATION_PAIRS,
               operations: Tuple[str, ...] = PAIR_OPERATIONS
               ) -> List[Tuple[Tuple[int, str], Tuple[int, str]]]:
    """The pairs of edits ((i, operation), (j, operation), i < j) the pairs
    set runs on `data`: for each pair of elements, `per_pair` pairs of
    operations (a seeded sample of all pairs, different for each pair of
    elements), every pair of elements when there are at most
    `all_elements`, else `sample` of them (seeded by `seed` and `data`)."""
    import random
    count = len(_positions(data, scripting))
    chooser = random.Random("%s|%s" % (seed, data))
    pairs = [(i, j) for i in range(count) for j in range(i + 1, count)]
    if count > all_elements and len(pairs) > sample:
        pairs = chooser.sample(pairs, sample)
    combined = [(a, b) for a in operations for b in operations]
    return [((i, a), (j, b)) for i, j in pairs
            for a, b in chooser.sample(combined, min(per_pair, len(combined)))]


def check_pair(data: str, scripting: bool, first: Tuple[int, str], second: Tuple[int, str],
               chunked: Union[bool, int] = False, label: str = "") -> Figures:
    """One run of the pairs set: the elements handed over `first[0]`-th and
    `second[0]`-th edited with their operations, compared with both DOM
    edits applied to lexpy.parse(data)."""
    figures = Figures()
    edits = {first[0]: first[1], second[0]: second[1]}
    seen = [0]
    outcome: List[Optional[BaseException]] = [None]

    def handler(element):
        operation = edits.get(seen[0])
        seen[0] += 1
        if operation is None or outcome[0] is not None:
            return
        rw_op = OPERATIONS[operation][0] if operation in OPERATIONS \
            else MARKUP_OPERATIONS[operation][0]
        try:
            rw_op(element)
        except ValueError as error:     # RewriteError included
            outcome[0] = error

    rw = Rewriter(scripting=scripting).on("*", element=handler)
    output, error = _run(rw, data, chunked)
    error = outcome[0] or error
    run = "%s pair %d %s + %d %s" % (label, first[0], first[1], second[0], second[1])
    if error is not None and not isinstance(error, RewriteError):
        figures.not_applicable += 1
        figures.inapplicable["the rewriter raises ValueError: " + _reason(error)] += 1
        return figures
    positions = _positions(data, scripting)
    dom = lexpy.parse(data, scripting=scripting)
    dom_elements = elements_in_order(dom)
    names = []
    try:
        for index, operation in (first, second):
            position = positions[index]
            if position is None:
                names.append("(out of the tree)")
                continue        # (its DOM edit leaves the document as it is)
            element = dom_elements[position]
            names.append(str(element.local_name))
            if _in_document(element, dom):
                _dom_apply(operation, element, scripting)
            # (else the other edit took it out of the document: its own
            # edit changes nothing there)
    except ValueError as refusal:
        _dom_refuses(figures, refusal, error, run, data, output)
        return figures
    _judge(figures, dom, error, output, scripting, run,
           ("%s + %s" % (first[1], second[1]), " ".join(names)), data, label)
    return figures


def check_pairs(data: str, scripting: bool, chunked: Union[bool, int] = False,
                label: str = "", **choice) -> Figures:
    """Every pair of edits of `pair_edits(data, scripting, label, ...)`."""
    figures = Figures()
    for first, second in pair_edits(data, scripting, label, **choice):
        figures.add(check_pair(data, scripting, first, second, chunked=chunked, label=label))
    return figures
