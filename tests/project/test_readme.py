"""The README: its two commands are at the top and CI runs the second one
exactly; every example of its tour runs as shown (doctest); and, with
LEXPY_TEST_README=1 (.ci/run sets it), the first command works as written
in a fresh virtual environment from a clean clone of the repository.

The second command (the test build and the whole suite) is not run again
in here: .ci/run is that command, run on a clean checkout in a fresh
environment (test_ci_runs_the_readme_test_command holds the two to each
other), so CI's own run is its proof. Running it again inside, even only
its install, its collection and the tests of the test-only modules, cost a
second test build and a second install of the test extra, and proved
nothing CI's run does not (with it, this test took 1,631 s of a 6,344 s
run of the suite on a loaded machine here, the longest of all by far)."""
import doctest
import shutil
import subprocess

from tests.packaging import ROOT, builds_again, clean_environment, run_in_fresh_venv

README = (ROOT / "README.md").read_text(encoding="utf-8")
# From examples/, so that `python -m lexpy` imports the installed package (in
# the checkout's root the current directory, first on sys.path, would give
# the sources of lexpy/, which are not compiled there).
INSTALL_AND_RUN = ("python -m pip install . && "
                   "(cd examples && python -m lexpy --dump example.html)")
INSTALL_AND_TEST = 'LEXPY_TEST_BUILD=1 python -m pip install -e ".[test]" && python -m pytest'


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


@builds_again
def test_the_install_command_works_from_a_clean_clone(tmp_path):
    clone = tmp_path / "lexpy"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True,
                   timeout=300)
    env = clean_environment()

    first = run_in_fresh_venv(clone, tmp_path / "venv-run", INSTALL_AND_RUN, env)
    output = first.stdout.decode("utf-8", "replace")
    assert first.returncode == 0, output
    assert "| <!DOCTYPE html>\n| <html>\n|   <head>\n" in output
    # The installed lexpy ran: the install left no compiled module in the
    # checkout (setup.py copies none there).
    assert sorted(p.name for p in (clone / "lexpy").rglob("*.so")) == []

    shutil.rmtree(clone, ignore_errors=True)
