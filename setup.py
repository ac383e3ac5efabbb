"""Build of lexpy's compiled modules: one extension per subpackage.

Set LEXPY_DEBUG=1 to build with bounds checks, wraparound checks and line
tracing (for coverage and debugging), LEXPY_TEST_BUILD=1 to build the
test-only modules beside the others (what the tests need; the symbol tables
are kept); any other value, or none, is a release build: optimized, without
debug information, and (on Linux) with the symbol tables stripped, as the
release wheels ship.

A release build with GCC is profile-guided (PGO): the modules are built
once instrumented, tools/pgo_train.py runs a generated workload through
them, and they are built again with the profile (-fprofile-use; functions
the workload never ran are compiled as usual: -fprofile-partial-training).
The same code, laid out for the paths pages take: about 7% fewer
instructions for a parse. LEXPY_PGO=0 builds without it; any failure of
the two extra steps falls back to the plain build. Other compilers (Clang,
MSVC), debug and test builds are built plainly.
"""
import os
import re
import subprocess
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("LEXPY_DEBUG", "") == "1"
# A test build adds the test-only modules (lexpy/*/_testing.pyx: the hooks
# and Python views the tests and tools use); a release build has none.
TEST_BUILD = os.environ.get("LEXPY_TEST_BUILD", "") == "1"

COMPILER_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": True,
    "initializedcheck": DEBUG,
    "nonecheck": False,
    "embedsignature": True,
    "linetrace": DEBUG,
    "profile": False,
}

MACROS = [("CYTHON_TRACE_NOGIL", "1")] if DEBUG else []
# MSVC (CPython's compiler on Windows) writes no debug information unless
# asked; GCC and Clang get -g from Python's own CFLAGS, which -g0 undoes.
MSVC = sys.platform == "win32"
if DEBUG:
    CFLAGS = ["/Od", "/Zi"] if MSVC else ["-O0", "-g"]
else:
    CFLAGS = ["/O2"] if MSVC else ["-O2", "-g0"]
# Release builds are stripped on Linux; a test build keeps the symbol tables
# (the instruction-counted tests name functions for callgrind).
LDFLAGS = ["-s"] if not DEBUG and not TEST_BUILD and sys.platform.startswith("linux") else []


def extension(module, uses=(), depends=()):
    """One compiled module; `depends` lists the .pxi/.h files it includes,
    `uses` the packages below it whose headers it includes (on its include
    path; tests/project/test_architecture.py checks they are below it)."""
    source = module.replace(".", "/") + ".pyx"
    package_dir = os.path.dirname(source)
    include_dirs = [package_dir] + ["lexpy/" + package for package in uses]
    headers = [os.path.join(d, h) for d in include_dirs[1:] for h in files(d, ".h")]
    return Extension(
        module,
        [source],
        depends=sorted(set([os.path.join(package_dir, d) for d in depends] + headers)),
        include_dirs=include_dirs,
        define_macros=MACROS,
        extra_compile_args=CFLAGS,
        extra_link_args=LDFLAGS,
    )


def files(package, pattern_suffix):
    return sorted(
        os.path.relpath(os.path.join(root, name), package)
        for root, _, names in os.walk(package)
        for name in names
        if name.endswith(pattern_suffix)
    )


# In the layers' order (README, Layout): each module after those it cimports.
EXTENSIONS = [
    extension("lexpy.core.core", depends=files("lexpy/core", ".pxi") + files("lexpy/core", ".h")),
    extension("lexpy.tokenizer.tokenizer", uses=["core"],
              depends=files("lexpy/tokenizer", ".pxi") + files("lexpy/tokenizer", ".h")),
    extension("lexpy.encoding.encoding", uses=["core"],
              depends=files("lexpy/encoding", ".pxi") + files("lexpy/encoding", ".h")),
    extension("lexpy.dom.dom", uses=["core"],
              depends=files("lexpy/dom", ".pxi") + files("lexpy/dom", ".h")),
    extension("lexpy.treebuilder.treebuilder", uses=["core"],
              depends=files("lexpy/treebuilder", ".pxi")),
    extension("lexpy.driver.driver", uses=["core"], depends=files("lexpy/driver", ".pxi")),
    extension("lexpy.selectors.selectors", uses=["core"],
              depends=files("lexpy/selectors", ".pxi") + files("lexpy/selectors", ".h")),
    extension("lexpy.text.text", uses=["core"], depends=files("lexpy/text", ".pxi")),
    extension("lexpy.xpath.xpath", uses=["core"], depends=files("lexpy/xpath", ".pxi")),
    extension("lexpy.extract.tables", uses=["core"]),
    extension("lexpy.extract.extractor", uses=["core"], depends=files("lexpy/extract", ".pxi")),
    extension("lexpy.sanitizer.walk", uses=["core"], depends=files("lexpy/sanitizer", ".pxi")),
    extension("lexpy.rewriter.engine", uses=["core"]),
    extension("lexpy.rewriter.decoding", uses=["core"]),
    extension("lexpy.corpus.urls", uses=["core"]),
    extension("lexpy.corpus.members", uses=["core"]),
]

# The test-only modules, each beside the module whose C API it drives.
TEST_EXTENSIONS = [
    extension("lexpy.core._testing"),
    extension("lexpy.tokenizer._testing", uses=["core"]),
    extension("lexpy.dom._testing", uses=["core"]),
    extension("lexpy.driver._testing", uses=["core"]),
]


# Only when run as the build script (pip, python setup.py ...): the tests
# read EXTENSIONS without building.
TRAINING_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools",
                               "pgo_train.py")


class ProfileGuidedBuildExt(build_ext):
    """build_ext with the profile-guided steps (the module docstring)."""

    PROFILE_GENERATE = ["-fprofile-generate", "-fprofile-update=single"]
    PROFILE_USE = ["-fprofile-use", "-fprofile-partial-training", "-fprofile-correction",
                   "-Wno-missing-profile", "-Wno-coverage-mismatch"]

    def run(self):
        self._compiler_option = self.compiler
        if not self._profile_guided():
            super().run()
            return
        try:
            for folder, _, names in os.walk(self.build_temp):
                for name in names:          # the counts of an earlier build
                    if name.endswith(".gcda"):
                        os.remove(os.path.join(folder, name))
            self._build_with(self.PROFILE_GENERATE)
            self._train()
            self._build_with(self.PROFILE_USE)
        except Exception as error:  # noqa: BLE001 - the plain build is always there
            print("lexpy: the profile-guided build failed (%s); building without it" % error,
                  file=sys.stderr)
            self._build_with([])

    def _profile_guided(self):
        if DEBUG or TEST_BUILD or MSVC or os.environ.get("LEXPY_PGO", "1") == "0":
            return False
        if not os.path.exists(TRAINING_SCRIPT):
            return False
        import sysconfig
        command = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
        return gcc_major(command) >= 10

    def _build_with(self, flags):
        for ext in self.extensions:
            base = [f for f in ext.extra_compile_args
                    if f not in self.PROFILE_GENERATE + self.PROFILE_USE]
            ext.extra_compile_args = base + flags
            ext.extra_link_args = [f for f in ext.extra_link_args
                                   if f not in self.PROFILE_GENERATE + self.PROFILE_USE] + \
                [f for f in flags if f.startswith("-fprofile-generate")]
        self.force = True
        # (run() replaces the compiler option by the compiler it made)
        self.compiler = self._compiler_option
        super().run()

    def _train(self):
        # the modules just built first on the path: in place, or the build's
        # library folder (build_py has copied the .py files there already)
        where = os.path.abspath("." if self.inplace else self.build_lib)
        env = dict(os.environ, PYTHONPATH=where + os.pathsep + os.environ.get("PYTHONPATH", ""))
        subprocess.run([sys.executable, TRAINING_SCRIPT], check=True, env=env,
                       stdout=sys.stderr)


def gcc_major(command):
    """GCC's major version behind `command` (0: not GCC, or unknown)."""
    try:
        out = subprocess.run([command, "--version"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return 0
    if "Free Software Foundation" not in out or "clang" in out.lower():
        return 0
    match = re.search(r"(\d+)\.\d+(\.\d+)?\s*$", out.splitlines()[0] if out else "")
    return int(match.group(1)) if match else 0


if __name__ == "__main__":
    setup(
        cmdclass={"build_ext": ProfileGuidedBuildExt},
        ext_modules=cythonize(
            EXTENSIONS + (TEST_EXTENSIONS if TEST_BUILD else []),
            compiler_directives=COMPILER_DIRECTIVES,
            include_path=["."],
        ),
    )
