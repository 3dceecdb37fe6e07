"""refgrad's own behaviour in chapter "More shapes, more elementwise", where it differs from
torch's on purpose, and what the conformance suite cannot see."""

import numpy as np

import refgrad as torch
from refgrad._ops import OPS
from refgrad.autograd.gradcheck import gradcheck


def test_narrow_copy_of_the_last_elements_sends_them_their_gradient():
    x = torch.arange(3.0, dtype=torch.float64).requires_grad_()
    torch.narrow_copy(x, 0, -1, 1).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 1.0]
    assert gradcheck(lambda t: torch.narrow_copy(t, 0, -2, 2), (x,))


def test_ldexp_with_a_negative_integer_exponent_has_torch_s_zero_gradient():
    # torch's formula takes pow(2, other) in the integer dtype, where 2 ** -2 is 0
    x = torch.tensor([1.0, 3.0], dtype=torch.float64, requires_grad=True)
    torch.ldexp(x, torch.tensor([-2, -1])).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]
    x.grad = None
    torch.ldexp(x, torch.tensor([-2.0, -1.0])).sum().backward()  # a float power is not
    assert x.grad.tolist() == [0.25, 0.5]


def test_the_number_forms_promote_integers_as_torch_does():
    from refgrad._ops.arithmetic import add_scalar as plus
    from refgrad._ops.arithmetic import div_scalar as over
    from refgrad._ops.arithmetic import mul_scalar as times

    ints = torch.tensor([1, 2, 3])
    assert times(ints, 0.5).dtype == torch.float32 and times(ints, 2).dtype == torch.int64
    assert over(ints, 2).tolist() == [0.5, 1.0, 1.5]
    half = torch.tensor([1.0, 2.0], dtype=torch.float16)
    assert plus(half, 0.25).dtype == torch.float16


def test_the_rows_are_in_the_table_with_their_nodes():
    nodes = {"select_scatter": "SelectScatterBackward0", "mul_scalar": "MulBackward1",
             "norm_dims": "NormBackward1", "elu": "EluBackward0", "std_mean": "StdMeanBackward0"}
    assert {name: OPS[name].node for name in nodes} == nodes


def test_the_methods_are_the_functions():
    x = torch.ones(2, 4)
    assert [p.shape for p in x.hsplit(2)] == [(2, 2), (2, 2)]
    assert x.narrow_copy(1, 0, 1).shape == (2, 1)
    assert np.array_equal(x.copysign(-1).numpy(), -np.ones((2, 4), dtype=np.float32))
    assert x.cov().shape == (2, 2) and x.diagflat().shape == (8, 8)
