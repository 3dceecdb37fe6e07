"""Black-box tests: the private names of torch.autograd.graph that belong to refgrad's features:
the node a gradient arrives at, and the parts of allow_mutation_on_saved_tensors."""

import pytest
import torch
from torch.autograd import graph


def test_a_leafs_node_is_its_shared_accumulator():
    x = torch.ones(2, requires_grad=True)
    node = graph._get_grad_fn_or_grad_acc(x)
    assert type(node).__name__ == "AccumulateGrad"
    assert node is graph._get_grad_fn_or_grad_acc(x)
    assert node is (x * 2).grad_fn.next_functions[0][0]
    assert node is graph.get_gradient_edge(x).node
    with torch.no_grad():
        assert graph._get_grad_fn_or_grad_acc(x) is node


def test_a_non_leafs_node_is_its_grad_fn_and_an_edges_its_node():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    v = x[0]
    assert graph._get_grad_fn_or_grad_acc(y) is y.grad_fn
    assert graph._get_grad_fn_or_grad_acc(v) is v.grad_fn
    assert graph._get_grad_fn_or_grad_acc(graph.get_gradient_edge(y)) is y.grad_fn


def test_no_node_is_refused():
    with pytest.raises(AssertionError, match=r"\AExpected gradient function to be set\Z"):
        graph._get_grad_fn_or_grad_acc(torch.ones(2))
    x = torch.ones(2, requires_grad=True)
    with torch.inference_mode(), pytest.raises(
            AttributeError, match=r"\A'NoneType' object has no attribute 'next_functions'\Z"):
        graph._get_grad_fn_or_grad_acc(x)


def test_the_keys_of_allow_mutation_on_saved_tensors():
    x = torch.ones(2)
    assert graph._get_tid(x) == (id(x), x.data_ptr(), 0)
    x.add_(1)
    assert graph._get_sid(x) == (x.data_ptr(), 1)
    assert graph._TID == tuple[int, int, int]
    assert graph._SID == tuple[int, int]


def test_the_parts_of_allow_mutation_on_saved_tensors():
    assert issubclass(graph._swap_with_cloned, graph.saved_tensors_hooks)
    with graph.allow_mutation_on_saved_tensors() as ctx:
        assert isinstance(ctx, graph._AllowMutationOnSavedContext)
        assert graph._allow_mutation_on_saved_tensors_enabled
        x = torch.ones(2, requires_grad=True)
        y = x.clone()
        z = y.sin()  # saves y
        y.add_(1)  # the saved y is cloned before the write
        (handle,) = [h for h in ctx.cloned]
        assert isinstance(handle, graph._Handle)
        z.sum().backward()
    assert x.grad.tolist() == pytest.approx([0.5403023058681398] * 2)
    mode = graph._CloneArgBeforeMutateMode(graph._AllowMutationOnSavedContext())
    assert mode.ctx.cloned is not None


def test_dir_lists_them():
    names = dir(graph)
    for name in ("_AllowMutationOnSavedContext", "_CloneArgBeforeMutateMode", "_Handle", "_SID",
                 "_TID", "_allow_mutation_on_saved_tensors_enabled", "_get_grad_fn_or_grad_acc",
                 "_get_sid", "_get_tid", "_swap_with_cloned", "_MultiHandle",
                 "_engine_run_backward", "_register_logging_hooks_on_whole_graph"):
        assert name in names
