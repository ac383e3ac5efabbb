from typing import Callable, List, Optional, Tuple

from lexpy.dom.dom import Element, Node

def base_parts(base_url: str) -> Tuple[Optional[str], Optional[str], Optional[str],
                                      Optional[str]]: ...
def plain_resolutions(hrefs: List[str], scheme: Optional[str], origin: Optional[str],
                      without_fragment: Optional[str],
                      directory: Optional[str]) -> List[Optional[str]]: ...
def page_fields(root: Node, url: str,
                parts_of: Callable[[str], Tuple[Optional[str], Optional[str], Optional[str],
                                                Optional[str]]],
                resolve: Callable[[str, str], str], join: Callable[[str, str], str],
                text: bool = ..., shapes: bool = ..., whatwg: bool = ...,
                ) -> Tuple[str, List[str], Optional[Element], Optional[Element],
                           Optional[Element], Optional[str]]: ...
