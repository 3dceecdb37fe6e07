"""Black-box tests: a 0-d tensor that requires grad, given to a foreach add, mul or div,
picks the Tensor overload, has an edge of its own, and the backward refuses as torch's
does; in place, each write records its own node. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize(("op", "node"), [("_foreach_add", "ForeachAddBackward0Tensor"),
                                          ("_foreach_mul", "ForeachMulBackward0Tensor"),
                                          ("_foreach_div", "ForeachDivBackward0Tensor")])
@pytest.mark.parametrize("lists_require_grad", [True, False])
def test_a_scalar_tensor_that_requires_grad_has_an_edge(op, node, lists_require_grad):
    tensors = [torch.ones(2, requires_grad=lists_require_grad),
               torch.ones(3, requires_grad=lists_require_grad)]
    scalar = torch.tensor(2.0, requires_grad=True)
    results = getattr(torch, op)(tensors, scalar)
    assert [r.grad_fn.name() for r in results] == [node, node]
    edges = results[0].grad_fn.next_functions
    assert len(edges) == 3 and edges[2][0].variable is scalar
    with raises(RuntimeError, "inconsistent range for TensorList output"):
        sum(r.sum() for r in results).backward()


def test_a_scalar_tensor_without_grad_is_read_as_a_number():
    tensors = [torch.ones(2, requires_grad=True)]
    result = torch._foreach_add(tensors, torch.tensor(2.0))[0]
    assert result.grad_fn.name() == "ForeachAddBackward1Scalar"
    result.sum().backward()
    assert tensors[0].grad.tolist() == [1.0, 1.0]


@pytest.mark.parametrize(("op", "node"), [("_foreach_add_", "AddBackward0"),
                                          ("_foreach_mul_", "MulBackward0")])
def test_in_place_each_write_records_its_node_with_the_scalar_tensor(op, node):
    scalar = torch.tensor(2.0, requires_grad=True)
    tensors = [torch.ones(2, requires_grad=True) * 1, torch.ones(3, requires_grad=True) * 1]
    getattr(torch, op)(tensors, scalar)
    assert [t.grad_fn.name() for t in tensors] == [node, node]
    sum(t.sum() for t in tensors).backward()
    assert scalar.grad.item() == 5.0
