"""The documented examples, run as doctests against whichever ``torch`` is bound.

Each file in ``examples/`` is a documented example with torch 2.13's real
outputs. They run here with ``import torch`` meaning refgrad (or real torch in
the oracle session), each with fresh globals, and must match character for
character.
"""

import doctest
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).parent / "examples").glob("*.txt"))


@pytest.fixture
def switches_reset_after():
    """Some examples end with a switch changed on purpose (``set_grad_enabled(False)``)."""
    yield
    import torch

    torch.set_grad_enabled(True)
    torch._C._set_multithreading_enabled(True)
    torch._C._set_view_replay_enabled(False)


# F134, F138, F139, F140, F141, F142, F143, F144, F146, F147, F148, F149, F152, F153, F165
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_documented_example(path, switches_reset_after):
    result = doctest.testfile(
        str(path), module_relative=False, globs={}, report=False, optionflags=0
    )
    assert result.attempted > 0, f"{path.name} holds no examples"
    if result.failed:
        # Run again with the report on, so the failure shows what differed.
        runner_output = _report(path)
        pytest.fail(f"{result.failed} of {result.attempted} examples failed:\n{runner_output}")


def _report(path) -> str:
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        doctest.testfile(str(path), module_relative=False, globs={}, report=True)
    return buffer.getvalue()


def test_every_example_file_is_run():
    assert len(EXAMPLES) >= 8
