"""torch.func.jacrev, jacfwd and hessian: shapes out.shape + in.shape, argnums, nests of
outputs and inputs, has_aux, and their refusals; values are the same computation as torch's,
one vjp or jvp per one-hot direction, so they match to the bit."""

import pytest
import torch
import torch.autograd.forward_ad as fwAD
from torch.func import hessian, jacfwd, jacrev, jvp, vmap

from conformance._support import raises


def _v():
    return torch.tensor([1.0, 2.0])


def _bits(t):
    """Values with the sign of each zero, which a one-hot product keeps."""
    return [(float(v), str(float(v))) for v in t.flatten().tolist()]


@pytest.mark.parametrize("jac", [jacrev, jacfwd])
def test_the_jacobian_of_an_elementwise_function_is_diagonal(jac):
    v = _v()
    got = jac(torch.sin)(v)
    assert got.shape == (2, 2)
    torch.testing.assert_close(got.diagonal(), torch.cos(v), rtol=0, atol=0)
    assert got[0, 1].item() == 0.0 and got[1, 0].item() == 0.0


def test_the_signs_of_zeros_are_those_of_one_hot_products():
    # cos(2) < 0: reverse mode's row 0 holds 0 * cos(2), forward mode's column 0 does
    assert _bits(jacrev(torch.sin)(_v()))[1] == (0.0, "-0.0")
    assert _bits(jacfwd(torch.sin)(_v()))[2] == (0.0, "-0.0")


@pytest.mark.parametrize("jac", [jacrev, jacfwd])
def test_shapes_are_output_shape_then_input_shape(jac):
    m = torch.ones(2, 3)
    assert jac(lambda a: a.sum())(m).tolist() == torch.ones(2, 3).tolist()
    assert jac(lambda a: a * 2)(m).shape == (2, 3, 2, 3)
    assert jac(torch.sin)(torch.tensor(1.0)).shape == ()
    assert jac(lambda a: a.sum(0))(m).shape == (3, 2, 3)


@pytest.mark.parametrize("jac", [jacrev, jacfwd])
def test_argnums_give_one_jacobian_or_a_tuple(jac):
    a, b = _v(), torch.tensor([3.0, 4.0])
    ja, jb = jac(lambda p, q: p * q, argnums=(0, 1))(a, b)
    assert ja.tolist() == torch.diag(b).tolist() and jb.tolist() == torch.diag(a).tolist()
    assert jac(lambda p, q: p * q, argnums=1)(a, b).tolist() == torch.diag(a).tolist()
    with raises(RuntimeError, "Got argnum=1, but only 1 positional inputs"):
        jac(lambda p: p.sum(), argnums=1)(a)


def test_nests_of_outputs_and_inputs():
    v = _v()
    rows, cols = jacrev(lambda a: (a * 3, {"c": a.sum()}))(v)
    assert rows.tolist() == [[3.0, 0.0], [0.0, 3.0]] and cols["c"].tolist() == [1.0, 1.0]
    got = jacfwd(lambda d: {"y": d["a"] * d["b"]})({"a": v, "b": torch.tensor([3.0, 4.0])})
    assert list(got["y"]) == ["a", "b"]
    assert got["y"]["a"].tolist() == [[3.0, 0.0], [0.0, 4.0]]
    assert jacrev(lambda d: d["a"] * 2)({"a": v})["a"].tolist() == [[2.0, 0.0], [0.0, 2.0]]


@pytest.mark.parametrize("jac", [jacrev, jacfwd])
def test_has_aux(jac):
    j, aux = jac(lambda a: (a * 2, a + 1), has_aux=True)(_v())
    assert j.tolist() == [[2.0, 0.0], [0.0, 2.0]] and aux.tolist() == [2.0, 3.0]


def test_chunk_size_and_randomness_options():
    assert jacrev(torch.sin, chunk_size=1)(_v()).tolist() == jacrev(torch.sin)(_v()).tolist()
    with raises(ValueError, "jacrev: `chunk_size` should be greater than 0."):
        jacrev(torch.sin, chunk_size=0)
    bad = jacfwd(torch.sin, randomness="bad")  # checked when called, by its vmap
    with raises(RuntimeError, "Only allowed values for randomness are 'error', 'different', or "
                "'same'. Got bad"):
        bad(_v())


def test_outputs_must_be_tensors():
    with raises(RuntimeError, "vjp(f, *primals): expected f(*primals) to return only tensors, "
                "got unsupported type <class 'float'>"):
        jacrev(lambda a: 1.0)(_v())
    with raises(RuntimeError, "jvp(f, primals, tangents): expected f(*primals) to return only "
                "tensors, got unsupported type <class 'float'>"):
        jacfwd(lambda a: 1.0)(_v())


def test_hessian_is_forward_over_reverse():
    v = _v()
    assert hessian(lambda a: (a ** 3).sum())(v).tolist() == [[6.0, 0.0], [0.0, 12.0]]
    (haa, hab), (hba, hbb) = hessian(lambda a, b: (a * b ** 2).sum(), argnums=(0, 1))(
        v, torch.tensor([3.0, 4.0]))
    assert haa.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert hab.tolist() == [[6.0, 0.0], [0.0, 8.0]] and hba.tolist() == hab.tolist()
    assert hbb.tolist() == [[2.0, 0.0], [0.0, 4.0]]
    got = hessian(lambda a: (a ** 3).sum())(v)
    assert got.grad_fn is None


def test_jacobians_compose_with_vmap_and_each_other():
    x = torch.ones(2, 3)
    assert vmap(jacrev(torch.sin))(x).shape == (2, 3, 3)
    torch.testing.assert_close(jacrev(jacrev(lambda a: (a ** 3).sum()))(_v()),
                               hessian(lambda a: (a ** 3).sum())(_v()), rtol=0, atol=0)


def test_a_jvp_inside_a_jvp():
    v = _v()
    torch.testing.assert_close(jacfwd(jacfwd(lambda a: (a ** 3).sum()))(v),
                               torch.diag(6 * v), rtol=0, atol=0)
    second = jacfwd(jacfwd(torch.sin))(v)
    assert second.shape == (2, 2, 2)
    torch.testing.assert_close(second, torch.diag_embed(torch.diag(-torch.sin(v))))
    out, dot = jvp(lambda a: jvp(torch.sin, (a,), (torch.ones(2),))[1], (v,), (torch.ones(2),))
    torch.testing.assert_close(out, torch.cos(v))
    torch.testing.assert_close(dot, -torch.sin(v))
    inner = hessian(lambda a: jvp(torch.sin, (a,), (torch.ones(2),))[1].sum())(v)
    torch.testing.assert_close(inner, torch.diag(-torch.cos(v)))


def test_a_jvp_inside_the_user_s_forward_level_is_refused():
    with fwAD.dual_level():
        d = fwAD.make_dual(_v(), torch.ones(2))
        with raises(RuntimeError, "Nested forward mode AD is not supported at the moment"):
            jvp(torch.sin, (d,), (torch.ones(2),))
    assert jvp(torch.sin, (_v(),), (torch.ones(2),))[1].shape == (2,)  # the level was closed
