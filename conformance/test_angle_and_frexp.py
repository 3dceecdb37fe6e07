"""Black-box tests: angle and frexp, their values, dtypes, nodes, gradients and refusals.
The same assertions run on torch.
"""

import math
import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises

NAN, INF = float("nan"), float("inf")
SPECIAL = [-2.0, -0.0, 0.0, 3.0, NAN, INF, -INF]


def _same(values, expected):
    """Equal, nan where nan is expected, and a zero's sign as expected."""
    assert len(values) == len(expected)
    for v, e in zip(values, expected):
        assert (math.isnan(v) and math.isnan(e)) or (v == e and
                                                     math.copysign(1, v) == math.copysign(1, e))


@pytest.mark.parametrize("dtype, pi", [("float16", 3.140625), ("float32", 3.1415927410125732),
                                       ("float64", math.pi)])
def test_angle_of_reals_is_pi_below_zero_and_zero_elsewhere(dtype, pi):
    y = torch.angle(torch.tensor(SPECIAL, dtype=getattr(torch, dtype)))
    assert y.dtype == getattr(torch, dtype)
    _same(y.tolist(), [pi, 0.0, 0.0, 0.0, NAN, 0.0, pi])  # -0.0 is not below zero


def test_angle_of_integers_and_bools_is_in_the_default_dtype():
    for values, dtype in (([-1, 0, 2], torch.int64), ([-1, 0, 2], torch.int32),
                          ([-1, 0, 2], torch.int8), ([0, 1], torch.uint8),
                          ([True, False], torch.bool)):
        y = torch.angle(torch.tensor(values, dtype=dtype))
        assert y.dtype == torch.float32
        assert y.tolist() == [3.1415927410125732 if v < 0 else 0.0 for v in values]
    torch.set_default_dtype(torch.float64)
    try:
        assert torch.tensor([-1, 2]).angle().dtype == torch.float64
        assert torch.tensor([-1, 2]).angle().tolist() == [math.pi, 0.0]
    finally:
        torch.set_default_dtype(torch.float32)


def test_angle_method_scalars_and_empty_tensors():
    assert torch.tensor(-1.0).angle().item() == pytest.approx(math.pi)
    assert torch.angle(torch.tensor(5)).item() == 0.0
    assert torch.angle(torch.empty(0, 3)).shape == (0, 3)


def test_angle_gradient_is_zero_everywhere_nan_included():
    x = torch.tensor([-2.0, 0.0, -0.0, 3.0, NAN, INF], requires_grad=True)
    y = x.angle()
    assert type(y.grad_fn).__name__ == "AngleBackward0" and y.grad_fn.name() == "AngleBackward0"
    assert y.grad_fn._saved_self is x
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["AccumulateGrad"]
    y.backward(torch.arange(6.0))
    _same(x.grad.tolist(), [0.0] * 6)


def test_angle_gradient_has_no_graph_of_its_own():
    x = torch.tensor([-2.0, 1.0], requires_grad=True)
    (g,) = torch.autograd.grad(x.angle().sum(), x, create_graph=True)
    assert g.tolist() == [0.0, 0.0] and g.grad_fn is None and not g.requires_grad


def test_angle_zeros_are_plain_zeros_that_turn_a_negative_zero_positive():
    x = torch.tensor([1.0, -1.0], requires_grad=True)
    (g,) = torch.autograd.grad((x * -0.0).sum() + x.angle().sum(), x)
    _same(g.tolist(), [0.0, 0.0])


def test_angle_tangent_is_zero():
    fw = torch.autograd.forward_ad
    with fw.dual_level():
        d = fw.make_dual(torch.tensor([-2.0, 1.0, NAN]), torch.ones(3))
        primal, tangent = fw.unpack_dual(d.angle())
    _same(primal.tolist(), [3.1415927410125732, 0.0, NAN])
    assert tangent.tolist() == [0.0, 0.0, 0.0] and tangent.dtype == torch.float32


def test_angle_under_no_grad_records_nothing():
    x = torch.tensor([-1.0], requires_grad=True)
    with torch.no_grad():
        assert not x.angle().requires_grad


@pytest.mark.parametrize("name", ["angle", "frexp"])
@pytest.mark.parametrize("value, kind", [([1.0], "list"), (1.0, "float"), (None, "NoneType"),
                                         ("a", "str")])
def test_a_first_argument_that_is_not_a_tensor(name, value, kind):
    with raises(TypeError, f"{name}(): argument 'input' (position 1) must be Tensor, "
                           f"not {kind}"):
        getattr(torch, name)(value)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_frexp_takes_a_number_apart(dtype):
    x = torch.tensor([0.0, -0.0, 1.0, -3.5, 8.0, 0.1, INF, -INF, NAN],
                     dtype=getattr(torch, dtype))
    mantissa, exponent = torch.frexp(x)
    assert mantissa.dtype == x.dtype and exponent.dtype == torch.int32
    tenth = {"float16": 0.7998046875, "float32": 0.800000011920929, "float64": 0.8}[dtype]
    _same(mantissa.tolist(), [0.0, -0.0, 0.5, -0.875, 0.5, tenth, INF, -INF, NAN])
    assert exponent.tolist() == [0, 0, 1, 2, 4, -3, 0, 0, 0]
    m, e = np.frexp(x.numpy())  # NumPy's frexp gives the same values
    _same(mantissa.tolist(), m.tolist())
    assert exponent.tolist() == e.tolist()


@pytest.mark.parametrize("dtype, tiny, mantissa, exponent", [
    ("float16", 2.0 ** -20, 0.5, -19),
    ("float32", 1e-40, 0.5444488525390625, -132),
    ("float64", 5e-324, 0.5, -1073),
])
def test_frexp_counts_the_leading_zeros_of_subnormals(dtype, tiny, mantissa, exponent):
    r = torch.frexp(torch.tensor([tiny, -tiny], dtype=getattr(torch, dtype)))
    assert r.mantissa.tolist() == [mantissa, -mantissa]
    assert r.exponent.tolist() == [exponent, exponent]


def test_frexp_is_a_named_tuple_printed_as_torchs():
    r = torch.frexp(torch.tensor([1.0, -3.5, 0.0]))
    assert type(r).__name__ == "frexp" and len(r) == 2 and isinstance(r, tuple)
    assert (r.n_fields, r.n_sequence_fields, r.n_unnamed_fields) == (2, 2, 0)
    assert r.mantissa is r[0] and r.exponent is r[1]
    assert repr(r) == ("torch.return_types.frexp(\n"
                       "mantissa=tensor([ 0.5000, -0.8750,  0.0000]),\n"
                       "exponent=tensor([1, 2, 0], dtype=torch.int32))")
    assert repr(torch.frexp(torch.tensor(3.0))) == (
        "torch.return_types.frexp(\nmantissa=tensor(0.7500),\n"
        "exponent=tensor(2, dtype=torch.int32))")
    empty = torch.tensor([]).reshape(0, 2).frexp()
    assert empty.mantissa.shape == empty.exponent.shape == (0, 2)


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool"])
def test_frexp_refuses_integers_and_bools(dtype):
    with raises(RuntimeError, "torch.frexp() only supports floating-point dtypes"):
        torch.frexp(torch.tensor([1, 0], dtype=getattr(torch, dtype)))


def test_frexp_mantissa_is_differentiable_and_the_exponent_is_not():
    x = torch.tensor([0.0, -0.0, 1.0, -3.5, INF, NAN, 1e-40], requires_grad=True)
    r = torch.frexp(x)
    node = r.mantissa.grad_fn
    assert type(node).__name__ == "FrexpBackward0" and node.name() == "FrexpBackward0"
    assert not r.exponent.requires_grad and r.exponent.grad_fn is None
    assert node._saved_exponent.tolist() == [0, 0, 1, 2, 0, 0, -132]
    assert node._saved_exponent.dtype == torch.int32
    r.mantissa.backward(torch.ones(7))
    # 2 ** -132 underflows in the default dtype: the subnormal's gradient is inf
    assert x.grad.tolist() == [1.0, 1.0, 0.5, 0.25, 1.0, 1.0, INF]
    with raises(RuntimeError, "element 0 of tensors does not require grad and does not have "
                              "a grad_fn"):
        torch.frexp(x).exponent.sum().backward()


def test_frexp_gradient_keeps_the_input_dtype():
    x = torch.tensor([6.0, 1000.0], dtype=torch.float16, requires_grad=True)
    x.frexp().mantissa.backward(torch.ones(2, dtype=torch.float16))
    assert x.grad.dtype == torch.float16 and x.grad.tolist() == [0.125, 0.0009765625]
    x = torch.tensor([5e-324, 6.0], dtype=torch.float64, requires_grad=True)
    torch.frexp(x).mantissa.sum().backward()
    assert x.grad.dtype == torch.float64 and x.grad.tolist() == [INF, 0.125]


def test_frexp_gradient_of_the_gradient_is_none():
    x = torch.tensor([6.0, -0.1], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(torch.frexp(x).mantissa.sum(), x, create_graph=True)
    assert g.tolist() == [0.125, 8.0] and g.grad_fn is None


def test_frexp_tangent_divides_by_the_power_of_two():
    fw = torch.autograd.forward_ad
    with fw.dual_level():
        r = torch.frexp(fw.make_dual(torch.tensor([6.0, -0.1]), torch.ones(2)))
        mantissa, exponent = fw.unpack_dual(r.mantissa), fw.unpack_dual(r.exponent)
    assert mantissa.tangent.tolist() == [0.125, 8.0]
    assert exponent.tangent is None and exponent.primal.tolist() == [3, -3]


def _pair(n=2, mantissa="float32", exponent="int32"):
    return (torch.zeros(n, dtype=getattr(torch, mantissa)),
            torch.zeros(n, dtype=getattr(torch, exponent)))


def test_frexp_writes_into_out():
    out = _pair()
    versions = [t._version for t in out]
    r = torch.frexp(torch.tensor([1.0, 6.0]), out=out)
    assert type(r).__name__ == "frexp_out" and r.mantissa is out[0] and r.exponent is out[1]
    assert repr(r) == ("torch.return_types.frexp_out(\n"
                       "mantissa=tensor([0.5000, 0.7500]),\n"
                       "exponent=tensor([1, 3], dtype=torch.int32))")
    assert [t._version - v for t, v in zip(out, versions)] == [1, 1]
    listed = torch.frexp(torch.tensor([6.0], dtype=torch.float64),
                         out=[torch.zeros(0, dtype=torch.float64),
                              torch.zeros(0, dtype=torch.int32)])
    assert listed.mantissa.tolist() == [0.75] and listed.exponent.tolist() == [3]


def test_frexp_writes_through_a_view_into_its_base():
    base = torch.zeros(4)
    torch.frexp(torch.tensor([1.0, 6.0]), out=(base[::2], torch.zeros(2, dtype=torch.int32)))
    assert base.tolist() == [0.5, 0.0, 0.75, 0.0]


@pytest.mark.parametrize("out, kind, message", [
    (lambda: torch.zeros(2), TypeError,
     "frexp(): argument 'out' must be tuple of Tensors, not Tensor"),
    (lambda: 5, TypeError, "frexp(): argument 'out' must be tuple of Tensors, not int"),
    (lambda: (torch.zeros(2),), TypeError, "expected tuple of 2 elements but got 1"),
    (lambda: _pair() + (torch.zeros(2),), TypeError, "expected tuple of 2 elements but got 3"),
    (lambda: (torch.zeros(2), None), TypeError,
     "expected Tensor as element 1 in argument 1, but got NoneType"),
    (lambda: (torch.zeros(2, dtype=torch.float64), torch.zeros(2, dtype=torch.int64)),
     RuntimeError, "torch.frexp() expects mantissa to have dtype float but got double"),
    (lambda: _pair(exponent="int64"), RuntimeError,
     "torch.frexp() expects exponent to have int dtype but got long int"),
    (lambda: _pair(exponent="uint8"), RuntimeError,
     "torch.frexp() expects exponent to have int dtype but got unsigned char"),
    (lambda: _pair(exponent="float16"), RuntimeError,
     "torch.frexp() expects exponent to have int dtype but got c10::Half"),
])
def test_frexp_refuses_a_bad_out_and_writes_nothing(out, kind, message):
    out = out()
    before = [t.tolist() for t in (out if isinstance(out, tuple) else ()) if t is not None]
    with raises(kind, message):
        torch.frexp(torch.tensor([1.0, 6.0]), out=out)
    assert [t.tolist() for t in (out if isinstance(out, tuple) else ()) if t is not None] == before


def test_frexp_out_names_the_input_dtype_it_wanted():
    with raises(RuntimeError, "torch.frexp() expects mantissa to have dtype c10::Half but got "
                              "float"):
        torch.frexp(torch.ones(2, dtype=torch.float16), out=_pair())


def test_frexp_out_refuses_grad_before_it_looks_at_dtypes():
    message = ("frexp(): functions with out=... arguments don't support automatic "
               "differentiation, but one of the arguments requires grad.")
    with raises(RuntimeError, message):
        torch.frexp(torch.ones(2, requires_grad=True), out=_pair(exponent="int64"))
    with raises(RuntimeError, message):  # before the integer input too
        torch.frexp(torch.tensor([1, 2]), out=(torch.zeros(2, requires_grad=True),
                                               torch.zeros(2, dtype=torch.int32)))
    with raises(RuntimeError, "torch.frexp() only supports floating-point dtypes"):
        torch.frexp(torch.tensor([1, 2]), out=_pair())
    with torch.no_grad():
        written = torch.frexp(torch.ones(2, requires_grad=True), out=_pair())
    assert written.exponent.tolist() == [1, 1]


def test_frexp_out_refuses_a_tangent():
    fw = torch.autograd.forward_ad
    with fw.dual_level():
        dual = fw.make_dual(torch.tensor([1.0, 6.0]), torch.ones(2))
        with raises(NotImplementedError, "Trying to use forward AD with frexp_out that does not "
                                         "support it because it is an out= function"):
            torch.frexp(dual, out=_pair())


def test_the_method_takes_no_out():
    with pytest.raises(TypeError):
        torch.ones(2).frexp(out=_pair())


def test_frexp_warns_as_it_resizes_an_out_that_held_elements():
    message = ("An output with one or more elements was resized since it had shape [{}], which "
               "does not match the required output shape [2]. This behavior is deprecated, and "
               "in a future PyTorch release outputs will not be resized unless they have zero "
               "elements. You can explicitly reuse an out tensor t by resizing it, inplace, to "
               "zero elements with t.resize_(0).")
    out = (torch.zeros(3), torch.zeros(2, 1, dtype=torch.int32))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.frexp(torch.tensor([1.0, 6.0]), out=out)
        torch.frexp(torch.tensor([1.0, 6.0]), out=(torch.zeros(0), _pair()[1]))  # no warning
    # torch's text goes on to say where in its sources it warned
    assert len(caught) == 2
    for warning, shape in zip(caught, ("3", "2, 1")):
        assert str(warning.message).startswith(message.format(shape))
    assert all(w.category is UserWarning for w in caught)
    assert out[0].shape == out[1].shape == (2,) and out[1].tolist() == [1, 3]
