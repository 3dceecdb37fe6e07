"""backward() and grad() (F12–F17, F41–F49, F190): black-box, against torch's API."""

import gc
import inspect
import re
import warnings

import pytest
import torch
from torch.autograd.graph import GradientEdge, get_gradient_edge

from conformance._support import FREED, UNUSED, leaf, raises


# F12
def test_backward_signature():
    assert str(inspect.signature(torch.Tensor.backward)) == (
        "(self, gradient=None, retain_graph=None, create_graph=False, inputs=None)"
    )


def test_implicit_gradient_only_for_single_element_outputs():
    a = leaf(1.0, 2.0)
    with raises(RuntimeError, "grad can be implicitly created only for scalar outputs"):
        (a * 2).backward()
    with raises(RuntimeError, "grad can be implicitly created only for scalar outputs"):
        torch.autograd.grad(a * 2, a)
    with raises(RuntimeError, "grad can be implicitly created only for scalar outputs"):
        torch.autograd.grad(a * 2, a, grad_outputs=[None])
    one = torch.tensor([3.0], requires_grad=True)
    (one * 2).backward()
    assert one.grad.tolist() == [2.0]
    b = torch.ones(1, 1, requires_grad=True)
    (b * 3).backward()
    assert b.grad.tolist() == [[3.0]]


def test_gradient_shape_must_match():
    a = leaf(1.0, 2.0)
    with raises(RuntimeError, "Mismatch in shape: grad_output[0] has a shape of "
                "torch.Size([3]) and output[0] has a shape of torch.Size([2])."):
        (a * 2).backward(torch.ones(3))


def test_backward_of_a_tensor_without_graph():
    with raises(RuntimeError, "element 0 of tensors does not require grad and does not have "
                "a grad_fn"):
        torch.ones(2).sum().backward()
    a = leaf(1.0)
    with raises(RuntimeError, "element 1 of tensors does not require grad and does not have "
                "a grad_fn"):
        torch.autograd.backward([a.sum(), torch.ones(1).sum()])


@pytest.mark.parametrize("given", [[], [torch.ones(())], [torch.ones(()), None, None]])
def test_one_gradient_per_output_is_needed(given):
    a = leaf(1.0, 2.0)
    outputs = [(a * 2).sum(), (a * 3).sum()]
    if len(given) > 2:  # the extra entries are never looked at
        assert torch.autograd.grad(outputs, a, grad_outputs=given)[0].tolist() == [5.0, 5.0]
        return
    message = f"got 2 tensors and {len(given)} gradients"
    with raises(RuntimeError, message):
        torch.autograd.grad(outputs, a, grad_outputs=given)
    with raises(RuntimeError, message):
        torch.autograd.backward(outputs, grad_tensors=given)
    assert a.grad is None


def test_an_empty_gradient_list_is_not_an_implicit_gradient():
    a = leaf(1.0, 2.0)
    with raises(RuntimeError, "got 1 tensors and 0 gradients"):
        (a * 2).sum().backward([])
    with raises(RuntimeError, "got 2 tensors and 1 gradients"):  # counted before the roots
        torch.autograd.backward([torch.ones(()), (a * 2).sum()], [torch.ones(())])
    assert a.grad is None


def test_explicit_gradient_is_used():
    a = leaf(1.0, 2.0)
    (a * 2).backward(torch.tensor([3.0, 4.0]))
    assert a.grad.tolist() == [6.0, 8.0]


def test_backward_inputs_restricts_accumulation():
    a, b = leaf(1.0), leaf(1.0)
    (a * b).backward(inputs=[a])
    assert a.grad.tolist() == [1.0] and b.grad is None
    a, b = leaf(1.0), leaf(1.0)
    (a * b * 5).backward(inputs=a)
    assert a.grad.tolist() == [5.0] and b.grad is None


def test_backward_inputs_errors():
    a = leaf(1.0, 2.0)
    with raises(RuntimeError, "`inputs` argument to `backward()` cannot be empty."):
        (a * 2).sum().backward(inputs=[])
    with raises(RuntimeError, "can't retain_grad on Tensor that has requires_grad=False"):
        (a * 2).sum().backward(inputs=[torch.ones(2)])


def test_backward_inputs_unreachable_leaf_keeps_none():
    a, z = leaf(1.0), leaf(1.0)
    (a * 2).backward(inputs=[z])
    assert z.grad is None and a.grad is None


def test_backward_inputs_non_leaf_gets_grad():
    a = leaf(1.0, 2.0)
    b = a * a
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (b * 3).sum().backward(inputs=[b])
        assert b.grad.tolist() == [3.0, 3.0]
    assert a.grad is None


# F13
def test_functional_backward_signature():
    params = list(inspect.signature(torch.autograd.backward).parameters)
    assert params == ["tensors", "grad_tensors", "retain_graph", "create_graph",
                      "grad_variables", "inputs"]


# F14
def test_first_gradient_is_a_fresh_tensor():
    a = leaf(1.0, 2.0)
    g = torch.tensor([5.0, 5.0])
    a.backward(g)
    assert a.grad is not g and a.grad.tolist() == [5.0, 5.0]
    a.backward(g)
    assert a.grad.tolist() == [10.0, 10.0] and g.tolist() == [5.0, 5.0]


def test_later_gradients_are_added_in_place():
    a = leaf(1.0, 2.0)
    y = (a * 2).sum()
    y.backward(retain_graph=True)
    first = a.grad
    version = first._version
    y.backward()
    assert a.grad is first
    assert first.tolist() == [4.0, 4.0]
    assert first._version == version + 1
    assert first.requires_grad is False and first.is_leaf and first.grad_fn is None


def test_a_user_assigned_grad_is_accumulated_into():
    a = leaf(1.0, 2.0)
    a.grad = torch.tensor([10.0, 10.0])
    g = a.grad
    (a * 2).sum().backward()
    assert a.grad is g and g.tolist() == [12.0, 12.0]


def backward_creating_graph(tensor, *args):
    # the reference-cycle warning is tested in test_warn_always.py
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tensor.backward(*args, create_graph=True)


def test_backward_with_create_graph_records_the_copy():
    a = leaf(1.0, 2.0)
    backward_creating_graph((a * a).sum())
    first = a.grad
    assert type(first.grad_fn).__name__ == "CopyBackwards"
    assert first.grad_fn.name() == "torch::autograd::CopyBackwards"
    assert first.requires_grad and not first.is_leaf
    assert first.grad_fn.next_functions[0] == (None, 0)
    assert first.grad_fn.next_functions[1][0].name() == "AddBackward0"
    backward_creating_graph((a * a).sum())
    assert a.grad is not first and a.grad.grad_fn.name() == "AddBackward0"
    assert a.grad.tolist() == [4.0, 8.0]
    (second,) = torch.autograd.grad(a.grad.sum(), a)
    assert second.tolist() == [4.0, 4.0]


def test_create_graph_with_a_constant_gradient_records_nothing():
    b = leaf(1.0, 2.0)
    backward_creating_graph(b, torch.ones(2))
    assert b.grad.grad_fn is None and not b.grad.requires_grad


# F17
def test_grad_dtype_follows_the_leaf():
    a = leaf(1.0, 2.0, dtype=torch.float64)
    (a * 2).sum().backward()
    assert a.grad.dtype is torch.float64
    b = leaf(1.0, 2.0, dtype=torch.float64)
    (b.to(torch.float32) * 2).sum().backward()
    assert b.grad.dtype is torch.float64 and b.grad.tolist() == [2.0, 2.0]
    c = leaf(1.0, 2.0)
    (c.to(torch.float64) * 2).sum().backward()
    assert c.grad.dtype is torch.float32


# F15
def test_second_backward_through_freed_saved_values_fails():
    a = leaf(1.0, 2.0)
    b = a * a
    b.sum().backward()
    with raises(RuntimeError, FREED):
        (b * 2).sum().backward()


@pytest.mark.parametrize("make", [
    lambda a: a * 2, lambda a: a / 2, lambda a: a ** 2, lambda a: a.exp(),
    lambda a: a.sin(), lambda a: a.log(),
])
def test_ops_that_save_cannot_backward_twice(make):
    a = leaf(1.0, 2.0)
    y = make(a).sum()
    y.backward()
    with raises(RuntimeError, FREED):
        y.backward()


@pytest.mark.parametrize("make", [
    lambda a: a.clone(), lambda a: a + 2, lambda a: -a, lambda a: a - a,
    lambda a: a.view(2, 1).expand(2, 3), lambda a: a.unsqueeze(0).squeeze(0),
    lambda a: torch.stack([a, a]),
])
def test_graphs_that_saved_nothing_can_backward_twice(make):
    a = leaf(1.0, 2.0)
    y = make(a).sum()
    y.backward()
    first = a.grad.tolist()
    y.backward()
    assert a.grad.tolist() == [2 * g for g in first]


def test_retain_graph_allows_repeated_backward():
    a = leaf(1.0, 2.0)
    b = a * a
    ran = []
    b.grad_fn.register_prehook(lambda grads: ran.append(1))
    y = b.sum()
    y.backward(retain_graph=True)
    y.backward(retain_graph=True)
    y.backward()
    assert len(ran) == 3
    assert a.grad.tolist() == [6.0, 12.0]
    with raises(RuntimeError, FREED):
        y.backward()


def test_retain_graph_defaults_to_create_graph():
    a = leaf(1.0, 2.0)
    y = (a * a).sum()
    (g,) = torch.autograd.grad(y, a, create_graph=True)
    y.backward()
    assert a.grad.tolist() == [2.0, 4.0]


def test_grad_frees_the_graph_too():
    a = leaf(1.0, 2.0)
    y = (a * a).sum()
    torch.autograd.grad(y, a)
    with raises(RuntimeError, FREED):
        torch.autograd.grad(y, a)


# F16
def test_grad_signature():
    params = list(inspect.signature(torch.autograd.grad).parameters)
    assert params == ["outputs", "inputs", "grad_outputs", "retain_graph", "create_graph",
                      "only_inputs", "allow_unused", "is_grads_batched", "materialize_grads"]


def test_grad_returns_a_tuple_and_leaves_grad_alone():
    x = leaf(1.0, 2.0, 3.0)
    loss = (x * x).sum()
    result = torch.autograd.grad(loss, x)
    assert isinstance(result, tuple) and len(result) == 1
    assert result[0].tolist() == [2.0, 4.0, 6.0]
    assert x.grad is None


def test_grad_with_respect_to_non_leaves_and_several_inputs():
    a = leaf(1.0, 2.0)
    b = a * a
    loss = (b * 3).sum()
    gb, ga = torch.autograd.grad(loss, [b, a])
    assert gb.tolist() == [3.0, 3.0] and ga.tolist() == [6.0, 12.0]


def test_grad_unused_inputs():
    a, z = leaf(1.0, 2.0), leaf(1.0, 2.0)
    loss = (a * 2).sum()
    with raises(RuntimeError, UNUSED.format(0)):
        torch.autograd.grad(loss, z, retain_graph=True)
    with raises(RuntimeError, UNUSED.format(1)):
        torch.autograd.grad(loss, [a, z], retain_graph=True)
    ga, gz = torch.autograd.grad(loss, [a, z], allow_unused=True, retain_graph=True)
    assert ga.tolist() == [2.0, 2.0] and gz is None
    ga, gz = torch.autograd.grad(loss, [a, z], materialize_grads=True)
    assert gz.tolist() == [0.0, 0.0] and gz.dtype is z.dtype


def test_grad_misuse_messages():
    a = leaf(1.0, 2.0)
    with raises(RuntimeError, "One of the differentiated Tensors does not require grad"):
        torch.autograd.grad((a * 2).sum(), torch.ones(2))
    with raises(RuntimeError, "`inputs` argument to `grad()` cannot be empty."):
        torch.autograd.grad((a * 2).sum(), [])
    with raises(TypeError, "gradients can be either Tensors or None, but got int"):
        torch.autograd.grad((a * 2).sum(), a, grad_outputs=[3])
    with raises(ValueError, "Expected allow_unused to be True or not passed when "
                "materialize_grads=True, but got: allow_unused=False."):
        torch.autograd.grad((a * 2).sum(), a, materialize_grads=True, allow_unused=False)


# F190
def test_double_backward():
    a = leaf(1.0, 2.0)
    (g,) = torch.autograd.grad((a ** 3).sum(), a, create_graph=True)
    assert g.tolist() == [3.0, 12.0]
    assert g.grad_fn.name() == "MulBackward0"
    (g2,) = torch.autograd.grad(g.sum(), a)
    assert g2.tolist() == [6.0, 12.0]


def test_triple_backward():
    a = leaf(1.0, 2.0)
    (g1,) = torch.autograd.grad((a ** 4).sum(), a, create_graph=True)
    (g2,) = torch.autograd.grad(g1.sum(), a, create_graph=True)
    (g3,) = torch.autograd.grad(g2.sum(), a)
    assert g1.tolist() == [4.0, 32.0]
    assert g2.tolist() == [12.0, 48.0]
    assert g3.tolist() == [24.0, 48.0]


def test_double_backward_through_exp_sin_and_division():
    a = leaf(0.5, 1.5)
    y = (a.exp() * a.sin() / a).sum()
    (g,) = torch.autograd.grad(y, a, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), a)
    x = a.detach()
    e, s, c = x.exp(), x.sin(), x.cos()
    # d/dx of e*s/x, twice
    first = e * s / x + e * c / x - e * s / (x * x)
    second = (e * s / x + e * c / x - e * s / (x * x)) + (e * c / x - e * s / x
              - e * c / (x * x)) - (e * s / (x * x) + e * c / (x * x) - 2 * e * s / (x * x * x))
    assert g.tolist() == pytest.approx(first.tolist(), rel=1e-5)
    assert h.tolist() == pytest.approx(second.tolist(), rel=1e-5)


def test_gradients_of_gradients_have_grad_fn_only_with_create_graph():
    a = leaf(1.0, 2.0)
    (g,) = torch.autograd.grad((a * a).sum(), a)
    assert g.grad_fn is None and not g.requires_grad


# F41
def test_gradient_edge_is_a_named_tuple():
    a = leaf(1.0, 2.0)
    b = a * 2
    e = GradientEdge(b.grad_fn, 0)
    assert GradientEdge._fields == ("node", "output_nr", "ownership_token")
    assert e == (b.grad_fn, 0, None)
    assert len(e) == 3 and e[0] is b.grad_fn and e.output_nr == 0
    node, nr, token = e
    assert node is b.grad_fn and nr == 0 and token is None
    assert re.fullmatch(r"GradientEdge\(node=<MulBackward0 object at 0x[0-9a-f]+>, "
                        r"output_nr=0, ownership_token=None\)", repr(e))


# F42
def test_gradient_edge_of_a_leaf():
    a = leaf(1.0, 2.0)
    e = get_gradient_edge(a)
    assert type(e) is GradientEdge
    assert e.node.name() == "torch::autograd::AccumulateGrad"
    assert e.node.variable is a and e.output_nr == 0 and e.ownership_token is None
    assert get_gradient_edge(a).node is get_gradient_edge(a).node


def test_gradient_edge_of_non_leaves():
    a = leaf(1.0, 2.0)
    b = a * 2
    x, y = b.unbind()
    assert get_gradient_edge(b) == (b.grad_fn, 0, None)
    ey = get_gradient_edge(y)
    assert ey.node is y.grad_fn and ey.node.name() == "UnbindBackward0" and ey.output_nr == 1


def test_gradient_edge_under_no_grad():
    a = leaf(1.0, 2.0)
    b = a * 2
    with torch.no_grad():
        e = get_gradient_edge(a)
        assert get_gradient_edge(b).node is b.grad_fn
    assert e.node.name() == "torch::autograd::AccumulateGrad" and e.node.variable is a


def test_gradient_edge_misuse():
    with raises(RuntimeError, "It is not possible to get the gradient edge for a Tensor "
                "that does not require gradients"):
        get_gradient_edge(torch.ones(2))
    a = leaf(1.0, 2.0)
    with torch.inference_mode():
        with raises(AttributeError, "'NoneType' object has no attribute 'next_functions'"):
            get_gradient_edge(a)


# F43
def test_an_edge_keeps_its_graph_alive():
    a = leaf(1.0, 2.0)
    b = a * 2
    e = get_gradient_edge(b)
    c = (b * 3).sum()
    del b
    gc.collect()
    (g,) = torch.autograd.grad(c, e)
    assert g.tolist() == [3.0, 3.0]


# F44, F49
def test_grad_with_edges_as_inputs():
    a = leaf(1.0, 2.0)
    b = a * a
    loss = (b * 3).sum()

    def grad(inputs):
        return [g.tolist() for g in torch.autograd.grad(loss, inputs, retain_graph=True)]

    assert grad(a) == grad(get_gradient_edge(a)) == [[6.0, 12.0]]
    assert grad(get_gradient_edge(b)) == [[3.0, 3.0]]
    assert grad([get_gradient_edge(b), a]) == [[3.0, 3.0], [6.0, 12.0]]
    x = leaf(1.0, 2.0, 3.0)
    h = x * 3
    out = (h * h).sum()
    assert torch.autograd.grad(out, get_gradient_edge(h))[0].tolist() == [6.0, 12.0, 18.0]


# F45
def test_backward_with_edges_as_inputs():
    a = leaf(1.0, 2.0)
    (((a * a) * 3).sum()).backward(inputs=[get_gradient_edge(a)])
    assert a.grad.tolist() == [6.0, 12.0]
    a = leaf(1.0, 2.0)
    b = a * a
    (b * 3).sum().backward(inputs=[get_gradient_edge(b)])
    assert a.grad is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert b.grad is None


# F46
def test_unused_edge_inputs():
    a, z = leaf(1.0, 2.0), leaf(1.0, 2.0)
    loss = (a * 2).sum()
    assert torch.autograd.grad(loss, [get_gradient_edge(z)], allow_unused=True,
                               retain_graph=True) == (None,)
    with raises(RuntimeError, UNUSED.format(0)):
        torch.autograd.grad(loss, [get_gradient_edge(z)], retain_graph=True)
    with raises(RuntimeError, "materialize_grads cannot be used when the given input is a "
                "GradientEdge"):
        torch.autograd.grad(loss, [get_gradient_edge(z)], materialize_grads=True)


# F47
def test_edges_as_outputs():
    a = leaf(1.0, 2.0)
    b = a * a
    c = b * 3
    edge = get_gradient_edge(c)
    (g,) = torch.autograd.grad(edge, a, grad_outputs=torch.ones(2), retain_graph=True)
    assert g.tolist() == [6.0, 12.0]
    with raises(RuntimeError, "grad can be implicitly created only for scalar outputs"):
        torch.autograd.grad(edge, a, retain_graph=True)
    with raises(RuntimeError, "Mismatch in shape: grad_output[0] has a shape of "
                "torch.Size([3]) and output[0] has a shape of torch.Size([2])."):
        torch.autograd.grad(edge, a, grad_outputs=torch.ones(3), retain_graph=True)
    s = (a * a).sum()
    (gs,) = torch.autograd.grad(get_gradient_edge(s), a)
    assert gs.tolist() == [2.0, 4.0]


def test_edge_output_gradient_takes_the_recorded_dtype():
    a = leaf(1.0, 2.0, dtype=torch.float64)
    s = (a * a).sum()
    (g,) = torch.autograd.grad(get_gradient_edge(s), a)
    assert g.dtype is torch.float64 and g.tolist() == [2.0, 4.0]


def test_a_root_gradient_is_cast_to_the_roots_dtype():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    third = torch.tensor([1 / 3, 1 / 3], dtype=torch.float64)
    y = x.float() * 1
    seen = []
    y.register_hook(lambda g: seen.append(g.dtype))
    y.backward(third)
    assert seen == [torch.float32]
    assert x.grad.dtype is torch.float64
    assert x.grad.tolist() == [float(torch.tensor(1 / 3, dtype=torch.float32))] * 2
    (g,) = torch.autograd.grad(x.float() * 1, x, third)
    assert g.tolist() == x.grad.tolist()


# is_grads_batched: the first dimension of each grad_output is a batch


def test_batched_grad_outputs_give_one_gradient_per_row():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    (jacobian,) = torch.autograd.grad(y, x, torch.eye(3), retain_graph=True,
                                      is_grads_batched=True)
    assert jacobian.tolist() == [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 6.0]]
    (rows,) = torch.autograd.grad(y.sum(), x, torch.tensor([1.0, 2.0]), retain_graph=True,
                                  is_grads_batched=True)
    assert rows.tolist() == [[2.0, 4.0, 6.0], [4.0, 8.0, 12.0]]
    (both,) = torch.autograd.grad((y, x * 2), x, (torch.eye(3), 2 * torch.eye(3)),
                                  is_grads_batched=True)
    assert both.tolist() == [[6.0, 0.0, 0.0], [0.0, 8.0, 0.0], [0.0, 0.0, 10.0]]


def test_batched_grad_with_unused_inputs_and_a_graph():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    unused = torch.ones(2, requires_grad=True)
    y = x * x
    first, second = torch.autograd.grad(y, [x, unused], torch.eye(2), retain_graph=True,
                                        is_grads_batched=True, allow_unused=True)
    assert first.tolist() == [[2.0, 0.0], [0.0, 4.0]] and second is None
    _, zeros = torch.autograd.grad(y, [x, unused], torch.eye(2), retain_graph=True,
                                   is_grads_batched=True, materialize_grads=True)
    assert zeros.tolist() == [0.0, 0.0]  # the input's shape, without the batch
    (g,) = torch.autograd.grad(y, x, torch.eye(2), create_graph=True, is_grads_batched=True)
    assert g.requires_grad
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [2.0, 2.0]


def test_batched_grad_frees_the_graph_after_the_last_row():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = (x * x).sum()
    torch.autograd.grad(z, x, torch.tensor([1.0, 2.0, 3.0]), is_grads_batched=True)
    with raises(RuntimeError, FREED):
        torch.autograd.grad(z, x, torch.tensor([1.0]), is_grads_batched=True)


def test_batched_grad_refusals():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    with raises(RuntimeError, "If `is_grads_batched=True`, we interpret the first dimension of "
                              "each grad_output as the batch dimension. The sizes of the "
                              "remaining dimensions are expected to match the shape of "
                              "corresponding output, but a mismatch was detected: "
                              "grad_output[0] has a shape of torch.Size([]) and output[0] has "
                              "a shape of torch.Size([3]). If you only want some tensors in "
                              "`grad_output` to be considered batched, consider using vmap."):
        torch.autograd.grad(y, x, torch.ones(2, 4), retain_graph=True, is_grads_batched=True)
    with raises(ValueError, "vmap: Expected all tensors to have the same size in the mapped "
                            "dimension, got sizes [2, 3] for the mapped dimension"):
        torch.autograd.grad((y, y), x, (torch.ones(2, 3), torch.ones(3, 3)), retain_graph=True,
                            is_grads_batched=True)
    with raises(ValueError, "vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, "
                            "but that input is a Tensor of dimensionality 0 so expected in_dim "
                            "to satisfy 0 <= in_dim < 0."):
        torch.autograd.grad(y.sum(), x, None, retain_graph=True, is_grads_batched=True)
    with raises(IndexError, "index 0 is out of bounds for dimension 0 with size 0"):
        torch.autograd.grad(y, x, torch.ones(0, 3), retain_graph=True, is_grads_batched=True)


def test_outputs_and_inputs_that_are_not_tensors():
    a = leaf(1.0, 2.0)
    with pytest.raises(AssertionError, match=r"\AExpected output to be a torch.Tensor\Z"):
        torch.autograd.grad([(a * 2).sum(), None], a)
    with pytest.raises(AssertionError, match=r"\AExpected output to be a torch.Tensor\Z"):
        torch.autograd.backward([(a * 2).sum(), 3], [None, torch.ones(())])
    for call in (lambda: torch.autograd.grad((a * 2).sum(), [a, 3]),
                 lambda: (a * 2).sum().backward(inputs=[a, 3])):
        with raises(RuntimeError, "all inputs have to be Tensors or GradientEdges, but got int"):
            call()
    with raises(RuntimeError, "element 0 of tensors does not require grad and does not have "
                "a grad_fn"):  # the outputs are looked at first
        torch.autograd.grad(torch.ones(()), [a, 3])
    assert a.grad is None


def test_deprecated_arguments_warn():
    a = leaf(1.0, 2.0)
    with pytest.warns(FutureWarning, match=r"\Aonly_inputs argument is deprecated and is "
                      r"ignored now \(defaults to True\)\. To accumulate gradient for other parts "
                      r"of the graph, please use torch\.autograd\.backward\.\Z"):
        assert torch.autograd.grad((a * 2).sum(), a, only_inputs=False)[0].tolist() == [2, 2]
    with pytest.warns(FutureWarning, match=r"\A`grad_variables` is deprecated\. Use "
                      r"`grad_tensors` instead\.\Z"):
        torch.autograd.backward(a * 2, grad_variables=torch.ones(2))
    assert a.grad.tolist() == [2.0, 2.0]
    with pytest.warns(FutureWarning), raises(
            RuntimeError, "`grad_tensors` and `grad_variables` (deprecated) arguments both "
            "passed to `backward()`. Please only use `grad_tensors`."):
        torch.autograd.backward(a * 2, grad_tensors=torch.ones(2),
                                grad_variables=torch.ones(2))


@pytest.mark.parametrize("flags, kind", [
    ({"retain_graph": "yes"}, "str"), ({"create_graph": None}, "NoneType"),
    ({"retain_graph": 1.5}, "float"), ({"create_graph": []}, "list"),
])
def test_graph_flags_are_read_as_integers(flags, kind):
    a = leaf(1.0, 2.0)
    with raises(TypeError, f"'{kind}' object cannot be interpreted as an integer"):
        a.exp().sum().backward(**flags)
    with raises(TypeError, f"'{kind}' object cannot be interpreted as an integer"):
        torch.autograd.grad(a.exp().sum(), a, **flags)
    assert a.grad is None


def test_graph_flags_take_integers():
    a = leaf(1.0, 2.0)
    out = a.exp().sum()
    out.backward(retain_graph=2)
    out.backward(retain_graph=0)
    with raises(RuntimeError, FREED):
        out.backward()


def test_tensor_methods_are_named_as_methods_in_type_errors():
    a = leaf(1.0, 2.0)
    with raises(TypeError, "Tensor.register_hook() missing 1 required positional argument: "
                "'hook'"):
        a.register_hook()
    with raises(TypeError, "Tensor.register_post_accumulate_grad_hook() missing 1 required "
                "positional argument: 'hook'"):
        a.register_post_accumulate_grad_hook()
    with raises(TypeError, "Tensor.backward() takes from 1 to 5 positional arguments but 6 "
                "were given"):
        a.sum().backward(None, True, False, None, 5)
    with raises(TypeError, "Tensor.backward() got an unexpected keyword argument 'foo'"):
        a.sum().backward(foo=1)


def test_a_leaf_that_stopped_requiring_grad_keeps_its_grad():
    a = leaf(1.0, 2.0)
    seen = []
    a.register_hook(lambda g: seen.append(g.tolist()))
    a.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad))
    out = (a * 2).sum()
    a.requires_grad_(False)
    out.backward()
    assert seen == [[2.0, 2.0], None] and a.grad is None


def test_a_leaf_written_in_place_since_is_no_leaf_to_accumulate_into():
    a = leaf(1.0, 2.0)
    out = (a * 2).sum()
    a.requires_grad_(False)
    a.mul_(leaf(3.0, 3.0))
    assert not a.is_leaf
    with raises(RuntimeError, "leaf variable has been moved into the graph interior"):
        out.backward()
