"""The README: its two commands are at the top and CI runs the second one
exactly; every example of its tour runs as shown (doctest); and, with
LEXPY_TEST_README=1 (.ci/run sets it), both commands work as written in
fresh virtual environments from a clean clone of the repository.

The test command's run here proves its install step (a test build, from a
clean clone, in a fresh environment) and that pytest collects the whole
suite against that build, then runs the tests of the test-only modules
(`lexpy/*/_testing.pyx`, which only a test build has). It does not run the
whole suite a second time: CI runs the same command in full on a clean
checkout (.ci/run, held to the README by test_ci_runs_the_readme_test_command),
and a second full run inside it doubled CI's time."""
import doctest
import shutil
import subprocess

from tests.conformance import data
from tests.packaging import ROOT, builds_again, clean_environment, run_in_fresh_venv

README = (ROOT / "README.md").read_text(encoding="utf-8")
# From examples/, so that `python -m lexpy` imports the installed package (in
# the checkout's root the current directory, first on sys.path, would give
# the sources of lexpy/, which are not compiled there).
INSTALL_AND_RUN = ("python -m pip install . && "
                   "(cd examples && python -m lexpy --dump example.html)")
INSTALL_AND_TEST = 'LEXPY_TEST_BUILD=1 python -m pip install -e ".[test]" && python -m pytest'
# The tests of the test-only modules: lexpy.core._testing, lexpy.tokenizer._testing,
# lexpy.dom._testing and lexpy.driver._testing (the tree builder's).
TEST_BUILD_TESTS = ["tests/core", "tests/tokenizer", "tests/dom", "tests/treebuilder"]


def test_the_two_commands_are_at_the_top():
    top = README[:README.index("## A quick tour")]
    assert "```sh\n%s\n```" % INSTALL_AND_RUN in top
    assert "```sh\n%s\n```" % INSTALL_AND_TEST in top


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().splitlines()[-1] == INSTALL_AND_TEST


def test_the_tour_runs_as_shown():
    failures, attempted = doctest.testfile(str(ROOT / "README.md"),
                                           module_relative=False, verbose=False,
                                           report=True)
    assert attempted >= 30
    assert failures == 0


def _data_environment():
    """The test data this run found, for the tests of the clean clone (which
    has neither the submodule's files nor ../shared beside it)."""
    return {"LEXPY_HTML5LIB_TESTS": str(data.html5lib_tests_dir()),
            "LEXPY_WPT_PARSING": str(data.wpt_parsing_dir()),
            "LEXPY_CORPUS": str(data.corpus_dir()),
            "LEXPY_WHATWG_ENCODING": str(data.whatwg_encoding_dir()),
            "LEXPY_CONFORMANCE_EXTRA": str(data.conformance_extra_dir()),
            "LEXPY_SELECTORS": str(data.selectors_dir())}


@builds_again
def test_the_two_commands_work_from_a_clean_clone(tmp_path):
    clone = tmp_path / "lexpy"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True,
                   timeout=300)
    # The layout of a checkout beside the shared test data (as CI has it),
    # and the variables that point at the data this run found.
    shared = ROOT.parent / "shared"
    if shared.is_dir():
        (tmp_path / "shared").symlink_to(shared.resolve())
    env = clean_environment()
    env.update(_data_environment())

    first = run_in_fresh_venv(clone, tmp_path / "venv-run", INSTALL_AND_RUN, env)
    output = first.stdout.decode("utf-8", "replace")
    assert first.returncode == 0, output
    assert "| <!DOCTYPE html>\n| <html>\n|   <head>\n" in output
    # The installed lexpy ran: the install left no compiled module in the
    # checkout (setup.py copies none there).
    assert sorted(p.name for p in (clone / "lexpy").rglob("*.so")) == []

    # The command as written, its pytest collecting the whole suite (exit
    # status 0: no module failed to import or to find its data).
    collect = dict(env, PYTEST_ADDOPTS="--collect-only -qq -p no:cacheprovider")
    second = run_in_fresh_venv(clone, tmp_path / "venv-test", INSTALL_AND_TEST, collect)
    output = second.stdout.decode("utf-8", "replace")
    assert second.returncode == 0, output[-5000:]
    collected = sum(int(line.rsplit(": ", 1)[1]) for line in output.splitlines()
                    if line.startswith("tests/") and ": " in line)
    assert collected >= 10000, output[-2000:]
    # Then, in the environment it made, the tests that drive the C layers
    # through the test-only modules.
    third = subprocess.run(
        [str(tmp_path / "venv-test" / "bin" / "python"), "-m", "pytest", "-q",
         "-p", "no:cacheprovider", *TEST_BUILD_TESTS],
        cwd=clone, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        timeout=1800)
    output = third.stdout.decode("utf-8", "replace")
    assert third.returncode == 0, output[-5000:]
    assert " passed" in output.splitlines()[-1], output[-2000:]
    shutil.rmtree(clone, ignore_errors=True)
