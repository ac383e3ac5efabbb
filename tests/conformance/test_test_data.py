"""The conformance data is found where DESIGN.md says, and a missing copy is
a loud error, never a silent skip."""
import pytest

from tests.conformance import data


def test_html5lib_tests_found():
    path = data.html5lib_tests_dir()
    assert (path / "tokenizer" / "test1.test").is_file()


def test_wpt_overlay_found():
    path = data.wpt_parsing_dir()
    assert (path / "processing-instructions.dat").is_file()


def test_missing_data_is_an_error(monkeypatch, tmp_path):
    monkeypatch.setenv("LEXPY_HTML5LIB_TESTS", str(tmp_path / "nowhere"))
    monkeypatch.setattr(data, "ROOT", tmp_path)
    with pytest.raises(data.DataNotFound, match="LEXPY_HTML5LIB_TESTS"):
        data.html5lib_tests_dir()


def test_environment_variable_wins(monkeypatch):
    real = data.html5lib_tests_dir()
    monkeypatch.setenv("LEXPY_HTML5LIB_TESTS", str(real))
    assert data.html5lib_tests_dir() == real


def test_suite_sizes():
    # The real totals the conformance report counts against.
    assert sum(1 for _ in data.tokenizer_cases()) == 7036   # 6,810 tests x states
    tree = list(data.tree_cases())
    assert len({(c.file, c.index) for c in tree}) == 1944
    assert sum(1 for _ in data.encoding_cases()) == 83
    assert sum(1 for _ in data.serializer_cases()) == 230


def test_wpt_file_replaces_html5lib_file():
    tree = [c for c in data.tree_cases() if c.file == "processing-instructions.dat"]
    assert tree, "the WPT-only file is collected"
    tests1 = [c for c in data.tree_cases() if c.file == "tests1.dat"]
    overlay = (data.wpt_parsing_dir() / "tests1.dat").read_text(encoding="utf-8")
    assert tests1[0].data in overlay


def test_description_belongs_to_no_expected_tree():
    # WPT .dat files put "#description" before a test's "#data"; it must not
    # end up in the previous test's expected document.
    for case in data.tree_cases():
        assert "#description" not in case.document, case.id


def test_carriage_returns_in_tree_tests_are_kept():
    # plain-text-unsafe.dat expects a CR from &#x000D; in the tree: the
    # reader must not translate newlines.
    case = next(c for c in data.tree_cases()
                if c.file == "plain-text-unsafe.dat" and c.index == 1)
    assert "FOO\rZOO" in case.document
