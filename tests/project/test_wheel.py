"""The wheel, made as `python -m build` makes it (the sdist, then a wheel
built from the sdist): it holds the compiled modules setup.py lists,
release-built, beside the package's Python, stubs and .pxd declarations,
and no Cython or C source; it installs in a fresh virtual environment with
no compiler on PATH and without Cython, and tests/project/smoke.py run there, from
a directory outside the checkout, gives what it gives with the checkout's
own build. pyproject.toml's cibuildwheel configuration selects CPython
3.9-3.14 wheels for Linux, macOS and Windows."""
import json
import os
import runpy
import shlex
import shutil
import struct
import subprocess
import sys
import sysconfig
import zipfile

import pytest

from tests.project import smoke
from tests.packaging import ROOT, builds_again, clean_environment, run_in_fresh_venv

# What a build might call: none may be found on the PATH the wheel installs
# and runs with.
COMPILERS = ("cc", "gcc", "clang", "c++", "g++", "clang++", "x86_64-linux-gnu-gcc",
             "cython", "cythonize")
# Where a build would look for its compiler instead: a name that fails.
NO_COMPILER = "/nonexistent/no-compiler-may-run"
CPYTHONS = ["cp39", "cp310", "cp311", "cp312", "cp313", "cp314"]


def release_modules():
    """The compiled modules of a release build, by name: one per .pyx of
    lexpy/, but private ones (a leading '_': test-only modules, in lxml's
    _testlock manner, which a release does not ship)."""
    return sorted(".".join(path.relative_to(ROOT).with_suffix("").parts)
                  for path in (ROOT / "lexpy").rglob("*.pyx")
                  if not path.name.startswith("_"))


def elf_section_names(image):
    """The section names of an ELF shared object (32- or 64-bit, either
    byte order)."""
    assert image[:4] == b"\x7fELF"
    wide = image[4] == 2
    order = "<" if image[5] == 1 else ">"
    if wide:
        (table,) = struct.unpack_from(order + "Q", image, 0x28)
        entry, count, names_index = struct.unpack_from(order + "HHH", image, 0x3A)
    else:
        (table,) = struct.unpack_from(order + "I", image, 0x20)
        entry, count, names_index = struct.unpack_from(order + "HHH", image, 0x2E)

    def section(index):
        base = table + index * entry
        (name,) = struct.unpack_from(order + "I", image, base)
        offset = struct.unpack_from(order + ("Q" if wide else "I"), image,
                                    base + (0x18 if wide else 0x10))[0]
        return name, offset

    strings = section(names_index)[1]
    names = set()
    for index in range(count):
        start = strings + section(index)[0]
        names.add(image[start:image.index(b"\0", start)].decode("ascii"))
    return names


@builds_again
def test_the_wheel_holds_compiled_modules_python_and_stubs_and_no_sources(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = [name for name in archive.namelist() if name.startswith("lexpy/")]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    compiled = [name for name in names if name.endswith(suffix)]
    assert sorted(name[:-len(suffix)].replace("/", ".") for name in compiled) \
        == release_modules()
    # pyproject's package-data: .pxd and .pyi files and py.typed, besides
    # the .py modules; nothing else (no .pyx, .pxi, .c, .h).
    # (Not the stubs of the test-only modules: pyproject's
    # exclude-package-data.)
    expected = {path.relative_to(ROOT).as_posix() for path in (ROOT / "lexpy").rglob("*")
                if (path.suffix in (".py", ".pyi", ".pxd") or path.name == "py.typed")
                and "__pycache__" not in path.parts and not path.name.startswith("_testing")}
    assert set(names) - set(compiled) == expected


@builds_again
@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="reads ELF: setup.py strips the symbol tables on Linux")
def test_the_wheels_modules_are_release_builds(wheel):
    # A release build has no debug information (a LEXPY_DEBUG=1 build
    # has, from -g) and no symbol table (setup.py links with -s).
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name.endswith(sysconfig.get_config_var("EXT_SUFFIX")):
                sections = elf_section_names(archive.read(name))
                assert ".text" in sections, name
                assert sorted(s for s in sections if s.startswith(".debug")) == [], name
                assert ".symtab" not in sections, name


@builds_again
def test_a_release_build_with_gcc_is_profile_guided(wheel):
    # setup.py's PGO steps ran (the training printed its summary) and none
    # failed, wherever the compiler is GCC 10 or later; elsewhere the build
    # is plain and says nothing of it
    setup = runpy.run_path(str(ROOT / "setup.py"), run_name="setup")
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    log = (wheel.parent / "build.log").read_text(encoding="utf-8")
    if setup["gcc_major"](compiler) >= 10 and not setup["MSVC"]:
        assert "pgo_train: " in log, log[-3000:]
        assert "-fprofile-use" in log and "-fprofile-generate" in log, log[-3000:]
        assert "profile-guided build failed" not in log, log[-3000:]
    else:
        assert "pgo_train: " not in log


@builds_again
def test_the_wheel_installs_and_runs_without_a_compiler_or_cython(wheel, tmp_path):
    venv_dir = tmp_path / "venv"
    # A PATH of an empty folder: after activation, the new environment's
    # bin/ (its python and pip) before it, and nothing else.
    nothing = tmp_path / "no-tools"
    nothing.mkdir()
    env = clean_environment()
    env.update(PATH=str(nothing), CC=NO_COMPILER, CXX=NO_COMPILER, LDSHARED=NO_COMPILER,
               CPP=NO_COMPILER)
    run_dir = tmp_path / "elsewhere"
    run_dir.mkdir()
    results = run_dir / "results.json"
    command = " && ".join([
        "python -m pip install --no-index --no-deps %s" % shlex.quote(str(wheel)),
        # (the one dependency smoke.py's extract_record needs: lexpy.corpus
        # resolves links with lexpy.extract, whose WHATWG URL parser is
        # ada-url, of the corpus extra; a binary wheel, so still no compiler)
        "python -m pip install --only-binary :all: ada-url",
        # (the checks of the PATH the smoke test runs with, in that
        # environment)
        "python -c \"import importlib.util, shutil, sys; "
        "found = [t for t in %r if shutil.which(t)]; "
        "sys.exit('found %%s' %% found if found else "
        "'Cython is installed' if importlib.util.find_spec('Cython') else 0)\""
        % (COMPILERS,),
        "python %s > %s" % (shlex.quote(str(ROOT / "tests" / "project" / "smoke.py")),
                            shlex.quote(str(results))),
    ])
    run = run_in_fresh_venv(run_dir, venv_dir, command, env, timeout=900)
    output = run.stdout.decode("utf-8", "replace")
    assert run.returncode == 0, output[-5000:]
    assert "Successfully installed lexpy" in output, output[-3000:]
    # No compiler on the PATH it ran with, as a build would look it up.
    tools_path = os.pathsep.join([str(venv_dir / "bin"), str(nothing)])
    assert [tool for tool in COMPILERS if shutil.which(tool, path=tools_path)] == []
    installed = json.loads(results.read_text(encoding="utf-8"))
    assert installed.pop("compiled_modules") == release_modules()
    assert installed == json.loads(json.dumps(smoke.results()))


def test_cibuildwheel_builds_cpython_3_9_to_3_14_for_linux_macos_and_windows(tmp_path):
    # Each platform's identifiers (python-platform) as cibuildwheel reads
    # pyproject.toml; Linux's architecture is the machine's own.
    platforms = {"linux": None, "macos": {"macosx_x86_64", "macosx_arm64"},
                 "windows": {"win_amd64"}}
    for platform, tags in platforms.items():
        run = subprocess.run([sys.executable, "-m", "cibuildwheel",
                              "--print-build-identifiers", "--platform", platform,
                              str(ROOT)],
                             capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr
        identifiers = [line.split("-", 1) for line in run.stdout.split()]
        assert sorted({python for python, _ in identifiers}) == sorted(CPYTHONS), identifiers
        found = {tag for _, tag in identifiers}
        if tags is None:
            assert {tag.split("_", 1)[0] for tag in found} == {"manylinux", "musllinux"}, found
        else:
            assert found == tags
        # one wheel a Python and platform tag
        assert len(identifiers) == len(CPYTHONS) * len(found)
