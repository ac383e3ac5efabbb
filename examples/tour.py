"""A tour of lexpy's API: parse, navigate, mutate, serialize, fragments,
incremental feeding, errors. Run it with ``python examples/tour.py``; the
tests run it and type-check it with ``mypy --strict``."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import lexpy

HERE = Path(__file__).resolve().parent


def parse_bytes() -> lexpy.Document:
    # Bytes in: the encoding is sniffed (BOM, <meta charset>, ...).
    doc = lexpy.parse((HERE / "example.html").read_bytes())
    print("encoding:", doc.encoding, "| quirks mode:", doc.quirks_mode)
    return doc


def navigate(doc: lexpy.Document) -> None:
    title: Optional[lexpy.Element] = next(doc.iter("title"), None)
    print("title:", title.text_content if title else None)
    cells: List[lexpy.Element] = doc.get_elements_by_tag_name("td")
    print("cells:", [cell.text_content for cell in cells])
    for item in doc.iter("li"):
        print("list item:", item.text_content)
    body = doc.body
    assert body is not None
    print("body children:", [child.local_name for child in body.children])
    svg = doc.get_elements_by_tag_name("svg")[0]
    print("svg namespace:", svg.namespace_uri, "| attributes:", dict(svg.attributes))


def mutate(doc: lexpy.Document) -> None:
    body = doc.body
    assert body is not None
    note = doc.create_element("p")
    note.set_attribute("id", "note")
    note.class_list.add("added", "by-tour")
    note.append("Added by ", doc.create_element("em"), ".")
    em = note.get_elements_by_tag_name("em")[0]
    em.text_content = "the tour"
    body.prepend(note)
    for comment in [n for n in body.descendants() if n.node_type == lexpy.Node.COMMENT_NODE]:
        comment.remove()
    found = doc.get_element_by_id("note")
    assert found is not None and "by-tour" in found.class_list
    print("outer html:", found.outer_html)


def serialize(doc: lexpy.Document) -> None:
    html: str = doc.to_html()
    print("serialized:", len(html), "characters")
    print("with html5lib's options:", lexpy.serialize(doc, omit_optional_tags=True)[:60])
    print(lexpy.dump(doc).splitlines()[0])


def fragments() -> None:
    row = lexpy.parse_fragment("<td>1<td>2", "tr")
    print("fragment in <tr>:", row.to_html())
    table = lexpy.parse("<table></table>").get_elements_by_tag_name("table")[0]
    table.inner_html = "<tr><td>set through inner_html"
    print("inner_html:", table.inner_html)


def incremental() -> None:
    parser = lexpy.Parser()
    for chunk in [b"<!DOCTYPE html><p>spl", b"it &am", b"p; across <b", b">chunks"]:
        parser.feed(chunk)
        print("buffered between feeds:", parser.buffered_bytes)
    doc = parser.close()
    body = doc.body
    assert body is not None
    print("incremental:", body.inner_html)


def errors() -> None:
    doc = lexpy.parse("<p>\0</p></div>", collect_errors=True)
    for error in doc.errors:
        print("error: %d:%d %s (%s)" % (error.line, error.column, error.code,
                                         error.message))


def main() -> None:
    doc = parse_bytes()
    navigate(doc)
    mutate(doc)
    serialize(doc)
    fragments()
    incremental()
    errors()


if __name__ == "__main__":
    main()
