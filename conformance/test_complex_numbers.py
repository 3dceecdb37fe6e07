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


def test_real_and_imag_are_views_sharing_the_version():
    z = torch.tensor([1 + 2j, 3 - 4j])
    re, im = z.real, z.imag
    assert (re.tolist(), im.tolist(), re.stride(), im.storage_offset()) == (
        [1.0, 3.0], [2.0, -4.0], (2,), 1)
    assert re._base is z and im.dtype is torch.float32
    re.add_(10)
    assert z.tolist() == [11 + 2j, 13 - 4j] and z._version == re._version == 1
    z.imag = torch.tensor([5.0, 6.0])
    assert z.tolist() == [11 + 5j, 13 + 6j]
    assert torch.real(z).tolist() == [11.0, 13.0] and torch.imag(z).tolist() == [5.0, 6.0]


def test_a_real_tensor_is_its_own_real_part_and_has_no_imaginary_one():
    x = torch.ones(2)
    assert x.real is x
    with raises(RuntimeError, "imag is not implemented for tensors with non-complex dtypes."):
        x.imag  # noqa: B018


def test_view_as_real_and_view_as_complex():
    z = torch.tensor([[1 + 2j, 3j]])
    parts = torch.view_as_real(z)
    assert parts.shape == (1, 2, 2) and parts.tolist() == [[[1, 2], [0, 3]]]
    assert torch.view_as_real(z.t()).stride() == (2, 4, 1)
    back = torch.view_as_complex(torch.arange(8.0).reshape(2, 2, 2)[1])
    assert back.tolist() == [4 + 5j, 6 + 7j] and back.storage_offset() == 2


@pytest.mark.parametrize(("make", "message"), [
    (lambda: torch.ones(2, 3), "Tensor must have a last dimension of size 2"),
    (lambda: torch.ones(2, 2, dtype=torch.float64).t(),
     "Tensor must have a last dimension with stride 1"),
    (lambda: torch.ones(2, 2, dtype=torch.int64),
     "view_as_complex is only supported for half, float and double tensors, but got a tensor "
     "of scalar type: Long"),
])
def test_view_as_complex_refuses(make, message):
    with raises(RuntimeError, message):
        torch.view_as_complex(make())


def test_view_as_real_refuses_a_real_tensor():
    with raises(RuntimeError, "view_as_real is only supported for complex tensors"):
        torch.view_as_real(torch.ones(2))


def test_complex_and_polar():
    assert torch.complex(torch.ones(2, 1), torch.zeros(3)).shape == (2, 3)
    assert torch.complex(torch.tensor([1.0]), torch.tensor([2.0])).tolist() == [1 + 2j]
    p = torch.polar(torch.tensor([2.0], dtype=torch.float64),
                    torch.tensor([0.0], dtype=torch.float64))
    assert p.dtype is C128 and p.tolist() == [2 + 0j]
    with raises(RuntimeError, "Expected object of scalar type Float but got scalar type Double "
                              "for second argument"):
        torch.complex(torch.ones(2), torch.zeros(2, dtype=torch.float64))
    with raises(RuntimeError, "Expected both inputs to be Half, Float or Double tensors but got "
                              "Long and Long"):
        torch.complex(torch.ones(2, dtype=torch.int64), torch.zeros(2, dtype=torch.int64))


ARITHMETIC = [
    (lambda a, b: a + b, [4 + 1j, 1.5 + 2.25j]), (lambda a, b: a - b, [-2 + 3j, -2.5 - 1.75j]),
    (lambda a, b: a * b, [5 + 5j, -1.5 - 0.5j]), (lambda a, b: -a, [-1 - 2j, 0.5 - 0.25j]),
    (lambda a, b: a * 2j, [-4 + 2j, -0.5 - 1j]), (lambda a, b: a + 1, [2 + 2j, 0.5 + 0.25j]),
]


@pytest.mark.parametrize(("f", "expected"), ARITHMETIC)
def test_arithmetic(f, expected):
    a = torch.tensor([1 + 2j, -0.5 + 0.25j], dtype=C128)
    b = torch.tensor([3 - 1j, 2 + 2j], dtype=C128)
    assert f(a, b).tolist() == expected


def test_functions_of_complex_numbers():
    z = torch.tensor([3 + 4j], dtype=C128)
    assert z.abs().tolist() == [5.0] and z.abs().dtype is torch.float64
    assert z.conj().tolist() == [3 - 4j] and z.conj_physical().tolist() == [3 - 4j]
    assert abs(z.angle().item() - 0.9272952180016122) < 1e-15
    assert (z / z).tolist() == [1 + 0j] and z.reciprocal().tolist() == [0.12 - 0.16j]
    assert z.sum().item() == 3 + 4j and z.mean().item() == 3 + 4j
    assert torch.tensor([-4 + 0j], dtype=C128).sqrt().tolist() == [2j]
    assert (torch.ones(2, 2, dtype=C64) @ torch.tensor([[1j], [2]], dtype=C64)).tolist() == [
        [2 + 1j], [2 + 1j]]
    assert (z == 3 + 4j).tolist() == [True] and (z != z).tolist() == [False]
    assert z.conj().resolve_conj().tolist() == [3 - 4j]


def _grads(f, *values, dtype=C128):
    inputs = [torch.tensor(v, dtype=dtype, requires_grad=True) for v in values]
    out = f(*inputs)
    return out.grad_fn.name(), [g.tolist() for g in torch.autograd.grad(out, inputs)]


def test_the_gradient_of_the_squared_magnitude_is_twice_the_number():
    z = torch.tensor([1 + 2j, -0.5 + 0.25j], requires_grad=True)
    (z.abs() ** 2).sum().backward()
    assert z.grad.tolist() == [2 + 4j, -1 + 0.5j]
    w = torch.tensor([1 + 2j], requires_grad=True)
    (w * w.conj()).real.sum().backward()
    assert w.grad.tolist() == [2 + 4j]


A, B = [1 + 2j, -0.5 + 0.25j], [3 - 1j, 2 + 2j]
GRADIENTS = [
    (lambda x, y: (x * y).real.sum(), "SumBackward0"),
    (lambda x, y: (x / y).imag.sum(), "SumBackward0"),
    (lambda x, y: (x + 2 * y).abs().sum(), "SumBackward0"),
    (lambda x, y: (x - y).abs().sum(), "SumBackward0"),
    (lambda x, y: (x.exp() * y.log()).real.sum(), "SumBackward0"),
    (lambda x, y: (x.sin() + y.cos()).imag.sum(), "SumBackward0"),
    (lambda x, y: (x.sqrt() * y.reciprocal()).abs().sum(), "SumBackward0"),
    (lambda x, y: (x ** 3 + 2 ** y).real.sum(), "SumBackward0"),
    (lambda x, y: (x.reshape(1, 2) @ y.reshape(2, 1)).abs().sum(), "SumBackward0"),
    (lambda x, y: torch.dot(x, y).abs(), "AbsBackward0"),
    (lambda x, y: (x.conj() * y).angle().sum(), "SumBackward0"),
    (lambda x, y: x.mean().abs() + y.sum().abs(), "AddBackward0"),
    (lambda x, y: (torch.view_as_real(x) ** 2).sum() + y.conj_physical().real.sum(),
     "AddBackward0"),
    (lambda x, y: (x[1] * y.reshape(2, 1).t().select(0, 0).clone()).abs().sum(),
     "SumBackward0"),
]


def _by_differences(f, values):
    """dL/dx + i dL/dy of the real loss ``f`` at complex ``values``, by central differences."""
    found = []
    for i in range(len(values)):
        parts = []
        for step in (1e-6, 1e-6j):
            up, down = list(values), list(values)
            up[i], down[i] = up[i] + step, down[i] - step
            parts.append((f(torch.tensor(up, dtype=C128)) - f(torch.tensor(down, dtype=C128)))
                         .item() / 2e-6)
        found.append(parts[0] + 1j * parts[1])
    return found


@pytest.mark.parametrize(("f", "name"), GRADIENTS)
def test_gradients_follow_the_conjugate_convention(f, name):
    found, (gx, gy) = _grads(f, A, B)
    assert found == name
    expected = _by_differences(lambda x: f(x, torch.tensor(B, dtype=C128)), A) + \
        _by_differences(lambda y: f(torch.tensor(A, dtype=C128), y), B)
    assert all(abs(a - b) < 1e-5 for a, b in zip(gx + gy, expected))


def test_gradients_of_a_few_functions_by_value():
    _, (g,) = _grads(lambda z: z.abs().sum(), [3 + 4j, 0j])
    assert g == [0.6000000000000001 + 0.8j, 0j]
    _, (g,) = _grads(lambda z: z.angle().sum(), [1 + 2j, 0j])
    assert [round(v.real, 12) + 1j * round(v.imag, 12) for v in g] == [-0.4 + 0.2j, 0j]
    _, (g,) = _grads(lambda z: (z * (1 + 2j)).real.sum(), [1j])
    assert g == [1 - 2j]
    _, (g,) = _grads(lambda z: z.imag.sum(), [1j])
    assert g == [1j]


def test_a_real_input_gets_the_real_part_of_its_gradient_without_a_warning():
    with caught_always(torch) as caught:
        _, (g,) = _grads(lambda x: (x * torch.tensor([1 + 2j, 3j], dtype=C128)).abs().sum(),
                         [1.0, 2.0], dtype=torch.float64)
        _, (h,) = _grads(lambda x: x.to(C128).imag.sum() + x.to(C128).real.sum(), [1.0],
                         dtype=torch.float64)
    assert [round(v, 4) for v in g] == [2.2361, 3.0] and h == [1.0] and not caught


def test_complex_and_polar_gradients():
    _, (gr, gi) = _grads(lambda r, i: torch.complex(r, i).abs().sum(), [3.0], [4.0],
                         dtype=torch.float64)
    assert gr == [0.6000000000000001] and gi == [0.8]
    name, (ga, gt) = _grads(lambda r, t: torch.polar(r, t).real.sum(), [0.0, 1.0], [1.0, 0.0],
                            dtype=torch.float64)
    assert name == "SumBackward0" and ga == [0.0, 1.0] and gt == [0.0, 0.0]


def test_grad_fn_names():
    z = torch.tensor([1 + 2j], requires_grad=True)
    names = [f(z).grad_fn.name() for f in (
        torch.view_as_real, lambda t: t.real, lambda t: t.imag, torch.abs, torch.conj,
        torch.conj_physical, torch.angle, lambda t: t * t, lambda t: t.to(C128))]
    assert names == ["ViewAsRealBackward0", "SelectBackward0", "SelectBackward0",
                     "AbsBackward0", "ConjBackward0", "ConjPhysicalBackward0", "AngleBackward0",
                     "MulBackward0", "ToCopyBackward0"]
    assert type((z * z).grad_fn).__name__ == "MulBackward0"
    parts = torch.ones(1, 2, requires_grad=True)
    assert torch.view_as_complex(parts).grad_fn.name() == "ViewAsComplexBackward0"


@pytest.mark.parametrize("shape", [(), (2,)])
def test_backward_of_a_complex_output_needs_a_gradient(shape):
    z = torch.ones(shape, dtype=C64, requires_grad=True) * 2
    said = ("grad can be implicitly created only for real scalar outputs but got "
            "torch.complex64" if not shape else
            "grad can be implicitly created only for scalar outputs")
    with raises(RuntimeError, said):
        z.sum().backward() if not shape else z.backward()
    z.backward(torch.ones(shape, dtype=C64))


def test_requires_grad_on_complex_tensors():
    assert torch.ones(2, dtype=C64, requires_grad=True).requires_grad
    assert torch.tensor([1j]).requires_grad_().requires_grad
    assert torch.randn(2, dtype=C128, requires_grad=True).requires_grad


Z = [[1 + 2j, 3 - 4j], [0.5j, -1 + 0j]]
TORCH_REFUSALS = [
    (lambda z: z < z, NotImplementedError, "\"lt_cpu\" not implemented for 'ComplexFloat'"),
    (lambda z: z >= 1j, NotImplementedError, "\"ge_cpu\" not implemented for 'ComplexFloat'"),
    (lambda z: z.max(), NotImplementedError, "\"max_all\" not implemented for 'ComplexFloat'"),
    (lambda z: z.min(), NotImplementedError, "\"min_all\" not implemented for 'ComplexFloat'"),
    (lambda z: z.max(0), RuntimeError, "max(): does not support complex input"),
    (lambda z: z.argmax(), RuntimeError, "argmax(): does not support complex input"),
    (lambda z: torch.maximum(z, z), RuntimeError, "maximum not implemented for complex tensors."),
    (lambda z: z.sort(), RuntimeError, " Sort does not support complex dtypes on CPU"),
    (lambda z: z.relu(), NotImplementedError, "clamp is not supported for complex types"),
    (lambda z: z.clamp(0, 1), NotImplementedError, "clamp is not supported for complex types"),
    (lambda z: z.floor(), NotImplementedError, "floor is not supported for complex inputs"),
    (lambda z: z.ceil(), NotImplementedError, "ceil is not supported for complex inputs"),
    (lambda z: z.round(), NotImplementedError,
     "\"round_vml_cpu\" not implemented for 'ComplexFloat'"),
    (lambda z: z.sign(), NotImplementedError, "Unlike NumPy, torch.sign is not intended to "
                                              "support complex numbers. Please use torch.sgn "
                                              "instead."),
    (lambda z: z // 2, NotImplementedError, "\"div_floor_cpu\" not implemented for 'ComplexFloat'"),
    (lambda z: z % 2, NotImplementedError, "\"remainder_cpu\" not implemented for 'ComplexFloat'"),
    (lambda z: z.to(C128) < 0, NotImplementedError,
     "\"lt_cpu\" not implemented for 'ComplexDouble'"),
]


@pytest.mark.parametrize(("f", "kind", "message"), TORCH_REFUSALS)
def test_what_torch_refuses_is_refused_in_its_words(f, kind, message):
    with raises(kind, message):
        f(torch.tensor(Z))


def test_a_real_tensor_ordered_against_a_complex_number_is_refused():
    with raises(NotImplementedError, "\"lt_cpu\" not implemented for 'ComplexFloat'"):
        torch.ones(2) < 1j  # noqa: B015
    assert (torch.ones(2) == 1 + 0j).tolist() == [True, True]


MOVES = [
    lambda z: z.flip(0), lambda z: z.index_select(0, torch.tensor([1])), lambda z: z.triu(),
    lambda z: z.gather(0, torch.tensor([[0, 1]])), lambda z: z.diag(), lambda z: z.roll(1),
    lambda z: z.repeat(1, 2), lambda z: z.cumsum(0), lambda z: z.nonzero(), lambda z: z.any(),
    lambda z: torch.where(z.real > 0, z, torch.zeros_like(z)), lambda z: z[z.real > 0],
    lambda z: z.isnan(), lambda z: z.isfinite(), lambda z: z.isreal(), lambda z: z.sgn(),
    lambda z: z.masked_fill(z.imag > 0, 1j), lambda z: torch.cat([z, z]).sum(0),
]


@pytest.mark.parametrize("f", MOVES)
def test_rows_that_move_or_test_elements(f):
    z = torch.tensor(Z, dtype=C128)
    expected = {0: [[0.5j, -1], [1 + 2j, 3 - 4j]], 1: [[0.5j, -1]]}
    result = f(z)
    if MOVES.index(f) in expected:
        assert result.tolist() == expected[MOVES.index(f)]
    assert result.dtype in (C128, torch.bool, torch.int64)
    assert torch.tensor(Z).isreal().tolist() == [[False, False], [False, True]]


def test_functions_of_real_dtypes_are_unchanged():
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    assert x.real is x and x.conj() is x and not x.is_complex()
    assert type((x * x).grad_fn).__name__ == "MulBackward0"
    (x * x).sum().backward()
    assert x.grad.tolist() == [2.0, -4.0]
