"""A saved value's own hooks: what pack receives, numbers read raw, unpacked dtypes, freed lists."""

import pytest
import torch

from conformance._support import FREED, leaf, raises

hooks = torch.autograd.graph.saved_tensors_hooks
ONLY_FLOAT = "Only Tensors of floating point and complex dtype can require gradients"


def _seen(t, original):
    return (t is original, t._base is None, t.requires_grad, t.grad_fn is None, t.is_leaf)


SAVED = {
    "view input": lambda a: (v := (a * 1)[:1], v * v),
    "leaf": lambda a: (a, a * a),
    "non-leaf": lambda a: (b := a * 1, b * b),
}


@pytest.mark.parametrize("make", SAVED.values(), ids=list(SAVED))
def test_register_hooks_packs_a_detached_alias(make):
    a = leaf(1.0, 2.0)
    original, z = make(a)
    log = []
    z.grad_fn._raw_saved_self.register_hooks(lambda t: log.append(_seen(t, original)) or t,
                                             lambda t: t)
    assert log == [(False, True, False, True, True)]
    unpacked = z.grad_fn._saved_self
    assert unpacked is not original and unpacked.requires_grad
    assert (unpacked.grad_fn is None) == original.is_leaf


def test_a_hooks_context_still_packs_the_tensor_itself():
    a = leaf(1.0, 2.0)
    seen = []
    with hooks(lambda t: seen.append(t is a) or t, lambda t: t):
        a * a
    assert seen == [True, True]


def test_a_write_to_the_packed_alias_names_the_node_that_made_the_tensor():
    b = leaf(1.0, 2.0) * 1
    z = b * b
    kept = []
    z.grad_fn._raw_saved_self.register_hooks(lambda t: kept.append(t) or t, lambda t: t)
    kept[0].add_(0)
    assert b._version == 1 and type(b.grad_fn).__name__ == "MulBackward0"
    with raises(RuntimeError, (
            "one of the variables needed for gradient computation has been modified by an "
            "inplace operation: [torch.FloatTensor [2]], which is output 0 of Mul, is at "
            "version 1; expected version 0 instead. Hint: enable anomaly detection to find the "
            "operation that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True, check_nan=False).")):
        z.sum().backward()


@pytest.mark.parametrize(("number", "dtype"), [(2.5, torch.float64), (3, torch.int64),
                                               (True, torch.bool)])
def test_a_number_read_raw_is_a_saved_tensor_that_takes_hooks(number, dtype):
    a = leaf(1.0, 2.0)
    y = a * number
    raw = y.grad_fn._raw_saved_other
    assert isinstance(raw, torch.autograd.SavedTensor) and raw.unpack_hook is None
    log = []
    raw.register_hooks(lambda t: log.append((t.dtype, t.shape, t.item(), t.requires_grad)) or t,
                       lambda t: torch.tensor(4.0))
    assert log == [(dtype, torch.Size([]), number, False)]
    assert raw.unpack_hook is not None and y.grad_fn._raw_saved_other is raw
    assert y.grad_fn._saved_other.tolist() == 4.0  # what unpack gives
    y.sum().backward()
    assert a.grad.tolist() == [4.0, 4.0]  # and what backward used
    assert raw.unpack_hook is None and raw.data is None
    with raises(RuntimeError, (
            "Calling register_hooks on a saved tensor after it has been freed. Saved "
            "intermediate values of the graph are freed when you call .backward() or "
            "autograd.grad(). Specify retain_graph=True if you need to backward through the "
            "graph a second time or if you need to access saved variables after calling "
            "backward.")):
        raw.register_hooks(lambda t: t, lambda t: t)


def test_a_number_is_packed_by_no_hooks_context():
    a = leaf(1.0, 2.0)
    log = []
    with hooks(lambda t: log.append(t.shape) or t, lambda t: t):
        y = a * 2.5
    assert log == [] and y.grad_fn._raw_saved_other.unpack_hook is None


@pytest.mark.parametrize("dtype", [torch.int64, torch.bool])
def test_an_unpacked_leaf_that_requires_grad_must_be_floating(dtype):
    for read in (lambda y: y.sum().backward(), lambda y: y.grad_fn._saved_self):
        a = leaf(1.0, 2.0)
        with hooks(lambda t: t, lambda t: torch.ones(2, dtype=dtype)):
            y = a * a
        with raises(RuntimeError, ONLY_FLOAT):
            read(y)


def test_an_unpacked_non_leaf_or_output_may_be_integral():
    a = leaf(1.0, 2.0)
    with hooks(lambda t: t, lambda t: torch.ones(2, dtype=torch.int64)):
        b = a * 1
        y = b * b
        e = a.exp()
    assert y.grad_fn._saved_self.dtype == torch.int64
    assert e.grad_fn._saved_result.dtype == torch.int64


def test_a_released_list_of_saved_tensors_is_freed():
    a = leaf(1.0, 2.0, 3.0)
    y = a[torch.tensor([0, 2])]
    y.sum().backward(retain_graph=True)
    raw = y.grad_fn._raw_saved_indices
    assert [type(t).__name__ for t in raw] == ["SavedTensor"]
    y.sum().backward()
    for read in (lambda: y.grad_fn._raw_saved_indices, lambda: y.grad_fn._saved_indices):
        with raises(RuntimeError, FREED):
            read()


def test_atan2_recorded_by_create_graph_packs_other_squared_before_self():
    a = torch.tensor(0.75, dtype=torch.float64, requires_grad=True)
    b = torch.tensor(0.48, dtype=torch.float64, requires_grad=True)
    v = torch.atan2(a, b)
    packed = []

    def pack(t):
        packed.append("a" if t is a else "b" if t is b else type(t.grad_fn).__name__)
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        torch.autograd.grad(v, [a, b], create_graph=True)
    assert packed[:5] == ["b", "b", "a", "a", "ReciprocalBackward0"]


@pytest.mark.parametrize(("op", "first"), [
    (torch.hypot, ["const", "HypotBackward0", "MulBackward0 2.5"]),
    (torch.logaddexp, ["ExpBackward0 0.368", "AddBackward1", "const"]),
    (torch.logaddexp2, ["SubBackward0 -1.0", "PowBackward2", "AddBackward1"]),
])
def test_other_s_gradient_is_recorded_before_self_s(op, first):
    a = torch.tensor([1.5], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([2.5], dtype=torch.float64, requires_grad=True)
    out = op(a, b)
    packed = []

    def pack(t):
        name = type(t.grad_fn).__name__ if t.grad_fn is not None else "const"
        shown = name in ("MulBackward0", "ExpBackward0", "SubBackward0")
        packed.append(f"{name} {round(t.item(), 3)}" if shown else name)
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        torch.autograd.grad(out, [a, b], create_graph=True)
    assert packed[:3] == first


def _packed_by_create_graph(op, a, b):
    """What the pack hook sees while a double-backward graph of ``op(a, b)`` is recorded:
    the inputs by name, other tensors by their grad_fn, "const" for the rest."""
    out = op(a, b).sum()
    packed = []

    def pack(t):
        name = type(t.grad_fn).__name__ if t.grad_fn is not None else "const"
        packed.append("a" if t is a else "b" if t is b else name)
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        grads = torch.autograd.grad(out, [a, b], create_graph=True)
    return packed, [type(g.grad_fn).__name__ for g in grads]


@pytest.mark.parametrize(("op", "packed", "grad_fns"), [
    (torch.div, ["b", "a", "b", "DivBackward0", "const", "b", "const"],
     ["DivBackward0", "MulBackward0"]),
    (lambda a, b: torch.div(a, b, rounding_mode=None),
     ["b", "a", "b", "DivBackward0", "const", "b", "const"], ["DivBackward0", "MulBackward0"]),
    (torch.xlogy, ["const", "b", "MulBackward0", "b", "const", "const"],
     ["MaskedFillBackward0", "DivBackward0"]),
    (torch.special.xlog1py, ["const", "AddBackward1", "MulBackward0", "b", "const", "const"],
     ["MaskedFillBackward0", "DivBackward0"]),
    (torch.pow, ["a", "LogBackward0", "PowBackward1", "const", "const", "SubBackward1", "a",
                 "PowBackward1", "PowBackward1", "b", "const", "const"],
     ["WhereBackward0", "MulBackward0"]),
    (torch.ldexp, ["const", "b", "PowBackward2", "const"], ["MulBackward0", "MulBackward1"]),
    (torch.dist, ["DistBackward0", "SubBackward0", "const", "const"] * 2,
     ["MulBackward0", "NegBackward0"]),
], ids=["div", "div_no_rounding", "xlogy", "xlog1py", "pow", "ldexp", "dist"])
def test_the_last_input_s_gradient_is_recorded_first(op, packed, grad_fns):
    a = torch.tensor([1.5, 0.5], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([2.5, 0.7], dtype=torch.float64, requires_grad=True)
    assert _packed_by_create_graph(op, a, b) == (packed, grad_fns)


def test_dist_differences_again_for_each_input():
    a = torch.tensor([1.5, 0.5], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([2.5, 0.7], dtype=torch.float64, requires_grad=True)
    out = torch.dist(a, b)
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        torch.autograd.grad(out, [a, b], create_graph=True)
    differences = [t.grad_fn for t in packed if type(t.grad_fn).__name__ == "SubBackward0"]
    assert len(differences) == 2 and differences[0] is not differences[1]


def test_euclidean_dist_packs_each_difference_s_right_operand_first():
    a = torch.tensor([[1.5, 2.0], [0.5, 3.0]], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([[2.5, 0.7], [1.2, 0.4]], dtype=torch.float64, requires_grad=True)
    packed, _ = _packed_by_create_graph(
        lambda x, y: torch.cdist(x, y, compute_mode="use_mm_for_euclid_dist"), a, b)
    assert packed == ["EuclideanDistBackward0", "const", "const", "b", "MaskedFillBackward0",
                      "SumBackward1", "a", "a", "TransposeBackward0", "UnsqueezeBackward0", "b"]


def _packed_by_squaring(op, *shapes):
    """What the pack hook sees while the gradients of ``op(...) ** 2``, summed, are
    recorded: the incoming gradient requires grad, so each product saves both factors."""
    ins = [(torch.ones(s, dtype=torch.float64) * (0.5 + 0.25 * i)).cumsum(-1).requires_grad_()
           for i, s in enumerate(shapes)]
    out = op(*ins)
    packed = []

    def pack(t):
        name = type(t.grad_fn).__name__ if t.grad_fn is not None else "const"
        if name in ("TBackward0", "TransposeBackward0"):
            name += str(list(t.shape))
        packed.append(next((n for n, v in zip("abc", ins) if t is v), name))
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        torch.autograd.grad((out * out).sum(), ins, create_graph=True)
    return packed[4:]  # after what the square and the sum keep


@pytest.mark.parametrize(("op", "shapes", "packed"), [
    (torch.mul, [(2,), (2,)], ["a", "AddBackward0", "b", "AddBackward0"]),
    (torch.dot, [(2,), (2,)], ["b", "AddBackward0", "a", "AddBackward0"]),  # self's first
    (torch.mm, [(2, 3), (3, 4)],
     ["AddBackward0", "TBackward0[3, 2]", "TBackward0[4, 3]", "AddBackward0"]),
    (torch.bmm, [(2, 2, 3), (2, 3, 4)], ["AddBackward0", "TransposeBackward0[2, 3, 2]",
                                         "TransposeBackward0[2, 4, 3]", "AddBackward0"]),
    (torch.nn.functional.linear, [(2, 3), (4, 3)],
     ["a", "TBackward0[4, 2]", "TBackward0[4, 3]", "AddBackward0"]),
    (torch.linalg.cross, [(3,), (3,)], ["a", "AddBackward0", "AddBackward0", "b"]),
    (torch.lerp, [(2,), (2,), (2,)], ["c", "AddBackward0", "SubBackward0", "AddBackward0",
                                      "SubBackward0", "AddBackward0"]),
], ids=["mul", "dot", "mm", "bmm", "linear", "cross", "lerp"])
def test_products_record_their_gradients_in_torch_s_order(op, shapes, packed):
    assert _packed_by_squaring(op, *shapes) == packed


@pytest.mark.parametrize(("p", "packed"), [
    (3, ["x", "CloneBackward0", "PowBackward0", "x", "LinalgVectorNormBackward0",
         "PowBackward0", "const", "const", "MaskedFillBackward0", "MulBackward0"]),
    (1.5, ["x", "CloneBackward0", "x", "SgnBackward0", "PowBackward0", "SgnBackward0",
           "LinalgVectorNormBackward0", "PowBackward0", "const", "const",
           "MaskedFillBackward0", "MulBackward0"]),
    (0.5, ["x", "CloneBackward0", "const", "x", "SgnBackward0", "MaskedFillBackward0",
           "SgnBackward0", "LinalgVectorNormBackward0", "const", "PowBackward0",
           "MulBackward0"]),
])
def test_a_p_norm_gradient_raises_the_size_in_place_first(p, packed):
    x = torch.tensor([1.5, -2.0], dtype=torch.float64, requires_grad=True)
    out = torch.linalg.vector_norm(x, p)
    seen = []

    def pack(t):
        seen.append("x" if t is x else type(t.grad_fn).__name__ if t.grad_fn else "const")
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        torch.autograd.grad(out, x, create_graph=True)
    assert seen == packed
