"""API misuse raises TypeError or ValueError, never crashes; random sequences
of API calls (moving nodes between documents, dropping proxies and
documents, changing trees while iterating) keep every tree consistent."""
import gc

import pytest
from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import lexpy
from lexpy.dom import Document, Node

SVG = "http://www.w3.org/2000/svg"


def test_wrong_argument_types():
    doc = Document()
    div = doc.create_element("div")
    text = doc.create_text_node("t")
    calls = [
        lambda: div.append_child(None), lambda: div.append_child("x"),
        lambda: div.insert_before(text, 1), lambda: div.remove_child(None),
        lambda: div.replace_child(text, "x"), lambda: div.contains("x"),
        lambda: div.set_attribute(1, "v"), lambda: div.set_attribute("a", b"v"),
        lambda: div.get_attribute(None), lambda: div.has_attribute(3),
        lambda: div.remove_attribute(None), lambda: div.get_attribute_ns(1, "a"),
        lambda: div.set_attribute_ns(None, None, "v"), lambda: text.append_data(1),
        lambda: doc.create_text_node(b"x"), lambda: doc.create_comment(1),
        lambda: doc.create_document_type(None), lambda: lexpy.dump(1),
        lambda: lexpy.serialize(None), lambda: doc.import_node(None),
        lambda: div.append(1.5), lambda: div.before(None),
    ]
    for call in calls:
        with pytest.raises(TypeError):
            call()


def test_wrong_argument_values():
    doc = Document()
    div = doc.create_element("div")
    calls = [
        lambda: div.append_child(div), lambda: div.remove_child(doc.create_element("a")),
        lambda: doc.create_text_node("t").append_child(div),
        lambda: div.set_attribute("", "v"), lambda: doc.create_element(""),
        lambda: doc.create_element_ns(None, "a:b"), lambda: setattr(doc, "quirks_mode", 1),
    ]
    for call in calls:
        with pytest.raises(ValueError):
            call()


HTML_NAMES = ["div", "p", "template", "b", "script", "br", "html", "body"]
TEXT = st.text(alphabet="ab<&\u00e9", max_size=4)


class RandomDomUse(RuleBasedStateMachine):
    """Two documents and a pool of proxies the machine holds; everything
    else is reachable only through the documents."""

    def __init__(self):
        super().__init__()
        self.documents = [Document(), Document()]
        self.pool = []

    def _pick(self, index):
        return self.pool[index % len(self.pool)] if self.pool else None

    @rule(which=st.integers(0, 1),
          kind=st.sampled_from(["element", "svg", "text", "comment", "fragment",
                                "doctype", "pi"]),
          name=st.sampled_from(HTML_NAMES), data=TEXT)
    def create(self, which, kind, name, data):
        doc = self.documents[which]
        node = {
            "element": lambda: doc.create_element(name),
            "svg": lambda: doc.create_element_ns(SVG, "foreignObject"),
            "text": lambda: doc.create_text_node(data),
            "comment": lambda: doc.create_comment(data),
            "fragment": doc.create_document_fragment,
            "doctype": lambda: doc.create_document_type("html"),
            "pi": lambda: doc.create_processing_instruction("t", data),
        }[kind]()
        if len(self.pool) < 40:
            self.pool.append(node)

    @rule(which=st.integers(0, 1))
    def pick_document(self, which):
        self.pool.append(self.documents[which])

    @rule(parent=st.integers(0, 99), child=st.integers(0, 99),
          reference=st.one_of(st.none(), st.integers(0, 99)))
    def insert(self, parent, child, reference):
        parent, child = self._pick(parent), self._pick(child)
        if parent is None:
            return
        reference = self._pick(reference) if reference is not None else None
        target = parent.content if getattr(parent, "content", None) is not None \
            else parent
        try:
            target.insert_before(child, reference)
        except ValueError:
            pass

    @rule(node=st.integers(0, 99), replacement=st.integers(0, 99))
    def replace(self, node, replacement):
        node, replacement = self._pick(node), self._pick(replacement)
        if node is None or node.parent is None:
            return
        try:
            node.parent.replace_child(replacement, node)
        except ValueError:
            pass

    @rule(node=st.integers(0, 99))
    def remove(self, node):
        node = self._pick(node)
        if node is not None:
            node.remove()

    @rule(node=st.integers(0, 99), data=TEXT)
    def set_text(self, node, data):
        node = self._pick(node)
        if node is not None:
            node.text_content = data

    @rule(node=st.integers(0, 99), name=st.sampled_from(["id", "class", "Data-X"]),
          value=TEXT)
    def set_attribute(self, node, name, value):
        node = self._pick(node)
        if node is not None and node.node_type == Node.ELEMENT_NODE:
            node.set_attribute(name, value)
            if value == "":
                node.remove_attribute(name)

    @rule(node=st.integers(0, 99), deep=st.booleans())
    def clone(self, node, deep):
        node = self._pick(node)
        if node is not None and len(self.pool) < 40:
            self.pool.append(node.clone_node(deep))

    @rule(node=st.integers(0, 99), step=st.integers(0, 5))
    def walk(self, node, step):
        node = self._pick(node)
        if node is None:
            return
        for _ in range(step):
            following = (node.first_child or node.next_sibling or node.parent
                         or getattr(node, "content", None))
            if following is None:
                break
            node = following
        if len(self.pool) < 40:
            self.pool.append(node)

    @rule(node=st.integers(0, 99), action=st.sampled_from(["remove", "move", "text"]),
          other=st.integers(0, 99))
    def iterate_and_change(self, node, action, other):
        node, other = self._pick(node), self._pick(other)
        if node is None:
            return
        for index, child in enumerate(node.descendants()):
            if index % 2:
                continue
            try:
                if action == "remove":
                    child.remove()
                elif action == "move" and other is not None:
                    other.append_child(child)
                else:
                    child.text_content = "x"
            except ValueError:
                pass
            if index > 20:
                break
        for child in node:
            if action == "remove":
                child.remove()

    @rule(node=st.integers(0, 99))
    def drop(self, node):
        if self.pool:
            self.pool.pop(node % len(self.pool))   # refcounting frees it now

    @rule(which=st.integers(0, 1))
    def drop_document(self, which):
        self.documents[which] = Document()
        # The youngest generation only: a full collection scans every
        # object of the test session (the conformance cases included) and
        # made this test take minutes in the full suite.
        gc.collect(0)

    @invariant()
    def trees_are_consistent(self):
        roots = {}
        for node in self.pool + self.documents:
            root = node
            while root.parent is not None or (
                    root.node_type == Node.DOCUMENT_FRAGMENT_NODE
                    and root.host is not None):
                root = root.parent if root.parent is not None else root.host
            roots[id(root)] = root
        for root in roots.values():
            check_tree(root)
            root.to_html()
            lexpy.dump(root)


def check_tree(root):
    document = root if root.node_type == Node.DOCUMENT_NODE else root.owner_document
    stack = [root]
    while stack:
        node = stack.pop()
        children = node.child_nodes
        previous = None
        for child in children:
            assert child.parent is node
            assert child.previous_sibling is previous
            assert child.owner_document is document
            if previous is not None:
                assert previous.next_sibling is child
            previous = child
        assert node.last_child is previous
        content = getattr(node, "content", None)
        if content is not None:
            assert content.host is node and content.owner_document is document
            stack.append(content)
        stack.extend(children)


TestRandomDomUse = RandomDomUse.TestCase
TestRandomDomUse.settings = settings(max_examples=120, stateful_step_count=40,
                                     deadline=None)
