"""Black-box tests: torch counts a write (in-place, out=, resize_) once the dispatch modes
hand back, not in the mode's func; a composite reaching a mode whole with no kernel at that
key counts nothing; an out= call hands back its outs whatever the mode answered. The same
assertions run on torch."""

import contextlib

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

CONTEXTS = {"plain": contextlib.nullcontext, "no_grad": torch.no_grad,
            "inference": torch.inference_mode}


class Watching(TorchDispatchMode):
    """Calls func, and keeps each written tensor's version before and after it."""

    def __init__(self, written):
        super().__init__()
        self.written, self.seen = written, []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        before = [t._version for t in self.written]
        result = func(*args, **(kwargs or {}))
        self.seen.append((before, [t._version for t in self.written]))
        return result


class Answering(TorchDispatchMode):
    """Answers every op with ``answer(args, kwargs)``, never calling func."""

    def __init__(self, answer):
        super().__init__()
        self.answer, self.seen = answer, []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(str(func))
        return self.answer(args, kwargs or {})


@pytest.mark.parametrize("context", CONTEXTS)
@pytest.mark.parametrize("requires_grad", [False, True])
def test_in_place_counts_after_the_mode(context, requires_grad):
    base = torch.tensor([1.0, 2.0], requires_grad=requires_grad)
    t = base * 1 if requires_grad else base
    mode = Watching([t])
    with CONTEXTS[context](), mode:
        t.add_(1)
    assert mode.seen == [([0], [0])]  # func wrote, the version had not moved yet
    assert t._version == 1 and t.tolist() == [2.0, 3.0]


@pytest.mark.parametrize("context", CONTEXTS)
def test_in_place_answered_counts_once(context):
    t = torch.tensor([1.0, 2.0])
    with CONTEXTS[context](), Answering(lambda args, kwargs: args[0]):
        r = t.mul_(5)
    assert r is t and t._version == 1 and t.tolist() == [1.0, 2.0]


def test_two_modes_count_once():
    t = torch.tensor([1.0, 2.0])
    outer, inner = Watching([t]), Watching([t])
    with outer, inner:
        t.sub_(1)
    assert outer.seen == inner.seen == [([0], [0])]
    assert t._version == 1


def _matrix():
    return torch.tensor([[2.0, 1.0], [1.0, 3.0]])


def _vector():
    return torch.tensor([1.0, 2.0])


A, V = _matrix(), _vector()
OUTS = {  # call, number of outs, whole under inference_mode with no kernel at torch's key
    "linalg_svd": (lambda o: torch.linalg.svd(A, out=o), 3, True),
    "linalg_eigh": (lambda o: torch.linalg.eigh(A, out=o), 2, True),
    "svd": (lambda o: torch.svd(A, out=o), 3, True),
    "linalg_inv": (lambda o: torch.linalg.inv(A, out=o[0]), 1, True),
    "linalg_norm": (lambda o: torch.linalg.norm(A, out=o[0]), 1, True),
    "linalg_det": (lambda o: torch.linalg.det(A, out=o[0]), 1, True),
    "linalg_slogdet": (lambda o: torch.linalg.slogdet(A, out=o), 2, True),
    "linalg_svdvals": (lambda o: torch.linalg.svdvals(A, out=o[0]), 1, True),
    "linalg_eigvalsh": (lambda o: torch.linalg.eigvalsh(A, out=o[0]), 1, True),
    "linalg_cond": (lambda o: torch.linalg.cond(A, out=o[0]), 1, True),
    "outer": (lambda o: torch.outer(V, V, out=o[0]), 1, True),
    "square": (lambda o: torch.square(V, out=o[0]), 1, True),
    "vstack": (lambda o: torch.vstack([V, V], out=o[0]), 1, True),
    "diag": (lambda o: torch.diag(A, out=o[0]), 1, True),
    "tensordot": (lambda o: torch.tensordot(A, A, 1, out=o[0]), 1, True),
    "std": (lambda o: torch.std(A, 0, out=o[0]), 1, True),
    "kron": (lambda o: torch.kron(A, A, out=o[0]), 1, True),
    "mm": (lambda o: torch.mm(A, A, out=o[0]), 1, False),
    "matmul": (lambda o: torch.matmul(A, A, out=o[0]), 1, False),
    "linalg_qr": (lambda o: torch.linalg.qr(A, out=o), 2, False),
    "linalg_pinv": (lambda o: torch.linalg.pinv(A, out=o[0]), 1, False),
    "logsumexp": (lambda o: torch.logsumexp(A, 0, out=o[0]), 1, False),
    "histogram": (lambda o: torch.histogram(V, 3, out=o), 2, False),
    "norm": (lambda o: torch.norm(A, out=o[0]), 1, False),
    "add": (lambda o: torch.add(A, A, out=o[0]), 1, False),
}


@pytest.mark.parametrize("name", OUTS)
def test_out_whole_under_inference_counts_at_torchs_key(name):
    call, count, uncounted = OUTS[name]
    outs = tuple(torch.empty(0) for _ in range(count))
    mode = Watching(outs)
    with torch.inference_mode(), mode:
        call(outs)
    assert mode.seen[-1][0] == mode.seen[-1][1] == [0] * count  # nothing counted in func
    assert [o._version for o in outs] == [0 if uncounted else 1] * count
    expected = tuple(torch.empty(0) for _ in range(count))
    call(expected)
    assert all(torch.equal(o, e) for o, e in zip(outs, expected))


@pytest.mark.parametrize("name", ["linalg_svd", "linalg_inv", "mm", "outer"])
def test_out_counted_by_its_steps_where_autograd_is_on(name):
    call, count, _ = OUTS[name]
    outs = tuple(torch.empty(0) for _ in range(count))
    alone = tuple(torch.empty(0) for _ in range(count))
    call(alone)
    mode = Watching(outs)
    with mode:
        call(outs)
    assert all(before == after for before, after in mode.seen)
    assert [o._version for o in outs] == [o._version for o in alone]


@pytest.mark.parametrize("context", CONTEXTS)
@pytest.mark.parametrize("answer", ["given", "other", "none"])
def test_out_answered_hands_back_the_out(context, answer):
    o = torch.empty(0)
    mode = Answering(lambda args, kwargs: {"given": kwargs.get("out"), "other": torch.zeros(3),
                                           "none": None}[answer])
    with CONTEXTS[context](), mode:
        r = torch.mm(A, A, out=o)
    assert mode.seen == ["aten.mm.out"]
    assert r is o and o.shape == (0,) and o._version == 1


@pytest.mark.parametrize("context", CONTEXTS)
def test_several_outs_answered_hand_back_the_outs(context):
    values, indices = torch.empty(0), torch.empty(0, dtype=torch.long)
    with CONTEXTS[context](), Answering(lambda args, kwargs: (torch.ones(1), torch.ones(1))):
        r = torch.max(A, 0, out=(values, indices))
    assert type(r).__name__ == "max_out"
    assert r.values is values and r.indices is indices
    assert (values._version, indices._version) == (1, 1)


def test_composite_answered_whole_counts_nothing():
    outs = (torch.empty(0), torch.empty(0), torch.empty(0))
    with torch.inference_mode(), Answering(lambda args, kwargs: (torch.ones(1),) * 3):
        r = torch.linalg.svd(A, out=outs)
    assert type(r).__name__ == "linalg_svd_out" and all(a is b for a, b in zip(r, outs))
    assert [o._version for o in outs] == [0, 0, 0]


@pytest.mark.parametrize("context", CONTEXTS)
def test_several_outs_answered_with_no_sequence_are_refused(context):
    outs = (torch.empty(0), torch.empty(0))
    with pytest.raises(RuntimeError, match="^Object of type 'NoneType' is not an instance of "
                                           "'sequence'$"):
        with CONTEXTS[context](), Answering(lambda args, kwargs: None):
            torch.linalg.qr(A, out=outs)
    assert [o._version for o in outs] == [0, 0]


@pytest.mark.parametrize("context", ["plain", "inference"])
@pytest.mark.parametrize("sizes", [(1,), (2,), (2, 1), (4,), ()])
def test_resize_answered_counts_where_the_sizes_differ(context, sizes):
    t = torch.zeros(2)
    with CONTEXTS[context](), Answering(lambda args, kwargs: args[0]):
        r = t.resize_(sizes)
    assert r is t and t.shape == (2,)
    assert t._version == (0 if sizes == (2,) else 1)


@pytest.mark.parametrize("sizes", [(2,), (4,)])
def test_resize_counts_after_the_mode(sizes):
    t = torch.zeros(2)
    mode = Watching([t])
    with mode:
        t.resize_(sizes)
    assert mode.seen == [([0], [0])] and t.shape == sizes
    assert t._version == (0 if sizes == (2,) else 1)


def test_a_kept_func_called_later_counts_its_write():
    kept = []

    class Keeping(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kept.append(func)
            return func(*args, **(kwargs or {}))

    t, o = torch.zeros(2), torch.empty(0)
    with Keeping():
        t.add_(1)
        torch.mm(A, A, out=o)
    add_, mm_out = kept
    assert (t._version, o._version) == (1, 1)
    assert add_(t, torch.ones(2)) is t and t._version == 2
    assert mm_out(A, A, out=o) is o and o._version == 2
