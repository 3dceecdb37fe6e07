"""Black-box tests: which overload a foreach op's second argument picks (a 0-d tensor is a
number to some and a Tensor to others), the nodes that in-place forms given numbers
record, the NotImplemented nodes of _foreach_maximum_/_minimum_ with numbers and of
_foreach_copy_, and the CppFunction type of foreach nodes torch makes without a Python
class. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises

UNNUMBERED = 2**64 - 1


def _two():
    return [torch.tensor([1.5, 2.5], requires_grad=True) * 1,
            torch.tensor([0.5, 3.0, 1.0], requires_grad=True) * 1]


@pytest.mark.parametrize(("op", "node", "expected"), [
    ("sub", "ForeachSubBackward1Scalar", [-0.5, 0.5]),
    ("maximum", "ForeachMaximumBackward0", [2.0, 2.5]),
    ("minimum", "ForeachMinimumBackward0", [1.5, 2.0]),
    ("clamp_min", "ForeachClampMinBackward0Scalar", [2.0, 2.5]),
    ("clamp_max", "ForeachClampMaxBackward0Scalar", [1.5, 2.0]),
    ("pow", "ForeachPowBackward0Scalar", [2.25, 6.25]),
    ("add", "ForeachAddBackward1Scalar", [3.5, 4.5]),
    ("mul", "ForeachMulBackward0Tensor", [3.0, 5.0]),
    ("div", "ForeachDivBackward0Tensor", [0.75, 1.25]),
])
def test_a_zero_dim_tensor_picks_the_overload_torch_parses_first(op, node, expected):
    tensors = _two()
    results = getattr(torch, f"_foreach_{op}")(tensors, torch.tensor(2.0))
    assert [r.grad_fn.name() for r in results] == [node, node]
    assert results[0].tolist() == expected
    sum(r.sum() for r in results).backward()  # a gradient reaches the lists' tensors


@pytest.mark.parametrize(("op", "number", "node"), [
    ("add", 0.5, "AddBackward1"), ("sub", 2, "SubBackward1"), ("mul", [0.5, 2.0], "MulBackward1"),
    ("div", True, "DivBackward1"), ("add", torch.tensor(2.0), "AddBackward1"),
    ("mul", torch.tensor(2.0), "MulBackward0"),
    ("clamp_min", torch.tensor(2.0), "ClampMinBackward0"),
    ("clamp_max", 1.0, "ClampMaxBackward0"), ("pow", torch.tensor(2.0), "PowBackward0"),
])
def test_in_place_with_numbers_writes_through_the_scalar_overload(op, number, node):
    tensors = _two()
    getattr(torch, f"_foreach_{op}_")(tensors, number)
    assert [t.grad_fn.name() for t in tensors] == [node, node]
    assert [t._version for t in tensors] == [1, 1]
    sum(t.sum() for t in tensors).backward()


@pytest.mark.parametrize("op", ["maximum", "minimum"])
@pytest.mark.parametrize("number", [0.5, [2.0, 0.25], torch.tensor(2.0)])
def test_in_place_bounds_by_numbers_have_no_derivative(op, number):
    tensors = _two()
    before = [t.detach().clone() for t in tensors]
    getattr(torch, f"_foreach_{op}_")(tensors, number)
    numbers = number if isinstance(number, list) else [number, number]
    bound = getattr(torch, op)
    assert [t.tolist() for t in tensors] == [
        bound(b, torch.tensor(float(n))).tolist() for b, n in zip(before, numbers)]
    node = tensors[0].grad_fn
    assert type(node).__name__ == "NotImplemented"
    assert node.name() == "torch::autograd::NotImplemented"
    assert [n.name() for n, _ in node.next_functions] == ["MulBackward0"]
    assert node._sequence_nr() == UNNUMBERED
    with raises(RuntimeError, f"derivative for _foreach_{op}_ is not implemented"):
        tensors[0].sum().backward()


def test_a_bound_written_through_a_view_reaches_its_base():
    base = torch.tensor([1.0, 3.0, 0.0], requires_grad=True) * 1
    view = base[:2]
    torch._foreach_maximum_([view], 2.0)
    assert base.tolist() == [2.0, 3.0, 0.0] and view.grad_fn.name() == "AsStridedBackward0"
    with raises(RuntimeError, "derivative for _foreach_maximum_ is not implemented"):
        view.sum().backward()


def test_copy_records_a_node_with_an_edge_per_operand():
    sources = [torch.tensor([4.0, 5.0], requires_grad=True), torch.tensor([6.0, 7.0, 8.0])]
    targets = [torch.zeros(2), torch.zeros(3, requires_grad=True) * 1]
    torch._foreach_copy_(targets, sources)
    assert [t.tolist() for t in targets] == [[4.0, 5.0], [6.0, 7.0, 8.0]]
    first, second = (t.grad_fn for t in targets)
    assert [n is None for n, _ in first.next_functions] == [True, False, True]
    assert first.next_functions[1][0].variable is sources[0]
    assert [n is None for n, _ in second.next_functions] == [False, False, True]
    assert first._sequence_nr() == second._sequence_nr() == UNNUMBERED
    with raises(RuntimeError, "derivative for _foreach_copy_ is not implemented"):
        targets[0].sum().backward()


def test_copy_casts_and_broadcasts_as_copy_does():
    targets = [torch.zeros(2, 2, dtype=torch.int64)]
    torch._foreach_copy_(targets, [torch.tensor([1.7, -2.7])])
    assert targets[0].tolist() == [[1, -2], [1, -2]]


def test_unnumbered_nodes_leave_the_counter_where_it_was():
    tensors = _two()
    torch._foreach_copy_(tensors, [torch.ones(2), torch.ones(3)])
    after = torch.ones(1, requires_grad=True) * 1
    before = tensors[1].grad_fn.next_functions[0][0]
    assert after.grad_fn._sequence_nr() == before._sequence_nr() + 1


def test_an_out_of_place_foreach_node_takes_one_sequence_number():
    tensors = _two()
    first = tensors[1].grad_fn._sequence_nr()
    results = torch._foreach_add(tensors, 0.5)
    after = torch.ones(1, requires_grad=True) * 1
    assert results[0].grad_fn._sequence_nr() == first + 1
    assert after.grad_fn._sequence_nr() == first + 2


@pytest.mark.parametrize(("call", "typed"), [
    (lambda t: torch._foreach_mul(t, 2.0), "CppFunction"),
    (lambda t: torch._foreach_exp(t), "CppFunction"),
    (lambda t: torch._foreach_div(t, t), "ForeachDivBackward0"),
    (lambda t: torch._foreach_pow(t, t), "ForeachPowBackward0"),
    (lambda t: torch._foreach_maximum(t, 2.0), "ForeachMaximumBackward0"),
])
def test_foreach_nodes_without_a_class_are_cpp_functions(call, typed):
    node = call(_two())[0].grad_fn
    assert type(node).__name__ == typed
    assert isinstance(node, torch.autograd.graph.Node) == (typed != "CppFunction")
    assert hasattr(torch._C._functions, typed) == (typed != "CppFunction")
    assert repr(node).startswith(f"<{typed} object at ")
    assert f"grad_fn=<{node.name()}>" in repr(call(_two())[0])


def test_a_keyword_list_is_described_with_its_elements():
    tensors = [torch.ones(2)]
    message = (
        "!list of [Tensor]!, !list of [Tensor]!, !weight=list of [Tensor]!)")
    with pytest.raises(TypeError) as caught:
        torch._foreach_lerp(tensors, tensors, weight=tensors)
    assert message in str(caught.value)


@pytest.mark.parametrize(("dtype", "name"), [(torch.int64, "long int"),
                                           (torch.uint8, "unsigned char")])
@pytest.mark.parametrize("op", ["_foreach_maximum_", "_foreach_clamp_min_"])
def test_bounds_by_numbers_name_the_c_type_they_cannot_cast_to(op, dtype, name):
    message = f"result type Float can't be cast to the desired output type {name}"
    with raises(RuntimeError, message):
        getattr(torch, op)([torch.zeros(2, dtype=dtype)], 1.5)


def test_copy_refuses_sources_that_do_not_broadcast_in_copy_words():
    message = ("The size of tensor a (2) must match the size of tensor b (3) at "
               "non-singleton dimension 0")
    with raises(RuntimeError, message):
        torch._foreach_copy_([torch.zeros(2)], [torch.ones(3)])
