"""Large elementwise ops shared among threads: the same bits on any number of threads."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import refgrad as torch
from refgrad import _parallel

N = 3 * 2**20 + 1001  # several slices, and a last one that is not a whole block
UNARY = ("exp", "log", "sin", "cos", "tan", "tanh", "log1p", "log2", "log10", "expm1", "exp2",
         "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "neg", "relu")


@pytest.fixture
def threads():
    """Set the thread count for one test, and put the default back after it."""
    default = torch.get_num_threads()
    yield torch.set_num_threads
    torch.set_num_threads(default)


def _values(dtype, n=N, seed=0):
    return np.random.default_rng(seed).uniform(-0.95, 1.5, n).astype(dtype)


def _on(threads, count, fn):
    threads(count)
    return fn()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", UNARY)
def test_unary_rows_give_the_same_bits_on_any_number_of_threads(threads, name, dtype):
    x = torch.tensor(_values(dtype))
    fn = getattr(torch, name)
    one = _on(threads, 1, lambda: fn(x).numpy())
    for count in (2, 3, 8):
        assert np.array_equal(one, _on(threads, count, lambda: fn(x).numpy()), equal_nan=True)


OPERANDS = {
    "tensor": lambda x: torch.tensor(_values(x.numpy().dtype, seed=1)),
    "number": lambda x: 0.7,
    "0-d tensor": lambda x: torch.tensor(np.asarray(0.7, x.numpy().dtype)),
    "expanded": lambda x: torch.tensor(np.asarray(0.7, x.numpy().dtype)).expand(N),
    "reversed": lambda x: torch.tensor(_values(x.numpy().dtype, seed=2)).flip(0),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("operand", OPERANDS)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "truediv"])
def test_operators_give_the_same_bits_on_any_number_of_threads(threads, op, operand, dtype):
    x = torch.tensor(_values(dtype))
    other = OPERANDS[operand](x)
    fn = getattr(type(x), f"__{op}__")
    one = _on(threads, 1, lambda: fn(x, other).numpy())
    assert np.array_equal(one, _on(threads, 3, lambda: fn(x, other).numpy()))
    assert np.array_equal(one, getattr(np, {"truediv": "true_divide", "sub": "subtract",
                                            "mul": "multiply"}.get(op, op))(
        x.numpy(), other.numpy() if isinstance(other, torch.Tensor) else other))


def test_gradients_are_the_same_on_any_number_of_threads(threads):
    def run():
        x = torch.tensor(_values(np.float32), requires_grad=True)
        loss = (x.sin() * x + x.exp()).sum()
        loss.backward()
        return loss.item(), x.grad.numpy()

    loss, grad = _on(threads, 1, run)
    for count in (2, 5):
        other_loss, other_grad = _on(threads, count, run)
        assert other_loss == loss and np.array_equal(other_grad, grad)


def test_a_dying_operand_is_still_written_in_place_when_shared(threads):
    threads(4)
    x = torch.tensor(_values(np.float32))
    made = []

    def product():
        p = x * 2.0
        made.append(p.data_ptr())  # the list keeps no tensor
        return p

    total = product() + x  # the product dies in the sum, which takes its memory
    assert total.data_ptr() == made[0]
    assert np.array_equal(total.numpy(), x.numpy() * np.float32(2.0) + x.numpy())


def test_small_ops_and_one_thread_start_no_workers(threads):
    before = len(_parallel._workers)
    threads(1)
    torch.tensor(_values(np.float32)).sin()
    threads(64)
    torch.tensor(_values(np.float32, n=1000)).sin()
    assert len(_parallel._workers) == before


def test_slices_cover_the_array_in_whole_blocks():
    for n, shares in ((N, 3), (2**20, 2), (2**20 + 1, 7)):
        pieces = _parallel._slices(n, shares)
        assert pieces[0].start == 0 and len(pieces) <= shares
        assert all(p.stop == q.start for p, q in zip(pieces, pieces[1:]))
        assert all(p.start % 4096 == 0 for p in pieces) and pieces[-1].stop >= n


def test_an_error_in_a_slice_reaches_the_caller(threads):
    threads(3)
    a = _values(np.float64)
    out = np.empty(N, np.int64)
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output"):
        _parallel.run_split(np.add, (a, a), out)


def test_workers_are_quiet_about_overflow(threads):
    threads(3)
    x = torch.full((N,), 100.0)
    assert torch.isinf(x.exp()).all().item()  # NumPy's warning would fail the suite


def test_two_program_threads_share_the_pool(threads):
    threads(3)
    x = torch.tensor(_values(np.float32))
    expected = np.sin(x.numpy())
    results = [None, None]

    def work(i):
        results[i] = x.sin().numpy()

    runners = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for runner in runners:
        runner.start()
    for runner in runners:
        runner.join()
    assert all(np.array_equal(r, expected) for r in results)


def test_a_forked_child_starts_its_own_workers():
    src = Path(torch.__file__).resolve().parents[1]
    script = (
        "import os, numpy as np, refgrad as torch\n"
        "torch.set_num_threads(3)\n"
        f"x = torch.ones({N})\n"
        "x.sin()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    os._exit(0 if torch.allclose(x.sin(), torch.full_like(x, np.sin(1.0))) else 1)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "raise SystemExit(os.waitstatus_to_exitcode(status))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", script], env=env, timeout=120)
    assert done.returncode == 0


def test_a_reductions_shares_run_on_the_workers_each_into_its_slot(threads):
    threads(3)
    seen, buffer = [], np.zeros(3)

    def into(value, out):
        seen.append(threading.current_thread().name)
        out[0] = value

    _parallel.run_pieces(into, [((float(k + 1),), buffer[k:k + 1]) for k in range(3)])
    assert buffer.tolist() == [1.0, 2.0, 3.0]
    assert seen.count(threading.current_thread().name) == 1  # the others ran elsewhere
    assert len(seen) == 3


def test_an_error_in_a_share_reaches_the_caller_after_every_share(threads):
    threads(2)
    buffer = np.zeros(2)

    def into(value, out):
        if value < 0:
            raise ValueError("a share failed")
        out[0] = value

    with pytest.raises(ValueError, match="a share failed"):
        _parallel.run_pieces(into, [((1.0,), buffer[:1]), ((-1.0,), buffer[1:])])
    assert buffer.tolist() == [1.0, 0.0]

