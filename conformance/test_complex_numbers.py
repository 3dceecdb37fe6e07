"""complex64 and complex128: the dtypes, their data and printing, promotion, gradients in
torch's conjugate Wirtinger convention, and the refusals."""

import pytest
import torch

from conformance._support import raises
from conformance._warned import caught_always

C64, C128 = torch.complex64, torch.complex128
DISCARDED = "Casting complex values to real discards the imaginary part"


def test_the_dtypes_and_their_names():
    assert torch.cfloat is C64 and torch.cdouble is C128
    assert (repr(C64), str(C128), C64.itemsize, C128.itemsize) == (
        "torch.complex64", "torch.complex128", 8, 16)
    assert C64.is_complex and not C64.is_floating_point and C64.is_signed
    assert not torch.float32.is_complex


def test_to_real_and_to_complex():
    assert (C64.to_real(), C128.to_real(), torch.float32.to_complex(),
            torch.float64.to_complex(), torch.bfloat16.to_complex(), C64.to_complex()) == (
        torch.float32, torch.float64, C64, C128, C64, C64)
    assert torch.int64.to_real() is torch.int64


@pytest.mark.parametrize(("dtype", "name"), [(torch.int64, "Long"), (torch.bool, "Bool"),
                                             (torch.int8, "Char")])
def test_integers_have_no_complex_dtype(dtype, name):
    with raises(RuntimeError, f"Unknown Complex ScalarType for {name}"):
        dtype.to_complex()


def test_finfo_describes_the_parts_and_iinfo_refuses():
    assert torch.finfo(C64) == torch.finfo(torch.float32)
    assert repr(torch.finfo(C128)) == repr(torch.finfo(torch.float64))
    with raises(TypeError, "torch.iinfo() requires an integer input type. Use torch.finfo to "
                           "handle 'torch.iinfo'"):
        torch.iinfo(C64)


def test_python_complex_infers_the_default_float_s_complex():
    assert torch.tensor([1 + 2j]).dtype is C64 and torch.tensor(1j).dtype is C64
    assert torch.tensor([1.0, 2j]).dtype is C64 and torch.tensor([1, True, 2j]).dtype is C64
    before = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        assert torch.tensor([1j]).dtype is C128 and (torch.ones(2) * 1j).dtype is C128
    finally:
        torch.set_default_dtype(before)


def test_values_and_numbers():
    z = torch.tensor([1 + 2j, 3 - 4j])
    assert z.tolist() == [1 + 2j, 3 - 4j] and z[0].item() == 1 + 2j
    assert complex(z[1]) == 3 - 4j and z.is_complex() and torch.is_complex(z)
    assert not z.is_floating_point() and not torch.ones(1).is_complex()
    assert (z.type(), z.element_size()) == ("torch.ComplexFloatTensor", 8)
    assert torch.tensor([1j], dtype=C128).type() == "torch.ComplexDoubleTensor"


def test_a_real_number_read_from_a_complex_tensor():
    assert float(torch.tensor(2 + 0j)) == 2.0 and int(torch.tensor(2 + 0j)) == 2
    assert bool(torch.tensor(1j)) and not bool(torch.tensor(0j))
    with raises(RuntimeError, "value cannot be converted to type double without overflow"):
        float(torch.tensor(2 + 1j))
    with raises(RuntimeError, "value cannot be converted to type int64_t without overflow"):
        int(torch.tensor(2 + 1j))


@pytest.mark.parametrize("dtype", [C64, C128])
def test_factories(dtype):
    assert torch.zeros(2, dtype=dtype).tolist() == [0j, 0j]
    assert torch.ones(2, dtype=dtype).tolist() == [1 + 0j, 1 + 0j]
    assert torch.empty(2, 3, dtype=dtype).shape == (2, 3)
    assert torch.full((2,), 1 - 1j, dtype=dtype).tolist() == [1 - 1j, 1 - 1j]
    assert torch.eye(2, dtype=dtype).tolist() == [[1, 0], [0, 1]]
    assert torch.zeros_like(torch.ones(2, dtype=dtype)).dtype is dtype
    assert torch.ones(2, dtype=complex).dtype is C128


def test_full_infers_and_checks_complex_values():
    assert torch.full((2,), 1j).dtype is C64
    with raises(RuntimeError, "value cannot be converted to type c10::complex<float> without "
                              "overflow"):
        torch.full((2,), 1e39 + 0j, dtype=C64)
    with raises(RuntimeError, "value cannot be converted to type int64_t without overflow"):
        torch.full((2,), 1j, dtype=torch.int64)


@pytest.mark.parametrize(("dtype", "name"), [(C64, "ComplexFloat"), (C128, "ComplexDouble")])
def test_arange_refuses(dtype, name):
    with raises(NotImplementedError, f'"arange_cpu" not implemented for \'{name}\''):
        torch.arange(3, dtype=dtype)


def test_random_complex_tensors_have_the_dtype_and_spread():
    z = torch.randn(4000, dtype=C64, generator=torch.Generator().manual_seed(0))
    assert z.dtype is C64 and 0.9 < float((z.abs() ** 2).mean()) < 1.1
    u = torch.rand(4000, dtype=C128, generator=torch.Generator().manual_seed(0))
    assert u.dtype is C128 and 0 <= float(u.real.min()) and float(u.imag.max()) < 1
    with raises(RuntimeError, "check_random_bounds handles only integral, floating-point and "
                              "boolean types"):
        torch.randint(3, (2,), dtype=C64)


REPRS = [
    ([1 + 2j, 3 - 4j], C64, "tensor([1.+2.j, 3.-4.j])"),
    ([1 + 2j, 3 - 4j], C128, "tensor([1.+2.j, 3.-4.j], dtype=torch.complex128)"),
    ([1.5 + 2j, 3 - 4.25j], C64, "tensor([1.5000+2.0000j, 3.0000-4.2500j])"),
    ([1e10 + 1j, 1], C64, "tensor([1.0000e+10+1.j, 1.0000e+00+0.j])"),
    ([0.1 + 0.2j, 100 + 1000j], C64, "tensor([  0.1000+2.0000e-01j, 100.0000+1.0000e+03j])"),
    ([complex(-0.0, 0.0), 0j], C64, "tensor([-0.+0.j, 0.+0.j])"),
    ([complex(0.0, -0.0)], C64, "tensor([0.-0.j])"),
    ([complex(float("nan"), 1), complex(1, float("inf")), complex(float("-inf"), float("nan"))],
     C64, "tensor([nan+1.j, 1.+infj, -inf+nanj])"),
    ([1e20j, 1], C128, "tensor([0.+1.0000e+20j, 1.+0.0000e+00j], dtype=torch.complex128)"),
    ([[1 + 2j, 3.5], [-2j, 1e-3]], C64,
     "tensor([[1.0000e+00+2.j, 3.5000e+00+0.j],\n        [-0.0000e+00-2.j, 1.0000e-03+0.j]])"),
    ([0.001 + 1j, 1 + 0.001j], C64, "tensor([0.0010+1.0000j, 1.0000+0.0010j])"),
]


@pytest.mark.parametrize(("values", "dtype", "shown"), REPRS)
def test_repr(values, dtype, shown):
    assert repr(torch.tensor(values, dtype=dtype)) == shown


def test_repr_of_0d_empty_and_requiring_grad():
    assert repr(torch.tensor(-0.5 - 2.25j)) == "tensor(-0.5000-2.2500j)"
    assert repr(torch.tensor([], dtype=C64)) == "tensor([], dtype=torch.complex64)"
    assert repr(torch.zeros(0, 3, dtype=C128)) == (
        "tensor([], size=(0, 3), dtype=torch.complex128)")
    assert repr(torch.tensor(1 + 2j, requires_grad=True)) == (
        "tensor(1.+2.j, requires_grad=True)")


def test_repr_wraps_and_summarizes_by_both_widths():
    z = torch.tensor([float(i) + 0.5j * i for i in range(30)])
    assert repr(z).splitlines()[:2] == [
        "tensor([ 0.+0.0000j,  1.+0.5000j,  2.+1.0000j,  3.+1.5000j,  4.+2.0000j,",
        "         5.+2.5000j,  6.+3.0000j,  7.+3.5000j,  8.+4.0000j,  9.+4.5000j,"]
    long = torch.tensor([float(i) + 0.5j * i for i in range(1200)])
    assert repr(long).splitlines()[1] == (
        "         ..., 1.1970e+03+5.9850e+02j, 1.1980e+03+5.9900e+02j,")


def test_repr_under_a_float64_default_and_print_options():
    before = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        assert repr(torch.tensor([1j])) == "tensor([0.+1.j])"
        assert repr(torch.tensor([1j], dtype=C64)) == "tensor([0.+1.j], dtype=torch.complex64)"
    finally:
        torch.set_default_dtype(before)
    torch.set_printoptions(precision=2)
    try:
        assert repr(torch.tensor([1.2345 + 2.3456j])) == "tensor([1.23+2.35j])"
    finally:
        torch.set_printoptions(profile="default")


PROMOTIONS = [
    (torch.float64, C64, C128), (torch.int64, C64, C64), (torch.float16, C64, C64),
    (torch.bfloat16, C128, C128), (C64, C128, C128), (torch.bool, C128, C128),
]


@pytest.mark.parametrize(("a", "b", "result"), PROMOTIONS)
def test_promote_types(a, b, result):
    assert torch.promote_types(a, b) is result and torch.promote_types(b, a) is result


def test_promotion_with_numbers_and_0d_tensors():
    assert (torch.ones(2) * 1j).dtype is C64
    assert (torch.ones(2, dtype=torch.float64) * 1j).dtype is C128
    assert (torch.arange(2) * 1j).dtype is C64
    assert (torch.ones(2, dtype=torch.float64) + torch.tensor(1j)).dtype is C128
    assert (torch.ones(2) + torch.tensor(1j, dtype=C128)).dtype is C64
    assert (torch.ones(2, dtype=torch.bfloat16) * 1j).dtype is C64
    assert torch.result_type(torch.ones(2, dtype=torch.float64), torch.tensor(1j)) is C128
    assert (torch.arange(2) + torch.ones(2, dtype=C64)).dtype is C64


def test_casts_between_complex_and_real():
    z = torch.tensor([1 + 2j, 3 - 4j])
    assert z.to(C128).dtype is C128 and z.cdouble().cfloat().dtype is C64
    assert torch.arange(3).to(C128).tolist() == [0j, 1, 2]
    with caught_always(torch) as caught:
        real = z.to(torch.float32)
    assert real.tolist() == [1.0, 3.0]
    assert [(w.category, str(w.message).split(" (Triggered")[0]) for w in caught] == [
        (UserWarning, DISCARDED)]
    with caught_always(torch) as caught:
        assert z.long().tolist() == [1, 3]
        assert torch.tensor([1j, 0j]).bool().tolist() == [True, False]  # no warning: the truth
    assert len(caught) == 1


def test_a_complex_result_is_not_written_into_a_real_tensor():
    with raises(RuntimeError, "result type ComplexFloat can't be cast to the desired output "
                              "type Float"):
        torch.zeros(2).add_(1j)
    z = torch.zeros(2, dtype=C64)
    assert z.add_(1j).tolist() == [1j, 1j] and z.copy_(torch.ones(2)).tolist() == [1, 1]
