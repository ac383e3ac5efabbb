"""Builds and fresh virtual environments shared by the packaging tests
(tests/test_sdist.py, tests/test_wheel.py, tests/test_readme.py)."""
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The tests that build, install and test lexpy again (minutes each) run
# when LEXPY_TEST_README=1, which .ci/run sets.
builds_again = pytest.mark.skipif(
    os.environ.get("LEXPY_TEST_README") != "1",
    reason="builds and installs lexpy again: set LEXPY_TEST_README=1 (.ci/run does)")


def build_sdist(outdir):
    """`python -m build --sdist` of the checkout into `outdir`: the path of
    the archive. (No isolation: this machine may have no network. An sdist
    needs none of the build requirements but setuptools, which the tests
    run with: the check for the others is skipped.)"""
    built = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation",
                            "--skip-dependency-check", "--outdir", str(outdir), str(ROOT)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (archive,) = Path(outdir).glob("lexpy-*.tar.gz")
    return archive


def build_wheel(sdist, outdir):
    """The wheel built from `sdist` (as `python -m build` makes it: the
    sdist unpacked, cythonized and compiled), a release build (LEXPY_DEBUG
    and LEXPY_TEST_BUILD unset), with the build requirements of this
    environment (no isolation, as build_sdist): the path of the wheel."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("LEXPY_")}
    # (-v: the build's own output, kept as build.log beside the wheel)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps",
                            "--no-build-isolation", "--wheel-dir", str(outdir), str(sdist)],
                           capture_output=True, text=True, env=env, timeout=1800)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (Path(outdir) / "build.log").write_text(built.stdout + built.stderr, encoding="utf-8")
    (wheel,) = Path(outdir).glob("lexpy-*.whl")
    return wheel


def clean_environment():
    """os.environ without this run's virtual environment, Python and lexpy
    variables, and PATH without this environment's bin directory."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("VIRTUAL_ENV", "PYTHON", "LEXPY_"))}
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep)
        if not p.startswith(str(Path(sys.prefix))))
    return env


def run_in_fresh_venv(cwd, venv_dir, command, env, timeout=3000):
    """`command` (bash) run in `cwd` with a new virtual environment at
    `venv_dir` activated, stdout and stderr together."""
    venv.EnvBuilder(with_pip=True, clear=True).create(venv_dir)
    script = ". %s/bin/activate && %s" % (venv_dir, command)
    # bash found here, so that `env` may have a PATH without it
    return subprocess.run([shutil.which("bash"), "-c", script], cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=timeout)
