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
"""
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

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
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        children = list(node.child_nodes)
        if getattr(node, "local_name", None) == "template" and \
                node.namespace_uri == "http://www.w3.org/1999/xhtml" and \
                node.content is not None:
            children = list(node.content.child_nodes) + children
        if node is not root and node.node_type == 1:
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
            try:
                if chunked:
                    encoded = data.encode("utf-8")
                    out = b"".join(rw.feed(encoded[i:i + 7])
                                   for i in range(0, len(encoded), 7))
                    output: Optional[str] = (out + rw.close()).decode("utf-8")
                else:
                    output = rewrite(data, rw)
            except RewriteError as error:
                output = None
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
                if error is None:
                    figures.mismatches.append(
                        "%s %s on element %d <%s>: accepted, but the DOM refuses it (%s)"
                        "\ninput:  %r\noutput: %r" % (label, operation, position, name,
                                                      refusal, data, output))
                else:
                    figures.not_applicable += 1
                    figures.inapplicable["the DOM refuses it too: " + re.sub(
                        r"<[^>]*>", "<x>", str(refusal))] += 1
                continue
        figures.tried += 1
        expected = _normalized_dump(dom)
        if error is not None:
            reason = _reason(error) + suffix
            if not _serializes(dom, expected, scripting):
                reason += " " + NO_SERIALIZATION
            figures.refused[reason] += 1
            key = (operation, name, reason)
            figures.detail[key] += 1
            figures.examples.setdefault(key, "%s: %r" % (label, data[:200]))
            continue
        figures.accepted += 1
        assert output is not None
        got = _normalized_dump(lexpy.parse(output, scripting=scripting))
        if got != expected:
            figures.mismatches.append(
                "%s %s on element %s <%s> (%s)\ninput:  %r\noutput: %r\n"
                "expected:\n%s\ngot:\n%s" % (label, operation, position, name,
                                            "script-on" if scripting else "script-off",
                                            data, output, expected, got))
    return figures
