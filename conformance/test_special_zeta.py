"""Black-box tests: torch.special.zeta, Hurwitz's zeta function, with a tensor or a number on
either side: its values to the bit, its edges, dtypes, nodes, saved values, gradients and
refusals. The same assertions run on torch.

The values are checked against the steps of the Cephes algorithm, written out below one
number at a time, with the C library's pow (and, for a float32 tensor's first power, powf).
"""

import ctypes
import math

import numpy as np
import pytest
import torch

from conformance._support import forward_ad_refusal, preorder_names, raises, recording_mode

NAN, INF = math.nan, math.inf
_POWF = ctypes.CDLL("libm.so.6").powf
_POWF.restype, _POWF.argtypes = ctypes.c_float, [ctypes.c_float, ctypes.c_float]
_DENOMINATORS = [12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1892437580.3183792,
                 74724249600.0, -2950130727918.1643, 116467828143500.67, -4597978722407472.0,
                 1.8152105401943546e17, -7.166165256175667e18]  # (2j)! / B_2j


def _reference(x: float, q: float, single: bool) -> float:
    """One zeta(x, q), step by step: the direct sum, then Euler-Maclaurin's tail."""
    if x == 1:
        return INF
    if x < 1:
        return NAN
    if q <= 0 and q == math.floor(q):
        return INF
    if q <= 0 and x != math.floor(x):
        return NAN
    small = 2.0**-53
    s = _POWF(q, -x) if single else math.pow(q, -x)
    a, b, i = q, 0.0, 0
    while i < 9 or a <= 9:
        i, a = i + 1, a + 1
        b = math.pow(a, -x)
        s += b
        if -small * s < b < small * s:
            return s
    w = a
    s += b * w / (x - 1)
    s -= 0.5 * b
    a, k = 1.0, 0.0
    for denominator in _DENOMINATORS:
        a *= x + k
        b /= w
        t = a * b / denominator
        s = s + t
        if abs(t / s) < small:
            return s
        k += 1
        a *= x + k
        b /= w
        k += 1
    return s


def _same(got: list, expected: list) -> None:
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert (math.isnan(g) and math.isnan(e)) or g == e, (g, e)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_values_are_the_algorithms_to_the_bit(dtype):
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(1, 40, 600), np.arange(1.25, 41, 0.5)])
    q = np.concatenate([rng.uniform(-9.75, 60, 600), rng.uniform(1e-3, 3, 80)])
    xs = torch.tensor(x, dtype=dtype)
    qs = torch.tensor(q, dtype=dtype)
    got = torch.special.zeta(xs, qs)
    assert got.dtype == dtype
    single = dtype == torch.float32
    expected = torch.tensor([_reference(a, b, single) for a, b in zip(xs.tolist(), qs.tolist())],
                            dtype=torch.float64).to(dtype)
    _same(got.tolist(), expected.tolist())


def test_the_answers_known_before_any_sum():
    x = torch.tensor([1.0, 0.5, NAN, 2.0, 2.5, 3.0, 2.0, 2.0, 2.0, 1.5, INF, 4.0],
                     dtype=torch.float64)
    q = torch.tensor([NAN, 2.0, 1.0, -3.0, -0.5, -2.5, INF, -INF, NAN, 1e-300, 2.0, -1e-9],
                     dtype=torch.float64)
    got = torch.special.zeta(x, q).tolist()
    _same(got[:10], [INF, NAN, NAN, INF, NAN, _reference(3.0, -2.5, False), NAN, INF, NAN,
                     INF])
    _same(got[10:], [NAN, _reference(4.0, -1e-9, False)])
    assert got[11] > 1e35  # (-1e-9)^-4: a negative q with a whole order is summed


def test_known_values():
    q = torch.tensor([1.0, 2.0], dtype=torch.float64)
    got = torch.special.zeta(torch.tensor([2.0, 2.0], dtype=torch.float64), q).tolist()
    assert got[0] == pytest.approx(math.pi**2 / 6, rel=2**-52)
    assert got[1] == pytest.approx(math.pi**2 / 6 - 1, rel=2**-51)


def test_dtypes_promote_and_integers_read_as_the_default_float():
    ints = torch.tensor([2, 3])
    assert torch.special.zeta(ints, torch.tensor([1, 2], dtype=torch.uint8)).dtype == \
        torch.float32
    assert torch.special.zeta(ints, 1).dtype == torch.float32
    assert torch.special.zeta(3, torch.tensor([2.0], dtype=torch.float64)).dtype == \
        torch.float64
    mixed = torch.special.zeta(torch.tensor([2.0]), torch.tensor(3.0, dtype=torch.float64))
    assert mixed.dtype == torch.float32  # a 0-d tensor does not promote a dimensioned one
    _same(torch.special.zeta(torch.tensor([2.0]), True).tolist(),
          [np.float32(_reference(2.0, 1.0, True)).item()])
    _same(torch.special.zeta(torch.tensor([True]), torch.tensor([1.0])).tolist(), [INF])
    # a number is rounded to the tensor's dtype before the sum, as a wrapped number is
    _same(torch.special.zeta(2.1, torch.tensor([1.5])).tolist(),
          [np.float32(_reference(float(np.float32(2.1)), 1.5, True)).item()])


@pytest.mark.parametrize("call", [
    "torch.special.zeta(torch.tensor([2.0], dtype=torch.float16), "
    "torch.tensor([1.0], dtype=torch.float16))",
    "torch.special.zeta(torch.tensor([2.0], dtype=torch.float16), 1.0)",
    "torch.special.zeta(2, torch.tensor([1.0], dtype=torch.float16))",
])
def test_half_precision_is_refused(call):
    with raises(NotImplementedError, "\"zeta_cpu\" not implemented for 'Half'"):
        eval(call)


def test_a_half_tensor_beside_a_float_one_promotes():
    got = torch.special.zeta(torch.tensor([2.0], dtype=torch.float16), torch.tensor([1.0]))
    assert got.dtype == torch.float32


def test_two_numbers_are_refused():
    message = (
        "special_zeta() received an invalid combination of arguments - got (int, int), but "
        "expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n"
        " * (Number self, Tensor other, *, Tensor out = None)\n"
        " * (Tensor input, Number other, *, Tensor out = None)\n")
    with raises(TypeError, message):
        torch.special.zeta(2, 3)


def _packed(make):
    seen = []

    def pack(t):
        seen.append(t.tolist())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = make()
    return out, seen


@pytest.mark.parametrize("x_grad, q_grad, packed", [
    (True, True, [[1.0, 2.0], [2.0, 3.0]]), (False, True, [[1.0, 2.0], [2.0, 3.0]]),
    (True, False, []),
])
def test_the_node_saves_q_then_the_order_when_q_needs_a_gradient(x_grad, q_grad, packed):
    x = torch.tensor([2.0, 3.0], dtype=torch.float64, requires_grad=x_grad)
    q = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=q_grad)
    z, seen = _packed(lambda: torch.special.zeta(x, q))
    assert type(z.grad_fn).__name__ == "SpecialZetaBackward0"
    assert seen == packed


def test_a_number_on_either_side_records_its_own_node():
    q = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    first, seen = _packed(lambda: torch.special.zeta(2, q))
    assert type(first.grad_fn).__name__ == "SpecialZetaBackward1"
    assert first.grad_fn._saved_self == 2 and first.grad_fn._saved_other.tolist() == [1.0, 2.0]
    assert seen == [[1.0, 2.0]]
    second, seen = _packed(lambda: torch.special.zeta(q, 2.5))
    assert type(second.grad_fn).__name__ == "SpecialZetaBackward2"
    assert seen == [] and not [a for a in dir(second.grad_fn) if a.startswith("_saved_")]


def test_the_gradient_for_q_is_minus_x_times_the_next_order():
    x = torch.tensor([2.0, 3.5, 4.0], dtype=torch.float64)
    q = torch.tensor([1.0, 0.5, 2.5], dtype=torch.float64, requires_grad=True)
    torch.special.zeta(x, q).sum().backward()
    expected = -x * torch.special.zeta(x + 1, q.detach())
    _same(q.grad.tolist(), expected.tolist())
    q.grad = None
    torch.special.zeta(3, q).sum().backward()
    _same(q.grad.tolist(), (-3 * torch.special.zeta(4.0, q.detach())).tolist())


def test_the_orders_gradient_is_refused_only_when_wanted():
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    q = torch.tensor([1.0, 2.0], requires_grad=True)
    z = torch.special.zeta(x, q)
    (dq,) = torch.autograd.grad(z.sum(), q, retain_graph=True)
    _same(dq.tolist(), (-x.detach() * torch.special.zeta(x.detach() + 1, q.detach())).tolist())
    message = "the derivative for 'zeta' is not implemented."
    with raises(NotImplementedError, message):
        z.sum().backward()
    with raises(NotImplementedError, message):
        torch.special.zeta(x, 2.0).sum().backward()


def test_the_gradients_graph_is_torchs_formula():
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    q = torch.tensor([1.0, 2.0], requires_grad=True)
    (dq,) = torch.autograd.grad(torch.special.zeta(x, q).sum(), q, create_graph=True)
    assert preorder_names(dq.grad_fn, 3) == (
        "MulBackward0 .MulBackward0 ..None ..NegBackward0 ...AccumulateGrad"
        " .SpecialZetaBackward0 ..AddBackward1 ...AccumulateGrad ..AccumulateGrad")
    (dq,) = torch.autograd.grad(torch.special.zeta(2, q).sum(), q, create_graph=True)
    assert preorder_names(dq.grad_fn, 2) == (
        "MulBackward0 .None .SpecialZetaBackward1 ..AccumulateGrad")


@pytest.mark.parametrize("first, second", [("dual", "plain"), ("plain", "dual"),
                                           (2.0, "dual"), ("dual", 2.0)])
def test_forward_ad_is_refused(first, second):
    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        def operand(kind):
            if kind == "dual":
                return fwAD.make_dual(torch.tensor([2.0, 3.0]), torch.ones(2))
            return torch.tensor([2.0, 3.0]) if kind == "plain" else kind

        with raises(NotImplementedError, forward_ad_refusal("special_zeta")):
            torch.special.zeta(operand(first), operand(second))


def test_what_a_dispatch_mode_sees():
    mode = recording_mode()()
    x, q = torch.tensor([2.0]), torch.tensor([1.0])
    out = torch.empty(1)
    with mode:
        torch.special.zeta(x, 1.5)
        torch.special.zeta(2.0, q)
        torch.special.zeta(x, q)
        torch.special.zeta(x, q, out=out)
    assert mode.seen == ["aten.special_zeta.other_scalar", "aten.special_zeta.self_scalar",
                         "aten.special_zeta.default", "aten.special_zeta.out"]
    assert out.tolist() == torch.special.zeta(x, q).tolist()


def test_out_takes_the_result_and_refuses_a_lower_dtype():
    out = torch.empty(2, dtype=torch.float64)
    got = torch.special.zeta(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 2.0]), out=out)
    assert got is out and out.dtype == torch.float64
    _same(out.tolist(), torch.special.zeta(torch.tensor([2.0, 3.0]),
                                           torch.tensor([1.0, 2.0])).double().tolist())
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        torch.special.zeta(torch.tensor([2.0]), torch.tensor([1.0]),
                           out=torch.empty(1, dtype=torch.long))


@pytest.mark.parametrize("function", ["zeta", "xlog1py"])
def test_a_number_first_may_be_given_by_its_keyword(function):
    f = getattr(torch.special, function)
    q = torch.tensor([1.0, 2.0])
    by_keyword = f(other=q, self=2)
    assert by_keyword.tolist() == f(2, q).tolist()
    assert f(input=q, other=2.5).tolist() == f(q, 2.5).tolist()
