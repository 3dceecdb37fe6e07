"""Which values a node keeps, whichever inputs require grad, and what writing them does."""

import pytest
import torch

from conformance._support import leaf, raises

MODIFIED = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [{}], which is output 0 of {}, is at version 1; expected version 0 instead. "
    "Hint: enable anomaly detection to find the operation that failed to compute its "
    "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)


A = [[2.0, 0.5], [0.3, 3.0]]


def _solve(x, b):
    return torch.linalg.solve(torch.tensor(A), b)


def _lu_solve(x, b):
    LU, pivots = torch.linalg.lu_factor(torch.tensor(A))
    return torch.linalg.lu_solve(LU, pivots, b)


RESULT_KEPT = [
    # (call, which argument requires grad, node of the result, legacy type)
    (torch.pow, 0, "Pow1", "torch.FloatTensor [2, 1]"),
    (torch.float_power, 0, "Pow1", "torch.DoubleTensor [2, 1]"),
    (torch.copysign, 1, "Copysign", "torch.FloatTensor [2, 1]"),
    (_solve, 1, "LinalgSolveEx", "torch.FloatTensor [2, 1]"),
    (_lu_solve, 1, "LinalgLuSolve", "torch.FloatTensor [2, 1]"),
]


@pytest.mark.parametrize(("op", "which", "node", "kind"), RESULT_KEPT,
                         ids=["pow", "float_power", "copysign", "solve", "lu_solve"])
def test_a_result_is_kept_whichever_input_requires_grad(op, which, node, kind):
    args = [torch.tensor([[1.5], [2.0]]), torch.tensor([[2.0], [3.0]])]
    args[which].requires_grad_()
    y = op(*args)
    assert y.grad_fn._saved_result.tolist() == y.tolist()
    y.add_(1)  # the kept result, written: backward notices
    with raises(RuntimeError, MODIFIED.format(kind, node)):
        y.sum().backward()


def test_pow_result_written_fails_backward_of_the_base():
    x = leaf(1.5, 2.0)
    y = torch.pow(x, torch.tensor([2.0, 3.0]))
    y.add_(1)
    with raises(RuntimeError, MODIFIED.format("torch.FloatTensor [2]", "Pow1")):
        y.sum().backward()


def test_addcdiv_keeps_tensor2_when_only_self_requires_grad():
    s = leaf(1.0, 2.0)
    y = torch.addcdiv(s, torch.ones(2), torch.full((2,), 2.0))
    assert y.grad_fn._saved_tensor1 is None
    assert y.grad_fn._saved_tensor2.tolist() == [2.0, 2.0]
    y.sum().backward()
    assert s.grad.tolist() == [1.0, 1.0]


def test_a_gradient_operation_keeps_both_operands():
    x = leaf(-1.0, 2.0)
    v = torch.tensor([3.0, 4.0])
    g, = torch.autograd.grad(x.relu(), x, v, create_graph=True)
    assert type(g.grad_fn).__name__ == "ThresholdBackwardBackward0"
    assert g.grad_fn._saved_self.tolist() == [0.0, 2.0]
    y = x.tanh()
    g, = torch.autograd.grad(y, x, v, create_graph=True)
    node = g.grad_fn
    assert type(node).__name__ == "TanhBackwardBackward0"
    assert node._saved_grad_output.tolist() == [3.0, 4.0]
    assert node._saved_output.tolist() == y.tolist()
    (gx,) = torch.autograd.grad(g.sum(), x)
    expected = (-2 * y * v * (1 - y * y)).tolist()
    assert gx.tolist() == pytest.approx(expected)


def _put_node(b, source_requires_grad):
    source = torch.ones(1, requires_grad=source_requires_grad)
    return b.put(torch.tensor([0]), source), source


def test_put_keeps_its_source_only_for_the_source_gradient():
    a = leaf(1.0, 2.0, 3.0)
    y, source = _put_node(a, False)
    assert y.grad_fn._saved_source is None
    source.add_(1)  # not kept: backward does not mind
    y.sum().backward()
    assert a.grad.tolist() == [0.0, 1.0, 1.0]
    y, source = _put_node(a.detach(), True)
    assert y.grad_fn._saved_source.tolist() == [1.0]


def test_put_in_place_packs_the_index_only_when_the_source_needs_no_gradient():
    b = leaf(1.0, 2.0, 3.0) * 1
    log = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: log.append(t.dtype) or t, lambda t: t):
        b.put_(torch.tensor([0]), torch.zeros(1))
    assert log == [torch.int64]
    assert b.grad_fn._saved_source is None


INDEX_WRITES = [
    (lambda b: b.index_put_((torch.tensor([0]),), torch.tensor(9.0)), torch.int64, (1,)),
    (lambda b: b.__setitem__(torch.tensor([0, 2]), 0.0), torch.int64, (2,)),
    (lambda b: b.__setitem__(b > 1, 0.0), torch.bool, (3,)),
]


@pytest.mark.parametrize(("write", "dtype", "shape"), INDEX_WRITES,
                         ids=["index_put_", "setitem", "setitem mask"])
def test_an_index_write_packs_its_indices(write, dtype, shape):
    b = leaf(1.0, 2.0, 3.0) * 1
    log = []
    with torch.autograd.graph.saved_tensors_hooks(
            lambda t: log.append((t.dtype, tuple(t.shape))) or t, lambda t: t):
        write(b)
    assert log == [(dtype, shape)]
    assert type(b.grad_fn).__name__ == "IndexPutBackward0"


def test_index_put_indices_are_cloned_by_allow_mutation_on_saved_tensors():
    with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
        a = leaf(1.0, 2.0, 3.0)
        b = a.clone()
        out = (b * b).sum()
        b.index_put_((torch.tensor([0]),), torch.tensor(9.0))
        counts = (len(ctx.cloned), len(ctx.original))
        out.backward()
    assert counts == (1, 1)
    assert a.grad.tolist() == [2.0, 4.0, 6.0]
