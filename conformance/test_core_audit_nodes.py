"""An adversarial pass over odd nodes, gradient edges and version counters.

Black-box, against torch's API; every message and value here was recorded from torch 2.13.
"""

import copy
import logging
import pickle

import pytest
import torch
from torch.autograd.graph import get_gradient_edge

from conformance._support import doubling_function, graph_log_lines

# --- odd nodes and edges
Doubled = doubling_function(torch)


def odd_nodes():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    written = a.clone()
    written[0].mul_(2)
    return {
        "MulBackward0": (a * 2).grad_fn,
        "AccumulateGrad": get_gradient_edge(a).node,
        "DoubledBackward": Doubled.apply(a).grad_fn,
        "CopySlices": written.grad_fn,
        "UnbindBackward0": a.unbind()[0].grad_fn,
    }


@pytest.mark.parametrize("name", ["MulBackward0", "AccumulateGrad", "DoubledBackward",
                                  "CopySlices", "UnbindBackward0"])
def test_no_node_can_be_copied_or_pickled(name):
    node = odd_nodes()[name]
    for attempt in (copy.copy, copy.deepcopy, pickle.dumps, lambda n: n.__reduce_ex__(2)):
        with pytest.raises(TypeError) as info:
            attempt(node)
        assert str(info.value) == f"cannot pickle {name!r} object"


@pytest.mark.parametrize("name", ["AccumulateGrad", "CopySlices", "CopyBackwards", "Error",
                                  "NotImplemented"])
def test_node_classes_only_the_engine_makes_refuse_construction(name):
    cls = getattr(torch._C._functions, name)
    for args in [(), (torch.ones(1, requires_grad=True),), (1, 2)]:
        with pytest.raises(RuntimeError, match="^Cannot construct$"):
            cls(*args)
    with pytest.raises(TypeError, match="^cannot create 'MulBackward0' instances$"):
        torch._C._functions.MulBackward0()


def test_a_leaf_with_a_refused_node_still_copies():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    get_gradient_edge(a)
    a.register_post_accumulate_grad_hook(lambda t: None)
    (a * 2).sum().backward()
    b = copy.deepcopy(a)
    assert torch.equal(b, a) and b.requires_grad and torch.equal(b.grad, a.grad)
    assert torch.equal(pickle.loads(pickle.dumps(a)), a)
    a.register_hook(lambda g: g)
    with pytest.warns(UserWarning, match="on tensor will not be serialized"):
        assert torch.equal(pickle.loads(pickle.dumps(a)), a)


def test_calling_an_accumulate_grad_node_by_hand():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    acc = get_gradient_edge(a).node
    assert acc(torch.ones(2)) == ()
    assert a.grad.tolist() == [1.0, 1.0]
    assert acc(None) == ()
    with pytest.raises(TypeError, match=r"^expected 1 arguments, got 2 instead$"):
        acc(torch.ones(2), torch.ones(2))
    with pytest.raises(RuntimeError, match="^The size of tensor a"):
        acc(torch.ones(3))
    assert acc.next_functions == () and acc.metadata == {} and acc.variable is a


def test_next_functions_where_inputs_do_not_require_grad():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.ones(2)

    def edges(t):
        return [(n.name() if n is not None else None, i) for n, i in t.grad_fn.next_functions]

    acc = ("torch::autograd::AccumulateGrad", 0)
    assert edges(c + a) == [(None, 0), acc]
    assert edges(a + c) == [acc, (None, 0)]
    assert edges(torch.stack([c, c, a])) == [(None, 0), (None, 0), acc]
    assert edges(torch.where(c > 0, a, c)) == [acc, (None, 0)]
    assert edges(a.expand(2, 2) + c) == [("ExpandBackward0", 0), (None, 0)]


def test_gradient_edges_of_odd_tensors():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^It is not possible to get the gradient edge"):
        get_gradient_edge(a.detach())
    with torch.no_grad():
        quiet = a[0]
    with pytest.raises(AssertionError, match="^Expected gradient function to be set$"):
        get_gradient_edge(quiet)
    edge = get_gradient_edge(a.view(2))
    assert (edge.node.name(), edge.output_nr) == ("ViewBackward0", 0)
    y = (a * 2).sum()
    other = torch.ones(2, requires_grad=True)
    assert torch.autograd.grad(y, get_gradient_edge(other), retain_graph=True,
                               allow_unused=True) == (None,)
    with pytest.raises(RuntimeError, match="^materialize_grads cannot be used when the given"):
        torch.autograd.grad(y, get_gradient_edge(other), materialize_grads=True)


def test_version_counters_shared_through_views_and_detach():
    from torch.autograd.graph import increment_version

    t = torch.zeros(3)
    family = (t, t.detach(), t[1:], t[1:].detach(), t.view(3))
    family[3].add_(1)
    assert [x._version for x in family] == [1] * 5
    t.data.add_(1)  # .data has a counter of its own
    assert [x._version for x in family] == [1] * 5
    increment_version(family[2])
    assert [x._version for x in family] == [2] * 5
    increment_version((t, t))
    assert t._version == 4
    with torch.inference_mode():
        inference = torch.ones(2)
    increment_version(inference)  # nothing to count, nothing refused
    with pytest.raises(RuntimeError, match="^Inference tensors do not track version counter"):
        inference._version
    with pytest.raises(RuntimeError, match="^increment_version expect a Iterable"):
        increment_version(5)


def test_hooks_on_a_tensor_written_in_place_keep_to_their_version():
    seen = []
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    m = a * 2
    m.register_hook(lambda g: seen.append(("before", g.tolist())))
    m.mul_(3)
    m.register_hook(lambda g: seen.append(("after", g.tolist())))
    m.retain_grad()
    (m * m).sum().backward()
    assert seen == [("after", [12.0, 24.0]), ("before", [36.0, 72.0])]
    assert m.grad.tolist() == [12.0, 24.0] and a.grad.tolist() == [72.0, 144.0]


# --- the debug log of odd passes
@pytest.fixture
def records():
    with graph_log_lines() as lines:
        yield lines


def line(node, grads):
    return f"Executing: <{node} object at 0x?> with grad_outputs: [{grads}]"


def test_the_log_of_a_pass_whose_hooks_cut_or_refuse_the_gradient(records):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    s = (a * 2).sin()
    s.grad_fn.register_prehook(lambda g: (None,))
    s.sum().backward()
    assert records == [line("SumBackward0", "f32[]"), line("SinBackward0", "None"),
                       line("MulBackward0", "None"), line("AccumulateGrad", "None")]
    assert a.grad is None
    records.clear()
    m = a.clone()
    handle = m.register_hook(lambda g: g.double())
    loss = m.sum()
    with pytest.raises(RuntimeError, match="^hook '<lambda>' has changed the type of value"):
        loss.backward(retain_graph=True)
    assert records == [line("SumBackward0", "f32[]")]  # the pass stopped there
    records.clear()
    handle.remove()
    logging.getLogger(torch.autograd.graph.__name__).setLevel(logging.INFO)
    loss.backward()  # no logging hook of the failed pass was left on its graph
    assert records == [] and a.grad.tolist() == [1.0, 1.0]
