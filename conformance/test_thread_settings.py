"""torch.get_num_threads and friends: the counts, and the words for a bad one."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

TARGET = os.environ.get("REFGRAD_CONFORMANCE_TARGET", "refgrad")


@pytest.fixture
def restore_threads():
    default = torch.get_num_threads()
    yield
    torch.set_num_threads(default)


def test_the_count_starts_at_one_or_more_and_can_be_set(restore_threads):
    assert type(torch.get_num_threads()) is int and torch.get_num_threads() >= 1
    assert type(torch.get_num_interop_threads()) is int and torch.get_num_interop_threads() >= 1
    assert torch.set_num_threads(3) is None and torch.get_num_threads() == 3
    torch.set_num_threads(np.int64(1))  # NumPy's integers are ints here
    assert torch.get_num_threads() == 1


BAD_COUNTS = [
    (0, RuntimeError, "set_num_threads expects a positive integer"),
    (-3, RuntimeError, "set_num_threads expects a positive integer"),
    (1.5, RuntimeError, "set_num_threads expects an int, but got float"),
    (True, RuntimeError, "set_num_threads expects an int, but got bool"),
    (None, RuntimeError, "set_num_threads expects an int, but got NoneType"),
    ("2", RuntimeError, "set_num_threads expects an int, but got str"),
    (np.float64(2.0), RuntimeError, "set_num_threads expects an int, but got numpy.float64"),
    (np.bool_(True), RuntimeError, "set_num_threads expects an int, but got numpy.bool"),
    (2**31, ValueError, "Overflow when unpacking long"),
    (-(2**31) - 1, ValueError, "Overflow when unpacking long"),
    (2**63, ValueError, "Overflow when unpacking long long"),
]


@pytest.mark.parametrize("count, kind, message", BAD_COUNTS)
def test_a_bad_count_is_refused_and_changes_nothing(restore_threads, count, kind, message):
    before = torch.get_num_threads()
    with pytest.raises(kind) as caught:
        torch.set_num_threads(count)
    assert str(caught.value) == message
    assert torch.get_num_threads() == before


def test_a_tensor_is_not_a_count(restore_threads):
    with pytest.raises(RuntimeError) as caught:
        torch.set_num_threads(torch.tensor(2))
    assert str(caught.value) == "set_num_threads expects an int, but got Tensor"


@pytest.mark.parametrize("call, message", [
    (lambda: torch.set_num_threads(),
     "torch.set_num_threads() takes exactly one argument (0 given)"),
    (lambda: torch.set_num_threads(1, 2),
     "torch.set_num_threads() takes exactly one argument (2 given)"),
    (lambda: torch.set_num_threads(num=2), "torch.set_num_threads() takes no keyword arguments"),
    (lambda: torch.get_num_threads(1), "torch.get_num_threads() takes no arguments (1 given)"),
    (lambda: torch.get_num_interop_threads(1),
     "torch.get_num_interop_threads() takes no arguments (1 given)"),
])
def test_wrong_calls_get_torchs_words(restore_threads, call, message):
    with pytest.raises(TypeError) as caught:
        call()
    assert str(caught.value) == message


def test_the_interop_count_is_set_once():
    # Once per process, so in a process of its own.
    script = (
        f"import {'torch' if TARGET == 'torch' else 'refgrad as torch'}\n"
        "try:\n"
        "    torch.set_num_interop_threads(0)\n"
        "except RuntimeError as e:\n"
        "    print(e)\n"
        "torch.set_num_interop_threads(1)\n"
        "print(torch.get_num_interop_threads())\n"
        "try:\n"
        "    torch.set_num_interop_threads(1)\n"
        "except RuntimeError as e:\n"
        "    print(e)\n"
    )
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(src), *sys.path])}
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", script], env=env,
                          capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.splitlines() == [
        "set_num_interop_threads expects a positive integer",
        "1",
        "Error: cannot set number of interop threads after parallel work has started or "
        "set_num_interop_threads called",
    ]
