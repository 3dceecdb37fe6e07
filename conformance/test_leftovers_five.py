"""Black-box tests: differences left by earlier rounds: an inference tensor a node keeps
refused before the op's own checks, baddbmm_'s in-place dtype refusal, the names of the
functions torch binds from C, and how float16 index_add rounds. The same assertions run
on torch.
"""

import pickle

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

INFERENCE = ("Inference tensors cannot be saved for backward. Please do not use Tensors "
             "created in inference mode in computation tracked by autograd. To work around "
             "this, you can make a clone to get a normal tensor and use it in autograd, or "
             "use `torch.no_grad()` instead of `torch.inference_mode()`.")


def _frozen(t):
    with torch.inference_mode():
        return t.clone()


IDX = torch.tensor([0, 1])
Z = _frozen  # an inference copy of its operand
CALLS = {
    "index_reduce dtype": lambda a, b: a.index_reduce(0, IDX, Z(b.double()), "mean"),
    "index_reduce sizes": lambda a, b: a.index_reduce(0, IDX, Z(b[:1]), "prod"),
    "index_reduce reduce": lambda a, b: a.index_reduce(0, IDX, Z(b), "sum"),
    "index_reduce_ dtype": lambda a, b: a.clone().index_reduce_(0, IDX, Z(b.double()), "mean"),
    "index_add dim": lambda a, b: a.index_add(5, Z(IDX), a[:2].double()),
    "index_add index": lambda a, b: a.index_add(0, Z(torch.tensor([0, 7])), a[:2]),
    "scatter_reduce dtype": lambda a, b: a.scatter_reduce(0, IDX[:, None].expand(2, 2),
                                                          Z(b.double()), "sum"),
    "scatter_reduce reduce": lambda a, b: a.scatter_reduce(0, IDX[:, None].expand(2, 2), Z(b),
                                                           "add"),
    "layer_norm shape": lambda a, b: F.layer_norm(a, (2,), weight=Z(b.reshape(4))),
    "layer_norm dtype": lambda a, b: F.layer_norm(a, (2,), weight=Z(b[0].double())),
    "layer_norm input": lambda a, b: F.layer_norm(a, (4,), bias=Z(b.reshape(4))),
    "group_norm dtype": lambda a, b: F.group_norm(a, 1, weight=Z(b[:, 0].double())),
    "batch_norm dtype": lambda a, b: F.batch_norm(a, None, None, weight=Z(b[0].double()),
                                                  training=True),
    "batch_norm stats": lambda a, b: F.batch_norm(a, torch.zeros(2), None, weight=Z(b[0]),
                                                  training=True),
    "lerp weight dtype": lambda a, b: a[:2].lerp(a[:2], Z(b.double())),
    "lerp end dtype": lambda a, b: a[:2].lerp(Z(b.double()), a[:2]),
    "lerp_ weight dtype": lambda a, b: a[:2].clone().lerp_(a[:2], Z(b.double())),
    "cross length": lambda a, b: torch.linalg.cross(a[:2], Z(b)),
    "cross dims": lambda a, b: torch.linalg.cross(a, Z(b[0])),
    "cross dtype": lambda a, b: torch.cross(a[:2], Z(b.double()), dim=1),
    "dist sizes": lambda a, b: a.dist(Z(b)),
    "dist bool": lambda a, b: a[:2].dist(Z(b.bool())),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_an_inference_tensor_kept_is_refused_before_the_ops_checks(name):
    a = torch.rand(3, 2, requires_grad=True)
    with raises(RuntimeError, INFERENCE):
        CALLS[name](a, torch.rand(2, 2))


@pytest.mark.parametrize("call, kind, message", [
    (lambda a, b: a.index_reduce(0, IDX, Z(b.double()), "mean"), RuntimeError,
     "index_reduce_(): self (Float) and source (Double) must have the same scalar type"),
    (lambda a, b: F.layer_norm(a, (2,), weight=Z(b.reshape(4))), RuntimeError,
     "Expected weight to be of same shape as normalized_shape, but got weight of shape [4] "
     "and normalized_shape = [2]"),
    (lambda a, b: F.group_norm(a, 1, weight=Z(b[:, 0].double())), RuntimeError,
     "mixed dtype (CPU): expect parameter to have scalar type of Float"),
    (lambda a, b: a.index_add(0, torch.tensor([0, 7]), Z(b)), RuntimeError,
     "index 7 is out of bounds for dimension 0 with size 3"),
    (lambda a, b: a[:2].lerp(a[:2], Z(b.double())), RuntimeError,
     "expected dtype float for `weight` but got dtype double"),
    (lambda a, b: torch.linalg.cross(a[:2], Z(b)), RuntimeError,
     "linalg.cross: inputs dimension -1 must have length 3. Got 2 and 2"),
    (lambda a, b: a.dist(Z(b)), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
     "dimension 0"),
])
def test_unrecorded_the_ops_own_refusal_stands(call, kind, message):
    a = torch.rand(3, 2)
    with raises(kind, message):
        call(a, torch.rand(2, 2))


def test_an_inference_tensor_not_kept_lets_the_op_refuse():
    a = torch.rand(3, 2, requires_grad=True)
    with raises(RuntimeError, "index 7 is out of bounds for dimension 0 with size 3"):
        a.index_add(0, torch.tensor([0, 7]), _frozen(torch.rand(2, 2)))


def test_argument_types_are_still_read_first():
    a = torch.rand(3, 2, requires_grad=True)
    with raises(TypeError, "index_reduce(): argument 'source' (position 3) must be Tensor, "
                           "not float"):
        a.index_reduce(0, IDX, 3.0, "prod")


@pytest.mark.parametrize("types, message", [
    ((torch.float64, torch.float64, torch.float32),
     "Bad in-place call: input tensor dtype double and output tensor dtype float should match"),
    ((torch.float32, torch.float32, torch.float16),
     "Bad in-place call: input tensor dtype float and output tensor dtype c10::Half should "
     "match"),
    ((torch.int64, torch.int64, torch.int32),
     "Bad in-place call: input tensor dtype long int and output tensor dtype int should match"),
    ((torch.float64, torch.float32, torch.float64),
     "Input dtypes must be the same, got: input double, batch1: float, batch2: double"),
])
def test_baddbmm_in_place_refuses_batch2s_dtype_as_a_write(types, message):
    self = torch.ones(1, 2, 2, dtype=types[0])
    with raises(RuntimeError, message):
        self.baddbmm_(torch.ones(1, 2, 2, dtype=types[1]), torch.ones(1, 2, 2, dtype=types[2]))
    assert self.tolist() == [[[1, 1], [1, 1]]]


def test_baddbmm_in_place_with_operands_that_are_views_of_self():
    v, w = torch.rand(2, 2, dtype=torch.float64), torch.rand(2, 2)
    with raises(RuntimeError, "Bad in-place call: input tensor dtype double and output "
                              "tensor dtype float should match"):
        v.unsqueeze(0).baddbmm_(v[None], w[None])
    with raises(RuntimeError, "Bad in-place call: input tensor dtype double and output "
                              "tensor dtype float should match"):
        torch.ones(1, 1, 2, dtype=torch.float64).expand(1, 2, 2).baddbmm_(
            torch.ones(1, 2, 3, dtype=torch.float64), torch.ones(1, 3, 2))


def test_baddbmm_in_place_checks_shapes_before_batch2s_dtype():
    with raises(RuntimeError, "Expected size for first two dimensions of batch2 tensor to be: "
                              "[1, 3] but got: [1, 2]."):
        torch.ones(1, 2, 2, dtype=torch.float64).baddbmm_(
            torch.ones(1, 2, 3, dtype=torch.float64), torch.ones(1, 2, 2))


@pytest.mark.parametrize("name, c_name", [
    ("logsigmoid", "log_sigmoid"), ("linear", "linear"), ("gelu", "gelu"),
    ("softplus", "softplus"), ("avg_pool2d", "avg_pool2d"), ("one_hot", "one_hot"),
    ("scaled_dot_product_attention", "scaled_dot_product_attention"),
    ("leaky_relu_", "leaky_relu_"),
])
def test_functions_bound_from_c_say_so(name, c_name):
    f = getattr(F, name)
    assert f.__name__ == c_name and f.__qualname__ == c_name
    assert f.__module__ == f"{torch.__name__}._C._nn"
    assert getattr(torch._C._nn, c_name) is f
    assert pickle.loads(pickle.dumps(f)) is f


def test_log_sigmoid_still_computes():
    x = torch.tensor([-1.0, 0.0, 2.0])
    assert torch.allclose(F.logsigmoid(x), -F.softplus(-x))


def test_pows_exponent_gradients_follow_a_channels_last_base():
    x = (torch.rand(2, 3, 4, 5) + 0.5).to(memory_format=torch.channels_last).requires_grad_()
    e = torch.rand(2, 3, 4, 5, dtype=torch.float16, requires_grad=True)
    _, ge = torch.autograd.grad(x.pow(e).sum(), (x, e), create_graph=True)
    hx, he = torch.autograd.grad(ge.sum(), (x, e))
    assert ge.stride() == he.stride() == hx.stride() == (60, 1, 15, 3)
    assert ge.dtype == he.dtype == torch.float16


INDEX = [0, 1, 0, 0, 1]


def _halves(shape, seed, scale=1.0):
    values = np.random.RandomState(seed).rand(*shape) * scale
    return torch.tensor(values.astype(np.float16).tolist(), dtype=torch.float16)


def _one_at_a_time(z, v, dim, alpha, whole):
    """Each slice added in turn: in float32 and rounded once where ``whole`` holds, and
    with the product rounded to float16 first elsewhere."""
    rows = np.moveaxis(np.array(z.tolist(), np.float16), dim, 0)
    slices = np.moveaxis(np.array(v.tolist(), np.float16), dim, 0)
    scale = np.float32(np.float16(alpha))
    for k, j in enumerate(INDEX):
        product = slices[k].astype(np.float32) * scale
        rounded = product.astype(np.float16).astype(np.float32)
        rows[j] = (rows[j].astype(np.float32) + np.where(whole, product, rounded)).astype(
            np.float16)
    return np.moveaxis(rows, 0, dim).tolist()


def _in_float32(z, v, dim):
    total = np.moveaxis(np.array(z.tolist(), np.float32), dim, 0)
    np.add.at(total, INDEX, np.moveaxis(np.array(v.tolist(), np.float32), dim, 0))
    return np.moveaxis(total.astype(np.float16), 0, dim).tolist()


@pytest.mark.parametrize("shape, dim", [((2, 37), 0), ((37, 2), 1), ((2, 3, 4), 2),
                                        ((2, 3, 4), 0)])
def test_float16_index_add_along_an_end_dimension_accumulates_in_float32(shape, dim):
    z = _halves(shape, 1)
    v = _halves(shape[:dim] + (5,) + shape[dim + 1:], 2, 10)
    assert z.index_add(dim, torch.tensor(INDEX), v).tolist() == _in_float32(z, v, dim)


def test_float16_index_add_along_a_middle_dimension_adds_in_float16():
    z, v = _halves((4, 2, 5), 3), _halves((4, 5, 5), 4, 10)
    expected = _one_at_a_time(z, v, 1, 1, False)
    assert z.index_add(1, torch.tensor(INDEX), v).tolist() == expected


def test_float16_index_add_of_a_vector_rounds_the_product_first():
    z, v = _halves((2,), 5), _halves((5,), 6, 10)
    for alpha in (0.3, 1.7, -2.5):
        expected = _one_at_a_time(z, v, 0, alpha, False)
        assert z.index_add(0, torch.tensor(INDEX), v, alpha=alpha).tolist() == expected


@pytest.mark.parametrize("shape, whole", [
    ((2, 37), np.arange(37) < 32),  # one run of 32, then 5 left over
    ((2, 70), np.arange(70) < 64),
    ((2, 4, 37), np.arange(148).reshape(4, 37) < 128),  # the slice is one run of 148
    ((2, 3), np.zeros(3, bool)),
])
def test_float16_index_add_with_alpha_rounds_once_in_whole_runs(shape, whole):
    z, v = _halves(shape, 7), _halves((5,) + shape[1:], 8, 10)
    for alpha in (0.3, 3):
        expected = _one_at_a_time(z, v, 0, alpha, whole)
        assert z.index_add(0, torch.tensor(INDEX), v, alpha=alpha).tolist() == expected


def test_float16_index_add_with_alpha_from_a_strided_source_rounds_the_product_first():
    z, v = _halves((2, 37), 9), _halves((37, 5), 10, 10).t()
    expected = _one_at_a_time(z, v, 0, 3, False)
    assert z.index_add(0, torch.tensor(INDEX), v, alpha=3).tolist() == expected
    rows = _halves((4, 2, 37), 11)
    expected = _one_at_a_time(rows, _halves((4, 5, 37), 12, 10), 1, 0.3,
                              np.arange(37) < 32)  # each row of 37 a run of its own
    assert rows.index_add(1, torch.tensor(INDEX), _halves((4, 5, 37), 12, 10),
                          alpha=0.3).tolist() == expected
