"""torch._foreach_*: each element as the plain op computes it, one node per out-of-place call,
per-tensor nodes and version bumps in place, the lists' refusals, and what a mode sees."""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._support import raises


def _lists(requires_grad=False):
    a = [torch.tensor([1.0, 2.0], requires_grad=requires_grad),
         torch.tensor([[3.0], [0.5]], dtype=torch.float64, requires_grad=requires_grad)]
    b = [torch.tensor([4.0, 5.0], requires_grad=requires_grad),
         torch.tensor([6.0], requires_grad=requires_grad)]  # broadcasts with its pair
    return a, b


def _same(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape and g.stride() == e.stride()
        assert torch.equal(g, e)


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "maximum", "minimum",
                                  "clamp_min", "clamp_max", "pow"])
def test_binary_forms_compute_each_element_as_the_plain_op(name):
    a, b = _lists()
    plain = {"maximum": torch.clamp_min, "minimum": torch.clamp_max}.get(name)
    pair = getattr(torch, name)
    foreach = getattr(torch, f"_foreach_{name}")
    _same(foreach(a, b), [pair(x, y) for x, y in zip(a, b)])
    scalar = plain or pair
    _same(foreach(a, 2), [scalar(x, 2) for x in a])
    _same(foreach(a, [2, 0.5]), [scalar(x, s) for x, s in zip(a, [2, 0.5])])
    ints = [torch.tensor([1, 4]), torch.tensor([3], dtype=torch.int8)]
    _same(foreach(ints, 3), [scalar(x, 3) for x in ints])


def test_alpha_and_a_zero_dim_tensor():
    a, b = _lists()
    _same(torch._foreach_add(a, b, alpha=2), [torch.add(x, y, alpha=2) for x, y in zip(a, b)])
    _same(torch._foreach_sub(a, b, alpha=3), [torch.sub(x, y, alpha=3) for x, y in zip(a, b)])
    t = torch.tensor(1.5)
    _same(torch._foreach_add(a, t, alpha=2), [torch.add(x, t, alpha=2) for x in a])
    ints = [torch.tensor([1, 2])]
    assert torch._foreach_mul(ints, torch.tensor(1.5))[0].dtype == torch.float32


def test_unary_forms_and_norm():
    a, _ = _lists()
    for name in ["abs", "sqrt", "exp", "log", "neg", "sign", "sin", "cos", "reciprocal",
                 "sigmoid", "log1p", "trunc"]:
        _same(getattr(torch, f"_foreach_{name}")(a), [getattr(torch, name)(x) for x in a])
    _same(torch._foreach_norm(a), [torch.linalg.vector_norm(x) for x in a])
    _same(torch._foreach_norm(a, 1, dtype=torch.float64),
          [torch.linalg.vector_norm(x, 1, dtype=torch.float64) for x in a])
    _same(torch._foreach_max(a), [x.max() for x in a])


def test_pointwise_and_lerp():
    a, b = _lists()
    c = [torch.tensor([2.0, 3.0]), torch.tensor([0.25])]
    _same(torch._foreach_addcmul(a, b, c, value=2),
          [torch.addcmul(x, y, z, value=2) for x, y, z in zip(a, b, c)])
    _same(torch._foreach_addcdiv(a, b, c, [2, 3]),
          [torch.addcdiv(x, y, z, value=v) for x, y, z, v in zip(a, b, c, [2, 3])])
    ends = [x * 3 for x in a]
    _same(torch._foreach_lerp(a, ends, 0.25), [torch.lerp(x, y, 0.25) for x, y in zip(a, ends)])
    with raises(RuntimeError, "expected dtype double for `end` but got dtype float"):
        torch._foreach_lerp(a, b, 0.25)  # each pair as the plain op takes it


def test_out_of_place_records_one_node_for_the_call():
    a, b = _lists(requires_grad=True)
    b[0].requires_grad_(False)
    results = torch._foreach_mul(a, b)
    assert type(results) is tuple
    node = results[0].grad_fn
    assert node.name() == "ForeachMulBackward0List" and results[1].grad_fn is node
    assert [n is None for n, _ in node.next_functions] == [False, False, True, False]
    torch.autograd.backward([r.sum() for r in results])
    assert torch.equal(a[0].grad, b[0]) and torch.equal(b[1].grad, a[1].sum(0))
    assert torch._foreach_sqrt(a)[0].grad_fn.name() == "ForeachSqrtBackward0"
    assert torch._foreach_add(a, 1)[0].grad_fn.name() == "ForeachAddBackward1Scalar"


def test_in_place_forms_write_each_tensor_as_its_method_does():
    a, b = _lists(requires_grad=True)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an "
                              "in-place operation."):
        torch._foreach_add_(a, 1)
    xs = [x * 1 for x in a]
    out = torch._foreach_add_(xs, b, alpha=2)
    assert out is xs and [x.grad_fn.name() for x in xs] == ["AddBackward0"] * 2
    plain = [torch.ones(2), torch.ones(3, dtype=torch.int64)]
    torch._foreach_zero_(plain)
    torch._foreach_copy_(plain, [torch.ones(2), torch.ones(1)])
    assert [x._version for x in plain] == [2, 2] and plain[1].tolist() == [1, 1, 1]
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        torch._foreach_add_([torch.tensor([1])], 1.5)


def test_refusals_of_the_lists():
    a, b = _lists()
    with raises(RuntimeError, "Tensor lists must have the same number of tensors, got 2 and 3"):
        torch._foreach_add(a, b + b[:1])
    with raises(RuntimeError, "Tensor list must have at least one tensor."):
        torch._foreach_sqrt([])
    with raises(RuntimeError, "Tensor list must have same number of elements as scalar list."):
        torch._foreach_mul(a, [1, 2, 3])
    with raises(RuntimeError, "scalar tensor expected to be 0 dim but it has 1 dimensions and "
                              "2 elements."):
        torch._foreach_add(a, torch.ones(2), alpha=2)


class _Names(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.names = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.names.append((str(func), kwargs or {}))
        return func(*args, **(kwargs or {}))


def test_a_mode_sees_the_whole_call():
    a, b = _lists()
    xs = [x.clone() for x in a]
    with _Names() as mode:
        torch._foreach_add(a, b, alpha=2)
        torch._foreach_add(a, [1, 2])
        torch._foreach_mul_(xs, 2)
        torch._foreach_norm(a)
        torch._foreach_lerp(a, [x * 2 for x in a], [0.5, 0.25])
        with pytest.raises(RuntimeError):
            torch._foreach_add([], 1)
    assert mode.names == [("aten._foreach_add.List", {"alpha": 2}),
                          ("aten._foreach_add.ScalarList", {}),
                          ("aten._foreach_mul_.Scalar", {}),
                          ("aten._foreach_norm.Scalar", {}),
                          ("aten.mul.Tensor", {}), ("aten.mul.Tensor", {}),
                          ("aten._foreach_lerp.ScalarList", {}),
                          ("aten._foreach_add.Scalar", {})]
