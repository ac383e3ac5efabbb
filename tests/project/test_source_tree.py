"""A source tree without its compiled modules (a checkout never built, or
one that shadows the installed lexpy because it is the current directory)
fails on `import lexpy` with one ImportError that says what happened and
what to run, and the tools stop with it instead of counting every case as
failed."""
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _unbuilt_copy(tmp_path):
    """The checkout's Python sources and tools, without any built module."""
    ignore = shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__", "*.html")
    shutil.copytree(ROOT / "lexpy", tmp_path / "lexpy", ignore=ignore)
    shutil.copytree(ROOT / "tools", tmp_path / "tools", ignore=ignore)
    (tmp_path / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "__init__.py", tmp_path / "tests")
    shutil.copytree(ROOT / "tests" / "conformance", tmp_path / "tests" / "conformance",
                    ignore=ignore)
    return tmp_path


def _run(args, cwd):
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def test_import_names_the_missing_module_and_the_fix(tmp_path):
    tree = _unbuilt_copy(tmp_path)
    result = _run(["-c", "import lexpy"], tree)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: lexpy's compiled module lexpy.")
    assert "is missing from %s" % (tree / "lexpy") in last
    assert "pip install -e ." in last and "another directory" in last
    # One error, not the chain of the module that was not found.
    assert "ModuleNotFoundError" not in result.stderr


def test_conformance_tool_stops_with_it(tmp_path):
    tree = _unbuilt_copy(tmp_path)
    result = _run(["tools/conformance.py", "--suite", "serializer"], tree)
    assert result.returncode != 0
    assert "lexpy's compiled module" in result.stderr
    assert "passed" not in result.stdout
