"""Sessions for refgrad: tests (the default), book, site, oracle, lint and bench.

    python3 noxfile.py                   # the tests
    python3 noxfile.py -s book -- serve  # build the book and serve it on 127.0.0.1:8000

When nox is not installed, running this file installs it into .nox/ first.
"""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
BOOTSTRAP = ROOT / ".nox" / "_bootstrap"


def _bootstrap() -> None:
    """Install nox into .nox/_bootstrap and run this file again with it."""
    python = BOOTSTRAP / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(BOOTSTRAP)], check=True)
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run([*pip, "nox"], check=True)
    os.execv(str(python), [str(python), __file__, *sys.argv[1:]])


if __name__ == "__main__":
    try:
        import nox
    except ImportError:
        _bootstrap()
    sys.argv = [sys.argv[0], "--noxfile", __file__, *sys.argv[1:]]
    sys.exit(nox.main())

import nox  # noqa: E402 - after the bootstrap above

nox.options.sessions = ["tests"]
nox.options.reuse_existing_virtualenvs = True

BOOK = ROOT / "book"
BUILD = BOOK / "_build"
SITE = BUILD / "html"


def _install(session, *extras: str) -> None:
    session.install("--quiet", "--disable-pip-version-check", "-e", f".[{','.join(extras)}]")


@nox.session
def tests(session):
    """Tangle check, white-box tests, the book's doctests, and conformance on refgrad."""
    _install(session, "test")
    session.run("python", "book/tangle.py", "--check")
    session.run("pytest", "tests", "book/chapters", "conformance", *session.posargs)


def _sources_hash() -> str:
    """What the executed chapters depend on besides their own cells."""
    digest = hashlib.sha256()
    for pattern in ("src/**/*.py", "book/*.py", "book/chapters/*.py"):
        for path in sorted(ROOT.glob(pattern)):
            digest.update(path.as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


def build_book(session) -> None:
    """Execute every chapter and build the HTML site, failing on any warning."""
    _install(session, "book")
    session.run("python", "book/tangle.py", "--check")
    stamp = BUILD / ".sources-hash"
    fresh = _sources_hash()
    options = []
    # NOTE [Stale execution cache]: the cache keys a notebook on its own cells, but a
    # chapter's outputs also depend on the package. Any change to src/ drops the cache.
    # A fresh checkout (as in CI) has no stamp, so everything executes there.
    if not stamp.exists() or stamp.read_text() != fresh:
        shutil.rmtree(BUILD, ignore_errors=True)
        options = ["-E", "-D", "nb_execution_mode=force"]
    session.run(
        "sphinx-build", "-W", "--keep-going", "-n", "-T", "-b", "html", *options,
        str(BOOK), str(SITE),
    )
    stamp.write_text(fresh)


@nox.session
def book(session):
    """Build the book; with `-- serve`, serve it on http://127.0.0.1:8000."""
    build_book(session)
    if "serve" in session.posargs:
        session.log("Serving the book on http://127.0.0.1:8000 (Ctrl-C stops)")
        session.run("python", "-m", "http.server", "8000", "--bind", "127.0.0.1",
                    "--directory", str(SITE))


@nox.session
def site(session):
    """Build the book and check it in headless Chromium."""
    build_book(session)
    _install(session, "site")
    session.run("pytest", "book/site_check", *session.posargs)


@nox.session
def oracle(session):
    """Run the conformance suite against real torch 2.13, and compare refgrad with it."""
    _install(session, "test", "oracle")
    # The repository root on the path: oracle tests reuse the recipes in tests/.
    session.run("pytest", "conformance", *session.posargs,
                env={"REFGRAD_CONFORMANCE_TARGET": "torch", "PYTHONPATH": str(ROOT)})


@nox.session
def lint(session):
    session.install("--quiet", "ruff")
    session.run("ruff", "check", "src", "tests", "conformance", "book", "noxfile.py")


@nox.session
def bench(session):
    """Benchmarks side by side: refgrad, torch (1 and default threads), a NumPy floor.

    Writes book/bench/bench.json and bench.md, which the chapter "What it costs"
    shows; `-- --quick` is a short trial run into bench-results/ instead.
    """
    _install(session, "oracle")
    session.run("python", "tests/bench/run.py", *session.posargs)
