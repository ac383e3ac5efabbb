"""The layers depend only downward (README, Layout): each package's
imports and cimports name only the packages below it, the optional bridges
are never imported by `import lexpy`, and the parse driver alone owns the
input (the tree builder keeps no copy of the input stream's state)."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEXPY = ROOT / "lexpy"

# package -> the lexpy packages (and modules) it may import or cimport.
BELOW = {
    "tokenizer": set(),
    "encoding": set(),
    "dom": {"tokenizer"},
    "treebuilder": {"tokenizer", "encoding", "dom"},
    "driver": {"tokenizer", "encoding", "dom", "treebuilder"},
    "selectors": {"tokenizer", "dom"},
    "text": {"tokenizer", "dom"},
}
IMPORT = re.compile(r"^\s*(?:from|cimport|import)\s+lexpy\.(\w+)", re.M)


def _imports(package):
    found = {}
    for path in (LEXPY / package).rglob("*"):
        if path.suffix in (".py", ".pyi", ".pyx", ".pxd", ".pxi"):
            for name in IMPORT.findall(path.read_text(encoding="utf-8")):
                if name != package:
                    found.setdefault(name, []).append(path.relative_to(ROOT))
    return found


def test_each_layer_imports_only_the_layers_below_it():
    wrong = []
    for package, allowed in BELOW.items():
        for name, paths in _imports(package).items():
            if name not in allowed:
                wrong.append("lexpy.%s imports lexpy.%s (%s)" % (
                    package, name, ", ".join(map(str, paths))))
    assert not wrong, "\n".join(wrong)


def test_every_compiled_package_is_placed_in_a_layer():
    compiled = {p.parent.name for p in LEXPY.rglob("*.pyx")}
    assert compiled <= set(BELOW), compiled - set(BELOW)


def test_the_check_sees_an_upward_import(tmp_path):
    assert IMPORT.findall("from lexpy.parser import parse_fragment\n") == ["parser"]
    assert IMPORT.findall("    from lexpy.driver.driver cimport x\n") == ["driver"]


def test_the_tree_builder_keeps_no_input_stream_state():
    sources = [p for p in (LEXPY / "treebuilder").rglob("*")
               if p.suffix in (".pyx", ".pxd", ".pxi")]
    text = "\n".join(p.read_text(encoding="utf-8") for p in sources)
    assert "InputByteStream" not in text and "input_byte_stream" not in text
    pyx = (LEXPY / "treebuilder" / "treebuilder.pyx").read_text(encoding="utf-8")
    struct = pyx[pyx.index("cdef struct TreeBuilder:"):]
    struct = struct[:struct.index("\n\n\n")]
    for field in ("input", "input_bytes", "input_length", "reparse_window"):
        assert not re.search(r"\b\w+\*?\s+%s\b" % field, struct), field


def test_the_tree_builder_is_opaque_outside_the_tree_builder():
    """Other modules see TreeBuilder as an opaque struct and drive it through
    the calls of treebuilder.pxd; its state is made of the standard's
    structures, each in the file of its operations."""
    pxd = (LEXPY / "treebuilder" / "treebuilder.pxd").read_text(encoding="utf-8")
    assert re.search(r"^cdef struct TreeBuilder\s*(#.*)?$", pxd, re.M)
    assert "cdef struct TreeBuilder:" not in pxd
    for name, home in (("StackOfOpenElements", "open_elements.pxi"),
                       ("ListOfActiveFormattingElements", "active_formatting.pxi"),
                       ("StackOfTemplateInsertionModes", "template_modes.pxi"),
                       ("PendingTableCharacterTokens", "text.pxi"),
                       ("SelectedcontentState", "selectedcontent.pxi")):
        text = (LEXPY / "treebuilder" / home).read_text(encoding="utf-8")
        assert "cdef struct %s:" % name in text, name
    stop = [p.name for p in (LEXPY / "treebuilder").rglob("*.pxi")
            if "cdef void stop_parsing(" in p.read_text(encoding="utf-8")]
    assert stop == ["the_end.pxi"]
    others = "\n".join(p.read_text(encoding="utf-8") for p in LEXPY.rglob("*")
                       if p.suffix in (".pyx", ".pxi") and "treebuilder" not in p.parts)
    assert not re.search(r"c_builder\.\w", others)
    everything = "\n".join(p.read_text(encoding="utf-8") for p in LEXPY.rglob("*")
                           if p.suffix in (".py", ".pyx", ".pxd", ".pxi"))
    assert "_connect_stream" not in everything


def test_import_lexpy_imports_no_optional_bridge():
    code = ("import sys, lexpy; lexpy.parse('<p>x').body.inner_html = '<b>y</b>'; "
            "print(sorted(m for m in ('bs4', 'html5lib', 'lxml', 'dask', 'warcio', "
            "'fastwarc') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT / "examples", timeout=60, check=True)
    assert result.stdout.strip() == "[]"
