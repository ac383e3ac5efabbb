"""The layers depend only downward (README, Layout): each package's
imports and cimports name only the packages below it, the optional bridges
are never imported by `import lexpy`, and the parse driver alone owns the
input (the tree builder keeps no copy of the input stream's state)."""
import re
import runpy
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEXPY = ROOT / "lexpy"

# package -> the lexpy packages (and modules) it may import or cimport.
BELOW = {
    "core": set(),
    "tokenizer": {"core"},
    "encoding": {"core"},
    "dom": {"core"},
    "treebuilder": {"core", "tokenizer", "encoding", "dom"},
    "driver": {"core", "tokenizer", "encoding", "dom", "treebuilder"},
    "selectors": {"core", "dom"},
    "text": {"core", "dom"},
    "xpath": {"core", "dom"},
    # scraping helpers over the DOM, the selectors and the text layer
    "extract": {"core", "dom", "selectors", "text"},
    # the sanitizer: parses (lexpy.parser) and walks the DOM; its common
    # call runs the driver's fragment parse with its walk in one nogil stretch
    "sanitizer": {"core", "dom", "parser", "driver"},
    # the streaming rewriter: the driver's parse watched through the tree
    # builder's observer, the selectors for matching, the parser for the
    # probe that checks markup content
    "rewriter": {"core", "tokenizer", "encoding", "dom", "treebuilder", "driver",
                 "selectors", "parser"},
    # the top layer: lexpy.corpus runs the whole parser (its compiled module,
    # urls, cimports nothing)
    "corpus": {"core", "tokenizer", "encoding", "dom", "treebuilder", "driver",
               "selectors", "text", "extract"},
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


def test_each_extension_includes_only_headers_of_the_layers_below_it():
    # setup.py's extensions, read without building: a module's C include path
    # holds its own package and packages below it, never one above it.
    setup = runpy.run_path(str(ROOT / "setup.py"), run_name="setup")
    extensions = setup["EXTENSIONS"] + setup["TEST_EXTENSIONS"]
    assert {e.name.split(".")[1] for e in extensions} == set(BELOW)
    wrong = []
    for extension in extensions:
        package = extension.name.split(".")[1]
        allowed = {"lexpy/" + p for p in BELOW[package] | {package}}
        for directory in extension.include_dirs:
            if directory not in allowed:
                wrong.append("%s includes headers of %s" % (extension.name, directory))
    assert not wrong, "\n".join(wrong)


def test_every_header_is_declared_in_the_package_that_holds_it():
    # `cdef extern from "x.h"` names a header of its own package: other
    # layers cimport its declarations (lexpy/core/utf8.pxd), so that the
    # import check above sees the dependency.
    extern = re.compile(r'^\s*cdef extern from "(\w+\.h)"', re.M)
    ours = {path.name for path in LEXPY.rglob("*.h")}      # not Python.h, string.h
    assert {"names.h", "utf8.h", "entities.h"} <= ours
    wrong = []
    for path in LEXPY.rglob("*"):
        if path.suffix in (".pyx", ".pxd", ".pxi"):
            for header in extern.findall(path.read_text(encoding="utf-8")):
                package = path.relative_to(LEXPY).parts[0]
                if header in ours and not (LEXPY / package / header).is_file():
                    wrong.append("%s includes %s" % (path.relative_to(ROOT), header))
    assert not wrong, "\n".join(wrong)


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
