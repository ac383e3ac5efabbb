"""The tokenizer's core has no Python interaction (DESIGN.md: check
`cython -a`): tools/check_nogil.py goes through the C that Cython generates
from the states, the scanning loops, positions, character references,
convert_text, emission, the incoming buffer, the dynamic name tables and the
error list (lexpy/core) and the C API of tokenizer.pyx, and finds no Python C-API call."""
from tests.tools import load_tool


def test_no_python_interaction_in_the_tokenizer_core(tmp_path):
    check = load_tool("check_nogil")
    annotate = load_tool("annotate")
    c_file = annotate.cythonize_annotated(check.PYX, str(tmp_path))
    assert (tmp_path / "states_data.html").is_file()     # the annotated HTML
    assert check.python_lines(c_file) == []
    (tmp_path / "core").mkdir()
    c_file = annotate.cythonize_annotated(check.CORE_PYX, str(tmp_path / "core"))
    assert (tmp_path / "core" / "name_table.html").is_file()
    assert check.python_lines(c_file) == []


def test_the_check_finds_python_interaction(tmp_path):
    # A core line that calls into Python is found (the check can fail).
    check = load_tool("check_nogil")
    c_file = tmp_path / "module.c"
    c_file.write_text(
        "static int __pyx_f_5lexpy_9tokenizer_9tokenizer_state_data(void) {\n"
        '  /* "lexpy/tokenizer/states_data.pxi":12\n'
        "  __pyx_t_1 = PyObject_GetAttr(__pyx_v_x, __pyx_n_s_y);\n"
        "}\n")
    assert [(source, line) for source, line, _, _ in check.python_lines(str(c_file))] == [
        ("states_data.pxi", 12)]
