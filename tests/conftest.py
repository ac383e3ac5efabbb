"""Fixtures shared across test files."""
import pytest

from tests.packaging import build_sdist


@pytest.fixture(scope="session")
def sdist(tmp_path_factory):
    """The checkout's sdist, built once a run (tests/test_sdist.py checks
    it, tests/test_wheel.py builds its wheel from it)."""
    return build_sdist(tmp_path_factory.mktemp("sdist"))
