"""Black-box tests: the in-place methods called as functions, torch.sin_(t) for t.sin_().
The same assertions run on torch.
"""

import math

import pytest
import torch

from conformance._support import raises

LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
# name: the node the write records
UNARY = {
    "abs_": "AbsBackward0", "acos_": "AcosBackward0", "arccos_": "AcosBackward0",
    "arcsin_": "AsinBackward0", "arctan_": "AtanBackward0", "asin_": "AsinBackward0",
    "atan_": "AtanBackward0", "ceil_": "CeilBackward0", "cos_": "CosBackward0",
    "cosh_": "CoshBackward0", "deg2rad_": "Deg2RadBackward0", "erf_": "ErfBackward0",
    "erfc_": "ErfcBackward0", "exp2_": "Exp2Backward0", "exp_": "ExpBackward0",
    "expm1_": "Expm1Backward0", "fix_": "TruncBackward0", "floor_": "FloorBackward0",
    "frac_": "FracBackward0", "i0_": "I0Backward0", "log10_": "Log10Backward0",
    "log1p_": "Log1PBackward0", "log2_": "Log2Backward0", "log_": "LogBackward0",
    "neg_": "NegBackward0", "negative_": "NegBackward0", "rad2deg_": "Rad2DegBackward0",
    "reciprocal_": "ReciprocalBackward0", "relu_": "ReluBackward0", "rsqrt_": "RsqrtBackward0",
    "sigmoid_": "SigmoidBackward0", "sin_": "SinBackward0", "sinc_": "SincBackward0",
    "sinh_": "SinhBackward0", "sqrt_": "SqrtBackward0", "square_": "PowBackward0",
    "tan_": "TanBackward0", "tanh_": "TanhBackward0", "trunc_": "TruncBackward0",
    "zero_": "ZeroBackward0", "round_": "RoundBackward0",
}
# name: (the arguments after the tensor, the node the write records)
WITH_ARGUMENTS = {
    "clamp_": ((0.3, 0.6), "ClampBackward1"), "clip_": ((0.3,), "ClampBackward1"),
    "clamp_min_": ((0.3,), "ClampMinBackward0"), "clamp_max_": ((0.3,), "ClampMaxBackward0"),
    "fill_": ((2,), "FillBackward2"), "logit_": ((0.1,), "LogitBackward0"),
    "nan_to_num_": ((), "NanToNumBackward0"),
}
CASES = {**{n: ((), node) for n, node in UNARY.items()}, **WITH_ARGUMENTS}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_function_form_writes_as_its_method_does(name):
    extra, node = CASES[name]
    x = torch.tensor([0.25, 0.5, 0.75], requires_grad=True)
    by_function, by_method = x * 1, x * 1
    version = by_function._version
    assert getattr(torch, name)(by_function, *extra) is by_function
    getattr(by_method, name)(*extra)
    assert by_function.tolist() == by_method.tolist()
    assert by_function.grad_fn.name() == node
    assert by_function._version == version + 1
    with raises(RuntimeError, LEAF):
        getattr(torch, name)(torch.tensor([0.5], requires_grad=True), *extra)


@pytest.mark.parametrize("name", ["sin_", "exp_", "zero_", "clamp_min_"])
def test_a_function_form_writes_through_a_view_to_its_base(name):
    extra = CASES[name][0]
    base = torch.tensor([[0.25, 0.5], [0.5, 0.75]], requires_grad=True).clone()
    row = base[0]
    getattr(torch, name)(row, *extra)
    assert base.grad_fn.name() == "torch::autograd::CopySlices"
    assert base._version == 1 and row.grad_fn.name() == "AsStridedBackward0"


def test_the_inverse_hyperbolic_functions_write_their_values():
    x = torch.tensor([1.5, 2.0])
    assert torch.acosh_(x.clone()).tolist() == x.acosh().tolist()
    assert torch.arcsinh_(x.clone()).tolist() == x.asinh().tolist()
    assert torch.atanh_(torch.tensor([0.5])).tolist() == torch.tensor([0.5]).atanh().tolist()


@pytest.mark.parametrize(("method", "name", "start"), [
    ("asinh_", "asinh", 1.5), ("arcsinh_", "asinh", 1.5), ("acosh_", "acosh", 1.5),
    ("arccosh_", "acosh", 1.5), ("atanh_", "atanh", 0.5), ("arctanh_", "atanh", 0.25),
])
def test_the_inverse_hyperbolics_in_place_record_a_node_that_refuses(method, name, start):
    x = torch.tensor([start, start * 1.25], dtype=torch.float64, requires_grad=True)
    y = x.clone()
    out = getattr(y, method)()
    assert out is y and y._version == 1
    assert y.tolist() == getattr(x.detach(), name)().tolist()
    node = y.grad_fn
    assert type(node).__name__ == name.capitalize() + "Backward1"
    assert [a for a in dir(node) if a.startswith("_saved")] == []
    with raises(NotImplementedError,
                f"the derivative for 'inplace version of {name}' is not implemented."):
        y.sum().backward()
    assert x.grad is None
    fw = torch.autograd.forward_ad
    with fw.dual_level():
        dual = fw.make_dual(torch.tensor([start], dtype=torch.float64), torch.ones(1))
        with pytest.raises(NotImplementedError, match=f"^Trying to use forward AD with "
                           f"{name}_ that does not support it because it has not been "
                           "implemented yet"):
            getattr(dual.clone(), method)()


def test_function_forms_with_more_arguments():
    assert torch.round_(torch.tensor([0.123456]), decimals=2).tolist() == [
        pytest.approx(0.12)]
    t = torch.tensor([0.5, 2.0])
    assert torch.clamp_(t, torch.tensor([1.0, 1.0])).tolist() == [1.0, 2.0]
    assert torch.fill_(torch.zeros(2), torch.tensor(3.0)).tolist() == [3.0, 3.0]
    nan = torch.tensor([math.nan, math.inf])
    assert torch.nan_to_num_(nan, 1.0, 2.0).tolist() == [1.0, 2.0]
    put = torch.index_put_(torch.zeros(3), (torch.tensor([0, 2, 0]),),
                           torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
    assert put.tolist() == [4.0, 0.0, 2.0]
    strided = torch.as_strided_(torch.arange(6.0), (2, 2), (1, 2), 1)
    assert strided.tolist() == [[1.0, 3.0], [2.0, 4.0]]
    x = torch.zeros(2, requires_grad=True)
    y = x * 1
    torch.addmv_(y, torch.ones(2, 3), torch.ones(3), beta=2, alpha=3)
    assert y.tolist() == [9.0, 9.0] and y.grad_fn.name() == "AddmvBackward0"
    z = torch.ones(2, requires_grad=True) * 2
    assert torch.detach_(z) is z and not z.requires_grad and z.grad_fn is None


def test_function_forms_refuse_arguments_in_their_own_words():
    with raises(TypeError, "sin_(): argument 'input' (position 1) must be Tensor, not int"):
        torch.sin_(1)
    with raises(TypeError, "sin_() takes 1 positional argument but 2 were given"):
        torch.sin_(torch.ones(1), 1)
    with raises(TypeError, 'sin_() missing 1 required positional arguments: "input"'):
        torch.sin_()
    with raises(TypeError, "logit_(): argument 'eps' (position 2) must be float, not str"):
        torch.logit_(torch.zeros(2), "a")
    with raises(TypeError, 'as_strided_() missing 2 required positional argument: '
                           '"size", "stride"'):
        torch.as_strided_(torch.arange(6.0))
    with raises(TypeError, "clamp_min_() received an invalid combination of arguments - "
                           "got (), but expected one of:\n"
                           " * (Tensor input, Tensor min)\n * (Tensor input, Number min)\n"):
        torch.clamp_min_()
