"""torch.distributions.transforms and the constraint registry: values, inverses, caches,
log-Jacobians, shapes, equality, reprs and refusals. The same assertions run on torch."""

import math
import pickle

import pytest
import torch
from torch.distributions import biject_to, transform_to
from torch.distributions import constraints as C
from torch.distributions import transforms as T


def _x():
    torch.manual_seed(0)
    return torch.randn(3, 4, dtype=torch.float64)


def test_scalar_transforms_compute_their_maps_and_jacobians():
    x = _x()
    assert torch.equal(T.ExpTransform()(x), x.exp())
    assert torch.equal(T.ExpTransform().log_abs_det_jacobian(x, x.exp()), x)
    assert torch.equal(T.AffineTransform(1.0, -2.0)(x), 1.0 + -2.0 * x)
    assert torch.equal(T.AffineTransform(1.0, -2.0).log_abs_det_jacobian(x, x),
                       torch.full_like(x, math.log(2.0)))
    sig = T.SigmoidTransform()
    tiny, eps = torch.finfo(x.dtype).tiny, torch.finfo(x.dtype).eps
    assert torch.equal(sig(x), torch.sigmoid(x).clamp(min=tiny, max=1 - eps))
    assert torch.equal(sig.log_abs_det_jacobian(x, sig(x)),
                       -torch.nn.functional.softplus(-x) - torch.nn.functional.softplus(x))
    tanh = T.TanhTransform()
    expected = 2.0 * (math.log(2.0) - x - torch.nn.functional.softplus(-2.0 * x))
    assert torch.equal(tanh.log_abs_det_jacobian(x, tanh(x)), expected)
    torch.testing.assert_close(tanh.log_abs_det_jacobian(x, tanh(x)),
                               (1 - x.tanh() ** 2).log())
    power = T.PowerTransform(torch.tensor(2.0, dtype=torch.float64))
    assert torch.equal(power(x.abs()), x.abs().pow(power.exponent)) and power.sign == 1
    assert torch.equal(T.SoftplusTransform()(x), torch.nn.functional.softplus(x))
    assert torch.equal(T.AbsTransform()(x), x.abs()) and torch.equal(T.AbsTransform().inv(x), x)
    for t in [T.ExpTransform(), T.SigmoidTransform(), T.TanhTransform(), T.SoftplusTransform(),
              T.AffineTransform(1.0, -2.0)]:
        torch.testing.assert_close(t.inv(t(x)), x)


def test_event_transforms_and_their_shapes():
    x = _x()
    soft = T.SoftmaxTransform()
    shifted = (x - x.max(-1, True)[0]).exp()
    assert torch.equal(soft(x), shifted / shifted.sum(-1, True))
    torch.testing.assert_close(soft(x), x.softmax(-1))
    stick = T.StickBreakingTransform()
    y = stick(x)
    assert y.shape == (3, 5) and torch.allclose(y.sum(-1), torch.ones(3, dtype=x.dtype))
    torch.testing.assert_close(stick.inv(y), x)
    assert stick.forward_shape(torch.Size([3, 4])) == torch.Size([3, 5])
    assert stick.inverse_shape(torch.Size([3, 5])) == torch.Size([3, 4])
    jac = torch.autograd.functional.jacobian(lambda v: stick(v)[:-1], x[0])
    torch.testing.assert_close(stick.log_abs_det_jacobian(x[0], y[0]), jac.det().abs().log())
    chol = T.LowerCholeskyTransform()(x[:, :3])
    assert bool(C.lower_cholesky.check(chol)) and torch.equal(chol.triu(1), torch.zeros(3, 3,
                                                                                    dtype=x.dtype))
    reshape = T.ReshapeTransform((4,), (2, 2))
    assert reshape(x).shape == (3, 2, 2) and reshape.log_abs_det_jacobian(x, None).shape == (3,)
    with pytest.raises(ValueError, match=r"^Shape mismatch: expected torch.Size\(\[5\]\) but "
                       r"got torch.Size\(\[4\]\)$"):
        reshape.forward_shape(torch.Size([3, 5]))
    with pytest.raises(ValueError, match="^in_shape, out_shape have different numbers of "
                       "elements$"):
        T.ReshapeTransform((4,), (3,))
    ind = T.IndependentTransform(T.ExpTransform(), 1)
    assert torch.equal(ind.log_abs_det_jacobian(x, ind(x)), x.sum(-1))
    assert repr(ind) == "IndependentTransform(ExpTransform(), 1)"
    assert repr(ind.domain) == "IndependentConstraint(Real(), 1)"


def test_composition_couples_event_dimensions():
    x = _x()
    chain = T.ComposeTransform([T.ExpTransform(), T.StickBreakingTransform()])
    assert (chain.domain.event_dim, chain.codomain.event_dim) == (1, 1)
    assert repr(chain.domain) == "IndependentConstraint(Real(), 1)"
    y = chain(x)
    expected = (T.ExpTransform().log_abs_det_jacobian(x, x.exp()).sum(-1)
                + T.StickBreakingTransform().log_abs_det_jacobian(x.exp(), y))
    assert torch.equal(chain.log_abs_det_jacobian(x, y), expected)
    assert chain.inv.inv is chain and chain.event_dim == 1
    assert repr(chain) == "ComposeTransform(\n    ExpTransform(),\n    StickBreakingTransform()\n)"
    assert T.identity_transform(x) is x and T.identity_transform.domain is C.real
    assert torch.equal(T.identity_transform.log_abs_det_jacobian(x, x), torch.zeros_like(x))
    affine = T.ComposeTransform([T.AffineTransform(0.0, -1.0), T.ExpTransform()])
    assert affine.sign == -1 and affine.bijective


def test_inverse_cache_equality_and_refusals():
    x = _x()
    exp = T.ExpTransform()
    assert repr(exp.inv) == "_InverseTransform(ExpTransform())" and exp.inv.inv is exp
    assert exp.inv.domain is C.positive and exp.inv.sign == 1
    assert torch.equal(exp.inv.log_abs_det_jacobian(x.exp(), x), -x)
    cached = T.ExpTransform(cache_size=1)
    y = cached(x)
    assert cached.inv(y) is x and exp.inv(exp(x)) is not x
    assert exp.with_cache(1)._cache_size == 1 and exp.with_cache(0) is exp
    assert exp == T.ExpTransform() and exp != T.SigmoidTransform()
    assert exp.inv == T.ExpTransform().inv
    assert T.AffineTransform(1.0, 2.0) == T.AffineTransform(1.0, 2.0)
    assert T.AffineTransform(1.0, 2.0) != T.AffineTransform(1.0, 3.0)
    assert pickle.loads(pickle.dumps(exp)) == exp
    for transform in (exp, T.CorrCholeskyTransform(), exp.inv, T.identity_transform):
        with pytest.raises(TypeError, match="^unhashable type: '"):
            hash(transform)
    with pytest.raises(ValueError, match="^cache_size must be 0 or 1$"):
        T.ExpTransform(cache_size=2)
    with pytest.raises(ValueError, match=r"^Please use either .domain.event_dim or "
                       r".codomain.event_dim$"):
        T.ReshapeTransform((4,), (2, 2)).event_dim

    class Scaled(T.Transform):
        def __init__(self, factor):
            super().__init__()

    with pytest.raises(NotImplementedError, match=r"Scaled'>.with_cache is not implemented$"):
        Scaled(2).with_cache(1)


def test_biject_to_and_transform_to():
    x = _x()
    assert biject_to(C.real) is T.identity_transform
    positive = biject_to(C.positive)
    assert isinstance(positive, T.ComposeTransform) and positive.parts[0] == T.ExpTransform()
    assert torch.equal(biject_to(C.greater_than(2.0))(x), 2.0 + 1 * x.exp())
    assert torch.equal(biject_to(C.less_than(1.0))(x), 1.0 + -1 * x.exp())
    assert biject_to(C.unit_interval) == T.SigmoidTransform()
    interval = biject_to(C.interval(-1.0, 3.0))
    assert bool(C.interval(-1.0, 3.0).check(interval(x)).all())
    assert isinstance(biject_to(C.simplex), T.StickBreakingTransform)
    assert isinstance(transform_to(C.simplex), T.SoftmaxTransform)
    assert repr(biject_to(C.independent(C.positive, 2))).startswith("IndependentTransform(")
    assert isinstance(transform_to(C.lower_cholesky), T.LowerCholeskyTransform)
    with pytest.raises(NotImplementedError, match="^Cannot transform _LowerCholesky "
                       "constraints$"):
        biject_to(C.lower_cholesky)
    with pytest.raises(NotImplementedError, match="^Cannot transform _Boolean constraints$"):
        transform_to(C.boolean)
    with pytest.raises(TypeError, match="^Expected constraint to be either a Constraint "
                       "subclass or instance, but got 3$"):
        biject_to.register(3, lambda c: None)


def test_cumulative_distribution_transform():
    normal = torch.distributions.Normal(torch.tensor(0.0, dtype=torch.float64), 1.0)
    cdf = T.CumulativeDistributionTransform(normal)
    x = _x()
    assert torch.equal(cdf(x), normal.cdf(x)) and cdf.domain is C.real and cdf.sign == 1
    assert torch.equal(cdf.log_abs_det_jacobian(x, cdf(x)), normal.log_prob(x))
    torch.testing.assert_close(cdf.inv(cdf(x)), x)


def test_cat_and_stack_transforms_act_on_slices():
    x = _x()
    cat = T.CatTransform([T.ExpTransform(), T.SigmoidTransform()], dim=0, lengths=[1, 2])
    y = cat(x)
    assert torch.equal(y, torch.cat([x[:1].exp(), T.SigmoidTransform()(x[1:])]))
    torch.testing.assert_close(cat.inv(y), x)
    expected = torch.cat([x[:1], T.SigmoidTransform().log_abs_det_jacobian(x[1:], y[1:])])
    assert torch.equal(cat.log_abs_det_jacobian(x, y), expected)
    assert (cat.length, cat.event_dim, repr(cat.domain), cat.bijective) == (3, 0, "Cat()", True)
    stack = T.StackTransform([T.ExpTransform(), T.SigmoidTransform(), T.AffineTransform(1.0, 2.0)])
    y = stack(x)
    assert torch.equal(y[2], 1.0 + 2.0 * x[2]) and torch.equal(y[0], x[0].exp())
    assert torch.equal(stack.log_abs_det_jacobian(x, y)[2], torch.full((4,), math.log(2.0),
                                                                       dtype=x.dtype))
    both = C.cat([C.positive, C.real], dim=0, lengths=[1, 2])
    assert both.check(x)[0].tolist() == (x[0] > 0).tolist() and both.check(x)[1:].all()
    assert isinstance(biject_to(both), T.CatTransform)
    assert isinstance(transform_to(C.stack([C.positive, C.real], 0)), T.StackTransform)
    with pytest.raises(AssertionError, match=r"^x.size\(0\) = 2 must equal length 3$"):
        cat(x[:2])
    with pytest.raises(AssertionError, match=r"^x.size\(0\) = 2 must equal len\(transforms\) 3$"):
        stack(x[:2])
    with pytest.raises(AssertionError, match="^dim 5 out of range for tensor with 2 dimensions$"):
        T.CatTransform([T.ExpTransform()], dim=5)(x)
    with pytest.raises(AssertionError, match="^All elements of tseq must be Transform "
                       "instances$"):
        T.CatTransform([3])
    with pytest.raises(AssertionError, match=r"^lengths \(2\) must match cseq \(1\)$"):
        C.cat([C.real], 0, [1, 2])


def test_matrix_constraints_and_positive_definite_transform():
    mats = torch.tensor([[[2.0, 0.5], [0.5, 1.0]], [[1.0, 2.0], [2.0, 1.0]],
                         [[1.0, 0.0], [0.3, 1.0]]])
    assert C.symmetric.check(mats).tolist() == [True, True, False]
    assert C.positive_definite.check(mats[:2]).tolist() == [True, False]
    assert C.positive_semidefinite.check(mats[:2]).tolist() == [True, False]
    assert C.lower_triangular.check(mats).tolist() == [False, False, True]
    assert C.lower_cholesky.check(mats).tolist() == [False, False, True]
    assert C.square.check(torch.ones(4, 2, 3)).tolist() == [False] * 4
    assert repr(C.positive_definite) == "PositiveDefinite()" and C.square.event_dim == 2
    to_pd = transform_to(C.positive_definite)
    assert isinstance(to_pd, T.PositiveDefiniteTransform)
    factor = T.LowerCholeskyTransform()(mats[2])
    assert torch.equal(to_pd(mats[2]), factor @ factor.mT)
    torch.testing.assert_close(to_pd.inv(to_pd(mats[2])), mats[2])


def test_corr_cholesky_transform_and_triangle_vectors():
    from torch.distributions.utils import tril_matrix_to_vec, vec_to_tril_matrix

    m = torch.arange(9.0).reshape(3, 3)
    assert tril_matrix_to_vec(m).tolist() == [0.0, 3.0, 4.0, 6.0, 7.0, 8.0]
    assert tril_matrix_to_vec(m, -1).tolist() == [3.0, 6.0, 7.0]
    assert torch.equal(vec_to_tril_matrix(tril_matrix_to_vec(m)), m.tril())
    with pytest.raises(ValueError, match="^The size of last dimension is 5 which cannot be "
                       "expressed as the lower triangular part of a square D x D matrix.$"):
        vec_to_tril_matrix(torch.ones(5))
    with pytest.raises(ValueError, match=r"^diag \(3\) provided is outside \[-3, 2\].$"):
        tril_matrix_to_vec(m, diag=3)
    x = _x()[:2, :3]
    corr = T.CorrCholeskyTransform()
    y = corr(x)
    assert y.shape == (2, 3, 3) and C.corr_cholesky.check(y).all()
    torch.testing.assert_close((y @ y.mT).diagonal(dim1=-2, dim2=-1), torch.ones(2, 3,
                                                                                dtype=x.dtype))
    torch.testing.assert_close(corr.inv(y), x)
    jac = torch.autograd.functional.jacobian(lambda v: tril_matrix_to_vec(corr(v), -1), x[0])
    torch.testing.assert_close(corr.log_abs_det_jacobian(x, y)[0], jac.det().abs().log())
    assert corr.forward_shape(torch.Size([2, 6])) == (2, 4, 4)
    assert isinstance(biject_to(C.corr_cholesky), T.CorrCholeskyTransform)
    with pytest.raises(ValueError, match="^Input is not a flattened lower-diagonal number$"):
        corr.forward_shape(torch.Size([5]))
    with pytest.raises(ValueError, match="^Input is not square$"):
        corr.inverse_shape(torch.Size([2, 3]))
