"""Black-box tests: differences left by earlier rounds, now in torch's order: refusals of
an inference tensor an op must save, before the op checks its arguments. The same
assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`."
)
WRITTEN = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details."
)


def _inference(*shape, dtype=torch.float32):
    with torch.inference_mode():
        return torch.arange(1, 1 + torch.Size(shape).numel()).to(dtype).reshape(shape)


@pytest.fixture
def v():
    return torch.tensor([1.0, 2.0, 3.0], requires_grad=True)


def test_addr_in_place_refuses_the_save_before_a_0d_vector(v):
    w = _inference(2, 2)
    with raises(RuntimeError, SAVED):
        w.addr_(w[:, 0], v[0])
    with raises(RuntimeError, SAVED):
        w.addr_(v[:2], w[0])  # before the overlap of w[0] with w
    assert w.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_in_place_ops_refuse_a_kept_inference_operand_before_shapes(v):
    w = _inference(2, 2)
    with raises(RuntimeError, SAVED):
        w.addmv_(w, v)  # w keeps mat; vec is of the wrong length
    with raises(RuntimeError, SAVED):
        w.lerp_(v[:2], w)  # the weight is kept for end's gradient
    u = torch.ones(2, 3, requires_grad=True) * 1
    with raises(RuntimeError, SAVED):
        u.clone().mul_(_inference(2, 2))
    with raises(RuntimeError, SAVED):
        u.clone().addcmul_(v, _inference(2, 2))
    assert w.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_an_inference_operand_not_kept_lets_the_shapes_refuse(v):
    u = torch.ones(2, 3, requires_grad=True) * 1
    with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) "
                              "at non-singleton dimension 1"):
        u.clone().add_(_inference(2, 2))
    with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) "
                              "at non-singleton dimension 1"):
        u.clone().lerp_(_inference(2, 2), 0.5)


def test_an_inference_self_written_is_refused_after_the_saves_pass(v):
    w = _inference(2, 3)
    with raises(RuntimeError, WRITTEN):
        w.mul_(v)
    assert w.tolist() == [[1.0, 4.0, 9.0], [4.0, 10.0, 18.0]]  # the kernel wrote first


@pytest.mark.parametrize("call", [
    "u.masked_fill(mask[:, :2], v[0])", "u.masked_fill_(mask[:, :2], v[0])",
    "u.masked_fill(mask[:, :2], 1.0)", "u.masked_scatter(mask[:, :2], u)",
    "u.masked_scatter_(mask[:, :2], u)", "u.index_copy(0, index, u[:1])",
    "u.index_copy_(0, index, u[:1])", "u.index_fill(0, index[:, None], v[0])",
    "u.index_fill_(0, index[:, None], 1.0)", "u.put(index, u[0])", "u.put_(index, u[0])",
])
def test_a_kept_inference_mask_or_index_is_refused_first(call, v):
    u = torch.ones(2, 3, requires_grad=True) * 1
    mask = _inference(2, 3, dtype=torch.bool)
    with torch.inference_mode():
        index = torch.tensor([0, 1])
    with raises(RuntimeError, SAVED):
        eval(call, {"u": u, "v": v, "mask": mask, "index": index})
    assert u.tolist() == [[1.0] * 3] * 2


def test_a_kept_inference_mask_with_nothing_to_differentiate_checks_the_shapes():
    u, mask = torch.ones(2, 3), _inference(2, 2, dtype=torch.bool)
    with raises(RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) "
                              "at non-singleton dimension 1"):
        u.masked_fill(mask, 1.0)
    with torch.no_grad():
        with raises(RuntimeError, "The size of tensor a (2) must match the size of tensor b "
                                  "(3) at non-singleton dimension 1"):
            u.requires_grad_().masked_fill(mask, 1.0)


def _permuted(shape, order):
    """A zero tensor of ``shape`` laid out with its dims in memory in ``order``."""
    base = torch.zeros([shape[d] for d in order])
    return base.permute([order.index(d) for d in range(len(shape))])


@pytest.mark.parametrize("given", [(0,), (5,)])
def test_an_empty_iterated_out_takes_the_results_strides(given):
    import warnings

    x = torch.zeros(3, 0).t()  # (0, 3), strides (1, 1)
    cases = [
        (lambda o: torch.add(x, 1, out=o), (1, 0)),
        (lambda o: torch.mul(x, torch.zeros(3), out=o), (1, 0)),
        (lambda o: torch.add(_permuted((0, 2, 3), (2, 0, 1)), 1, out=o), (2, 1, 0)),
        (lambda o: torch.sub(_permuted((2, 3, 0), (1, 2, 0)), 2.0, out=o), (1, 0, 2)),
        (lambda o: torch.add(_permuted((1, 0, 3, 1), (3, 2, 1, 0)), 1, out=o), (0, 1, 0, 0)),
        (lambda o: torch.mul(torch.zeros(0, 3, 2, 2).to(memory_format=torch.channels_last),
                             2, out=o), (12, 1, 6, 3)),
        (lambda o: torch.neg(x, out=o), (3, 1)),  # a lone operand: row-major
    ]
    for call, strides in cases:
        o = torch.zeros(given)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the resize of an out that held elements
            call(o)
        assert o.stride() == strides


def test_an_empty_nonzero_out_is_laid_out_by_columns():
    for x, strides in ((torch.zeros(3), (1, 0)), (torch.zeros(2, 3), (1, 0)),
                       (torch.ones(2, 3), (1, 6))):
        o = torch.zeros(0, dtype=torch.long)
        torch.nonzero(x, out=o)
        assert o.stride() == strides


def test_an_empty_batch_into_a_lapack_out_is_laid_out_by_columns():
    import warnings

    a = torch.zeros(0, 3, 3)
    for call in (lambda o: torch.linalg.inv(a, out=o),
                 lambda o: torch.linalg.solve(a, a, out=o),
                 lambda o: torch.linalg.qr(a, out=(o, torch.zeros(0)))):
        o = torch.zeros(0)
        call(o)
        assert o.stride() == (9, 1, 3)
    o = torch.zeros(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the resize of an out that held elements
        torch.cholesky_inverse(a, out=o)  # a composite: copied into row-major
    assert o.stride() == (9, 3, 1)


def test_cholesky_inverse_lays_out_an_out_by_what_it_held():
    import warnings

    a = torch.eye(3).expand(2, 3, 3).contiguous()
    empty, full = torch.zeros(0), torch.zeros(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the resize of an out that held elements
        torch.cholesky_inverse(a, out=empty)
        torch.cholesky_inverse(a, out=full)
    assert empty.stride() == (9, 1, 3) and full.stride() == (9, 3, 1)


def test_an_empty_batch_of_cholesky_factors_is_laid_out_by_columns():
    import warnings

    assert torch.linalg.cholesky(torch.zeros(0, 3, 3)).stride() == (9, 1, 3)
    assert torch.linalg.cholesky_ex(torch.zeros(2, 0, 2, 2)).L.stride() == (4, 4, 1, 2)
    assert torch.linalg.cholesky(torch.zeros(2, 0, 0)).stride() == (1, 1, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecated, and said once a process
        assert torch.cholesky(torch.zeros(0, 3, 3)).stride() == (9, 3, 1)
    o = torch.zeros(0)
    torch.linalg.cholesky(torch.zeros(0, 3, 3), out=o)
    assert o.stride() == (9, 1, 3)


def _logits_loss(x, y):
    """(1 - y) x - log σ(x), elementwise, by its definition."""
    return (1 - y) * x - torch.nn.functional.logsigmoid(x)


def test_the_namespace_logits_loss_broadcasts_a_larger_target():
    x = torch.tensor([0.5, -1.0, 2.0])
    y = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.5]])
    loss = torch.binary_cross_entropy_with_logits(x, y, None, None, 0)
    assert loss.shape == (2, 3)
    assert torch.allclose(loss, _logits_loss(x, y))
    mean = torch.binary_cross_entropy_with_logits(x, y, None, None, 1)
    assert mean.shape == () and torch.allclose(mean, _logits_loss(x, y).mean())
    with raises(ValueError, "Target size (torch.Size([2, 3])) must be the same as input size "
                            "(torch.Size([3]))"):
        torch.nn.functional.binary_cross_entropy_with_logits(x, y)


def test_the_namespace_logits_loss_refuses_pos_weight_in_its_products_words():
    x, w = torch.tensor([0.5, -1.0, 2.0]), torch.ones(3)
    y = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.5]])
    with raises(RuntimeError, "output with shape [3] doesn't match the broadcast shape [2, 3]"):
        torch.binary_cross_entropy_with_logits(x, y, None, w, 1)  # (pw - 1) * y into log σ(x)
    with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at "
                              "non-singleton dimension 0"):
        torch.binary_cross_entropy_with_logits(x, torch.ones(2), None, w, 1)  # pw is tensor a
    with raises(RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at "
                              "non-singleton dimension 0"):
        torch.binary_cross_entropy_with_logits(x, torch.ones(2), None, None, 1)  # the target
    with raises(RuntimeError, "output with shape [3] doesn't match the broadcast shape [2, 3]"):
        torch.binary_cross_entropy_with_logits(y, x, None, None, 1)  # a smaller target


def test_the_gradient_of_a_larger_target_loss_is_refused_in_place():
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.5]])
    loss = torch.binary_cross_entropy_with_logits(x, y, None, None, 2)
    assert type(loss.grad_fn).__name__ == "BinaryCrossEntropyWithLogitsBackward0"
    with raises(RuntimeError, "output with shape [3] doesn't match the broadcast shape [2, 3]"):
        loss.backward()


def test_baddbmm_into_an_inference_tensor_refuses_its_inference_batch_first():
    c = torch.ones(2, 3, 2, requires_grad=True)
    w, batch = _inference(2, 2, 2), _inference(2, 2, 3)
    with raises(RuntimeError, SAVED):  # batch1 is kept for batch2's gradient
        w.baddbmm_(batch, c)
    assert w.tolist() == _inference(2, 2, 2).tolist()
    with raises(RuntimeError, WRITTEN):  # nothing inference kept: written, then refused
        w.baddbmm_(torch.ones(2, 2, 3, requires_grad=True), c)
