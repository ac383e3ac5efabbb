"""Records in one call: the items a selector matches, each a dict of fields
given by selectors with parsel's ::text / ::attr(name) endings or by
callables. compile_extractor() compiles the selectors once for many pages
and threads (a compiled extractor keeps no state between calls)."""
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from lexpy.dom import Element, Node
from lexpy.extract.extractor import CompiledFields, extract_values, selector_subject_type
from lexpy.selectors import compile_selector
from lexpy.selectors.values import HTML, ValueSelector

__all__ = ["Extractor", "compile_extractor", "extract_records"]

Field = Union[str, Sequence[str], Callable[[Element], Any]]

FIRST = 0
ALL = 1
CALL = 2


class Extractor:
    """Compiled item selector and fields (see extract_records)."""

    def __init__(self, item_selector: str, fields: Mapping[str, Field],
                 namespaces: Optional[Mapping[str, str]] = None) -> None:
        self.item_selector = compile_selector(item_selector, namespaces)
        self.fields: List[Tuple[str, int, Any]] = []
        for name, field in fields.items():
            if callable(field):
                self.fields.append((name, CALL, field))
            elif isinstance(field, str):
                self.fields.append((name, FIRST, ValueSelector(field, namespaces)))
            elif isinstance(field, (list, tuple)) and len(field) == 1 \
                    and isinstance(field[0], str):
                self.fields.append((name, ALL, ValueSelector(field[0], namespaces)))
            else:
                raise TypeError("field %r must be a selector, [selector] or a callable, not %r"
                                % (name, field))

        # The fields the C pass collects: one selector item ending in ::text
        # or ::attr(name); the others (element HTML, callables, lists of
        # items) are computed from the item elements.
        c_fields = []
        self.in_c: List[bool] = []
        for name, kind, field in self.fields:
            item = field.items[0] if kind != CALL and len(field.items) == 1 else None
            if item is not None and item.kind != HTML:
                c_fields.append((item.selector, item.kind, item.name, item.descendants,
                                 kind == ALL))
                self.in_c.append(True)
            else:
                self.in_c.append(False)
        self.compiled = CompiledFields(c_fields)
        self.needs_items = not all(self.in_c)
        self.names = [name for name, _, _ in self.fields]
        # the items' type: only the elements of it are tried
        self.item_type = selector_subject_type(self.item_selector)

    def extract(self, node: Node) -> List[Dict[str, Any]]:
        if not self.needs_items:     # every field in C: the records made there
            return extract_values(node, self.item_selector, self.compiled, False,
                                  self.names, self.item_type)[1]
        found, rows = extract_values(node, self.item_selector, self.compiled, self.needs_items,
                                     None, self.item_type)
        items = found or []
        records = []
        for index, row in enumerate(rows):
            record: Dict[str, Any] = {}
            values = iter(row)
            for (name, kind, field), in_c in zip(self.fields, self.in_c):
                if in_c:
                    record[name] = next(values)
                elif kind == FIRST:
                    record[name] = field.select_first(items[index])
                elif kind == ALL:
                    record[name] = field.select(items[index])
                else:
                    record[name] = field(items[index])
            records.append(record)
        return records

    __call__ = extract


def compile_extractor(item_selector: str, fields: Mapping[str, Field],
                      namespaces: Optional[Mapping[str, str]] = None) -> Extractor:
    """An Extractor: extract_records' selectors compiled once."""
    return Extractor(item_selector, fields, namespaces)


def extract_records(node: Node, item_selector: str, fields: Mapping[str, Field],
                    namespaces: Optional[Mapping[str, str]] = None) -> List[Dict[str, Any]]:
    """One dict per element `item_selector` matches below `node` (tree
    order), with a key per field: a selector (relative to the item, as
    querySelectorAll scopes it, ending in ::text or ::attr(name), or else
    giving the matched element's HTML) gives its first value or None, as
    parsel's get(); a one-item list [selector] gives all its values, as
    getall(); a callable is called with the item element."""
    return Extractor(item_selector, fields, namespaces).extract(node)
