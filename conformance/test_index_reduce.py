"""Black-box tests: index_reduce and its in-place form, values, gradients and refusals;
and conj_physical of a real tensor. The same assertions run on torch.
"""

import warnings

import pytest
import torch

from conformance._support import raises
from conformance._warned import always_warned


@pytest.fixture(autouse=True)
def _quiet_beta():
    """index_reduce warns, once per process, that it is a beta: a test's order must not
    decide which test sees it."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "index_reduce\\(\\) is in beta")
        yield


def _pair():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    s = torch.tensor([[2.0, 3.0], [4.0, 0.0], [1.0, 7.0], [8.0, 9.0]], requires_grad=True)
    return x, s


INDEX = [0, 2, 0, 2]
CASES = [  # reduce, include_self, value, gradient of x, gradient of source
    ("prod", True, [[2, 42], [3, 4], [160, 0]], [[2, 21], [1, 1], [32, 0]],
     [[1, 14], [40, 54], [2, 6], [20, 0]]),
    ("prod", False, [[2, 21], [3, 4], [32, 0]], [[0, 0], [1, 1], [0, 0]],
     [[1, 7], [8, 9], [2, 3], [4, 0]]),
    ("mean", False, [[1.5, 5], [3, 4], [6, 4.5]], [[0, 0], [1, 1], [0, 0]],
     [[0.5, 0.5]] * 4),
    ("amax", True, [[2, 7], [3, 4], [8, 9]], [[0, 0], [1, 1], [0, 0]],
     [[1, 0], [0, 0], [0, 1], [1, 1]]),
    ("amin", True, [[1, 2], [3, 4], [4, 0]], [[0.5, 1], [1, 1], [0, 0]],
     [[0, 0], [1, 1], [0.5, 0], [0, 0]]),
    ("amin", False, [[1, 3], [3, 4], [4, 0]], [[0, 0], [1, 1], [0, 0]],
     [[0, 1], [1, 1], [0.5, 0], [0, 0]]),
]


@pytest.mark.parametrize(("reduce", "include_self", "value", "x_grad", "s_grad"), CASES)
def test_index_reduce_values_and_gradients(reduce, include_self, value, x_grad, s_grad):
    x, s = _pair()
    y = x.index_reduce(0, torch.tensor(INDEX), s, reduce, include_self=include_self)
    assert type(y.grad_fn).__name__ == "IndexReduceBackward0"
    assert y.tolist() == value
    y.sum().backward()
    assert x.grad.tolist() == x_grad and s.grad.tolist() == s_grad


def test_index_reduce_mean_keeping_self():
    x, s = _pair()
    y = torch.index_reduce(x, 0, torch.tensor(INDEX), s, "mean")
    assert y[1].tolist() == [3.0, 4.0]
    assert y[0].tolist() == pytest.approx([4 / 3, 4.0]) and y[2].tolist() == pytest.approx(
        [17 / 3, 5.0])
    y.sum().backward()
    assert x.grad.reshape(-1).tolist() == pytest.approx([1 / 3] * 2 + [1, 1] + [1 / 3] * 2)


def test_index_reduce_node_keeps_its_arguments():
    x, s = _pair()
    index = torch.tensor(INDEX)
    node = x.index_reduce(0, index, s, "amax", include_self=False).grad_fn
    assert node._saved_dim == 0 and node._saved_reduce == "amax"
    assert node._saved_include_self is False and node._saved_index.tolist() == INDEX
    assert node._saved_source.tolist() == s.tolist() and node._saved_self.tolist() == x.tolist()
    assert len(node.next_functions) == 2


def test_index_reduce_along_a_later_dim_of_integers_and_in_place():
    ints = torch.tensor([1, 2, 3]).index_reduce(0, torch.tensor([0, 0]), torch.tensor([4, 5]),
                                                "mean")
    assert ints.tolist() == [3, 2, 3]  # (1 + 4 + 5) // 3
    x = torch.ones(2, 3)
    out = x.index_reduce_(1, torch.tensor([2, 2]), torch.tensor([[2.0, 3.0], [4.0, 5.0]]),
                          "prod", include_self=False)
    assert out is x and x.tolist() == [[1, 1, 6], [1, 1, 20]] and x._version == 1
    o = torch.empty(3, 2)
    r = torch.index_reduce(torch.zeros(3, 2), 0, torch.tensor([1]), torch.ones(1, 2), "amax",
                           out=o)
    assert r is o and o.tolist() == [[0, 0], [1, 1], [0, 0]]


def test_index_reduce_twice_through_two_zeros_is_refused():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    s = torch.tensor([0.0, 0.0, 3.0], requires_grad=True)
    y = x.index_reduce(0, torch.tensor([0, 0, 1]), s, "prod")
    (g,) = torch.autograd.grad(y.sum(), s, create_graph=True)
    assert g.tolist() == [0.0, 0.0, 2.0]
    with raises(RuntimeError, "index_reduce(): Double backward is unsupported for source when "
                              ">1 zeros in source are scattered to the same position in self"):
        torch.autograd.grad(g.sum(), s)


def _packed_by_create_graph(reduce, include_self):
    x, s = _pair()
    index = torch.tensor(INDEX)
    y = x.index_reduce(0, index, s, reduce, include_self=include_self)
    packed = []

    def pack(t):
        known = {id(x): "x", id(s): "s", id(index): "index"}
        shown = type(t.grad_fn).__name__ if t.grad_fn is not None else str(t.dtype)[6:]
        packed.append(known.get(id(t), shown))
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        grads = torch.autograd.grad(y.sum(), [x, s], create_graph=True)
    return packed, [type(g.grad_fn).__name__ for g in grads]


PRODUCT_PACKS = [
    "bool", "index", "MaskedFillBackward0", "s", "IndexReduceBackward0", "float32",
    "MaskedFillBackward0", "MulBackward0", "bool", "index", "x", "MaskedFillBackward0",
    "IndexReduceBackward0", "bool", "float32", "index", "MaskedFillBackward0",
    "IndexSelectBackward0", "float32", "index", "bool"]


@pytest.mark.parametrize(("reduce", "include_self", "packed", "grad_fns"), [
    ("prod", True, PRODUCT_PACKS, ["DivBackward0", "WhereBackward0"]),
    ("prod", False, [*PRODUCT_PACKS, "index"], ["IndexFillBackward0", "WhereBackward0"]),
    ("mean", False, [], ["NoneType", "NoneType"]),
    ("amax", True, ["index"], ["NoneType", "NoneType"]),
    ("amin", False, ["index"], ["NoneType", "NoneType"]),
])
def test_index_reduce_gradient_is_recorded_with_index_operations(reduce, include_self, packed,
                                                                 grad_fns):
    assert _packed_by_create_graph(reduce, include_self) == (packed, grad_fns)


ERRORS = [
    (lambda x, s: x.index_reduce(0, torch.tensor([0, 1]), s, "sum"), RuntimeError,
     "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got sum."),
    (lambda x, s: x.index_reduce(0, torch.tensor([0, 1]), s.double(), "prod"), RuntimeError,
     "index_reduce_(): self (Float) and source (Double) must have the same scalar type"),
    (lambda x, s: x.index_reduce(0, torch.tensor([[0, 1]]), s, "prod"), IndexError,
     "index_reduce_(): Index is supposed to be a vector, but got dim: 2 with type: Long and "
     "size: [1, 2]"),
    (lambda x, s: x.index_reduce(0, torch.tensor([0.0, 1]), s, "prod"), RuntimeError,
     "index_reduce_(): Expected dtype int32/int64 for index but got: Float"),
    (lambda x, s: x.index_reduce(0, torch.tensor([0, 3]), s, "prod"), IndexError,
     "index out of range in self"),
    (lambda x, s: x.index_reduce(0, torch.tensor([0, -1]), s, "prod"), IndexError,
     "index out of range in self"),
    (lambda x, s: x.index_reduce(0, torch.tensor([0]), s, "prod"), RuntimeError,
     "index_reduce_(): Number of indices (1) should be equal to source.size(dim): (2), for "
     "dim: 0"),
    (lambda x, s: x.index_reduce(0, torch.tensor([0, 1]), s[:, :1], "prod"), RuntimeError,
     "source tensor shape must match self tensor shape, excluding the specified dimension. "
     "Got self.shape = [3, 2] source.shape = [2, 1]"),
    (lambda x, s: x.index_reduce(2, torch.tensor([0, 1]), s, "prod"), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda x, s: x.index_reduce(0, torch.tensor([0, 1]), 2.0, "prod"), TypeError,
     "index_reduce(): argument 'source' (position 3) must be Tensor, not float"),
    (lambda x, s: torch.index_reduce(x, 0, torch.tensor([0, 1]), s), TypeError,
     'index_reduce() missing 1 required positional arguments: "reduce"'),
    (lambda x, s: torch.tensor([True, False]).index_reduce(
        0, torch.tensor([0, 0]), torch.tensor([True, True]), "amax"), NotImplementedError,
     "\"index_func_\" not implemented for 'Bool'"),
]


@pytest.mark.parametrize(("call", "error", "message"), ERRORS)
def test_index_reduce_refusals(call, error, message):
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with raises(error, message):
        call(x, torch.tensor([[2.0, 3.0], [4.0, 0.0]]))
    assert x.tolist() == [[1, 2], [3, 4], [5, 6]] and x._version == 0


def test_index_reduce_has_no_forward_formula():
    fw = torch.autograd.forward_ad
    with fw.dual_level():
        x = fw.make_dual(torch.ones(3), torch.ones(3))
        with pytest.raises(NotImplementedError, match="^Trying to use forward AD with "
                           "index_reduce that does not support it because it has not been "
                           "implemented yet"):
            x.index_reduce(0, torch.tensor([0, 2]), torch.ones(2), "prod")


def test_index_reduce_says_once_that_it_is_a_beta():
    with always_warned(torch):
        with pytest.warns(UserWarning, match="^index_reduce\\(\\) is in beta and the API may "
                                             "change at any time\\."):
            warnings.filterwarnings("always", "index_reduce\\(\\) is in beta")
            torch.ones(2).index_reduce(0, torch.tensor([0]), torch.ones(1), "prod")


def test_conj_physical_of_a_real_tensor_is_the_tensor():
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    assert torch.conj_physical(x) is x and x.conj_physical() is x
    y = x * 1
    assert y.conj_physical_() is y and y._version == 1
    assert type(y.grad_fn).__name__ == "ConjPhysicalBackward1"
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    ints = torch.tensor([1, 2])
    assert torch.conj_physical_(ints) is ints and ints._version == 1
    o = torch.empty(2)
    assert torch.conj_physical(torch.tensor([3.0, 4.0]), out=o) is o and o.tolist() == [3, 4]


def test_conj_physical_refusals():
    leaf = torch.ones(2, requires_grad=True)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        leaf.conj_physical_()
    with raises(TypeError, "conj_physical(): argument 'input' (position 1) must be Tensor, "
                           "not int"):
        torch.conj_physical(5)
    with raises(TypeError, "TensorBase.conj_physical() takes no arguments (1 given)"):
        leaf.conj_physical(1)
    with raises(RuntimeError, "Found dtype Double but expected Float"):
        torch.conj_physical(torch.ones(2), out=torch.empty(2, dtype=torch.float64))
