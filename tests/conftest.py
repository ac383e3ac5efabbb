"""Fixtures shared across test files."""
import pytest

from tests.packaging import build_sdist, build_wheel


@pytest.fixture(scope="session")
def sdist(tmp_path_factory):
    """The checkout's sdist, built once a run (tests/test_sdist.py checks
    it, tests/test_wheel.py builds its wheel from it)."""
    return build_sdist(tmp_path_factory.mktemp("sdist"))


@pytest.fixture(scope="session")
def wheel(sdist, tmp_path_factory):
    """The release-built wheel of that sdist, built once a run (compiling
    takes minutes: tests/project/test_wheel.py and test_release_build.py
    share it)."""
    return build_wheel(sdist, tmp_path_factory.mktemp("wheel"))
