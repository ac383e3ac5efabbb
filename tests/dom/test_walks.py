"""Python-level walks (iter(node), descendants(), iter(tag)) keep only the
proxy they handed out: where they go on after a change comes from the
document's version counter and a cursor of pointers that reclaiming a node
clears. These tests change the tree under walks in the ways that would
catch a cursor that follows a reclaimed (and reused) struct."""
import gc
import random
import threading

import lexpy
from lexpy.dom import Document


def tree(width=3):
    doc = Document()
    root = doc.create_element("div")
    for i in range(width):
        section = root.append_child(doc.create_element("section"))
        section.append_child(doc.create_text_node("s%d" % i))
    return doc, root


def test_walk_ends_when_its_node_and_the_former_sibling_go():
    doc, root = tree()
    walk = root.descendants()
    first = next(walk)
    second = first.next_sibling
    first.remove()
    second.remove()
    del second
    gc.collect()                     # the former sibling is reclaimed ...
    for _ in range(4):               # ... and its struct reused inside root
        root.append_child(doc.create_element("p"))
    # As before: the node is gone, its former sibling is not inside root and
    # its former parent is root itself, so the walk ends.
    assert [n.node_name for n in walk] == []


def test_children_walk_ends_when_the_former_sibling_was_reclaimed():
    doc, root = tree()
    walk = iter(root)
    first = next(walk)
    second = first.next_sibling
    first.remove()
    second.remove()
    del second
    gc.collect()
    root.append_child(doc.create_element("p"))
    assert [n.node_name for n in walk] == []


def test_walk_goes_on_at_the_former_sibling_when_it_stays():
    doc, root = tree()
    walk = root.descendants()
    first = next(walk)
    first.remove()
    gc.collect()
    assert [n.node_name for n in walk] == ["SECTION", "#text", "SECTION", "#text"]


def test_walk_of_a_root_adopted_into_another_document():
    doc, root = tree()
    doc.create_element("body").append_child(root)
    walk = root.descendants()
    assert next(walk).node_name == "SECTION"
    other = Document()
    other.adopt_node(root)
    del doc
    gc.collect()
    assert [n.node_name for n in walk] == ["#text", "SECTION", "#text",
                                           "SECTION", "#text"]
    assert root.owner_document is other


def test_many_abandoned_walks_and_churn():
    doc, root = tree(50)
    rng = random.Random(15)
    walks = []
    for step in range(2000):
        if rng.random() < 0.3:
            walk = rng.choice([root.descendants, root.iter, root.__iter__])()
            walks.append(walk)
        if walks and rng.random() < 0.5:
            walk = rng.choice(walks)
            node = next(walk, None)
            if node is None or rng.random() < 0.2:
                walks.remove(walk)
        if rng.random() < 0.3 and root.first_child is not None:
            victim = rng.choice(root.child_nodes)
            victim.remove()
            del victim
        else:
            section = root.append_child(doc.create_element("section"))
            section.append_child(doc.create_text_node(str(step)))
        if len(walks) > 20:
            del walks[: rng.randrange(len(walks))]
        if step % 100 == 0:
            gc.collect()
    for walk in walks:
        for node in walk:
            assert node.owner_document is doc
    assert root.to_html().startswith("<div>")


def test_walk_and_iter_hand_out_the_cached_proxies():
    doc = lexpy.parse("<p id=a><b>x</b></p><p>y</p>")
    held = list(doc.descendants())
    assert [n is m for n, m in zip(held, doc.descendants())] == [True] * len(held)
    assert list(doc.iter("p")) == [n for n in held if n.node_name == "P"]
    p = doc.get_element_by_id("a")
    assert p.parent is p.parent and p.first_child.parent is p


def test_walking_while_another_thread_changes_the_tree():
    doc = lexpy.parse("<ul>" + "<li>x</li>" * 200 + "</ul>")
    ul = doc.body.first_child
    stop = threading.Event()
    errors = []

    def change():
        rng = random.Random(7)
        while not stop.is_set():
            try:
                if rng.random() < 0.5 and ul.first_child is not None:
                    rng.choice(ul.child_nodes).remove()
                else:
                    ul.append_child(doc.create_element("li")).append_child(
                        doc.create_text_node("y"))
            except Exception as exc:   # noqa: BLE001 (reported below)
                errors.append(exc)

    thread = threading.Thread(target=change)
    thread.start()
    try:
        for _ in range(200):
            for node in doc.descendants():
                node.node_type
            for node in doc.iter("li"):
                node.text_content
    finally:
        stop.set()
        thread.join()
    # text_content reads without the GIL: a change meanwhile is refused
    # with the readers rule's RuntimeError, never anything else.
    assert all(isinstance(e, RuntimeError) and "in another thread" in str(e)
               for e in errors), errors[:3]


def test_text_content_of_small_and_large_subtrees():
    # text_content walks a subtree of few nodes with the GIL held and a
    # larger one without it: the same text either way, around the limit
    for count in range(0, 40):
        doc = Document()
        root = doc.create_element("div")
        parent = root
        for i in range(count):
            if i % 3 == 0:
                parent = root.append_child(doc.create_element("b"))
            else:
                parent.append_child(doc.create_text_node("t%d " % i))
        expected = "".join(node.data for node in root.descendants()
                           if node.node_type == 3)
        assert sum(1 for _ in root.descendants()) == count
        assert root.text_content == expected
