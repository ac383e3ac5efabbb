"""Typing: py.typed and a .pyi stub for every compiled module are shipped;
the stubs agree with the compiled modules (mypy.stubtest); mypy --strict
passes on the package and on examples/tour.py, and catches misuse of the
API; the example runs."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "lexpy"
COMPILED = sorted(p.relative_to(ROOT) for p in PACKAGE.rglob("*.pyx"))


def mypy(*args, cwd=ROOT):
    process = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(ROOT / ".mypy_cache"), *map(str, args)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd, timeout=600)
    return process.returncode, process.stdout.decode()


def test_the_package_is_marked_typed():
    assert (PACKAGE / "py.typed").is_file()
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"*" = ["*.pxd", "*.pyi", "py.typed"]' in pyproject


@pytest.mark.parametrize("module", COMPILED, ids=[str(p) for p in COMPILED])
def test_every_compiled_module_has_a_stub(module):
    assert (ROOT / module).with_suffix(".pyi").is_file()


def test_stubs_agree_with_the_compiled_modules():
    modules = [".".join(p.with_suffix("").parts) for p in COMPILED]
    process = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--mypy-config-file",
         str(ROOT / "pyproject.toml"), "--allowlist",
         str(ROOT / "tests" / "stubtest_allowlist.txt"), *modules],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT, timeout=600)
    output = process.stdout.decode()
    assert process.returncode == 0, output
    assert "Success" in output


def test_mypy_strict_passes_on_the_package_and_the_example():
    status, output = mypy("--strict", "lexpy", "examples/tour.py")
    assert status == 0, output
    assert output.startswith("Success")


def test_mypy_catches_misuse_of_the_api(tmp_path):
    script = tmp_path / "misuse.py"
    script.write_text(
        "import lexpy\n"
        "doc = lexpy.parse(3)\n"
        "name: str = lexpy.parse('x').body.local_name\n"
        "fragment = lexpy.Parser(context='td').close()\n"
        "fragment.body\n"
        "lexpy.parse('x', scripting='yes')\n"
        "for e in lexpy.parse('x').iter():\n"
        "    e.data\n")
    status, output = mypy("--strict", script)
    assert status == 1
    for message in ['Argument 1 to "parse" has incompatible type "int"',
                    'Item "None" of "Element | None" has no attribute "local_name"',
                    '"DocumentFragment" has no attribute "body"',
                    'Argument "scripting" to "parse" has incompatible type "str"',
                    '"Element" has no attribute "data"']:
        assert message in output, output


def test_the_example_runs():
    # The checkout first on the path, as the tests import it.
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.run([sys.executable, "examples/tour.py"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             timeout=120, env=env)
    assert process.returncode == 0, process.stderr.decode()
    out = process.stdout.decode()
    assert "cells: ['a table cell', 'another']" in out
    assert 'outer html: <p id="note" class="added by-tour">Added by <em>the tour</em>.</p>' in out
    assert "incremental: <p>split &amp; across <b>chunks</b></p>" in out
