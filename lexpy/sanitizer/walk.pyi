from typing import Any, List, Optional, Sequence, Tuple

from typing_extensions import disjoint_base

from lexpy.dom.dom import Node

_Name = Tuple[Optional[str], str]

@disjoint_base
class Program:
    safe: bool
    def __init__(self, elements: Sequence[Tuple[Optional[str], str, int, int]],
                 default_remove: bool, attributes: Sequence[_Name], attributes_allow: bool,
                 rules: Sequence[Tuple[bool, Sequence[_Name], Sequence[_Name]]],
                 comments: bool, data_attributes: bool, pi_targets: Sequence[str],
                 pi_allow: bool, safe: bool) -> None: ...

def sanitize_node(root: Node, program: Program) -> Tuple[int, int, int, int]: ...
def first_difference(a: Node, b: Node) -> int: ...
