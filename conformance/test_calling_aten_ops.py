"""Black-box tests: an op called by its ATen name, torch.ops.aten.<op>.<overload>(...) or
torch.ops.aten.<op>(...), runs the op: its values, its node, what a dispatch mode sees, and
a mode's handler that computes with ATen ops instead of its func. The same assertions run
on torch.
"""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._support import recording_mode

aten = torch.ops.aten
Names = recording_mode(str)


def _leaf(*shape):
    return (torch.arange(6, dtype=torch.float64).reshape(shape or (6,)) * 0.25 + 0.5
            ).requires_grad_()


CALLS = [
    # (the call by ATen name, the same op called as torch's Python API, its node)
    (lambda x: aten.mm.default(x, x.t()), lambda x: x @ x.t(), "MmBackward0"),
    (lambda x: aten.mm(x, x.t()), lambda x: x @ x.t(), "MmBackward0"),
    (lambda x: aten.add.Tensor(x, x, alpha=2), lambda x: x + 2 * x, "AddBackward0"),
    (lambda x: aten.mul.Scalar(x, 3.0), lambda x: x * 3.0, "MulBackward1"),
    (lambda x: aten.add.Scalar(x, 3.0, alpha=2), lambda x: x + 6.0, "AddBackward1"),
    (lambda x: aten.sub.Scalar(x, 0.5), lambda x: x - 0.5, "SubBackward1"),
    (lambda x: aten.div.Scalar(x, 4.0), lambda x: x / 4.0, "DivBackward1"),
    (lambda x: aten.rsub.Scalar(x, 2.0), lambda x: 2.0 - x, "RsubBackward1"),
    (lambda x: aten.sum.dim_IntList(x, [1], True), lambda x: x.sum(1, True), "SumBackward1"),
    (lambda x: aten.sum.default(x), lambda x: x.sum(), "SumBackward0"),
    (lambda x: aten.view.default(x, [3, 2]), lambda x: x.view(3, 2), "ViewBackward0"),
    (lambda x: aten.expand.default(x[:1], [4, 3]), lambda x: x[:1].expand(4, 3),
     "ExpandBackward0"),
    (lambda x: aten.t.default(x), lambda x: x.t(), "TBackward0"),
    (lambda x: aten.select.int(x, 1, 2), lambda x: x[:, 2], "SelectBackward0"),
    (lambda x: aten.slice.Tensor(x, 1, 0, 2), lambda x: x[:, 0:2], "SliceBackward0"),
    (lambda x: aten.slice.Tensor(x, -1, 1, 3, 1), lambda x: x[:, 1:3], "SliceBackward0"),
    (lambda x: aten._softmax.default(x, 1, False), lambda x: x.softmax(1),
     "SoftmaxBackward0"),
    (lambda x: aten._log_softmax.default(x, 0, False), lambda x: x.log_softmax(0),
     "LogSoftmaxBackward0"),
    (lambda x: aten._to_copy.default(x, dtype=torch.float32), lambda x: x.float(),
     "ToCopyBackward0"),
    (lambda x: aten.index.Tensor(x, [torch.tensor([1, 0])]), lambda x: x[torch.tensor([1, 0])],
     "IndexBackward0"),
    (lambda x: aten.relu.default(x - 1), lambda x: (x - 1).relu(), "ReluBackward0"),
    (lambda x: aten.linalg_vector_norm.default(x, 3), lambda x: torch.linalg.vector_norm(x, 3),
     "LinalgVectorNormBackward0"),
    (lambda x: aten.special_erfcx.default(x), lambda x: torch.special.erfcx(x),
     "SpecialErfcxBackward0"),
    (lambda x: aten.cat.default([x, x], 1), lambda x: torch.cat([x, x], 1), "CatBackward0"),
    (lambda x: aten.clone.default(x), lambda x: x.clone(), "CloneBackward0"),
]


@pytest.mark.parametrize(("by_name", "as_python", "node"), CALLS)
def test_a_call_by_aten_name_runs_the_op(by_name, as_python, node):
    x, y = _leaf(2, 3), _leaf(2, 3)
    out, expected = by_name(x), as_python(y)
    assert type(out.grad_fn).__name__ == node
    assert (out.dtype, out.shape, out.stride()) == (expected.dtype, expected.shape,
                                                    expected.stride())
    assert torch.equal(out, expected)
    out.sum().backward()
    expected.sum().backward()
    assert torch.equal(x.grad, y.grad)


def test_in_place_and_out_overloads_write_their_tensors():
    x = torch.ones(3, dtype=torch.float64)
    assert aten.add_.Tensor(x, torch.full((3,), 2.0, dtype=torch.float64), alpha=3) is x
    assert (x.tolist(), x._version) == ([7.0] * 3, 1)
    out = torch.empty(3, dtype=torch.float64)
    assert aten.mul.out(x, x, out=out) is out
    assert out.tolist() == [49.0] * 3
    assert aten._local_scalar_dense.default(x[0]) == 7.0


def test_a_mode_sees_the_op_by_its_aten_name():
    x = _leaf(2, 3)
    with Names() as mode:
        aten.mm.default(x, x.t())
        aten._softmax.default(x, 1, False)
        aten.slice.Tensor(x, 1, 0, 2)
    assert mode.seen == ["aten.t.default", "aten.mm.default", "aten._softmax.default",
                         "aten.detach.default", "aten.slice.Tensor"]


def test_a_handler_may_compute_with_aten_ops_instead_of_its_func():
    class Doubling(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            result = func(*args, **(kwargs or {}))
            if func == aten.sin.default:  # an op called in a handler reaches no mode above
                return aten.mul.Tensor(result, 2.0)
            return result

    x = _leaf()
    with Names() as outer, Doubling():
        y = x.sin()
    assert torch.equal(y, x.detach().sin() * 2)
    assert outer.seen == ["aten.sin.default", "aten.mul.Tensor"]


def test_alias_by_its_aten_name_is_a_view_of_the_whole_tensor():
    x = torch.ones(4, requires_grad=True)
    y = x * 2
    for run in (torch.ops.aten.alias, torch.ops.aten.alias.default):
        a = run(y)
        assert a.grad_fn.name() == "AliasBackward0" and a._base is y
        assert a.data_ptr() == y.data_ptr() and a._version == y._version
    a.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0, 2.0]
