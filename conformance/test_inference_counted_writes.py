"""Inference tensors that count their writes (detach() or .data of an inference tensor, taken
outside inference mode), written in place from an operand that requires grad: the write is
recorded as for a normal tensor, while an op on them alone still records nothing. The same
assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

INFERENCE_REQUIRES_GRAD = (
    "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
NOT_LEAF = ("you can only change requires_grad flags of leaf variables. If you want to use a "
            "computed variable in a subgraph that doesn't require differentiation use "
            "var_no_grad = var.detach().")


def _counting(data=False):
    with torch.inference_mode():
        frozen = torch.ones(2)
    return frozen.data if data else frozen.detach()


@pytest.fixture
def source():
    return torch.full((2,), 3.0, requires_grad=True)


@pytest.mark.parametrize("write, node", [
    (lambda d, x: d.copy_(x), "CopyBackwards"),
    (lambda d, x: d.mul_(x), "MulBackward0"),
    (lambda d, x: d.add_(x, alpha=2), "AddBackward0"),
    (lambda d, x: d.div_(x), "DivBackward0"),
])
@pytest.mark.parametrize("data", [False, True])
def test_a_write_from_an_operand_that_requires_grad_records(source, write, node, data):
    d = _counting(data)
    assert write(d, source) is d
    assert type(d.grad_fn).__name__ == node
    assert d.requires_grad and not d.is_leaf and d.is_inference() and d._version == 1


def test_the_gradient_reaches_the_source_from_the_written_tensor_itself(source):
    d = _counting()
    d.mul_(source)
    d.mul_(source)
    assert [type(n).__name__ for n, _ in d.grad_fn.next_functions] == [
        "MulBackward0", "AccumulateGrad"]
    (grad,) = torch.autograd.grad(d, source, torch.ones(2), retain_graph=True)
    assert grad.tolist() == [6.0, 6.0]
    d.backward(torch.ones(2))
    assert source.grad.tolist() == [6.0, 6.0]


def test_an_op_on_it_alone_records_nothing_one_with_a_normal_operand_records(source):
    d = _counting()
    d.copy_(source)
    for result in (d.sum(), d.exp(), d[0]):
        assert result.grad_fn is None and not result.requires_grad
    d.exp_()  # autograd skipped: the grad_fn stays, the write is counted
    assert type(d.grad_fn).__name__ == "CopyBackwards" and d._version == 2
    assert type((d * 2).grad_fn).__name__ == "MulBackward0"
    copy = d.clone()
    assert type(copy.grad_fn).__name__ == "CopyBackwards" and copy._version == 1
    d.mul_(2)
    assert type(d.grad_fn).__name__ == "MulBackward0" and d._version == 3


def test_a_write_from_what_requires_nothing_records_nothing():
    d = _counting()
    d.mul_(torch.full((2,), 2.0))
    with torch.no_grad():
        d.copy_(torch.ones(2, requires_grad=True))
    assert d.grad_fn is None and not d.requires_grad and d.is_leaf and d._version == 2


def test_requires_grad_of_a_recorded_one_is_refused_either_way(source):
    d = _counting()
    d.copy_(source)
    with raises(RuntimeError, NOT_LEAF):
        d.requires_grad_(False)
    with raises(RuntimeError, INFERENCE_REQUIRES_GRAD):
        d.requires_grad_(True)
    with raises(RuntimeError, NOT_LEAF.split(" If")[0]):
        d.requires_grad = True
    with torch.inference_mode():
        assert d.requires_grad_(True) is d


def test_requires_grad_of_one_not_recorded(source):
    d = _counting()
    assert d.requires_grad_(False) is d and not d.requires_grad
    with raises(RuntimeError, INFERENCE_REQUIRES_GRAD):
        d.requires_grad_(True)


def test_the_attribute_refuses_true_on_any_non_leaf(source):
    y = source * 2
    with raises(RuntimeError, NOT_LEAF.split(" If")[0]):
        y.requires_grad = True
    with raises(RuntimeError, NOT_LEAF):
        y.requires_grad = False
    assert source.requires_grad_(True) is source and (source * 2).requires_grad_(True) is not None


def test_a_pack_hook_sees_a_normal_clone_of_what_it_was(source):
    d = _counting()
    seen = []

    def pack(t):
        seen.append((t.tolist(), t.is_inference()))
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        d.mul_(source)
    assert seen == [([1.0, 1.0], False)]


@pytest.mark.parametrize("write, counted", [
    (lambda d, n, i: d.mul_(n), 1),
    (lambda d, n, i: d.copy_(n), 1),
    (lambda d, n, i: d.addcmul_(n, n), 1),
    (lambda d, n, i: d.mul_(i), 0),
    (lambda d, n, i: d.add_(1), 0),
])
def test_inside_inference_mode_a_write_counts_only_beside_a_normal_tensor(write, counted):
    d, normal, other = _counting(), torch.full((2,), 2.0), _counting()
    with torch.inference_mode():
        write(d, normal, other)
    assert d._version == counted and d.grad_fn is None
