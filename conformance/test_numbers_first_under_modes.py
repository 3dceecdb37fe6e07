"""A dispatch mode sees a number given to an op as torch's schema places it: first for
the Scalar_Tensor overloads and the number-first rows, in its place for the rows that
take a number beside a tensor; and `1 & x` as `x & 1`."""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._support import arguments_shown, recording_mode

Shapes = recording_mode(arguments_shown, with_arguments=True)


a, f = torch.tensor([1, 2]), torch.tensor([1.0, 2.0])
CASES = {
    "bitwise_left_shift(1, a)": (lambda: torch.bitwise_left_shift(1, a),
                                 "aten.bitwise_left_shift.Scalar_Tensor", ["int", "T"], {}),
    "1 << a": (lambda: 1 << a, "aten.bitwise_left_shift.Scalar_Tensor", ["int", "T"], {}),
    "8 >> a": (lambda: 8 >> a, "aten.bitwise_right_shift.Scalar_Tensor", ["int", "T"], {}),
    "bitwise_and(1, a)": (lambda: torch.bitwise_and(1, a), "aten.bitwise_and.Scalar_Tensor",
                          ["int", "T"], {}),
    "bitwise_or(1, a)": (lambda: torch.bitwise_or(1, a), "aten.bitwise_or.Scalar_Tensor",
                         ["int", "T"], {}),
    "1 & a": (lambda: 1 & a, "aten.bitwise_and.Scalar", ["T", "int"], {}),
    "1 | a": (lambda: 1 | a, "aten.bitwise_or.Scalar", ["T", "int"], {}),
    "1 ^ a": (lambda: 1 ^ a, "aten.bitwise_xor.Scalar", ["T", "int"], {}),
    "remainder(5, a)": (lambda: torch.remainder(5, a), "aten.remainder.Scalar_Tensor",
                        ["int", "T"], {}),
    "5 % a": (lambda: 5 % a, "aten.remainder.Scalar_Tensor", ["int", "T"], {}),
    "xlogy(2, f)": (lambda: torch.xlogy(2, f), "aten.xlogy.Scalar_Self", ["int", "T"], {}),
    "special.xlogy(2, f)": (lambda: torch.special.xlogy(2, f), "aten.xlogy.Scalar_Self",
                            ["int", "T"], {}),
    "special.xlog1py(2, f)": (lambda: torch.special.xlog1py(2, f),
                              "aten.special_xlog1py.self_scalar", ["int", "T"], {}),
    "copysign(f, -1)": (lambda: torch.copysign(f, -1), "aten.copysign.Scalar", ["T", "int"], {}),
    "ldexp(f, a)": (lambda: torch.ldexp(f, a), "aten.ldexp.Tensor", ["T", "T"], {}),
    "heaviside(f, f)": (lambda: torch.heaviside(f, f), "aten.heaviside.default", ["T", "T"], {}),
    "threshold(f, 1., 0.)": (lambda: torch.threshold(f, 1.0, 0.0), "aten.threshold.default",
                             ["T", "float", "float"], {}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_number_is_shown_where_torch_places_it(case):
    call, name, kinds, keywords = CASES[case]
    expected = call()
    with Shapes() as mode:
        got = call()
    assert mode.seen == [(name, kinds, keywords)]
    assert torch.equal(got, expected)  # the mode ran func with what it was shown


def test_mvlgamma_shows_its_p_in_place():
    x = f + 2
    with Shapes() as mode:
        torch.mvlgamma(x, 2)
    assert mode.seen == [("aten.mvlgamma.default", ["T", "int"], {})]


class Doubling(TorchDispatchMode):
    """Calls every op again with its number arguments doubled."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        args = [2 * v if type(v) in (int, float) else v for v in args]
        return func(*args, **(kwargs or {}))


@pytest.mark.parametrize("call,expected", [
    (lambda: torch.remainder(5, a), [0, 0]),
    (lambda: torch.xlogy(2, torch.tensor([1.0, 4.0])), [0.0, 4 * 1.3862943611198906]),
    (lambda: torch.copysign(f, 1), [1.0, 2.0]),
    (lambda: torch.threshold(f, 1.0, 5.0), [10.0, 10.0]),
    (lambda: 1 << a, [4, 8]),
])
def test_what_the_mode_passes_is_what_the_row_computes_with(call, expected):
    with Doubling():
        got = call()
    assert got.tolist() == pytest.approx(expected)
