from typing import IO, Any, List, Optional, Tuple, Union

from typing_extensions import disjoint_base

@disjoint_base
class GzipMembers:
    read_size: int
    input_size: int
    output_limit: int
    member_offset: int
    ended: bool
    truncated: bool
    def __init__(self, raw: IO[bytes], start: int, module: Any) -> None: ...
    def inflate(self) -> Optional[bytes]: ...
    def next_record(self) -> Union[None, int, Tuple[int, Optional[str], Optional[int],
                                                    List[Tuple[str, str]], bytes]]: ...
