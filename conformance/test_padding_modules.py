"""The padding modules: F.pad with fixed widths, torch's reprs, and their refusals."""

import pytest
import torch

from conformance._support import raises

nn = torch.nn
F = torch.nn.functional
MODES = {"Reflection": "reflect", "Replication": "replicate", "Circular": "circular"}


def an_input(d, requires_grad=False):
    torch.manual_seed(0)
    return torch.randn(2, 3, *(5,) * d, requires_grad=requires_grad)


@pytest.mark.parametrize("d", [1, 2, 3])
@pytest.mark.parametrize("kind", ["Reflection", "Replication", "Circular"])
def test_a_mode_pads_as_f_pad_does(kind, d):
    cls = getattr(nn, f"{kind}Pad{d}d")
    pad = cls(1)
    widths = (1,) * (2 * d)
    assert pad.padding == widths and repr(pad) == f"{kind}Pad{d}d({widths})"
    x = an_input(d, requires_grad=True)
    out = pad(x)
    assert torch.equal(out, F.pad(x, widths, MODES[kind]))
    assert type(out.grad_fn) is type(F.pad(x, widths, MODES[kind]).grad_fn)
    widths = tuple(i % 3 for i in range(2 * d))
    uneven = cls(widths)
    assert uneven.padding == widths
    assert torch.equal(uneven(x.detach()), F.pad(x.detach(), uneven.padding, MODES[kind]))


@pytest.mark.parametrize("d", [1, 2, 3])
def test_constant_and_zero_padding(d):
    x = an_input(d)
    constant = getattr(nn, f"ConstantPad{d}d")(2, 3.5)
    assert constant.padding == (2,) * (2 * d) and constant.value == 3.5
    assert repr(constant) == f"ConstantPad{d}d(padding={(2,) * (2 * d)}, value=3.5)"
    assert torch.equal(constant(x), F.pad(x, constant.padding, "constant", 3.5))
    zero = getattr(nn, f"ZeroPad{d}d")(1)
    assert zero.value == 0.0 and repr(zero) == f"ZeroPad{d}d({(1,) * (2 * d)})"
    assert isinstance(zero, getattr(nn, f"ConstantPad{d}d"))
    assert torch.equal(zero(x), F.pad(x, (1,) * (2 * d)))


def test_widths_are_taken_as_given():
    assert repr(nn.ReflectionPad2d((1, 2))) == "ReflectionPad2d((1, 2))"
    assert repr(nn.ReplicationPad1d([1, 2])) == "ReplicationPad1d((1, 2))"
    assert repr(nn.ZeroPad2d("ab")) == "ZeroPad2d(('a', 'b'))"
    assert repr(nn.CircularPad1d(1.5)) == "CircularPad1d((1.5, 1.5))"
    assert repr(nn.ZeroPad2d(padding=(1, 1, 2, 0))) == "ZeroPad2d((1, 1, 2, 0))"
    assert repr(nn.ConstantPad1d((1, 0), -1)) == "ConstantPad1d(padding=(1, 0), value=-1)"
    x = torch.ones(1, 2, 4)
    assert nn.ReflectionPad2d((1, 2))(x).shape == F.pad(x, (1, 2), "reflect").shape


@pytest.mark.parametrize("d", [1, 2, 3])
def test_circular_padding_refuses_a_rank_its_class_does_not_take(d):
    cls = getattr(nn, f"CircularPad{d}d")
    with raises(ValueError, f"expected {d + 1}D or {d + 2}D input (got 1D input)"):
        cls(1)(torch.ones(2))
    with raises(ValueError, f"expected {d + 1}D or {d + 2}D input (got {d + 3}D input)"):
        cls((1, 1))(torch.ones((2,) * (d + 3)))


def test_a_missing_argument_names_the_class():
    with raises(TypeError, "ConstantPad1d.__init__() missing 1 required positional argument: "
                "'value'"):
        nn.ConstantPad1d(1)
    with raises(TypeError, "ZeroPad3d.__init__() missing 1 required positional argument: "
                "'padding'"):
        nn.ZeroPad3d()
    with raises(TypeError, "ReflectionPad2d.__init__() takes 2 positional arguments but 3 "
                "were given"):
        nn.ReflectionPad2d(1, 2)


@pytest.mark.parametrize("pad, number, dim", [
    ((1, 2, 3, 4, 5, 6), 6, 3), ((3, 1, 1, 1, 1, 1), 4, 4), ((1, 1, 1, 1, 3, 1), 8, 2)])
def test_reflection_names_the_padding_that_is_too_wide(pad, number, dim):
    before, after = pad[2 * (4 - dim)], pad[2 * (4 - dim) + 1]
    message = (f"Argument #{number}: Padding size should be less than the corresponding input "
               f"dimension, but got: padding ({before}, {after}) at dimension {dim} of input "
               "[1, 2, 3, 3, 3]")
    with raises(RuntimeError, message):
        nn.ReflectionPad3d(pad)(torch.ones(1, 2, 3, 3, 3))
