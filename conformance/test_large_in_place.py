"""In-place ops on large tensors, on either side of the size from which their result is
made in the written tensor's own memory: the memory kept, versions, nodes, gradients, and
the refusal of a tensor saved for backward and written since."""

import numpy as np
import pytest
import torch

SIZES = [65535, 65536, 1 << 20]  # float32 elements: either side of 256 KiB, and 4 MiB
MODIFIED = "one of the variables needed for gradient computation has been modified by an inplace"

PAIRS = {  # an in-place op and its out-of-place form
    "mul_": (lambda x, y: x.mul_(y), lambda x, y: x.mul(y)),
    "add_": (lambda x, y: x.add_(y), lambda x, y: x.add(y)),
    "sub_": (lambda x, y: x.sub_(y), lambda x, y: x.sub(y)),
    "div_": (lambda x, y: x.div_(y), lambda x, y: x.div(y)),
    "mul_ itself": (lambda x, y: x.mul_(x), lambda x, y: x.mul(x)),
    "sin_": (lambda x, y: x.sin_(), lambda x, y: x.sin()),
    "cos_": (lambda x, y: x.cos_(), lambda x, y: x.cos()),
    "log_": (lambda x, y: x.log_(), lambda x, y: x.log()),
    "exp_": (lambda x, y: x.exp_(), lambda x, y: x.exp()),
    "sqrt_": (lambda x, y: x.sqrt_(), lambda x, y: x.sqrt()),
    "tan_": (lambda x, y: x.tan_(), lambda x, y: x.tan()),
    "neg_": (lambda x, y: x.neg_(), lambda x, y: x.neg()),
    "copy_": (lambda x, y: x.copy_(y), lambda x, y: x * 0 + y),  # x is positive
}


def _inputs(n, dtype=np.float32):
    rng = np.random.default_rng(n)
    return (torch.tensor(np.abs(rng.standard_normal(n)).astype(dtype) + 0.5) for _ in range(2))


def _bits(t):
    return t.detach().numpy().tobytes()


@pytest.mark.parametrize("name", sorted(PAIRS))
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("strided", [False, True])
def test_written_in_its_own_memory_as_the_out_of_place_op_computes(name, n, strided):
    in_place, out_of_place = PAIRS[name]
    x, y = _inputs(n)
    if strided:
        x, y = x[::2], y[::2]
    expected = _bits(out_of_place(x, y))
    memory = x.data_ptr()
    with torch.no_grad():
        out = in_place(x, y)
    assert out is x and x.data_ptr() == memory and x._version == 1 and y._version == 0
    assert _bits(x) == expected


@pytest.mark.parametrize("n", SIZES)
def test_float64_and_a_float32_number_or_double_operand(n):
    x, y = _inputs(n, np.float64)
    expected = _bits(x.mul(0.1))
    x.mul_(0.1)
    assert _bits(x) == expected and x.dtype == torch.float64
    single = y.float()
    expected = _bits(single.mul(y).float())
    single.mul_(y)  # computed in float64, then cast back
    assert _bits(single) == expected and single.dtype == torch.float32


NODES = {"add_": "AddBackward0", "mul_": "MulBackward0", "sqrt_": "SqrtBackward0",
         "sin_": "SinBackward0", "exp_": "ExpBackward0", "copy_": "CopyBackwards",
         "div_": "DivBackward0", "neg_": "NegBackward0"}


@pytest.mark.parametrize("name", sorted(NODES))
@pytest.mark.parametrize("n", SIZES[:2])
def test_grad_nodes_and_gradients_match_the_out_of_place_chain(name, n):
    in_place, out_of_place = PAIRS[name]
    x, y = _inputs(n)
    leaf, other = x.requires_grad_(), y.requires_grad_()
    z = leaf * 1
    out = in_place(z, other)
    assert out is z and z._version == 1 and type(z.grad_fn).__name__ == NODES[name]
    (z * z).sum().backward()
    grads = _bits(leaf.grad), _bits(other.grad) if other.grad is not None else None
    leaf.grad = other.grad = None
    plain = out_of_place(leaf * 1, other)
    (plain * plain).sum().backward()
    assert grads == (_bits(leaf.grad), _bits(other.grad) if other.grad is not None else None)
    assert _bits(z) == _bits(plain)


def test_a_view_written_with_grad_is_copied_into_its_base():
    x, _ = _inputs(1 << 18)
    leaf = x.requires_grad_()
    base = leaf * 1
    view = base[::2]
    view.mul_(3).sqrt_()
    assert type(base.grad_fn).__name__ == "CopySlices" and base._version == 2
    assert type(view.grad_fn).__name__ == "AsStridedBackward0"
    base.sum().backward()
    expected = torch.ones(1 << 18)
    with torch.no_grad():
        expected[::2] = 1.5 / (leaf.detach()[::2] * 3).sqrt()
    assert torch.allclose(leaf.grad, expected)


@pytest.mark.parametrize("write", ["mul_", "add_", "copy_", "sqrt_"])
def test_a_tensor_saved_for_backward_and_written_is_refused(write):
    x, y = _inputs(1 << 18)
    leaf = x.requires_grad_()
    a = leaf * 1
    kept = a.sin()  # sin saves a
    with torch.no_grad():
        PAIRS[write][0](a, y)
    with pytest.raises(RuntimeError, match=MODIFIED):
        kept.sum().backward()


def test_a_result_saved_and_written_again_is_refused():
    x, y = _inputs(1 << 18)
    a = x.requires_grad_() * 1
    a.sqrt_()  # sqrt_ saves its result: a itself
    a.add_(y)
    with pytest.raises(RuntimeError, match="is at version 2; expected version 1 instead"):
        a.sum().backward()


def test_hooks_see_the_gradient_through_a_large_write():
    x, y = _inputs(1 << 18)
    leaf = x.requires_grad_()
    seen = []
    z = leaf * 2
    z.register_hook(lambda g: seen.append(g.sum().item()))
    z.add_(y)
    z.sum().backward()
    assert seen == [float(1 << 18)] and leaf.grad.eq(2).all()
