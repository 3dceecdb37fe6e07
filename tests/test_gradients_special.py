"""The gradients of order statistics, special functions, distances and the in-place
activations' rows."""

from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops import OPS
from refgrad._ops.dispatch import call
from tests._gradient_support import Recipe, _dim, _dim_keepdim, _one_of, gradient_tests

RECIPES: dict[str, Recipe] = {}


def _kth(shapes):
    return _dim(shapes).flatmap(lambda d: st.builds(
        lambda k, keep: {"k": k, "dim": d, "keepdim": keep}, st.integers(1, shapes[0][d]),
        st.booleans()))


def _maybe_dim_keepdim(shapes):
    return st.one_of(st.just({}), _dim_keepdim(shapes)) if shapes[0] else st.just({})


RECIPES.update({
    # order statistics (chapter 16k): drawn values are distinct, so no ties decide
    "median": Recipe(torch.median),
    "nanmedian": Recipe(lambda a: a.nanmedian()),
    "median_dim": Recipe(lambda a, **p: torch.median(a, **p).values, min_ndim=1,
                         params=_dim_keepdim),
    "nanmedian_dim": Recipe(lambda a, **p: a.nanmedian(**p)[0], min_ndim=1, params=_dim_keepdim),
    "kthvalue": Recipe(lambda a, **p: torch.kthvalue(a, **p).values, min_ndim=1, params=_kth),
    "mode": Recipe(lambda a, **p: torch.mode(a, **p).values, min_ndim=1, params=_dim_keepdim),
    "aminmax": Recipe(lambda a, **p: tuple(torch.aminmax(a, **p)), params=_maybe_dim_keepdim),
})


# Special functions (chapter 16m). The scaled Bessel functions and entr keep away from zero,
# where |x| and log x have kinks and poles; mvlgamma's input stays above (p - 1) / 2.
RECIPES.update({
    "lgamma": Recipe(torch.lgamma, ("positive",)),
    "digamma": Recipe(torch.digamma, ("positive",)),
    "polygamma": Recipe(lambda a, n: torch.polygamma(n, a), ("positive",),
                        params=_one_of("n", 0, 1, 2)),
    "polygamma_": Recipe(lambda a, n: call(OPS["polygamma_"], (a,), {"n": n}), ("positive",),
                         params=_one_of("n", 0, 1, 2)),
    "mvlgamma": Recipe(lambda a, p: torch.mvlgamma(a, p), ("above_one",),
                       params=_one_of("p", 1, 2, 3)),
    "i0": Recipe(torch.i0),
    "special_i0e": Recipe(torch.special.i0e, ("nonzero",)),
    "special_i1": Recipe(torch.special.i1),
    "special_i1e": Recipe(torch.special.i1e, ("nonzero",)),
    "sinc": Recipe(torch.sinc),
    "special_entr": Recipe(torch.special.entr, ("positive",)),
    "special_ndtri": Recipe(torch.special.ndtri, ("unit",)),
    "special_log_ndtr": Recipe(torch.special.log_ndtr),
    "special_erfcx": Recipe(torch.special.erfcx),
    "special_xlog1py": Recipe(torch.special.xlog1py, ("any", "positive")),
    "number_xlog1py": Recipe(lambda b, self: torch.special.xlog1py(self, b), ("positive",),
                             params=_one_of("self", 1.5, -2, 0)),
    "xlog1py_by_number": Recipe(lambda a, other: torch.special.xlog1py(a, other),
                                params=_one_of("other", 2.5, 3, -0.5)),
    # The derivative for a is torch's NotImplementedError: a is a constant here, of x's shape
    # and on its device.
    "igamma": Recipe(lambda x: torch.special.gammainc(torch.full_like(x.detach(), 2.5), x),
                     ("positive",)),
    "igammac": Recipe(lambda x: torch.igammac(torch.full_like(x.detach(), 1.5), x),
                      ("positive",)),
    # zeta's order has no derivative either: a constant order above one, q drawn positive.
    "special_zeta": Recipe(lambda q: torch.special.zeta(torch.full_like(q.detach(), 2.5), q),
                           ("positive",)),
    "number_zeta": Recipe(lambda q, self: torch.special.zeta(self, q), ("positive",),
                          params=_one_of("self", 2, 3.5)),
})


# cdist and pdist (chapter 16n): the row a small cdist records, the product form larger ones
# record, and pdist's. Their gradients cannot be differentiated, as in torch: REFUSING, in
# _gradient_support.
_TWO_SETS = st.sampled_from([[(3, 2), (4, 2)], [(2, 3, 2), (1, 4, 2)], [(1, 3), (2, 3)]])
_ANY_P = _one_of("p", 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, float("inf"))
RECIPES.update({
    "_cdist_forward": Recipe(lambda a, b, p: torch.cdist(a, b, p, "donot_use_mm_for_euclid_dist"),
                             ("any", "any"), params=_ANY_P, shapes=_TWO_SETS, twice=False),
    "_pdist_forward": Recipe(lambda a, p: torch.pdist(a, p), params=_ANY_P,
                             shapes=st.sampled_from([[(4, 2)], [(3, 3)], [(2, 1)]]), twice=False),
    "_euclidean_dist": Recipe(lambda a, b: call(OPS["_euclidean_dist"], (a, b)), ("any", "any"),
                              shapes=_TWO_SETS),
})


# The in-place activations' rows (chapter 16n), called out of place.
RECIPES.update({
    "elu_": Recipe(lambda a: call(OPS["elu_"], (a,), {
        "alpha": 1.6732632423543772, "scale": 1.0507009873554805, "input_scale": 1})),
    "celu_": Recipe(lambda a, alpha: call(OPS["celu_"], (a,), {"alpha": alpha}),
                    params=_one_of("alpha", 1.0, 0.3, 2)),
    "threshold_": Recipe(lambda a, threshold: call(OPS["threshold_"], (a,), {
        "threshold": threshold, "value": 2.0}), params=_one_of("threshold", 0.1, -0.5)),
})


test_first_order, test_second_order = gradient_tests(RECIPES)
