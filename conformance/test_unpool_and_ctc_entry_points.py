"""Black-box tests: torch._C._nn.max_unpool2d and max_unpool3d, and torch._ctc_loss, take
torch's arguments, refuse what torch's parser refuses in its words, and return what torch's
do. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises

_CTC_FORMS = (
    " * (Tensor log_probs, Tensor targets, tuple of ints input_lengths, tuple of ints "
    "target_lengths, int blank = 0, bool zero_infinity = False)\n * (Tensor log_probs, Tensor "
    "targets, Tensor input_lengths, Tensor target_lengths, int blank = 0, bool zero_infinity = "
    "False)\n")


def _pooled():
    values = torch.tensor([[[[5.0, 7.0], [13.0, 15.0]]]], requires_grad=True)
    return values, torch.tensor([[[[5, 7], [13, 15]]]])


@pytest.mark.parametrize("size", [(4, 4), [4, 4], 4])
def test_max_unpool2d_takes_the_output_size(size):
    v, i = _pooled()
    out = torch._C._nn.max_unpool2d(v, i, size)
    assert (out.shape, out.stride(), type(out.grad_fn).__name__) == (
        (1, 1, 4, 4), (16, 16, 4, 1), "MaxUnpool2DBackward0")
    flat = out.flatten().tolist()
    assert [flat[k] for k in (5, 7, 13, 15)] == [5.0, 7.0, 13.0, 15.0] and sum(flat) == 40.0
    out.sum().backward()
    assert v.grad.tolist() == [[[[1.0, 1.0], [1.0, 1.0]]]]


def test_max_unpool3d_takes_sizes_strides_and_padding():
    v, i = _pooled()
    out = torch._C._nn.max_unpool3d(v[None], i[None], 4, 1, 0)
    assert (out.shape, type(out.grad_fn).__name__) == ((1, 1, 4, 4, 4), "MaxUnpool3DBackward0")
    assert out.sum().item() == 40.0


@pytest.mark.parametrize(("call", "kind", "message"), [
    ("nn.max_unpool2d(v, i)", TypeError,
     'max_unpool2d() missing 1 required positional arguments: "output_size"'),
    ("nn.max_unpool2d(v, i, (4, 4), (2, 2))", TypeError,
     "max_unpool2d() takes 3 positional arguments but 4 were given"),
    ("nn.max_unpool3d(v[None], i[None], (1, 4, 4))", TypeError,
     'max_unpool3d() missing 2 required positional argument: "stride", "padding"'),
    ("nn.max_unpool2d(v, i, (4,))", RuntimeError, "There should be exactly two elements "
     "(height, width) in output_size, but got 1 elements."),
])
def test_the_unpools_refuse_in_torchs_words(call, kind, message):
    v, i = _pooled()
    with raises(kind, message):
        eval(call, {"nn": torch._C._nn, "v": v, "i": i})


def test_an_unpool_out_is_resized_without_a_warning():
    v, i = _pooled()
    out = torch.zeros(2)
    assert torch._C._nn.max_unpool2d(v.detach(), i, (4, 4), out=out) is out
    assert (out.shape, out.sum().item()) == ((1, 1, 4, 4), 40.0)


def _ctc():
    log_probs = (torch.arange(40, dtype=torch.float64).reshape(5, 2, 4).sin() * 2).log_softmax(2)
    return log_probs.requires_grad_(), torch.tensor([[1, 2, 2], [3, 1, 0]])


@pytest.mark.parametrize("lengths", [([5, 4], [3, 2]), ((5, 4), (3, 2))])
def test_ctc_loss_row_returns_the_losses_and_log_alpha(lengths):
    lp, targets = _ctc()
    out = torch._ctc_loss(lp, targets, *lengths)
    assert type(out) is tuple and len(out) == 2
    losses, alpha = out
    assert (losses.shape, alpha.shape, alpha.stride()) == ((2,), (2, 5, 7), (35, 7, 1))
    assert type(losses.grad_fn).__name__ == "CtcLossBackward0" and not alpha.requires_grad
    expected = torch.ctc_loss(lp, targets, [5, 4], [3, 2], reduction=0)
    assert torch.allclose(losses, expected)
    int32 = torch._ctc_loss(lp, targets.int(), [5, 4], [3, 2], 0, False)[0]
    assert torch.equal(int32, losses)


@pytest.mark.parametrize(("call", "kind", "message"), [
    ("torch._ctc_loss(lp, t, [5, 4])", TypeError, "_ctc_loss() received an invalid "
     "combination of arguments - got (Tensor, Tensor, list), but expected one of:\n" + _CTC_FORMS),
    ("torch._ctc_loss(lp, t, [5, 4], torch.tensor([3, 2]))", TypeError, "_ctc_loss() received "
     "an invalid combination of arguments - got (Tensor, Tensor, list, Tensor), but expected one "
     "of:\n" + _CTC_FORMS),
    ("torch._ctc_loss(lp, t.float(), [5, 4], [3, 2])", RuntimeError, "Expected tensor for "
     "argument #2 'targets' to have scalar type Int; but got torch.FloatTensor instead (while "
     "checking arguments for ctc_loss_allocate_outputs)"),
    ("torch._ctc_loss(lp[:, 0], t[0], [5], [3])", RuntimeError, "Expected 3-dimensional tensor, "
     "but got 2-dimensional tensor for argument #1 'log_probs' (while checking arguments for "
     "ctc_loss_allocate_outputs)"),
    ("torch._ctc_loss(lp.half(), t.float(), [5, 4], [3, 2])", NotImplementedError,
     "\"ctc_loss_cpu\" not implemented for 'Half'"),
    ("torch._ctc_loss(lp, t, [5, 4], [3, 2], 9)", RuntimeError, "blank must be in label range"),
])
def test_ctc_loss_row_refuses_in_torchs_words(call, kind, message):
    lp, t = _ctc()
    with raises(kind, message):
        eval(call, {"torch": torch, "lp": lp.detach(), "t": t})


INF = float("inf")
USED_ALPHA = (  # torch's log_alpha where its kernel writes it: steps and places in use
    [-2.6297753607, -0.9468333911, -INF, -INF, -INF, -INF, -INF, -2.9522235958, -2.25332117,
     -1.2692816262, -4.3360403412, -INF, -INF, -INF, -4.3524978664, -4.59703342, -2.3519766779,
     -3.2448064021, -5.7363146118, -INF, -INF, -8.6731137703, -6.5483249879, -6.5719136306,
     -2.9206283856, -7.4858858663, -6.7206568907, -INF, -10.1881150603, -7.0535111044,
     -7.3819038673, -4.4291160521, -4.4252762584, -7.8983357234, -8.2356581807],
    [-3.0525868152, -0.2250086271, -INF, -INF, -INF, -6.7344800919, -1.475708075,
     -3.9069019039, -1.9934219942, -INF, -7.4505561582, -5.7049272448, -2.1075056838,
     -1.8233024898, -2.7094980605, -7.8521243445, -7.2955098146, -2.4820481123, -3.5211467135,
     -1.879707006])


def test_what_the_loss_reads_of_log_alpha_is_torchs():
    # torch leaves the entries past an element's steps or places unwritten; only these count
    lp, t = _ctc()
    losses, alpha = torch._ctc_loss(lp.detach(), t, [5, 4], [3, 2])
    used = (alpha[0, :5, :7].flatten().tolist(), alpha[1, :4, :5].flatten().tolist())
    for got, expected in zip(used, USED_ALPHA):
        assert [round(v, 10) for v in got] == expected
    assert [round(v, 10) for v in losses.tolist()] == [7.3596933934, 1.7026484674]


def test_ctc_loss_refuses_lengths_of_two_kinds():
    lp, t = _ctc()
    forms = (
        " * (Tensor log_probs, Tensor targets, tuple of ints input_lengths, tuple of ints "
        "target_lengths, int blank = 0, int reduction = at::Reduction::Mean, bool zero_infinity "
        "= False)\n      didn't match because some of the arguments have invalid types: "
        "(Tensor, Tensor, !Tensor!, !list of [int, int]!, !int!, !int!, !bool!)\n * (Tensor "
        "log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank = 0, "
        "int reduction = at::Reduction::Mean, bool zero_infinity = False)\n      didn't match "
        "because some of the arguments have invalid types: (Tensor, Tensor, Tensor, !list of "
        "[int, int]!, !int!, !int!, !bool!)\n")
    message = ("ctc_loss() received an invalid combination of arguments - got (Tensor, Tensor, "
               "Tensor, list, int, int, bool), but expected one of:\n" + forms)
    with raises(TypeError, message):
        torch.nn.functional.ctc_loss(lp, t, torch.tensor([5, 4]), [3, 2])
    both = torch.nn.functional.ctc_loss(lp, t, torch.tensor([5, 4]), torch.tensor([3, 2]))
    assert type(both.grad_fn).__name__ == "MeanBackward0"


def test_lengths_as_tensors_take_the_other_overload():
    lp, t = _ctc()
    losses, _ = torch._ctc_loss(lp, t, torch.tensor([5, 4]), torch.tensor([3, 2]))
    node = losses.grad_fn
    assert type(node).__name__ == "CtcLossBackward1"
    assert node._saved_input_lengths.tolist() == [5, 4]
    assert isinstance(node._saved_target_lengths, torch.Tensor)
    seen = []

    class Names(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    with Names():
        losses, _ = torch._ctc_loss(lp, t, torch.tensor([5, 4]), torch.tensor([3, 2]))
        (grad,) = torch.autograd.grad(losses.sum(), lp)
    assert "aten._ctc_loss.Tensor" in seen and "aten._ctc_loss_backward.Tensor" in seen
    (expected,) = torch.autograd.grad(torch._ctc_loss(lp, t, [5, 4], [3, 2])[0].sum(), lp)
    assert torch.allclose(grad, expected)
