"""Inference tensors used outside inference mode: an op whose tensor operands are all
inference tensors records nothing, even for one that requires grad, and an inference tensor
has no views. The same assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises


@pytest.fixture
def leaves():
    with torch.inference_mode():
        x = torch.ones(2, requires_grad=True)
        m = torch.ones(2, 2, requires_grad=True)
        i = torch.ones(2)
    return x, m, i


UNRECORDED = {
    "exp": lambda x, m, i: x.exp(),
    "sum": lambda x, m, i: x.sum(),
    "neg": lambda x, m, i: -x,
    "pow": lambda x, m, i: x ** 2,
    "clamp": lambda x, m, i: x.clamp(0, 1),
    "x*x": lambda x, m, i: x * x,
    "x+i": lambda x, m, i: x + i,
    "mm": lambda x, m, i: m @ m,
    "cat": lambda x, m, i: torch.cat([x, i]),
    "stack": lambda x, m, i: torch.stack([x, x]),
    "softmax": lambda x, m, i: x.softmax(0),
    "sum(0)": lambda x, m, i: m.sum(0),
    "maximum": lambda x, m, i: torch.maximum(x, i),
    "max": lambda x, m, i: x.max(),
}


@pytest.mark.parametrize("name", UNRECORDED)
def test_an_op_on_inference_tensors_alone_records_nothing(leaves, name):
    y = UNRECORDED[name](*leaves)
    assert not y.requires_grad and y.grad_fn is None and not y.is_inference()


@pytest.mark.parametrize(("call", "node"), [
    (lambda x: x * 2, "MulBackward0"), (lambda x: x + 1, "AddBackward0"),
    (lambda x: x / 2, "DivBackward0"), (lambda x: x - 1, "SubBackward0"),
    (lambda x: x * torch.tensor(2.0), "MulBackward0"),
])
def test_a_number_or_a_normal_tensor_beside_it_records(leaves, call, node):
    x = leaves[0]
    y = call(x)
    assert y.requires_grad and y.grad_fn.name() == node
    y.sum().backward()
    assert x.grad is not None


def test_mixed_operands_record_edges_only_for_what_records():
    with torch.inference_mode():
        w = torch.ones(2, 2, requires_grad=True)
        b = torch.ones(2, requires_grad=True)
    x = torch.ones(1, 2)
    out = F.linear(x, w, b)  # w.t() alone records nothing: w gets no edge
    edges = [None if n is None else type(n).__name__ for n, _ in out.grad_fn.next_functions]
    assert edges == ["AccumulateGrad", None, None]
    out.sum().backward()
    assert w.grad is None and b.grad.tolist() == [1.0, 1.0]
    xr = torch.ones(1, 2, requires_grad=True)
    out = xr + b
    edges = [type(n).__name__ for n, _ in out.grad_fn.next_functions]
    assert edges == ["AccumulateGrad", "AccumulateGrad"]


def test_backward_from_what_recorded_nothing_is_refused(leaves):
    x = leaves[0]
    with raises(RuntimeError, "element 0 of tensors does not require grad and does not have a "
                              "grad_fn"):
        x.sum().backward()
    x.backward(torch.ones(2))  # the leaf itself is a root
    assert x.grad.tolist() == [1.0, 1.0]


@pytest.mark.parametrize("make", [lambda t: t[:1], lambda t: t.view(3), lambda t: t.unbind()[0],
                                  lambda t: t.expand(2, 3), lambda t: t.unsqueeze(0)])
def test_an_inference_tensor_has_no_views_in_or_out_of_inference_mode(make):
    with torch.inference_mode():
        t = torch.ones(3, requires_grad=True)
        inside = make(t)
    outside = make(t)
    for v in (inside, outside):
        assert v._base is None and not v._is_view() and v.is_inference()
        assert v.data_ptr() == t.data_ptr() or v.numel() == 1
    assert not outside.requires_grad and outside.grad_fn is None


def test_a_view_of_a_normal_tensor_made_in_inference_mode_is_a_view():
    b = torch.ones(3)
    with torch.inference_mode():
        v = b[:2]
    assert v._base is b and v._is_view() and not v.is_inference()


def test_a_clone_of_an_inference_leaf_is_a_counted_copy_that_records(leaves):
    x = leaves[0]
    c = x.clone()
    assert c.grad_fn.name() == "torch::autograd::CopyBackwards" and c._version == 1
    assert [None if n is None else type(n).__name__ for n, _ in c.grad_fn.next_functions] == [
        None, "AccumulateGrad"]
    (c * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    with torch.no_grad():
        d = x.clone()
    assert d.grad_fn is None and d._version == 1 and not d.is_inference()


@pytest.mark.parametrize(("name", "copy"), [
    ("to(float64)", lambda t: t.to(torch.float64)), ("double", lambda t: t.double()),
    ("to(copy=True)", lambda t: t.to(torch.float32, copy=True)),
    ("type_as", lambda t: t.type_as(torch.ones(1, dtype=torch.float64))),
])
def test_a_copy_by_to_of_an_inference_tensor_is_counted_and_records_as_a_clone(leaves, name, copy):
    x, _, i = leaves
    y = copy(x)
    assert y.grad_fn.name() == "torch::autograd::CopyBackwards" and y._version == 1
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0] and x.grad.dtype == torch.float32
    z = copy(i)
    assert z.grad_fn is None and z._version == 1 and not z.is_inference()
    n = x.to(torch.int64)  # no gradient: counted, not recorded
    assert n.grad_fn is None and not n.requires_grad and n._version == 1


INDEXED = {  # an inference leaf with a normal index, mask, condition or target: recorded
    "index_select": (lambda x, n: x.index_select(0, n["index"]), "IndexSelectBackward0"),
    "getitem": (lambda x, n: x[n["index"]], "IndexBackward0"),
    "masked_fill": (lambda x, n: x.masked_fill(n["mask"], 0.0), "MaskedFillBackward0"),
    "where": (lambda x, n: torch.where(n["mask"], x, x), "WhereBackward0"),
    "scatter": (lambda x, n: x.scatter(0, n["index"], 5.0), "ScatterBackward1"),
    "index_add": (lambda x, n: x.index_add(0, n["index"], torch.ones(2)), "IndexAddBackward0"),
}


@pytest.fixture
def normal_arguments():
    return {"index": torch.tensor([0, 1]), "mask": torch.tensor([True, False])}


@pytest.mark.parametrize("name", INDEXED)
def test_a_normal_index_or_mask_beside_an_inference_leaf_records(leaves, normal_arguments, name):
    call, node = INDEXED[name]
    out = call(leaves[0], normal_arguments)
    assert out.requires_grad and type(out.grad_fn).__name__ == node


def test_an_inference_index_records_nothing(leaves):
    with torch.inference_mode():
        index = torch.tensor([0, 1])
    out = leaves[0].index_select(0, index)
    assert not out.requires_grad and out.grad_fn is None


def test_the_gradient_through_a_normal_index_reaches_the_inference_leaf(leaves):
    x = leaves[0]
    x[torch.tensor([1])].sum().backward()
    assert x.grad.tolist() == [0.0, 1.0]


@pytest.mark.parametrize("call", [lambda m, w: torch.clamp(m, min=w),
                                  lambda m, w: F.layer_norm(m, (2,))],
                         ids=["clamp(min=)", "layer_norm"])
def test_an_optional_operand_not_given_does_not_count(call):
    with torch.inference_mode():
        m = torch.rand(2, 2, requires_grad=True)
        w = torch.rand(2, requires_grad=True)
    out = call(m, w)
    assert not out.requires_grad and out.grad_fn is None


CANNOT_SAVE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")


@pytest.mark.parametrize("call", [
    lambda a, b: a @ b, lambda a, b: torch.mm(a, b), lambda a, b: torch.addcmul(a, a, b[:2]),
    lambda a, b: a * b[:2], lambda a, b: a.double() @ b,
], ids=["matmul", "mm", "addcmul", "mul", "matmul of two dtypes"])
def test_an_inference_tensor_to_be_saved_is_refused_before_the_kernels_checks(call):
    a = torch.rand(3, 2, requires_grad=True)
    with torch.inference_mode():
        b = torch.rand(3, 2)
    with raises(RuntimeError, CANNOT_SAVE):
        call(a, b)


def test_an_inference_tensor_not_saved_leaves_the_kernels_check_first():
    a = torch.rand(3, 2, requires_grad=True)
    with torch.inference_mode():
        b = torch.rand(2, 2)
    with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at "
                              "non-singleton dimension 0"):
        a + b
