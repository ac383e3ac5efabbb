from typing import Callable, List, Optional

from lexpy.dom.dom import Node

def plain_resolutions(hrefs: List[str], scheme: Optional[str], origin: Optional[str],
                      without_fragment: Optional[str],
                      directory: Optional[str]) -> List[Optional[str]]: ...
def page_links(root: Node, scheme: Optional[str], origin: Optional[str],
               without_fragment: Optional[str], directory: Optional[str],
               fallback: Callable[[str], str]) -> List[str]: ...
