"""Every cdef function of the tree builder (and of the parse driver that
runs it) says how it reports errors: an
explicit `noexcept` or `except` clause (STYLE.md; Cython's default for a
C return type would otherwise check for an exception after every call)."""
import re
from pathlib import Path

LEXPY = Path(__file__).resolve().parents[2] / "lexpy"
PACKAGE = LEXPY / "treebuilder"
CDEF_FUNCTION = re.compile(r"^\s*cdef\s+(?!class\b|struct\b|enum\b|extern\b|union\b)[^=]*?\w+\s*\(")


def _signatures(path):
    """(line number, signature) of each cdef function (signatures may span
    lines; comments are left out)."""
    lines = [line.split("#", 1)[0] for line in path.read_text(encoding="utf-8").splitlines()]
    i = 0
    while i < len(lines):
        if CDEF_FUNCTION.match(lines[i]):
            signature, start = lines[i], i
            while signature.count("(") > signature.count(")") and i + 1 < len(lines):
                i += 1
                signature += " " + lines[i].strip()
            yield start + 1, " ".join(signature.split())
        i += 1


# A function returning a Python object reports an exception by returning
# NULL: Cython allows it no clause (the rule is about C return types).
PYTHON_RETURN = re.compile(r"^\s*cdef\s+(?:inline\s+)?(object|list|dict|tuple|set|str|bytes)\s+\w+\s*\(")


def _lacks_clause(signature):
    return not re.search(r"\)\s*(noexcept|except)\b", signature) \
        and not PYTHON_RETURN.match(signature)


def test_every_cdef_function_has_an_exception_clause():
    sources = sorted(p for package in (PACKAGE, LEXPY / "driver") for p in package.rglob("*")
                     if p.suffix in (".pyx", ".pxd", ".pxi"))
    assert len(sources) > 30
    missing = ["%s:%d: %s" % (path.relative_to(LEXPY), line, signature)
               for path in sources for line, signature in _signatures(path)
               if _lacks_clause(signature)]
    assert not missing, "\n".join(missing)


def test_the_check_sees_a_missing_clause(tmp_path):
    source = tmp_path / "sample.pxi"
    source.write_text("cdef void discard(self):\n    pass\n"
                      "cdef int fine(int x) noexcept nogil:\n    return x\n"
                      "cdef object made(int x):\n    return x\n"
                      "cdef int *pointer(int x):\n    return NULL\n", encoding="utf-8")
    assert [line for line, signature in _signatures(source)
            if _lacks_clause(signature)] == [1, 7]
