# Type stubs of the compiled lexpy.extract.extractor module (extractor.pyx).
from typing import Any, Callable, Dict, Iterable, List, Optional, Pattern, Set, Tuple

from typing_extensions import disjoint_base

from lexpy.dom import Element, Node
from lexpy.selectors import Selector

@disjoint_base
class CompiledFields:
    # (selector or None, kind, attribute name, descendants, all values)
    def __init__(self, fields: List[Tuple[Optional[Selector], int, Optional[str], bool,
                                          bool]]) -> None: ...

# With `names` (one per field), each item's values come as a dict.
def extract_values(root: Node, items: Selector, fields: CompiledFields,
                   want_items: bool, names: Optional[List[str]] = None,
                   item_type: Optional[str] = None
                   ) -> Tuple[Optional[List[Element]], List[Any]]: ...
def selector_subject_type(selector: Selector) -> Optional[str]: ...

# (items, ld+json script texts, heads, rdfa): items are (element, itemtype's
# tokens, itemid, itemref, [(itemprop's tokens, kind, payload)]); heads are (html's prefix,
# head's prefix, [(property, content)]); rdfa entries are (depth, {RDFa
# attribute: value}, [(prefix, IRI)], head or body, text content or None).
def scan_structured(root: Node, microdata: bool, json_ld: bool, opengraph: bool,
                    rdfa: bool = False
                    ) -> Tuple[List[Tuple[Element, List[str], Optional[str], Optional[str],
                                          List[Tuple[List[str], int, Any]]]],
                               List[str],
                               List[Tuple[Optional[str], Optional[str], List[Tuple[str, str]]]],
                               List[Tuple[int, Dict[str, str], List[Tuple[str, str]], bool,
                                          Optional[str]]]]: ...

# {ID: first element with it} for the wanted IDs, in the tree of `node`.
def elements_by_id(node: Node, wanted: Set[str]) -> Dict[str, Element]: ...
# (itemprop's tokens, kind, payload) of what an itemref to `referenced` brings in.
def referenced_properties(referenced: Node) -> List[Tuple[List[str], int, Any]]: ...

# RDFa Core 1.1's processing sequence over scan_structured()'s rdfa entries.
@disjoint_base
class RdfaContext:
    def __init__(self, base: str, parent_subject: Optional[str], parent_object: Optional[str],
                 prefixes: Dict[str, str], incomplete: List[Tuple[str, bool]],
                 language: Optional[str], vocab: Optional[str]) -> None: ...

@disjoint_base
class RdfaProcessor:
    def __init__(self, base: str, initial_prefixes: Dict[str, str],
                 initial_terms: Dict[str, str],
                 parse_url: Callable[[str, Optional[str]], Optional[str]]) -> None: ...
    def run(self, entries: List[Tuple[int, Dict[str, str], List[Tuple[str, str]], bool,
                                      Optional[str]]]) -> None: ...
    def json(self) -> List[Dict[str, Any]]: ...

# extruct's microdata over scan_structured()'s items.
@disjoint_base
class ExtructMicrodata:
    def __init__(self, doc: Node, base_url: Optional[str], strict: bool, nested: bool,
                 add_text_content: bool, scanned: Optional[List[Any]] = None) -> None: ...
    def items(self) -> List[Dict[str, Any]]: ...

# extruct's text of a property element.
def html_text(root: Node) -> str: ...

# JSON-LD's lenient pass: `text` without comments, CDATA markers and
# trailing commas outside strings.
def json_without_comments(text: str) -> str: ...

# structured_data()'s own work (structured.pxi).
OG_NAMESPACES: Dict[str, str]
PREFIX_DECLARATION: Pattern[str]
def prefix_declarations(text: str) -> List[Tuple[str, str]]: ...
STRICT_DECODE_FAILS: ValueError
def json_fast_decode(text: str) -> Tuple[bool, Any]: ...
def json_ld_of(texts: List[str],
               lenient: Callable[[str, Optional[ValueError]], Any]) -> List[Any]: ...
def opengraph_of(heads: List[Any]) -> List[Dict[str, Any]]: ...
def set_structured_hooks(hooks: Tuple[Callable[..., Any], ...]) -> None: ...
def structured_data(doc: Node, *, base_url: Optional[str] = None,
                    syntaxes: Optional[Iterable[str]] = None, uniform: bool = False,
                    schema_context: str = "http://schema.org",
                    with_og_array: bool = False) -> Dict[str, List[Any]]: ...
