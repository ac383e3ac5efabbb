"""A release build (no LEXPY_TEST_BUILD, as `pip install .` builds) has
none of the test entry points: the wheel built from the sdist (the
session's, tests/conftest.py) is unpacked, its compiled modules imported and every name they and their
classes define is checked against the test modules' (lexpy/*/_testing.pyi)
and the hooks the release modules used to carry."""
import ast
import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

from tests.helpers import TEST_BUILD_COMMAND

ROOT = Path(__file__).resolve().parents[2]

# The hooks that lived in the release modules before the test modules did
# (lexpy.dom.dom._test_*, TreeConstruction._fail_tokenizer_after, ...).
TEST_NAME = re.compile(r"^_test_|for_test|ForTests|^_(fail_tokenizer_after|lose_parse_state|"
                       r"formatting_census|last_formatting_signature|"
                       r"indexes_are_consistent|scratch_capacity)$")

INSPECT = """
import importlib, inspect, json, pathlib, sys
import lexpy
root = pathlib.Path(lexpy.__file__).parent
names = {}
for path in sorted(root.rglob("*.so")) + sorted(root.rglob("*.pyd")):
    module_name = ".".join(path.relative_to(root.parent).parts)[:-len(path.name)]
    module_name += path.name.split(".")[0]
    module = importlib.import_module(module_name)
    found = set(dir(module))
    for value in vars(module).values():
        if inspect.isclass(value) and getattr(value, "__module__", None) == module_name:
            found |= {"%s.%s" % (value.__name__, name) for name in vars(value)}
    names[module_name] = sorted(found)
print(json.dumps({"lexpy": str(root), "modules": names}))
"""


def _test_module_names():
    """Every function and class the test modules' stubs declare."""
    names = set()
    for stub in (ROOT / "lexpy").rglob("_testing.pyi"):
        for node in ast.parse(stub.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return names


def test_the_check_knows_the_test_entry_points():
    names = _test_module_names()
    assert {"tokenize_for_test", "count_tokens", "fail_tokenizer_after",
            "static_tag_id", "_NameTableForTests", "arena_stats"} <= names
    assert TEST_NAME.search("_test_element") and TEST_NAME.search("_fail_tokenizer_after")
    assert not TEST_NAME.search("tokenizer_feed") and not TEST_NAME.search("parse")


def test_a_release_build_has_no_test_entry_points(sdist, wheel, tmp_path):
    with tarfile.open(sdist) as tar:        # the test modules ship as source
        assert [name for name in tar.getnames() if name.endswith("/_testing.pyx")] != []
    source = tmp_path / "wheel"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(source)
    env = {k: v for k, v in os.environ.items() if k not in ("LEXPY_TEST_BUILD", "LEXPY_DEBUG")}
    inspected = subprocess.run([sys.executable, "-c", INSPECT], cwd=source,
                               capture_output=True, text=True, env=env, timeout=300)
    assert inspected.returncode == 0, inspected.stderr[-3000:]
    result = json.loads(inspected.stdout)
    assert Path(result["lexpy"]) == source / "lexpy"        # the release build's
    modules = result["modules"]
    assert "lexpy.driver.driver" in modules and "lexpy.core.core" in modules
    assert [m for m in modules if m.rsplit(".", 1)[1] == "_testing"] == []
    assert _test_entry_points(modules) == []


def _test_entry_points(modules):
    """The names of {module: [name or Class.name]} that are test entry
    points: a module attribute the test modules define, or one by the old
    hooks' names (class attributes by those only: `doctype` is a test
    module's function and the Document's property)."""
    test_names = _test_module_names()
    return ["%s: %s" % (module, name) for module, names in modules.items()
            for name in names
            if ("." not in name and name in test_names)
            or TEST_NAME.search(name.rsplit(".", 1)[-1])]


def test_the_check_finds_the_test_build_modules():
    # This checkout's build is a test build: the check finds its modules'
    # entry points (it can fail).
    inspected = subprocess.run([sys.executable, "-c", INSPECT], cwd=ROOT,
                               capture_output=True, text=True, timeout=300)
    assert inspected.returncode == 0, inspected.stderr[-3000:]
    modules = json.loads(inspected.stdout)["modules"]
    if "lexpy.tokenizer._testing" not in modules:
        raise AssertionError("not a test build: run " + TEST_BUILD_COMMAND)
    found = _test_entry_points(modules)
    assert "lexpy.tokenizer._testing: tokenize_for_test" in found
    assert "lexpy.driver._testing: fail_tokenizer_after" in found
    assert [entry for entry in found if "._testing:" not in entry] == []
