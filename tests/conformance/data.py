"""Locate and read the html5lib-tests and WPT parsing test data.

Where the data is looked for (DESIGN.md, "Test data"):

- html5lib-tests: $LEXPY_HTML5LIB_TESTS, then the project's html5lib-tests/
  submodule, then ../shared/html5lib-tests/ beside the project;
- the WPT overlay (tree-construction files that replace same-named ones):
  $LEXPY_WPT_PARSING, then ../shared/wpt-parsing/;
- the Encoding Standard's data (labels and indexes): $LEXPY_WHATWG_ENCODING,
  then ../shared/whatwg-encoding/;
- the corpus of real-world pages (benchmarks, chunking, robustness):
  $LEXPY_CORPUS, then ../shared/corpus/pages/;
- tree cases beyond the suites (the minimised cases of differential runs
  against other parsers, judged against the standard's text):
  $LEXPY_CONFORMANCE_EXTRA, then ../shared/conformance-extra/;
- the CSS selectors cases (WPT dom/nodes and css/selectors, soupsieve):
  $LEXPY_SELECTORS, then ../shared/selectors/;
- the test suites of beautifulsoup4 and html5lib (for lexpy's bridges to
  them): $LEXPY_PEER_TESTS, then ../shared/peer-tests/.

The tools (tools/*.py) find their data through these functions too.

No copy found is an error (DataNotFound), never a silent skip.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional

ROOT = Path(__file__).resolve().parents[2]

SUITES = ("tokenizer", "tree", "encoding", "serializer", "extra", "selectors")


class DataNotFound(RuntimeError):
    pass


def _has_suites(path: Path) -> bool:
    return (path / "tokenizer").is_dir() and (path / "tree-construction").is_dir()


def html5lib_tests_dir() -> Path:
    tried = []
    env = os.environ.get("LEXPY_HTML5LIB_TESTS")
    candidates = ([Path(env)] if env else []) + [
        ROOT / "html5lib-tests", ROOT.parent / "shared" / "html5lib-tests"]
    for path in candidates:
        tried.append(str(path))
        if _has_suites(path):
            return path
    raise DataNotFound(
        "html5lib-tests data not found; tried: " + ", ".join(tried)
        + ". Run `git submodule update --init` or set LEXPY_HTML5LIB_TESTS.")


def wpt_parsing_dir() -> Path:
    env = os.environ.get("LEXPY_WPT_PARSING")
    candidates = ([Path(env)] if env else []) + [ROOT.parent / "shared" / "wpt-parsing"]
    for path in candidates:
        if path.is_dir() and any(path.glob("*.dat")):
            return path
    raise DataNotFound(
        "WPT parsing data not found; tried: " + ", ".join(map(str, candidates))
        + ". Set LEXPY_WPT_PARSING to a copy of WPT html/syntax/parsing/resources.")


def whatwg_encoding_dir() -> Path:
    """The Encoding Standard's encodings.json and index-*.txt:
    $LEXPY_WHATWG_ENCODING, then ../shared/whatwg-encoding/."""
    env = os.environ.get("LEXPY_WHATWG_ENCODING")
    candidates = ([Path(env)] if env else []) + [ROOT.parent / "shared" / "whatwg-encoding"]
    for path in candidates:
        if (path / "encodings.json").is_file():
            return path
    raise DataNotFound(
        "Encoding Standard data not found; tried: " + ", ".join(map(str, candidates))
        + ". Set LEXPY_WHATWG_ENCODING to a copy of encodings.json and index-*.txt.")


def corpus_dir() -> Path:
    """The folder of real-world pages: $LEXPY_CORPUS, then
    ../shared/corpus/pages/."""
    env = os.environ.get("LEXPY_CORPUS")
    candidates = ([Path(env)] if env else []) + [ROOT.parent / "shared" / "corpus" / "pages"]
    for path in candidates:
        if path.is_dir():
            return path
    raise DataNotFound(
        "corpus not found; tried: " + ", ".join(map(str, candidates))
        + ". Set LEXPY_CORPUS to a folder of HTML pages.")


def conformance_extra_dir() -> Path:
    """Tree-construction cases past the suites (.dat files):
    $LEXPY_CONFORMANCE_EXTRA, then ../shared/conformance-extra/."""
    env = os.environ.get("LEXPY_CONFORMANCE_EXTRA")
    candidates = ([Path(env)] if env else []) + [ROOT.parent / "shared" / "conformance-extra"]
    for path in candidates:
        if path.is_dir() and any(path.glob("*.dat")):
            return path
    raise DataNotFound(
        "conformance-extra data not found; tried: " + ", ".join(map(str, candidates))
        + ". Set LEXPY_CONFORMANCE_EXTRA to a folder of tree-construction .dat files.")


def peer_tests_dir() -> Path:
    """The peers' own test suites, bs4-4.15.0/tests/ and html5lib-1.1/tests/:
    $LEXPY_PEER_TESTS, then ../shared/peer-tests/."""
    env = os.environ.get("LEXPY_PEER_TESTS")
    candidates = ([Path(env)] if env else []) + [ROOT.parent / "shared" / "peer-tests"]
    for path in candidates:
        if (path / "bs4-4.15.0" / "tests").is_dir() and (path / "html5lib-1.1" / "tests").is_dir():
            return path
    raise DataNotFound(
        "the peers' test suites not found; tried: " + ", ".join(map(str, candidates))
        + ". Set LEXPY_PEER_TESTS to a folder holding bs4-4.15.0/tests and "
        "html5lib-1.1/tests.")


# ---------------------------------------------------------------------------
# Tokenizer tests (JSON)
# ---------------------------------------------------------------------------

TOKENIZER_STATES = ("Data state", "PLAINTEXT state", "RCDATA state",
                    "RAWTEXT state", "Script data state", "CDATA section state")


@dataclass
class TokenizerCase:
    id: str
    file: str
    description: str
    input: str
    output: list
    errors: list
    initial_state: str
    last_start_tag: Optional[str]
    # The 2026 processing-instruction change supersedes what these tests
    # expect for "<?": they run with PI parsing off (pre-2026 behaviour).
    processing_instructions: bool


def _unescape_double(value):
    if isinstance(value, str):
        return re.sub(r"\\u([0-9A-Fa-f]{4})",
                      lambda m: chr(int(m.group(1), 16)), value)
    if isinstance(value, list):
        return [_unescape_double(v) for v in value]
    if isinstance(value, dict):
        return {_unescape_double(k): _unescape_double(v) for k, v in value.items()}
    return value


def tokenizer_cases() -> Iterator[TokenizerCase]:
    base = html5lib_tests_dir() / "tokenizer"
    for path in sorted(base.glob("*.test")):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        tests = doc.get("tests", []) + doc.get("xmlViolationTests", [])
        for index, test in enumerate(tests, 1):
            data = test["input"]
            output = test["output"]
            if test.get("doubleEscaped"):
                data = _unescape_double(data)
                output = _unescape_double(output)
            for state in test.get("initialStates", ["Data state"]):
                yield TokenizerCase(
                    id="tokenizer/%s:%d:%s" % (path.name, index,
                                               state.replace(" ", "-")),
                    file=path.name,
                    description=test["description"],
                    input=data,
                    output=output,
                    errors=test.get("errors", []),
                    initial_state=state,
                    last_start_tag=test.get("lastStartTag"),
                    processing_instructions="<?" not in data,
                )


# ---------------------------------------------------------------------------
# Tree-construction tests (.dat)
# ---------------------------------------------------------------------------

@dataclass
class TreeCase:
    id: str
    file: str
    index: int
    line: int
    data: str
    errors: list
    new_errors: list
    fragment_context: Optional[str]   # "td", "svg path", "math mi"
    scripting: bool
    document: str                     # expected dump, lines joined by "\n"
    scripted: bool = False            # needs a script engine

    def context_and_namespace(self):
        """The fragment context as lexpy takes it: ("path", "svg") for
        "svg path", ("td", "html") for "td"."""
        context = self.fragment_context
        for prefix in ("svg ", "math "):
            if context.startswith(prefix):
                return context[len(prefix):], prefix.strip()
        return context, "html"


def _dat_sections(text: str):
    """Split a .dat file into (line number, {section: lines}) per test."""
    lines = text.split("\n")
    tests = []
    current = None
    section = None
    for number, line in enumerate(lines, 1):
        if line == "#data" and (current is None or section == "document"
                                or section is None or section == "description"):
            current = {"#line": number}
            tests.append(current)
            section = "data"
            current[section] = []
            continue
        if line == "#description" and (current is None or section == "document"):
            # WPT files describe a test before its #data: the previous
            # test's document ends here, and the description is not kept.
            section = "description"
            continue
        if current is None or section == "description":
            continue
        if line.startswith("#") and line[1:] in (
                "errors", "new-errors", "document-fragment", "script-off",
                "script-on", "document"):
            # "#errors" ends the data section; a data line could start with
            # '#', so only the known headers switch sections.
            if section == "data" and line[1:] != "errors":
                current[section].append(line)
                continue
            section = line[1:]
            current.setdefault(section, [])
            continue
        current[section].append(line)
    return tests


def _tree_files():
    base = html5lib_tests_dir() / "tree-construction"
    overlay = wpt_parsing_dir()
    files = {p.name: p for p in base.glob("*.dat")}
    for p in overlay.glob("*.dat"):
        files[p.name] = p
    for name in sorted(files):
        yield name, files[name], False
    for p in sorted((base / "scripted").glob("*.dat")):
        yield "scripted/" + p.name, p, True


def tree_cases() -> Iterator[TreeCase]:
    for name, path, scripted in _tree_files():
        yield from _tree_cases_of_file("tree", name, path, scripted)


# lexpy's own regression cases, in the upstream .dat format.
HOUSE_TREE_DIR = ROOT / "tests" / "data" / "tree-construction"


def house_tree_cases() -> Iterator[TreeCase]:
    for path in sorted(HOUSE_TREE_DIR.glob("*.dat")):
        yield from _tree_cases_of_file("house", path.name, path, False)


def extra_tree_cases() -> Iterator[TreeCase]:
    """The cases of ../shared/conformance-extra/ (ids extra/FILE:N:...),
    run as the tree suite runs its own."""
    for path in sorted(conformance_extra_dir().glob("*.dat")):
        yield from _tree_cases_of_file("extra", path.name, path, False)


def _tree_cases_of_file(prefix, name, path, scripted) -> Iterator[TreeCase]:
    # No newline translation: a CR in a test's data or expected text is
    # part of the test (plain-text-unsafe.dat, domjs-unsafe.dat).
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    for index, sections in enumerate(_dat_sections(text), 1):
        data = "\n".join(sections.get("data", []))
        document_lines = sections.get("document", [])
        while document_lines and document_lines[-1] == "":
            document_lines.pop()
        fragment = sections.get("document-fragment")
        context = fragment[0] if fragment else None
        if "script-off" in sections:
            modes = [False]
        elif "script-on" in sections:
            modes = [True]
        else:
            modes = [False, True]
        for scripting in modes:
            yield TreeCase(
                id="%s/%s:%d:%s" % (prefix, name, index,
                                    "script-on" if scripting else "script-off"),
                file=name,
                index=index,
                line=sections["#line"],
                data=data,
                errors=sections.get("errors", []),
                new_errors=sections.get("new-errors", []),
                fragment_context=context,
                scripting=scripting,
                document="\n".join(document_lines),
                scripted=scripted,
            )


# ---------------------------------------------------------------------------
# Encoding tests (.dat with #data / #encoding), read as bytes
# ---------------------------------------------------------------------------

@dataclass
class EncodingCase:
    id: str
    file: str
    data: bytes
    encoding: str
    scripted: bool = False


def encoding_cases() -> Iterator[EncodingCase]:
    base = html5lib_tests_dir() / "encoding"
    paths = [(p.name, p, False) for p in sorted(base.glob("*.dat"))]
    paths += [("scripted/" + p.name, p, True)
              for p in sorted((base / "scripted").glob("*.dat"))]
    for name, path, scripted in paths:
        raw = path.read_bytes()
        chunks = raw.split(b"#data\n")
        index = 0
        for chunk in chunks:
            if not chunk.strip():
                continue
            index += 1
            data, sep, rest = chunk.partition(b"\n#encoding\n")
            if not sep:
                raise ValueError("%s: test %d has no #encoding" % (name, index))
            encoding = rest.split(b"\n", 1)[0].decode("ascii").strip()
            yield EncodingCase(
                id="encoding/%s:%d" % (name, index), file=name,
                data=data, encoding=encoding, scripted=scripted)


# ---------------------------------------------------------------------------
# Serializer tests (JSON)
# ---------------------------------------------------------------------------

@dataclass
class SerializerCase:
    id: str
    file: str
    description: str
    input: list
    expected: list
    options: dict = field(default_factory=dict)


def serializer_cases() -> Iterator[SerializerCase]:
    base = html5lib_tests_dir() / "serializer"
    for path in sorted(base.glob("*.test")):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        for index, test in enumerate(doc["tests"], 1):
            yield SerializerCase(
                id="serializer/%s:%d" % (path.name, index), file=path.name,
                description=test.get("description", ""),
                input=test["input"], expected=test["expected"],
                options=test.get("options", {}))


# ---------------------------------------------------------------------------
# CSS selectors (JSON: shared/selectors/README.md describes the fields)
# ---------------------------------------------------------------------------

SELECTOR_FILES = ("wpt-dom-qsa.json", "wpt-css-selectors.json", "soupsieve.json",
                  "extensions.json")


def selectors_dir() -> Path:
    """The selectors cases: $LEXPY_SELECTORS, then ../shared/selectors/."""
    env = os.environ.get("LEXPY_SELECTORS")
    candidates = ([Path(env)] if env else []) + [ROOT.parent / "shared" / "selectors"]
    for path in candidates:
        if all((path / name).is_file() for name in SELECTOR_FILES):
            return path
    raise DataNotFound(
        "selectors data not found; tried: " + ", ".join(map(str, candidates))
        + ". Set LEXPY_SELECTORS to a folder holding " + ", ".join(SELECTOR_FILES) + ".")


@dataclass
class SelectorCase:
    id: str                        # "selectors/FILE:CASE-ID"
    file: str
    selector: str
    html: str = ""
    scope: str = "document"        # "document", or a selector naming the context element
    expect: list = field(default_factory=list)   # ids in document order
    invalid: bool = False          # the selector must raise SelectorSyntaxError
    custom: Optional[dict] = None  # soupsieve's custom= mapping
    corrected: Optional[str] = None   # why the data's expectation was replaced
                                      # (tests/conformance/corrections.py)


def selector_cases() -> Iterator[SelectorCase]:
    """The cases of the four files, with the corrections of
    tests/conformance/corrections.py applied."""
    from tests.conformance.corrections import corrected
    for case in _selector_cases_as_written():
        correction = corrected(case.id)
        if correction is not None:
            reason, fields = correction
            case = dataclasses.replace(case, corrected=reason, **fields)
        yield case


def _selector_cases_as_written() -> Iterator[SelectorCase]:
    base = selectors_dir()
    for name in SELECTOR_FILES:
        with open(base / name, encoding="utf-8") as f:
            doc = json.load(f)
        fixtures = doc.get("fixtures", {})
        for case in doc["cases"]:
            html = case["html"] if "html" in case else fixtures[case["fixture"]]
            yield SelectorCase(
                id="selectors/%s:%s" % (name, case["id"]), file=name,
                selector=case["selector"], html=html, scope=case["scope"],
                expect=list(case["expect"]), custom=case.get("custom"))
        for case in doc["invalid"]:
            yield SelectorCase(
                id="selectors/%s:%s" % (name, case["id"]), file=name,
                selector=case["selector"], invalid=True)


def cases(suite: str):
    return {"tokenizer": tokenizer_cases, "tree": tree_cases,
            "encoding": encoding_cases, "serializer": serializer_cases,
            "extra": extra_tree_cases, "selectors": selector_cases}[suite]()
