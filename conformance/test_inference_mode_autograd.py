"""Autograd met inside inference mode, or by the tensors it made: a backward run inside the
mode, gradient edges and in-place writes of inference leaves. The same assertions run on
torch.
"""

import torch

from conformance._support import leaf, raises

INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details."
)
LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
INFERENCE_REQUIRES_GRAD = (
    "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
)


def _counts_versions(t) -> bool:
    try:
        t._version
    except RuntimeError:
        return False
    return True


def test_a_backward_inside_inference_mode_leaves_an_inference_grad():
    a = torch.tensor(0.75, requires_grad=True)
    with torch.inference_mode():
        a.backward()
        a.backward()  # added into that inference .grad, in the mode
    assert a.grad.item() == 2.0 and a.grad.is_inference() and not _counts_versions(a.grad)
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()


def test_a_gradient_given_to_a_backward_inside_inference_mode_is_copied():
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    g = torch.ones(2, 2).t()
    with torch.inference_mode():
        m.backward(g)
    assert m.grad is not g and m.grad.is_inference() and m.grad.stride() == (2, 1)


def test_a_normal_grad_is_added_into_inside_inference_mode():
    a = leaf(1.0, 2.0)
    (a * 3).sum().backward()
    assert a.grad._version == 0
    y = (a * a).sum()  # recorded outside the mode
    with torch.inference_mode():
        y.backward()
    assert a.grad.tolist() == [5.0, 7.0] and a.grad._version == 1 and not a.grad.is_inference()


def _made_inside():
    with torch.inference_mode():
        return torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([1.0, 2.0]) * 2


def test_detach_and_data_outside_inference_mode_count_their_writes():
    for t in _made_inside():
        for d in (t.detach(), t.data):
            assert d.is_inference() and d._version == 0 and not d.requires_grad
            d.add_(1)
            assert d._version == 1 and torch.equal(d, t)  # written through to t's memory
            assert d.detach()._version == 0  # a counter of its own
            with torch.inference_mode():
                d.add_(1)  # allowed, and not counted
            assert d._version == 1 and not _counts_versions(t)


def test_what_counted_inference_tensors_make_counts_nothing():
    a, _ = _made_inside()
    d = a.detach()
    with torch.inference_mode():
        inner = a.detach()
    view = d[0:1]
    for t in (inner, view):
        assert t.is_inference() and not _counts_versions(t)
        with raises(RuntimeError, INFERENCE_INPLACE):
            t.add_(1)
    with raises(RuntimeError, INFERENCE_REQUIRES_GRAD):
        d.requires_grad_()
    y = d * 2
    assert not y.is_inference() and y._version == 0


def test_a_tensor_whose_data_is_set_to_an_inference_tensor_counts_on():
    n = torch.zeros(2)
    n.add_(1)
    with torch.inference_mode():
        n.data = torch.ones(2)
    assert n.is_inference() and n._version == 1
    n.add_(1)
    assert n._version == 2 and n.tolist() == [2.0, 2.0]


def test_an_inference_grad_that_counts_writes_is_added_into():
    g = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        inference = torch.ones(2)
    g.grad = inference.detach()
    (g * 2).sum().backward()
    assert g.grad.tolist() == [3.0, 3.0] and g.grad._version == 1 and g.grad.is_inference()


NO_NODE = "'NoneType' object has no attribute 'next_functions'"


def test_an_inference_leaf_has_no_gradient_edge_to_find():
    a, _ = _made_inside()
    b = leaf(3.0, 4.0)
    with raises(AttributeError, NO_NODE):
        torch.autograd.graph.get_gradient_edge(a)
    with raises(AttributeError, NO_NODE):
        torch.autograd.graph.register_multi_grad_hook((a, b), lambda grads: None, mode="all")
    handle = a.register_hook(lambda grad: None)  # a tensor hook is no edge: it registers
    handle.remove()
    assert torch.autograd.graph.get_gradient_edge(b).node.name() == (
        "torch::autograd::AccumulateGrad")


def test_an_inference_leaf_written_by_itself_is_written_then_refused():
    a, _ = _made_inside()
    with raises(RuntimeError, INFERENCE_INPLACE):
        a.fill_(0.5)  # autograd skips it: no leaf check
    assert a.tolist() == [0.5, 0.5] and a.requires_grad
    with raises(RuntimeError, INFERENCE_INPLACE):
        a[0] = 3.0
    assert a.tolist() == [3.0, 0.5]


def test_a_normal_operand_brings_the_leaf_check_first():
    a, _ = _made_inside()
    y = leaf(5.0, 6.0)
    for write in (lambda: a.add_(1), lambda: a.mul_(y), lambda: a.copy_(y)):
        with raises(RuntimeError, LEAF):
            write()
        assert a.tolist() == [1.0, 2.0]


def test_an_inference_tensor_written_from_one_that_requires_grad_records_nothing():
    _, b = _made_inside()
    y = leaf(5.0, 6.0)
    with raises(RuntimeError, INFERENCE_INPLACE):
        b.mul_(y)
    assert b.tolist() == [10.0, 24.0] and not b.requires_grad and b.grad_fn is None


INDIRECT = (
    "A view was created in inference mode and its base or another view of its base has been "
    "modified inplace in normal mode. Given that this use case is ambiguous and error-prone, it "
    "is forbidden. You can clarify your code by moving both the view and the inplace either "
    "both inside the inference_mode block (if you don't want the inplace to be tracked) or both "
    "outside (if you want the inplace to be tracked)."
)


def test_in_inference_mode_a_write_records_nothing_even_with_grad_enabled():
    a = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    c = a * 1
    with torch.inference_mode(), torch.enable_grad():
        v = a.reshape(-1)
        v *= 3  # no leaf check: autograd is not there to make one
        w = c[:2]
        w.mul_(2)
        assert c.grad_fn.name() == "MulBackward0"
    assert a.tolist() == [3.0, 6.0, 9.0] and a._version == 1 and a.grad_fn is None
    assert c.tolist() == [2.0, 4.0, 3.0] and c._version == 1
    for view in (v, w):
        with raises(RuntimeError, INDIRECT):
            view.grad_fn
