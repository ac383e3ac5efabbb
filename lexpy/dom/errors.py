"""Parse errors as data: what Document.errors holds (the Document makes
them from the tokenizer's and tree builder's C records, which the parse
driver hands it at the end of the parse, when `errors` is first read)."""
from typing import NamedTuple


class ParseError(NamedTuple):
    """A parse error, as data (parsing never raises for bad markup).

    `code` is the standard's kebab-case code ("unexpected-null-character";
    tree-construction errors have descriptive codes of lexpy's own),
    `line` and `column` are 1-based (columns count UTF-16 code units, as
    the standard's tests do). `message` is the code as a sentence.
    """

    code: str
    line: int
    column: int

    @property
    def message(self) -> str:
        """The code as a sentence: "Unexpected null character"."""
        return self.code.replace("-", " ").capitalize()

    def __str__(self) -> str:
        return "%d:%d: %s" % (self.line, self.column, self.code)
