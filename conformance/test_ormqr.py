"""torch.ormqr and Tensor.ormqr: a matrix times the product of geqrf's Householder reflectors,
from either side, transposed or not: values, layouts, the checks in torch's order, out=, and
the gradients of all three inputs, twice over (chapter 16ra)."""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import (
    arguments_shown,
    distinct_values,
    forward_ad_refusal,
    recording_mode,
    unique_preorder,
)

SIDES = [(True, False), (True, True), (False, False), (False, True)]


def _factors(shape, dtype=torch.float64):
    a, tau = torch.geqrf(distinct_values(*shape) - 0.5 + torch.eye(*shape[-2:]))
    return a.to(dtype), tau.to(dtype)


def _other(a, left, cols=2, dtype=torch.float64):
    m = a.shape[-2]
    shape = (*a.shape[:-2], m, cols) if left else (*a.shape[:-2], cols, m)
    return (distinct_values(*shape) * 2 - 1).to(dtype)


def _q(a, tau):
    """The whole m × m product of the reflectors I - tau_i v_i v_iᵀ, in NumPy."""
    a, tau = np.asarray(a.tolist()), np.asarray(tau.tolist())
    m = a.shape[0]
    q = np.eye(m)
    for i in range(tau.shape[0]):
        v = np.concatenate([np.zeros(i), [1.0], a[i + 1:, i]])
        q = q @ (np.eye(m) - tau[i] * np.outer(v, v))
    return q


def _reference(a, tau, c, left, transpose):
    q = _q(a, tau)
    q = q.T if transpose else q
    c = np.asarray(c.tolist())
    return q @ c if left else c @ q


SHAPES = [(4, 3), (3, 3), (3, 5), (5, 2), (1, 1)]  # tall, square, wide, fewer reflectors


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("left,transpose", SIDES)
def test_values_are_q_times_other(shape, left, transpose):
    a, tau = _factors(shape)
    c = _other(a, left)
    expected = _reference(a, tau, c, left, transpose)
    for found in (torch.ormqr(a, tau, c, left, transpose),
                  a.ormqr(tau, c, left=left, transpose=transpose)):
        assert found.dtype == torch.float64 and found.grad_fn is None
        np.testing.assert_allclose(np.asarray(found.tolist()), expected, rtol=1e-12,
                                   atol=1e-13)


@pytest.mark.parametrize("left,transpose", SIDES)
def test_float32_and_a_batch(left, transpose):
    a, tau = _factors((2, 4, 3))
    c = _other(a, left, cols=3)
    found = torch.ormqr(a.float(), tau.float(), c.float(), left, transpose)
    assert found.dtype == torch.float32
    for i in range(2):
        np.testing.assert_allclose(np.asarray(found[i].tolist()),
                                   _reference(a[i], tau[i], c[i], left, transpose), rtol=1e-5,
                                   atol=1e-5)


def test_q_is_orthogonal_and_its_transpose_undoes_it():
    a, tau = _factors((4, 3))
    c = _other(a, True)
    there = torch.ormqr(a, tau, c)
    assert torch.allclose(torch.ormqr(a, tau, there, transpose=True), c)
    q = torch.ormqr(a, tau, torch.eye(4, dtype=torch.float64))
    assert torch.allclose(q[:, :3], torch.linalg.householder_product(a, tau))


@pytest.mark.parametrize("a_shape,tau_shape,c_shape,left,strides", [
    ((4, 3), (3,), (4, 2), True, (1, 4)), ((4, 3), (3,), (2, 4), False, (1, 2)),
    ((2, 4, 3), (2, 3), (2, 4, 5), True, (20, 1, 4)), ((0, 0), (0,), (0, 3), True, (1, 1)),
    ((5, 3), (3,), (5, 0), True, (1, 5)), ((2, 0, 5, 3), (2, 0, 3), (2, 0, 5, 2), True,
                                           (10, 10, 1, 5)), ((5, 0), (0,), (5, 2), True, (1, 5))])
def test_results_are_laid_out_by_columns(a_shape, tau_shape, c_shape, left, strides):
    found = torch.ormqr(torch.zeros(a_shape), torch.zeros(tau_shape), torch.zeros(c_shape),
                        left)
    assert (tuple(found.shape), found.stride()) == (c_shape, strides)


_SAID = "torch.ormqr: "
ERRORS = [  # (input, tau, other, left, exception, message), each first in torch's order
    ((3,), (2,), (3, 2), True, RuntimeError, _SAID + "input must have at least 2 dimensions."),
    ((5, 3), (3,), (5,), False, RuntimeError, _SAID + "other must have at least 2 dimensions."),
    ((5, 3), (6,), (4, 3), True, RuntimeError,
     _SAID + "other.shape[-2] must be equal to input.shape[-2]"),
    ((5, 3), (3,), (5, 4), False, RuntimeError,
     _SAID + "other.shape[-1] must be equal to input.shape[-2]"),
    ((5, 3), (), (5, 2), True, IndexError, "Dimension specified as -1 but tensor has no "
                                           "dimensions"),
    ((5, 3), (4,), (5, 4), True, RuntimeError,
     _SAID + "tau.shape[-1] must be equal to min(other.shape[-2], input.shape[-1])"),
    ((5, 3), (2,), (2, 5), False, RuntimeError,
     _SAID + "tau.shape[-1] must be equal to min(other.shape[-1], input.shape[-1])"),
    ((3, 5), (4,), (3, 4), True, RuntimeError,
     _SAID + "tau.shape[-1] must be equal to min(other.shape[-2], input.shape[-1])"),
    ((2, 5, 3), (2, 2), (3, 5, 2), True, RuntimeError,
     _SAID + "tau.shape[-1] must be equal to min(other.shape[-2], input.shape[-1])"),
    ((5, 3), (1, 3), (5, 5), True, RuntimeError,
     _SAID + "Expected tau to have one dimension less than input, but got tau.ndim equal to 2 "
     "and input.ndim is equal to 2"),
    ((5, 3), (3,), (1, 5, 5), True, RuntimeError,
     _SAID + "Expected other to have the same number of dimensions as input, but got "
     "other.ndim equal to 3 and input.ndim is equal to 2"),
    ((2, 5, 3), (3, 3), (2, 5, 2), True, RuntimeError,
     _SAID + "Expected batch dimensions of tau to be equal to input.shape[:-2], but got [3]"),
    ((2, 5, 3), (2, 3), (3, 5, 2), True, RuntimeError,
     _SAID + "Expected batch dimensions of other to be equal to input.shape[:-2], but got [3]"),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_shape_errors_in_torch_order_and_words(case):
    a_shape, tau_shape, c_shape, left, kind, message = ERRORS[case]
    a, tau, c = torch.zeros(a_shape), torch.zeros(tau_shape), torch.zeros(c_shape)
    for f in (torch.ormqr, torch.Tensor.ormqr):
        with pytest.raises(kind) as found:
            f(a, tau, c, left)
        assert str(found.value) == message


@pytest.mark.parametrize("dtypes,message", [
    (("float32", "float64", "float64"), "Expected input and tau to have the same dtype, but "
     "input has dtypeFloat and tau has dtype Double"),
    (("float32", "float32", "float64"), "Expected input and other to have the same dtype, but "
     "input has dtypeFloat and other has dtype Double"),
    (("int32", "float32", "float32"), "Expected input and tau to have the same dtype, but "
     "input has dtypeInt and tau has dtype Float"),
])
def test_dtype_mismatches(dtypes, message):
    a, tau, c = (torch.zeros(s, dtype=getattr(torch, d))
                 for s, d in zip(((5, 3), (3,), (5, 2)), dtypes))
    with pytest.raises(RuntimeError) as found:
        torch.ormqr(a, tau, c)
    assert str(found.value) == _SAID + message


@pytest.mark.parametrize("dtype,name", [(torch.int32, "Int"), (torch.int64, "Long"),
                                        (torch.float16, "Half"), (torch.bool, "Bool")])
def test_the_kernel_refuses_other_dtypes_last(dtype, name):
    a, tau, c = (torch.zeros(s, dtype=dtype) for s in ((5, 3), (3,), (5, 2)))
    with pytest.raises(NotImplementedError) as found:
        torch.ormqr(a, tau, c)
    assert str(found.value) == f"\"ormqr_cpu\" not implemented for '{name}'"
    with pytest.raises(RuntimeError, match=r"other\.shape\[-2\] must be equal"):
        torch.ormqr(a, tau, c[:4])


def test_the_node_and_what_it_saves():
    a, tau = _factors((4, 3))
    c = _other(a, True)
    for wants in ((True, True, True), (False, False, True), (True, False, False)):
        a_, tau_, c_ = (t.detach().clone().requires_grad_(w) for t, w in zip((a, tau, c), wants))
        y = a_.ormqr(tau_, c_, transpose=True)
        node = y.grad_fn
        assert type(node).__name__ == "OrmqrBackward0"
        assert node._saved_self is a_ and node._saved_input2 is tau_
        assert node._saved_input3 is c_ and node._saved_result.equal(y)
        assert (node._saved_left, node._saved_transpose) == (True, True)
        saved = []
        with torch.autograd.graph.saved_tensors_hooks(saved.append, lambda t: t):
            a_.ormqr(tau_, c_, transpose=True)
        assert saved[0] is tau_ and saved[1] is c_ and saved[2] is a_ and len(saved) == 4


@pytest.mark.parametrize("left,transpose", SIDES)
@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 4, 2)])
def test_gradients_are_the_derivatives(shape, left, transpose):
    a, tau = (t.requires_grad_() for t in _factors(shape))
    c = _other(a, left).requires_grad_()

    def f(a, tau, c):
        return torch.ormqr(a, tau, c, left, transpose)

    assert torch.autograd.gradcheck(f, (a, tau, c))
    assert torch.autograd.gradgradcheck(f, (a, tau, c))


@pytest.mark.parametrize("left,transpose", SIDES)
def test_gradient_graphs_are_householder_products(left, transpose):
    a, tau = (t.requires_grad_() for t in _factors((4, 3)))
    c = _other(a, left).requires_grad_()
    y = torch.ormqr(a, tau, c, left, transpose)
    ga, gt, gc = torch.autograd.grad((y * y).sum(), (a, tau, c), create_graph=True)
    assert [type(g.grad_fn).__name__ for g in (ga, gt, gc)] == [
        "TrilBackward0", "CopySlices", "OrmqrBackward0"]
    assert gc.grad_fn._saved_transpose is (not transpose)
    names = unique_preorder(ga.grad_fn)
    assert names.count("CopySlices") == 4 and "OrmqrBackward0" in names
    assert (ga.stride(), gt.stride(), gc.stride()) == (a.stride(), (1,), y.stride())
    second = torch.autograd.grad(ga.sum() + gt.sum() + gc.sum(), (a, tau, c))
    assert all(s is not None for s in second)


def test_leaf_gradients_keep_the_factors_layout():
    a, tau = _factors((4, 3))
    c = _other(a, True)
    a.requires_grad_(), tau.requires_grad_(), c.requires_grad_()
    torch.ormqr(a, tau, c).sum().backward()
    assert (a.grad.stride(), a.grad._version) == ((1, 4), 4)
    assert (tau.grad._version, c.grad.stride()) == (3, (2, 1))
    a2 = a.detach().contiguous().requires_grad_()  # a row-major input, a row-major gradient
    torch.ormqr(a2, tau.detach(), c.detach()).sum().backward()
    assert a2.grad.stride() == (3, 1)
    a3, tau3 = (t.detach().requires_grad_() for t in _factors((4, 3)))
    torch.linalg.householder_product(a3, tau3).sum().backward()
    assert (a3.grad.stride(), a3.grad._version) == ((1, 4), 4)


def test_an_empty_input_gives_no_gradient_to_it():
    a = torch.zeros(3, 0, dtype=torch.float64, requires_grad=True)
    tau = torch.zeros(0, dtype=torch.float64, requires_grad=True)
    c = torch.ones(3, 2, dtype=torch.float64, requires_grad=True)
    torch.ormqr(a, tau, c).sum().backward()
    assert a.grad is None and tau.grad is None and c.grad.equal(torch.ones(3, 2).double())


def test_forward_ad_is_refused():
    import torch.autograd.forward_ad as fwAD

    a, tau = _factors((4, 3))
    c = _other(a, True)
    with fwAD.dual_level():
        with pytest.raises(NotImplementedError) as found:
            torch.ormqr(a, tau, fwAD.make_dual(c, torch.ones_like(c)))
    assert str(found.value) == forward_ad_refusal("ormqr")


def _written(out, **kwargs):
    a, tau = _factors((5, 3))
    c = _other(a, True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = torch.ormqr(a, tau, c, out=out, **kwargs)
    assert found is out
    np.testing.assert_allclose(np.asarray(out.tolist()), _reference(a, tau, c, True, False)
                               if not kwargs else np.asarray(torch.ormqr(a, tau, c, **kwargs)
                                                             .tolist()), rtol=1e-12)
    return out.stride(), out._version, len(caught)


def test_out_laid_out_by_columns_only_when_it_was_empty():
    assert _written(torch.empty(0, dtype=torch.float64)) == ((1, 5), 1, 0)
    assert _written(torch.empty(5, 2, dtype=torch.float64)) == ((2, 1), 1, 0)
    assert _written(torch.empty(2, 5, dtype=torch.float64).t()) == ((1, 5), 1, 0)
    assert _written(torch.empty(3, 3, dtype=torch.float64)) == ((2, 1), 1, 1)
    assert _written(torch.empty(0, dtype=torch.float64), transpose=True) == ((1, 5), 1, 0)


def _refused(a, tau, c, out, kind=RuntimeError):
    with pytest.raises(kind) as found:
        torch.ormqr(a, tau, c, out=out)
    return str(found.value)


def test_out_refusals_in_torch_order():
    a, tau = _factors((5, 3))
    c = _other(a, True)
    said = _SAID + "Expected input and result to have the same dtype, but input has dtype{} " \
                   "and result has dtype {}"
    assert _refused(a, tau, c, torch.empty(0)) == said.format("Double", "Float")
    assert _refused(a, tau, c, torch.empty(0, dtype=torch.int32)) == said.format("Double", "Int")
    o = torch.empty(3, 3)
    assert _refused(a, tau, c[:4], o).endswith("other.shape[-2] must be equal to "
                                                "input.shape[-2]")
    assert _refused(a, tau.float(), c, o).endswith("input has dtypeDouble and tau has dtype "
                                                   "Float")
    assert o.shape == (3, 3)  # refused before it was resized
    ints = [torch.zeros(s, dtype=torch.int32) for s in ((5, 3), (3,), (5, 2))]
    assert _refused(*ints, torch.empty(0)) == said.format("Int", "Float")
    assert _refused(*ints, torch.empty(0, dtype=torch.int32),
                    NotImplementedError) == "\"ormqr_cpu\" not implemented for 'Int'"
    assert _refused(*ints[:2], ints[2][:4], torch.empty(0)).endswith("must be equal to "
                                                                      "input.shape[-2]")
    assert _refused(a.requires_grad_(), tau, c, torch.empty(0, dtype=torch.float64)) == (
        "ormqr(): functions with out=... arguments don't support automatic differentiation, "
        "but one of the arguments requires grad.")
    assert _refused(a, tau, c, 1, TypeError) == "ormqr(): argument 'out' must be Tensor, not int"


def test_arguments_by_name_and_their_refusals():
    assert torch.ormqr.__name__ == torch.Tensor.ormqr.__name__ == "ormqr"
    a, tau = _factors((4, 3))
    c = _other(a, False)
    expected = _reference(a, tau, c, False, True)
    for found in (torch.ormqr(input=a, input2=tau, input3=c, left=False, transpose=True),
                  a.ormqr(input2=tau, input3=c, left=False, transpose=True)):
        np.testing.assert_allclose(np.asarray(found.tolist()), expected, rtol=1e-12)
    for call, message in [
            (lambda: torch.ormqr(a, tau, c, 1), "ormqr(): argument 'left' (position 4) must be "
                                                "bool, not int"),
            (lambda: torch.ormqr(a, tau, c, left=None), "ormqr(): argument 'left' must be bool, "
                                                        "not NoneType"),
            (lambda: torch.ormqr(a, tau, 3), "ormqr(): argument 'input3' (position 3) must be "
                                             "Tensor, not int"),
            (lambda: torch.ormqr(a, tau), "ormqr() missing 1 required positional arguments: "
                                          "\"input3\""),
            (lambda: a.ormqr(tau), "ormqr() missing 1 required positional arguments: "
                                   "\"input3\"")]:
        with pytest.raises(TypeError) as found:
            call()
        assert str(found.value) == message


def test_a_mode_sees_the_op_and_its_out_overload():
    a, tau = _factors((4, 3))
    c = _other(a, True)
    out = torch.empty(0, dtype=torch.float64)
    with recording_mode(arguments_shown, with_arguments=True)() as mode:
        torch.ormqr(a, tau, c, transpose=True)
        torch.ormqr(a, tau, c, out=out)
    assert [seen[0] for seen in mode.seen] == ["aten.ormqr.default", "aten.ormqr.out"]
    assert mode.seen[1][1:] == (["T", "T", "T"], {"out": out})


def test_a_mode_is_handed_left_and_transpose_by_position_and_only_when_not_defaults():
    a, tau = _factors((4, 3))
    c = _other(a, True)
    with recording_mode(arguments_shown, with_arguments=True)() as mode:
        torch.ormqr(a, tau, c)
        torch.ormqr(a, tau, c, transpose=True)
        torch.ormqr(a, tau, c, left=True, transpose=False)
    assert [seen[1:] for seen in mode.seen] == [
        (["T", "T", "T"], {}), (["T", "T", "T", "bool", "bool"], {}), (["T", "T", "T"], {})]
