from typing import Any, Collection, List, Mapping, Optional, Sequence, Tuple, Union

from typing_extensions import disjoint_base

from lexpy.dom.dom import DocumentFragment, Element, Node

_Name = Tuple[Optional[str], str]

@disjoint_base
class Program:
    safe: bool
    def __init__(self, elements: Sequence[Tuple[Optional[str], str, int, int]],
                 default_remove: bool, attributes: Sequence[_Name], attributes_allow: bool,
                 rules: Sequence[Tuple[bool, Sequence[_Name], Sequence[_Name]]],
                 comments: bool, data_attributes: bool, pi_targets: Sequence[str],
                 pi_allow: bool, safe: bool, disallowed: int = 1,
                 max_depth: int = 0, prefixes: Sequence[str] = (),
                 url_schemes: Optional[Mapping[str, Collection[str]]] = None,
                 url_relative: int = 0) -> None: ...

@disjoint_base
class Walk:
    @property
    def counts(self) -> Tuple[int, int, int, int]: ...
    @property
    def url_pass(self) -> bool: ...
    @property
    def records(self) -> List[Tuple[int, int, Optional[str], Optional[str], Optional[str],
                                    Optional[str]]]: ...

def sanitize_node(root: Node, program: Program, report: bool = False,
                  context_kind: int = 0, keep_removed: bool = False) -> Walk: ...
def first_difference(a: Node, b: Node) -> int: ...
def elements_below(root: Node, names: Optional[Collection[str]] = None) -> List[Element]: ...
def reparse_may_differ_below(root: Node) -> bool: ...
def sanitize_text(context_name: bytes, text: str,
                  program: Program) -> Union[str, Tuple[DocumentFragment, bool]]: ...
