"""The minifier's documented whitespace collapse, restated independently
as a transformation of a parsed tree through the DOM API (the test oracle:
parse(minify(x)) must dump as collapse(parse(x)) dumps), and the pretty
printer's comparison (trees equal once whitespace in text is normalised).

Written from the rules in lexpy/dom/serializer_modes.pxi's header, not from
its code.
"""
import re

import lexpy

HTML = "http://www.w3.org/1999/xhtml"

# Rule 2: text inside these keeps its whitespace (and inside any element
# outside the HTML namespace; noscript when the document has scripting).
KEEPS_WHITESPACE = frozenset(
    "pre listing plaintext xmp textarea script style title iframe noembed "
    "noframes".split())
# Rule 3: whitespace-only text directly inside these is removed.
WHITESPACE_PARENTS = frozenset("html head table thead tbody tfoot tr colgroup".split())
# Rule 3: the UA stylesheet's block-level elements.
BLOCK_LEVEL = frozenset(
    "html body address blockquote center div figure figcaption footer form "
    "header hr legend listing main p plaintext pre search xmp article aside "
    "h1 h2 h3 h4 h5 h6 hgroup nav section dir dd dl dt menu ol ul li table "
    "caption colgroup col thead tbody tfoot tr td th fieldset details "
    "frameset frame".split())

COLLAPSIBLE_RUN = re.compile("[ \t\n\r]+")
WHITESPACE_ONLY = re.compile("[ \t\n\r]+\\Z")


def _children(node):
    content = getattr(node, "content", None)
    return (content if content is not None else node).child_nodes


def _all_parents(root):
    """Every node of the tree that can have children (template contents
    included), iteratively."""
    stack = [root]
    while stack:
        node = stack.pop()
        content = getattr(node, "content", None)
        if content is not None:
            yield content
            stack.extend(content.child_nodes)
        if node.node_type in (1, 9, 11):
            yield node
            stack.extend(node.child_nodes)


def _is_html(node, names):
    return node is not None and node.node_type == 1 \
        and node.namespace_uri == HTML and node.local_name in names


def _block_level(node):
    return _is_html(node, BLOCK_LEVEL) and not node.has_attribute("hidden")


def _keeps_whitespace(parent, scripting):
    """Whether text in `parent` is inside a whitespace-keeping element."""
    node = parent
    while node is not None:
        if node.node_type == 1:
            if node.namespace_uri != HTML or node.local_name in KEEPS_WHITESPACE:
                return True
            if node.local_name == "noscript" and scripting:
                return True
            node = node.parent_node
        elif node.node_type == 11:
            node = node.host if hasattr(node, "host") else None
        else:
            node = node.parent_node
    return False


def _is_conditional(comment):
    return comment.data.startswith("[if") or comment.data.startswith("<![endif]")


def collapse(root, scripting, keep_comments=False, keep_conditional_comments=False,
             remove_processing_instructions=False):
    """Apply the documented collapse to a tree in place."""
    parents = list(_all_parents(root))
    # 1. comments (and PIs when asked) go, adjacent texts merge
    for parent in parents:
        for child in list(parent.child_nodes):
            if child.node_type == 8 and not keep_comments and not (
                    keep_conditional_comments and _is_conditional(child)):
                child.remove()
            elif child.node_type == 7 and remove_processing_instructions:
                child.remove()
            elif child.node_type == 3 and child.data == "":
                child.remove()
        previous = None
        for child in list(parent.child_nodes):
            if child.node_type == 3 and previous is not None and previous.node_type == 3:
                previous.data = previous.data + child.data
                child.remove()
            else:
                previous = child
    # 2.-4. whitespace
    for parent in parents:
        if _keeps_whitespace(parent, scripting):
            continue
        for child in list(parent.child_nodes):
            if child.node_type != 3:
                continue
            if WHITESPACE_ONLY.match(child.data):
                before = child.previous_sibling or parent
                after = child.next_sibling or parent
                if _is_html(parent, WHITESPACE_PARENTS) or (
                        _block_level(before) and _block_level(after)):
                    child.remove()
                    continue
            child.data = COLLAPSIBLE_RUN.sub(
                lambda m: "\n" if ("\n" in m.group() or "\r" in m.group()) else " ",
                child.data)
    return root


def normalise_whitespace(root, scripting):
    """For the pretty printer's check: outside whitespace-keeping elements,
    whitespace-only text removed, other text stripped with its whitespace
    runs as one space; adjacent texts merged first."""
    parents = list(_all_parents(root))
    for parent in parents:
        previous = None
        for child in list(parent.child_nodes):
            if child.node_type == 3 and previous is not None and previous.node_type == 3:
                previous.data = previous.data + child.data
                child.remove()
            else:
                previous = child
    for parent in parents:
        if _keeps_whitespace(parent, scripting):
            continue
        for child in list(parent.child_nodes):
            if child.node_type == 3:
                data = COLLAPSIBLE_RUN.sub(" ", child.data).strip(" ")
                if data:
                    child.data = data
                else:
                    child.remove()
    return root


def reparse(html, like):
    """Parse `html` as `like` (a Document or a fragment) was parsed."""
    return lexpy.parse(html, scripting=like.scripting)
