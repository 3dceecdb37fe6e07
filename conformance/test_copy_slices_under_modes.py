"""Black-box tests: a gradient that flows through CopySlices (a write into a view) under a
dispatch mode shows torch's steps: the buffer made with no options, the window as_strided,
its clone in contiguous format, copy_'s zeros only where they are asked for, and the answer
copied back only where the base's gradient is wanted. The same assertions run on torch."""

import torch

from conformance._support import calling_mode

Calls = calling_mode()

BUFFER = ("aten.new_empty_strided.default", ("T", [4, 3], [3, 1]), {})
CONTIGUOUS = {"memory_format": torch.contiguous_format}


def test_a_write_into_a_fresh_tensor_hands_its_base_nothing():
    x = torch.ones(2, 3, requires_grad=True)
    out = torch.zeros(4, 3)
    out[1:3] = x * 2
    with Calls() as mode:
        out.sum().backward()
    assert mode.seen[3:] == [
        BUFFER, ("aten.copy_.default", ("T", "T"), {}),
        ("aten.as_strided.default", ("T", [2, 3], [3, 1], 3), {}),
        ("aten.clone.default", ("T",), CONTIGUOUS),
        ("aten.mul.Tensor", ("T", 2), {}), ("aten.detach.default", ("T",), {})]
    assert x.grad.tolist() == [[2.0] * 3] * 2


def test_a_second_write_copies_the_window_back():
    x = torch.ones(2, 3, requires_grad=True)
    out = torch.zeros(4, 3)
    out[1:3] = x * 2
    out[0] += x[1]
    with Calls() as mode:
        out.sum().backward()
    copied = ("aten.copy_.default", ("T", "T"), {})
    assert mode.seen[3:14] == [
        BUFFER, copied, ("aten.as_strided.default", ("T", [3], [1], 0), {}),
        ("aten.clone.default", ("T",), CONTIGUOUS),
        ("aten.zeros_like.default", ("T",), CONTIGUOUS), copied,  # the copy_ into out[1:3]
        ("aten.new_zeros.default", ("T", [12]), {}),  # as_strided's gradient, its storage
        ("aten.as_strided.default", ("T", [3], [1], 0), {}), copied,
        ("aten.as_strided.default", ("T", [4, 3], [3, 1], 0), {}),
        ("aten.add.Tensor", ("T", "T"), {})]
    assert mode.seen[14:19] == [
        BUFFER, copied, ("aten.as_strided.default", ("T", [3], [1], 0), {}),
        ("aten.clone.default", ("T",), CONTIGUOUS), copied]
    assert x.grad.tolist() == [[2.0] * 3, [3.0] * 3]


class _Written(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        out = torch.zeros(4, 3)
        out[1:3] = g * x
        out[0] += x[0]
        return out[:2]


def test_a_backward_that_writes_into_a_view_shows_torchs_steps_when_differentiated():
    x = torch.ones(2, 3, requires_grad=True)
    gx, = torch.autograd.grad(_Written.apply(x).sum(), x, create_graph=True)
    with Calls() as mode:
        gx.sum().backward()
    seen = [name for name, _, _ in mode.seen]
    assert seen[3:] == [
        "aten.slice_backward.default", "aten.new_empty_strided.default", "aten.copy_.default",
        "aten.as_strided.default", "aten.clone.default", "aten.zeros_like.default",
        "aten.copy_.default", "aten.new_zeros.default", "aten.as_strided.default",
        "aten.copy_.default", "aten.as_strided.default", "aten.add.Tensor",
        "aten.new_empty_strided.default", "aten.copy_.default", "aten.as_strided.default",
        "aten.clone.default", "aten.copy_.default", "aten.select_backward.default",
        "aten.new_empty_strided.default", "aten.copy_.default", "aten.as_strided.default",
        "aten.clone.default", "aten.mul.Tensor", "aten.add.Tensor", "aten.detach.default"]
    assert mode.seen[8] == ("aten.zeros_like.default", ("T",), CONTIGUOUS)
    assert mode.seen[10] == ("aten.new_zeros.default", ("T", [12]), {})
    assert x.grad.tolist() == [[2.0] * 3, [0.0] * 3]


def test_the_clone_a_mode_was_shown_runs_by_its_aten_name_afterwards():
    x = torch.ones(2, 3, requires_grad=True)
    out = torch.zeros(4, 3)
    out[1:3] = x * 2
    with Calls():
        out.sum().backward()
    y = torch.ones(2, requires_grad=True)
    copy = torch.ops.aten.clone.default(y)  # called as torch's schema binds it
    assert type(copy.grad_fn).__name__ == "CloneBackward0"
    assert copy.tolist() == [1.0, 1.0]
    kept = torch.ops.aten.clone.default(y, memory_format=torch.contiguous_format)
    assert kept.is_contiguous() and kept.tolist() == [1.0, 1.0]
