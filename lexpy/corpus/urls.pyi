from typing import Callable, List, Optional, Tuple

from lexpy.dom.dom import Node

def base_parts(base_url: str) -> Tuple[Optional[str], Optional[str], Optional[str],
                                      Optional[str]]: ...
def plain_resolutions(hrefs: List[str], scheme: Optional[str], origin: Optional[str],
                      without_fragment: Optional[str],
                      directory: Optional[str]) -> List[Optional[str]]: ...
def page_links(root: Node, scheme: Optional[str], origin: Optional[str],
               without_fragment: Optional[str], directory: Optional[str],
               fallback: Callable[[str], str]) -> List[str]: ...
