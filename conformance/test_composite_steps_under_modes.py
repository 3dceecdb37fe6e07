"""Black-box tests: the steps of torch's composites that a dispatch mode sees:
batch_norm's empty reserve before native_batch_norm (or batch_norm whole in inference
mode), cosine_similarity's floor (scalar_tensor, clamp_min_.Tensor after both norms), and
the gradients of embedding and rrelu, whose arguments go by position. The same assertions
run on torch.
"""

import pytest
import torch

from conformance._support import calling_mode

F = torch.nn.functional
CPU = torch.device("cpu")
F64 = torch.float64
RESERVE = ("aten.empty.memory_format", ([0],),
           {"dtype": torch.uint8, "layout": torch.strided, "device": CPU})

Calls = calling_mode()


def _leaf():
    return (torch.arange(6, dtype=F64).reshape(2, 3) * 0.17 + 0.4).requires_grad_()


@pytest.mark.parametrize("call, args", [
    (lambda x, m, v: F.batch_norm(x, m, v, training=True),
     ("T", None, None, "T", "T", True, 0.1, 1e-05)),
    (lambda x, m, v: F.batch_norm(x, None, None, training=True, eps=1e-3),
     ("T", None, None, None, None, True, 0.1, 1e-3)),
    (lambda x, m, v: torch.batch_norm(x, None, None, m, v, False, 0.2, 1e-5, False),
     ("T", None, None, "T", "T", False, 0.2, 1e-05)),
])
def test_batch_norm_makes_its_reserve_first(call, args):
    x = _leaf()
    m, v = torch.zeros(3, dtype=F64), torch.ones(3, dtype=F64)
    with Calls() as mode:
        out = call(x, m, v)
    assert mode.seen[:2] == [RESERVE, ("aten.native_batch_norm.default", args, {})]
    assert out.grad_fn.name() == "NativeBatchNormBackward0"


def test_native_batch_norm_called_itself_makes_no_reserve():
    x = _leaf()
    m, v = torch.zeros(3, dtype=F64), torch.ones(3, dtype=F64)
    with Calls() as mode:
        torch.native_batch_norm(x, None, None, m, v, True, 0.1, 1e-5)
    assert mode.seen == [("aten.native_batch_norm.default",
                          ("T", None, None, "T", "T", True, 0.1, 1e-05), {})]


def test_batch_norm_in_inference_mode_is_one_op():
    m, v = torch.zeros(3), torch.ones(3)
    with torch.inference_mode():
        x = torch.ones(2, 3)
        with Calls() as mode:
            out = F.batch_norm(x, m, v)
    assert mode.seen == [("aten.batch_norm.default",
                          ("T", None, None, "T", "T", False, 0.1, 1e-05, True), {})]
    assert torch.allclose(out, x / (1 + 1e-5) ** 0.5)


@pytest.mark.parametrize("dim, eps", [(1, 1e-8), (0, 0.5)])
def test_cosine_similarity_floors_both_norms_with_one_tensor(dim, eps):
    x, y = _leaf(), torch.ones(2, 3, dtype=F64)
    with Calls() as mode:
        out = F.cosine_similarity(x, y, dim=dim, eps=eps)
    names = [s[0] for s in mode.seen]
    start = names.index("aten.scalar_tensor.default")
    assert names[:start].count("aten.linalg_vector_norm.default") == 2
    assert mode.seen[start:start + 3] == [
        ("aten.scalar_tensor.default", (eps,), {"dtype": F64, "device": CPU}),
        ("aten.clamp_min_.Tensor", ("T", "T"), {}),
        ("aten.clamp_min_.Tensor", ("T", "T"), {})]
    expected = (x * y).sum(dim) / (x.norm(dim=dim).clamp_min(eps) * y.norm(dim=dim))
    assert torch.allclose(out, expected)


def test_embeddings_gradient_goes_by_position():
    w = torch.ones(4, 3, requires_grad=True)
    i = torch.tensor([1, 0])
    with Calls() as mode:
        F.embedding(i, w, padding_idx=0, scale_grad_by_freq=True).sum().backward()
    assert ("aten.embedding_dense_backward.default", ("T", "T", 4, 0, True), {}) in mode.seen


@pytest.mark.parametrize("training", [True, False])
def test_rrelus_gradient_goes_by_position(training):
    x = _leaf()
    with Calls() as mode:
        F.rrelu(x, training=training).sum().backward()
    assert ("aten.rrelu_with_noise_backward.default",
            ("T", "T", "T", 0.125, 0.3333333333333333, training, False), {}) in mode.seen


def test_a_clone_names_its_memory_format():
    x = _leaf().t()
    with Calls() as mode:
        y = x.clone(memory_format=torch.contiguous_format)
        z = x.contiguous()
        w = x.clone()
    assert mode.seen == [
        ("aten.clone.default", ("T",), {"memory_format": torch.contiguous_format}),
        ("aten.clone.default", ("T",), {"memory_format": torch.contiguous_format}),
        ("aten.clone.default", ("T",), {})]
    assert (y.stride(), z.stride(), w.stride()) == ((2, 1), (2, 1), (1, 3))
    assert y.grad_fn.name() == z.grad_fn.name() == "CloneBackward0"
