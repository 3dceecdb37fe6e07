"""In-place detach in inference mode, and on inference tensors: autograd's work, skipped. The
same assertions run on torch.
"""

import torch
import torch.autograd.forward_ad as fwAD


def test_detach_in_place_does_nothing_in_inference_mode():
    a = torch.ones(3, requires_grad=True)
    b = a * 2
    v = b[1:]
    with torch.inference_mode():
        assert a.detach_() is a and b.detach_() is b
        v.detach_()  # a view, not refused
    assert a.requires_grad and a.is_leaf
    assert b.requires_grad and type(b.grad_fn).__name__ == "MulBackward0"
    assert v.requires_grad and v.grad_fn is not None
    assert a._version == b._version == 0
    with torch.inference_mode(), torch.enable_grad():
        b.detach_()
    assert b.grad_fn is not None


def test_detach_in_place_of_an_inference_tensor_does_nothing_anywhere():
    with torch.inference_mode():
        t = torch.ones(2, requires_grad=True)
    assert t.detach_() is t and t.requires_grad


def test_detach_in_place_keeps_tangents_in_inference_mode():
    with fwAD.dual_level():
        x = fwAD.make_dual(torch.ones(2), torch.full((2,), 3.0)).clone()  # not a view
        with torch.inference_mode():
            x.detach_()
        assert fwAD.unpack_dual(x).tangent.tolist() == [3.0, 3.0]
        x.detach_()
        assert fwAD.unpack_dual(x).tangent is None


def test_outside_inference_mode_detach_in_place_still_works_and_refuses_views():
    a = torch.ones(3, requires_grad=True)
    b = a * 2
    with torch.inference_mode(False):
        b.detach_()
    assert not b.requires_grad and b.grad_fn is None
    try:
        (a * 2)[1:].detach_()
    except RuntimeError as error:
        assert str(error).startswith("Can't detach views in-place.")
    else:
        raise AssertionError("a view was detached in place")
