"""Complex numbers, part two: an in-place abs refused, more of torch's refusals in its words,
and the values and gradients of more rows (tanh, sigmoid, tan, rsqrt, log10, log2, exp2,
prod, cumprod, trace, vdot, a power with a tensor exponent, sgn)."""

import cmath
import math

import pytest
import torch

from conformance._support import raises

C64, C128 = torch.complex64, torch.complex128
IN_PLACE_ABS = "In-place abs is not supported for complex tensors."
LEAF = "a leaf Variable that requires grad is being used in an in-place operation."


@pytest.mark.parametrize("write", [lambda z: z.abs_(), lambda z: z.absolute_(),
                                   lambda z: torch.abs_(z)])
@pytest.mark.parametrize("values", [[3 + 4j, -1j], []])
def test_an_in_place_abs_of_complex_numbers_is_refused_and_writes_nothing(write, values):
    z = torch.tensor(values, dtype=C64)
    with raises(RuntimeError, IN_PLACE_ABS):
        write(z)
    assert z.tolist() == values and z._version == 0


def test_a_leaf_is_refused_as_a_leaf_first_and_abs_with_out_still_writes():
    leaf = torch.tensor([1j], requires_grad=True)
    with raises(RuntimeError, LEAF):
        leaf.abs_()
    with raises(RuntimeError, IN_PLACE_ABS):
        leaf.detach().abs_()
    z = torch.tensor([3 + 4j], dtype=C128)
    out = torch.empty(1, dtype=torch.float64)
    assert torch.abs(z, out=out) is out and out.tolist() == [5.0]
    assert torch.tensor([-2.0]).abs_().tolist() == [2.0]
    assert z.sgn_().tolist() == [0.6000000000000001 + 0.8j]  # sgn_ writes complex numbers


def _kernel(name, kind="ComplexFloat"):
    return f"\"{name}\" not implemented for '{kind}'"


TORCH_REFUSALS = [
    (lambda z: z.erf(), NotImplementedError, _kernel("erf_vml_cpu")),
    (lambda z: z.erfc(), NotImplementedError, _kernel("erfc_vml_cpu")),
    (lambda z: z.erfinv(), NotImplementedError, _kernel("erfinv_vml_cpu")),
    (lambda z: z.lgamma(), NotImplementedError, _kernel("lgamma_vml_cpu")),
    (lambda z: z.digamma(), NotImplementedError, _kernel("digamma")),
    (lambda z: z.i0(), NotImplementedError, _kernel("i0_vml_cpu")),
    (lambda z: z.frac(), NotImplementedError, _kernel("frac_cpu")),
    (lambda z: z.logit(), NotImplementedError, _kernel("logit_cpu")),
    (lambda z: z.cummax(0), NotImplementedError, _kernel("cummax_cpu")),
    (lambda z: z.cummin(0), NotImplementedError, _kernel("cummin_cpu")),
    (lambda z: z.median(), NotImplementedError, _kernel("median_cpu")),
    (lambda z: z.nanmedian(), NotImplementedError, _kernel("median_cpu")),
    (lambda z: torch.fmod(z, z), NotImplementedError, _kernel("fmod_cpu")),
    (lambda z: torch.copysign(z, z), NotImplementedError, _kernel("copysign_cpu")),
    (lambda z: torch.hypot(z, z), NotImplementedError, _kernel("hypot_cpu")),
    (lambda z: torch.atan2(z, z), NotImplementedError, _kernel("atan2_cpu")),
    (lambda z: torch.xlogy(z, z), NotImplementedError, _kernel("xlogy_cpu")),
    (lambda z: torch.nextafter(z, z), NotImplementedError, _kernel("nextafter_cpu")),
    (lambda z: z.to(C128).erf(), NotImplementedError, _kernel("erf_vml_cpu", "ComplexDouble")),
    (lambda z: z.deg2rad(), RuntimeError, "deg2rad is not supported for complex tensors."),
    (lambda z: z.rad2deg_(), RuntimeError, "rad2deg is not supported for complex tensors."),
    (lambda z: z.isneginf(), RuntimeError, "isneginf does not support complex inputs."),
    (lambda z: z.isposinf(), RuntimeError, "isposinf does not support complex inputs."),
    (lambda z: z.signbit(), NotImplementedError, "signbit is not implemented for complex tensors."),
    (lambda z: torch.heaviside(z, z), RuntimeError,
     "heaviside is not yet implemented for complex tensors."),
    (lambda z: z.lt_(0), NotImplementedError, _kernel("lt_cpu")),
    (lambda z: z.le_(z), NotImplementedError, _kernel("le_cpu")),
    (lambda z: z.gt_(1), NotImplementedError, _kernel("gt_cpu")),
    (lambda z: z.to(C128).ge_(z.to(C128)), NotImplementedError, _kernel("ge_cpu", "ComplexDouble")),
]


@pytest.mark.parametrize(("f", "kind", "message"), TORCH_REFUSALS)
def test_what_torch_refuses_is_refused_in_its_words(f, kind, message):
    with raises(kind, message):
        f(torch.tensor([1 + 2j, -0.5 + 1j]))


def _sigmoid(z):
    return 1 / (1 + cmath.exp(-z))


# name: (the function, and its complex derivative), by Python's cmath
HOLOMORPHIC = {
    "tanh": (cmath.tanh, lambda z: 1 - cmath.tanh(z) ** 2),
    "sigmoid": (_sigmoid, lambda z: _sigmoid(z) * (1 - _sigmoid(z))),
    "tan": (cmath.tan, lambda z: 1 + cmath.tan(z) ** 2),
    "rsqrt": (lambda z: z ** -0.5, lambda z: -0.5 * z ** -1.5),
    "log10": (cmath.log10, lambda z: 1 / (z * math.log(10))),
    "log2": (lambda z: cmath.log(z) / math.log(2), lambda z: 1 / (z * math.log(2))),
    "exp2": (lambda z: 2 ** z, lambda z: 2 ** z * math.log(2)),
    "sinh": (cmath.sinh, cmath.cosh),
    "cosh": (cmath.cosh, cmath.sinh),
    "atan": (cmath.atan, lambda z: 1 / (1 + z * z)),
    "asinh": (cmath.asinh, lambda z: 1 / cmath.sqrt(1 + z * z)),
    "atanh": (cmath.atanh, lambda z: 1 / (1 - z * z)),
    "expm1": (lambda z: cmath.exp(z) - 1, cmath.exp),
    "log1p": (lambda z: cmath.log(1 + z), lambda z: 1 / (1 + z)),
    "sinc": (lambda z: cmath.sin(math.pi * z) / (math.pi * z),
             lambda z: (math.pi * z * cmath.cos(math.pi * z) - cmath.sin(math.pi * z))
             / (math.pi * z * z)),
}
NODES = {"log1p": "Log1PBackward0"}
Z, G = [0.5 + 1j, -1.2 + 0.3j, 0.25 - 0.75j], [1 - 1j, 0.5j, 2 + 0.25j]


def _close(found, expected, tolerance=1e-12):
    assert len(found) == len(expected)
    assert all(abs(a - b) <= tolerance * max(1.0, abs(b)) for a, b in zip(found, expected))


@pytest.mark.parametrize("name", sorted(HOLOMORPHIC))
def test_holomorphic_functions_and_their_conjugate_gradients(name):
    f, derivative = HOLOMORPHIC[name]
    z = torch.tensor(Z, dtype=C128, requires_grad=True)
    y = getattr(torch, name)(z)
    (grad,) = torch.autograd.grad(y, z, torch.tensor(G, dtype=C128))
    assert y.dtype is C128 and y.grad_fn.name() == NODES.get(name, f"{name.capitalize()}Backward0")
    _close(y.tolist(), [f(v) for v in Z])
    _close(grad.tolist(), [g * derivative(v).conjugate() for g, v in zip(G, Z)])


@pytest.mark.parametrize("name", ["tanh", "sigmoid"])
def test_tanh_and_sigmoid_differentiate_twice(name):
    f, derivative = HOLOMORPHIC[name]
    z = torch.tensor(Z[:1], dtype=C128, requires_grad=True)
    (grad,) = torch.autograd.grad(getattr(torch, name)(z), z, torch.ones(1, dtype=C128),
                                  create_graph=True)
    assert grad.grad_fn.name() == f"{name.capitalize()}BackwardBackward0"
    (second,) = torch.autograd.grad(grad.real.sum(), z)
    step = 1e-6  # d/dx Re(conj f'(z)) + i d/dy Re(conj f'(z)), by central differences
    parts = [(derivative(Z[0] + s).real - derivative(Z[0] - s).real) / (2 * step)
             for s in (step, step * 1j)]
    _close(second.tolist(), [parts[0] + 1j * parts[1]], 1e-6)


def test_complex64_keeps_its_dtype():
    z = torch.tensor(Z, dtype=C64)
    assert {getattr(torch, name)(z).dtype for name in HOLOMORPHIC} == {C64}
    _close(torch.tanh(z).tolist(), [cmath.tanh(v) for v in Z], 1e-6)


def _grads(f, *values, upstream):
    inputs = [torch.tensor(v, dtype=C128, requires_grad=True) for v in values]
    out = f(*inputs)
    grads = torch.autograd.grad(out, inputs, torch.tensor(upstream, dtype=out.dtype))
    return out.grad_fn.name(), out.tolist(), [g.tolist() for g in grads]


def _all_close(found, expected):
    flat = []
    for a, b in zip(found, expected):
        flat += zip(a, b) if isinstance(a, list) else [(a, b)]
    _close([a for a, _ in flat], [b for _, b in flat])


M = [[1 + 1j, 2, 0.5j], [3 - 1j, 1j, 2 + 2j]]


def test_prod_and_cumprod():
    name, out, (grad,) = _grads(lambda z: z.prod(), Z, upstream=1 - 1j)
    assert name == "ProdBackward0"
    _close([out], [-1.0125 + 0.4125j])
    _close(grad, [-1.05 - 0.9j, 1 - 0.75j, 0.15 + 1.95j])
    name, out, (grad,) = _grads(lambda m: m.prod(1), M, upstream=[1 - 1j, 0.5j])
    assert name == "ProdBackward1"
    _close(out, [-1 + 1j, -4 + 8j])
    _all_close(grad, [[-1 - 1j, -1, -4j], [1 - 1j, 2 + 4j, 1.5 + 0.5j]])
    name, out, (grad,) = _grads(lambda z: z.cumprod(0), Z, upstream=[1 - 1j, 0.5j, 2])
    assert name == "CumprodBackward0"
    _close(out, [0.5 + 1j, -0.9 - 1.05j, -1.0125 + 0.4125j])
    _close(grad, [1 - 3.55j, 2.25 + 0.5j, -1.8 + 2.1j])


def test_trace_adds_in_complex128_and_puts_its_gradient_on_the_diagonal():
    name, out, (grad,) = _grads(lambda m: m.trace(), M, upstream=1 - 1j)
    assert (name, out) == ("TraceBackward0", 1 + 2j)
    assert grad == [[1 - 1j, 0j, 0j], [0j, 1 - 1j, 0j]]
    diagonal = torch.tensor([1e8 + 1j, 1 + 1e8j, -1e8 - 1e8j], dtype=C64)
    wide = torch.diag(diagonal).trace()  # in float32 the 1s would be lost against 1e8
    assert (wide.dtype, wide.item()) == (C64, 1 + 1j)


def test_vdot_conjugates_its_first_vector():
    name, out, (ga, gb) = _grads(torch.vdot, Z, [2 - 1j, 0.5j, 1 + 1j], upstream=1j)
    assert name == "VdotBackward0"
    _close([out], [-0.35 - 2.1j])
    _close(ga, [-1 - 2j, 0.5, 1 - 1j])
    _close(gb, [-1 + 0.5j, -0.3 - 1.2j, 0.75 + 0.25j])


def test_a_power_with_a_tensor_exponent():
    exponent = [2 - 1j, 0.5j, 1.5]
    name, out, (gb, ge) = _grads(torch.pow, Z, exponent, upstream=[1 - 1j, 0.5j, 2])
    assert name == "PowBackward1"
    _close(out, [v ** e for v, e in zip(Z, exponent)])
    _close(gb, [g * (e * v ** (e - 1)).conjugate()
                for g, v, e in zip([1 - 1j, 0.5j, 2], Z, exponent)])
    _close(ge, [g * (v ** e * cmath.log(v)).conjugate()
                for g, v, e in zip([1 - 1j, 0.5j, 2], Z, exponent)])


def test_a_real_base_gets_the_real_part_of_its_gradient():
    base = torch.tensor([0.5, 2.0], dtype=torch.float64, requires_grad=True)
    exponent = torch.tensor([2 - 1j, 0.5j], dtype=C128, requires_grad=True)
    gb, ge = torch.autograd.grad(base ** exponent, (base, exponent), torch.ones(2, dtype=C128))
    assert gb.dtype is torch.float64
    _close(gb.tolist(), [1.0887195395207896, -0.08491928127566713])
    _close(ge.tolist(), [-0.13329894391436678 + 0.11072355179094502j,
                         0.6519341080591073 - 0.2354462415656225j])


def test_a_zero_base_s_exponent_gradient_is_zero_only_for_a_real_nonnegative_exponent():
    base = torch.tensor([0j, 0j, 0j], dtype=C128, requires_grad=True)
    exponent = torch.tensor([2 + 0j, 2 - 1j, 0j], dtype=C128, requires_grad=True)
    gb, ge = torch.autograd.grad(base ** exponent, (base, exponent), torch.ones(3, dtype=C128))
    assert abs(gb[0].item()) == 0 and abs(gb[2].item()) == 0
    assert abs(ge[0].item()) == 0 and abs(ge[2].item()) == 0
    assert cmath.isnan(ge[1].item())


def test_sgn_s_gradient_keeps_the_part_across_the_phase():
    name, out, (grad,) = _grads(torch.sgn, [3 + 4j, 0j, -1j], upstream=[1 - 1j, 0.5j, 2])
    assert name == "SgnBackward0"
    _close(out, [0.6 + 0.8j, 0, -1j])
    _close(grad, [0.224 - 0.168j, 0, 2])


def test_abs_of_complex_numbers_differentiates_twice():
    z = torch.tensor([3 + 4j, 0j, -1j], dtype=C128, requires_grad=True)
    (first,) = torch.autograd.grad(z.abs().sum(), z, create_graph=True)
    assert first.grad_fn.name() == "MulBackward0"
    (second,) = torch.autograd.grad(first.real.sum(), z)
    _close(first.tolist(), [0.6 + 0.8j, 0, -1j])
    _close(second.tolist(), [0.128 - 0.096j, 0, 1])



FLAT = [v for row in M for v in row]
MEAN = sum(FLAT) / len(FLAT)


def _flat(rows):
    return [v for row in rows for v in row]


@pytest.mark.parametrize(("f", "correction"), [(lambda m: m.var(), 1),
                                               (lambda m: torch.var(m, unbiased=False), 0)])
def test_var_of_complex_numbers_is_real_and_its_gradient_points_away_from_the_mean(
        f, correction):
    name, out, (grad,) = _grads(f, M, upstream=0.5)
    dof = len(FLAT) - correction
    assert name == "VarBackward0" and isinstance(out, float)
    _close([out], [sum(abs(v - MEAN) ** 2 for v in FLAT) / dof])
    _close(_flat(grad), [0.5 * 2 * (v - MEAN) / dof for v in FLAT])


def test_std_over_a_dimension():
    name, out, (grad,) = _grads(lambda m: m.std(1, correction=0), M, upstream=[0.5, 2.0])
    assert name == "StdBackward0"
    means = [sum(row) / 3 for row in M]
    spreads = [math.sqrt(sum(abs(v - m) ** 2 for v in row) / 3) for row, m in zip(M, means)]
    _close(out, spreads)
    _close(_flat(grad), [g * (v - m) / (3 * s) for row, m, s, g in
                         zip(M, means, spreads, [0.5, 2.0]) for v in row])
    assert torch.tensor(M, dtype=C64).var().dtype is torch.float32


@pytest.mark.parametrize("p", [2, 1, 3, 0.5])
def test_vector_norms_read_the_sizes(p):
    name, out, (grad,) = _grads(lambda m: torch.linalg.vector_norm(m, p), M, upstream=0.5)
    size = sum(abs(v) ** p for v in FLAT) ** (1 / p)
    assert name == "LinalgVectorNormBackward0" and isinstance(out, float)
    _close([out], [size])
    _close(_flat(grad), [0.5 * v * abs(v) ** (p - 2) / size ** (p - 1) for v in FLAT])


def test_norm_and_dist_and_their_dtypes():
    z = torch.tensor(M, dtype=C64)
    assert z.norm().dtype is torch.float32 and z.norm(dim=1).shape == (2,)
    assert torch.linalg.vector_norm(z, dtype=C128).dtype is torch.float64
    _close([torch.linalg.vector_norm(z, 0).item()], [6.0])
    name, out, (ga, gb) = _grads(torch.dist, [1 + 1j, 2], [0.5j, -1], upstream=1.0)
    size = math.sqrt(abs(1 + 0.5j) ** 2 + 9)
    assert name == "DistBackward0"
    _close([out], [size])
    _close(ga + gb, [(1 + 0.5j) / size, 3 / size, -(1 + 0.5j) / size, -3 / size])
    mixed, alike = torch.dist(z, torch.ones(2, 3)), torch.dist(z, torch.ones(2, 3, dtype=C64))
    _close([mixed.item()], [alike.item()])


@pytest.mark.parametrize(("x", "dtype", "message"), [
    ([1j], torch.float64, "dtype should be complex for complex inputs, but got Double"),
    ([1.0], C64, "dtype should be real for real inputs, but got ComplexFloat"),
    ([1j], torch.int64, "dtype should be floating point or complex, but got Long"),
])
def test_a_norm_s_dtype_is_complex_exactly_for_complex_inputs(x, dtype, message):
    with raises(RuntimeError, f"linalg.vector_norm: {message}"):
        torch.linalg.vector_norm(torch.tensor(x), dtype=dtype)


MISMATCH = ("For complex Tensors, both grad_output and output are required to have the same "
            "dtype. Mismatch in dtype: grad_output[{}] has a dtype of {} and output[{}] has a "
            "dtype of {}.")


@pytest.mark.parametrize("how", ["backward", "grad"])
def test_a_gradient_is_complex_exactly_when_its_output_is(how):
    z = torch.tensor([3 + 4j], requires_grad=True)
    for i, (out, grad) in enumerate([(z.abs(), torch.tensor([1j])),
                                     (z * 2, torch.tensor([1.0], dtype=torch.float64))]):
        outputs = [z.sum(), out] if i else [out]
        grads = [torch.ones((), dtype=C64), grad] if i else [grad]
        # the places are found with list.index, by value: the first gradient equals the second
        with raises(RuntimeError, MISMATCH.format(0, grad.dtype, i, out.dtype)):
            if how == "backward":
                torch.autograd.backward(outputs, grads)
            else:
                torch.autograd.grad(outputs, z, grads)
    assert z.grad is None
    with raises(RuntimeError, MISMATCH.format(1, C64, 0, torch.float32)):  # equal outputs
        torch.autograd.grad([z.abs(), z.abs()], z, [torch.tensor([1.0]), torch.tensor([2j])])
    (found,) = torch.autograd.grad(z * 2, z, torch.tensor([1j], dtype=C128))  # widths may differ
    assert found.dtype is C64 and found.tolist() == [2j]
