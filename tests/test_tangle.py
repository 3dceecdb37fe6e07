"""The tangler: src/ is exactly what the book produces, and drift is caught."""

import shutil
import subprocess
import sys
from pathlib import Path

import jupytext
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book"))
import tangle  # noqa: E402

CELL = "```{{code-cell}} ipython3\n{body}\n```\n"


def run_check(book: Path, src: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "book" / "tangle.py"), "--check", "--book", str(book),
         "--src", str(src)],
        capture_output=True, text=True,
    )


@pytest.fixture
def tiny_book(tmp_path):
    """A two-chapter book and the src/ it tangles to."""
    chapters = tmp_path / "book" / "chapters"
    chapters.mkdir(parents=True)
    (chapters / "01_a.md").write_text(
        "# A\n\n" + CELL.format(body="#| export refgrad/a.py\nX = 1")
        + CELL.format(body="print('a demo cell stays in the book')")
        + CELL.format(body=":tags: [hide-input]\n#| export refgrad/__init__.py\nimport os")
    )
    (chapters / "02_b.md").write_text(
        "# B\n\n" + CELL.format(body="#| reexport refgrad/__init__.py\nfrom refgrad.a import X")
    )
    src = tmp_path / "src"
    assert tangle.main(["--book", str(tmp_path / "book"), "--src", str(src)]) == 0
    return tmp_path / "book", src


def test_the_repository_is_in_sync():
    result = run_check(ROOT / "book", ROOT / "src")
    assert result.returncode == 0, result.stdout + result.stderr


def test_only_exported_cells_are_tangled_with_a_header_and_source_map(tiny_book):
    _, src = tiny_book
    text = (src / "refgrad/a.py").read_text()
    assert text.startswith("# Generated from book/chapters/01_a.md")
    assert "# --- book/chapters/01_a.md:5\nX = 1\n" in text
    assert "demo cell" not in "".join(p.read_text() for p in src.rglob("*.py"))
    init = (src / "refgrad/__init__.py").read_text()
    assert init.index("import os") < init.index("from refgrad.a import X")
    assert "# --- book/chapters/02_b.md:5" in init


def test_a_hand_edit_is_drift(tiny_book):
    book, src = tiny_book
    assert run_check(book, src).returncode == 0
    with open(src / "refgrad/a.py", "a") as f:
        f.write("Y = 2\n")
    result = run_check(book, src)
    assert result.returncode == 1
    assert "+++ src/refgrad/a.py (from the book)" in result.stdout
    assert "-Y = 2" in result.stdout


def test_a_chapter_edit_is_drift_until_retangled(tiny_book):
    book, src = tiny_book
    chapter = book / "chapters/01_a.md"
    chapter.write_text(chapter.read_text().replace("X = 1", "X = 2"))
    assert run_check(book, src).returncode == 1
    tangle.main(["--book", str(book), "--src", str(src)])
    assert run_check(book, src).returncode == 0


def test_an_orphan_module_is_caught_and_removed_by_a_tangle(tiny_book):
    book, src = tiny_book
    (src / "refgrad/stray.py").write_text("x = 1\n")
    result = run_check(book, src)
    assert result.returncode == 1
    assert "orphan: src/refgrad/stray.py is produced by no chapter" in result.stdout
    tangle.main(["--book", str(book), "--src", str(src)])
    assert not (src / "refgrad/stray.py").exists()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("#| export refgrad/a.py\nZ = 3", "a module has exactly one owning chapter"),
        ("#| reexport refgrad/a.py\nZ = 3", "may only import names, extend __all__ and delete"),
        ("#| reexport refgrad/a.py\ndel Z.attr", "extend __all__ and delete"),
        ("#| reexport refgrad/nobody.py\nimport os", "no chapter owns refgrad/nobody.py"),
        (":tags: [raises-exception]\n#| export refgrad/c.py\n1/0", "cannot export code"),
        ("#| export\nZ = 3", "the marker must name a file"),
        ("#| export ../evil.py\nZ = 3", "is not a module path under src/"),
        ("#| export refgrad/c.py\ndef broken(:", "invalid syntax"),
    ],
)
def test_the_tangler_refuses_what_breaks_its_rules(tiny_book, capsys, body, message):
    book, src = tiny_book
    (book / "chapters/03_c.md").write_text(CELL.format(body=body))
    assert tangle.main(["--book", str(book), "--src", str(src)]) == 2
    assert message in capsys.readouterr().err


def test_the_cell_reader_agrees_with_jupytext_on_every_chapter():
    for chapter in sorted((ROOT / "book/chapters").glob("*.md")):
        ours = ["\n".join(code) for _, _, code in tangle.code_cells(chapter.read_text())]
        notebook = jupytext.read(chapter, fmt="md:myst")
        theirs = [c.source for c in notebook.cells if c.cell_type == "code"]
        assert ours == theirs, chapter.name


def test_every_generated_module_names_its_chapter():
    for path in (ROOT / "src/refgrad").rglob("*.py"):
        head = path.read_text().splitlines()[0]
        chapter = head.removeprefix("# Generated from ").split(" by ")[0]
        assert (ROOT / chapter).exists(), path


def test_write_leaves_unchanged_files_alone(tmp_path):
    modules = tangle.tangle(ROOT / "book")
    tangle.write(modules, tmp_path)
    stamp = (tmp_path / "refgrad/_size.py").stat().st_mtime_ns
    tangle.write(modules, tmp_path)
    assert (tmp_path / "refgrad/_size.py").stat().st_mtime_ns == stamp
    shutil.rmtree(tmp_path / "refgrad")
