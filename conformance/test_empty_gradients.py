"""Tensors with no elements: the gradients their leaves receive, their copies, their errors.

An empty tensor still has strides, and torch counts every empty tensor as dense:
copies keep its strides, and the gradient layout contract compares them. A leaf
takes a gradient laid out as itself over (``.grad._version`` 0) and copies any
other one, such as an expanded gradient with zero strides (version 1).
"""

import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import unique_preorder

# (name, function, leaf shape, .grad strides, .grad._version)
GRADIENTS = [
    ("pad", lambda x: F.pad(x, (0, 2)), (0, 2, 4, 4), (32, 16, 4, 1), 1),
    ("pad_empty_columns", lambda x: F.pad(x, (1, 1)), (2, 0), (1, 1), 1),
    ("sum", lambda x: x.sum(), (0, 3), (3, 1), 1),
    ("sum_dim", lambda x: x.sum(0), (0, 3), (3, 1), 1),
    ("transpose", lambda x: x.t(), (0, 3), (3, 1), 1),
    ("mul", lambda x: x * 2, (0, 3), (3, 1), 0),
    ("exp", lambda x: x.exp(), (0,), (1,), 0),
    ("mean", lambda x: x.mean(), (0, 3), (3, 1), 0),
    ("expand", lambda x: x.expand(2, 0, 3), (0, 3), (3, 1), 0),
    ("expand_size_one", lambda x: x.expand(2, 0, 5), (0, 1), (1, 1), 0),
    ("cat", lambda x: torch.cat([x, x]), (0, 3), (3, 1), 0),
    ("cummax", lambda x: x.cummax(1)[0], (0, 3), (3, 1), 1),
    ("cummin", lambda x: x.cummin(0)[0], (3, 0), (1, 1), 1),
    ("roll", lambda x: x.roll(1, 1), (0, 3), (3, 1), 1),
    ("roll_flat", lambda x: x.roll(1), (0, 3), (3, 1), 0),
    ("flip", lambda x: x.flip(0), (0,), (1,), 1),
    ("logsigmoid", F.logsigmoid, (0, 3), (3, 1), 1),  # empty_like of its zero-strided gradient
    ("logsigmoid_vector", F.logsigmoid, (0,), (1,), 1),
    ("cat_left_out", lambda x: torch.cat([x, x]), (0,), (1,), 2),
    ("cat_left_out_once", lambda x: torch.cat([x, torch.ones(2, dtype=torch.float64)]),
     (0,), (1,), 1),
    ("cross_entropy_probabilities", lambda x: F.cross_entropy(x, x.detach().softmax(1)),
     (2, 0, 3), (3, 3, 1), 0),
]


@pytest.mark.parametrize("name, f, shape, strides, version", GRADIENTS,
                         ids=[case[0] for case in GRADIENTS])
def test_an_empty_leaf_receives_torchs_gradient(name, f, shape, strides, version):
    x = torch.zeros(*shape, dtype=torch.float64, requires_grad=True)
    f(x).sum().backward()
    assert tuple(x.grad.shape) == shape
    assert (x.grad.stride(), x.grad._version) == (strides, version)


# (strides of an empty (0, 3) tensor, those its copies keep)
def _empty(strides):
    return torch.empty_strided((0, 3), strides)


@pytest.mark.parametrize("strides", [(0, 0), (1, 0), (1, 3)])
def test_copies_of_an_empty_tensor_keep_its_strides(strides):
    x = _empty(strides)
    for copy in (x.clone(), x.double(), x.to(torch.float64), torch.empty_like(x),
                 x.contiguous(), x.roll(1, 0), x.flip(0)):
        assert copy.stride() == strides
    assert x.roll(1).stride() == (3, 1)  # rolled flat, and viewed back row-major


def test_an_expanded_empty_tensor_clones_with_zero_strides():
    x = torch.zeros(()).expand(2, 0, 3)
    assert x.clone().stride() == (0, 0, 0)
    assert (x + 1).stride() == (3, 3, 1)  # elementwise results are laid out afresh


@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (2, 0, 3)])
def test_the_mean_cross_entropy_of_no_elements_is_a_filled_nan(shape):
    x = torch.zeros(*shape, dtype=torch.float64, requires_grad=True)
    loss = F.cross_entropy(x, x.detach().softmax(1))
    assert loss.isnan()
    assert unique_preorder(loss.grad_fn) == [
        "NegBackward0", "FillBackward2", "SumBackward0", "MulBackward0",
        "LogSoftmaxBackward0", "AccumulateGrad"]
    summed = F.cross_entropy(x, x.detach().softmax(1), reduction="sum", label_smoothing=0.2)
    assert summed.item() == 0.0


def test_an_index_target_with_elements_meets_an_input_with_no_classes():
    x = torch.zeros(2, 0, 3, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"size mismatch \(got input: \[2, 0, 0, 0\] , "
                                           r"target: \[2, 1, 3\]"):
        F.cross_entropy(x, torch.zeros(2, 3, dtype=torch.long))


# (input shape, dim, index, error type or None, message)
SELECTIONS = [
    ((0, 3), 0, [1], RuntimeError, "index_select(): self indexing axis dim should be positive"),
    ((3, 0), 1, [0], RuntimeError, "index_select(): self indexing axis dim should be positive"),
    ((3, 0), 0, [5], RuntimeError, "INDICES element is out of DATA bounds, id=5 axis_dim=3"),
    ((2, 3, 0), 0, [-1], RuntimeError, "INDICES element is out of DATA bounds, id=-1 axis_dim=2"),
    ((3, 2), 0, [5], IndexError, "index out of range in self"),
    ((), 0, [1, 0], RuntimeError,
     "index_select(): Index to scalar can have only 1 value, got 2 value(s)"),
    ((), 0, [], RuntimeError,
     "index_select(): Index to scalar can have only 1 value, got 0 value(s)"),
    ((3, 0), 0, [2, 0], None, (2, 0)),
    ((0, 3), 0, [], None, (0, 3)),
]


@pytest.mark.parametrize("shape, dim, index, error, expected", SELECTIONS)
def test_index_select_from_empty_and_0d_tensors(shape, dim, index, error, expected):
    x, index = torch.zeros(shape), torch.tensor(index, dtype=torch.long)
    if error is None:
        assert tuple(x.index_select(dim, index).shape) == expected
    else:
        with pytest.raises(error) as caught:
            x.index_select(dim, index)
        assert str(caught.value).startswith(expected)


@pytest.mark.parametrize("weight, message", [
    ((0, 3), "index_select(): self indexing axis dim should be positive"),
    ((3, 0), "INDICES element is out of DATA bounds, id=5 axis_dim=3"),
    ((3,), "'weight' must be 2-D"),
    ((2, 3, 4), "'weight' must be 2-D"),
])
def test_embedding_checks_its_weight_as_torch_does(weight, message):
    with pytest.raises(RuntimeError) as caught:
        F.embedding(torch.tensor([1, 5]), torch.zeros(*weight))
    assert str(caught.value).startswith(message)


def test_embedding_of_a_table_with_empty_rows():
    out = F.embedding(torch.tensor([[1, 0], [2, 2]]), torch.zeros(3, 0))
    assert tuple(out.shape) == (2, 2, 0)


def test_the_moments_of_no_elements_are_a_zero_mean_and_a_nan_deviation():
    x = torch.zeros(2, 3, 0, dtype=torch.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # and nothing is said about an empty mean
        out, mean, rstd = torch.native_layer_norm(x, (0,), None, None, 1e-5)
        grouped = F.group_norm(torch.zeros(2, 4, 0, dtype=torch.float64, requires_grad=True), 2)
    assert tuple(out.shape) == (2, 3, 0)
    assert mean.tolist() == [[[0.0]] * 3] * 2
    assert all(v != v for v in rstd.flatten().tolist())
    node = grouped.grad_fn
    while node.name() != "NativeGroupNormBackward0":
        node = node.next_functions[0][0]
    assert node._saved_result1.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert all(v != v for v in node._saved_result2.flatten().tolist())


@pytest.mark.parametrize("shape, groups", [((1, 0, 3), 1), ((2, 4, 0), 2), ((2, 4, 0, 5), 4)])
@pytest.mark.parametrize("create_graph", [False, True])
def test_group_norm_gradients_of_empty_groups(shape, groups, create_graph):
    x = torch.zeros(*shape, dtype=torch.float64, requires_grad=True)
    w = torch.ones(shape[1], dtype=torch.float64, requires_grad=True)
    gx, gw = torch.autograd.grad(F.group_norm(x, groups, w, w).sum(), (x, w),
                                 create_graph=create_graph)
    assert tuple(gx.shape) == shape
    assert len(gw) == shape[1] and all(v != v for v in gw.tolist())  # nan, as torch's kernel
