"""The gradients of products and linear algebra."""

import warnings

from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops.slice_inverse import slice_inverse as _slice_inverse
from tests._gradient_support import Recipe, _one_of, _sizes, _spread_params, _wide, gradient_tests

RECIPES: dict[str, Recipe] = {}


def _scales(shapes):
    return st.sampled_from([(1, 1), (0.5, -2), (0, 1.5), (-1, 0)]).map(
        lambda p: {"beta": p[0], "alpha": p[1]})


def _added(function):
    return lambda a, b, c, beta, alpha: function(a, b, c, beta=beta, alpha=alpha)


def _cross_dim(shapes):
    return st.just({"dim": next(d for d, n in enumerate(shapes[0]) if n == 3)})


RECIPES.update({
    # input broadcast to the product's shape, or of the product's shape
    "addmm": Recipe(_added(torch.addmm), ("any",) * 3, _scales, shapes=st.one_of(
        _sizes("np", "nm", "mp"), _sizes("p", "nm", "mp"))),
    "addmv": Recipe(_added(torch.addmv), ("any",) * 3, _scales, shapes=st.one_of(
        _sizes("n", "nm", "m"), st.just([(), (2, 3), (3,)]))),
    "baddbmm": Recipe(_added(torch.baddbmm), ("any",) * 3, _scales, shapes=st.one_of(
        _sizes("bnp", "bnm", "bmp"), _sizes("np", "bnm", "bmp"))),
    "addbmm": Recipe(_added(torch.addbmm), ("any",) * 3, _scales, shapes=st.one_of(
        _sizes("np", "bnm", "bmp"), _sizes("p", "bnm", "bmp"))),
    "vdot": Recipe(torch.vdot, ("any", "any"), shapes=_sizes("n", "n")),
    "trace": Recipe(torch.trace, shapes=_sizes("nm")),
    "linalg_cross": Recipe(lambda a, b, dim: torch.linalg.cross(a, b, dim=dim), ("any", "any"),
                           _cross_dim, shapes=st.sampled_from([
                               [(3,), (3,)], [(2, 3), (1, 3)], [(3, 2), (3, 2)]])),
    "diag_embed": Recipe(lambda a, **p: torch.diag_embed(a, **p), min_ndim=1,
                         params=lambda shapes: st.builds(
                             lambda k, dims: {"offset": k, "dim1": dims[0], "dim2": dims[1]},
                             st.sampled_from([0, 1, -2]),
                             st.sampled_from([(-2, -1), (-1, 0), (0, 1)]))),
    "diagonal_copy": Recipe(lambda a, diagonal: torch.diag(a, diagonal), shapes=_sizes("nm"),
                            params=_one_of("diagonal", 0, 1, -1)),
    "rot90": Recipe(lambda a, k, dims: torch.rot90(a, k, dims), min_ndim=2,
                    params=lambda shapes: st.builds(lambda k, dims: {"k": k, "dims": dims},
                                                    st.sampled_from([1, 2, 3, -1, 0]),
                                                    st.sampled_from([(0, 1), (1, 0), (-1, 0)]))),
    "block_diag": Recipe(lambda *ts: torch.block_diag(*ts), ("any", "any", "any"),
                         broadcast=False, variadic=True, shapes=st.lists(st.lists(
                             st.integers(1, 3), max_size=2).map(tuple), min_size=3, max_size=3)),
})


def _conditioned(a):
    """Small entries and 3 on the diagonal: well away from a singular matrix."""
    return a + 3 * torch.eye(a.shape[-1], dtype=a.dtype, device=a.device)


def _positive_definite(a):
    return a @ a.mT + torch.eye(a.shape[-1], dtype=a.dtype, device=a.device)


def _quiet(call):
    with warnings.catch_warnings():  # the deprecated torch.cholesky warns
        warnings.simplefilter("ignore")
        return call()


_SQUARE = st.sampled_from([[(1, 1)], [(2, 2)], [(3, 3)], [(2, 3, 3)], [(2, 1, 2, 2)]])
_SOLVE_SHAPES = st.sampled_from([[(2, 2), (2,)], [(3, 3), (3, 2)], [(2, 3, 3), (3,)],
                                 [(2, 3, 3), (2, 3)], [(2, 2), (3, 2, 1)], [(2, 2, 2), (3, 2)],
                                 [(3, 3), (3, 3)], [(1, 1), (1,)]])


def _solve_sides(shapes):
    a, b = shapes
    n = a[-1]
    vector = len(b) == 1 or b == a[:-1]
    sides = [left for left, fits in ((True, vector or b[-2] == n),
                                     (False, not vector and b[-1] == n)) if fits]
    return st.sampled_from(sides).map(lambda left: {"left": left})


def _spread(a):
    """Small entries on n, n-1, ..., 1 down the diagonal: singular values apart and away from 0."""
    m, n = a.shape[-2:]
    steps = torch.arange(n, 0, -1, dtype=a.dtype, device=a.device)
    return 0.1 * a + torch.eye(m, n, dtype=a.dtype, device=a.device) * steps


def _symmetric(a):
    """A symmetric matrix with its eigenvalues apart."""
    return _spread(a + a.mT)


def _svd_invariants(result):
    """What does not depend on the signs of the singular vectors."""
    U, S, Vh = result
    k = S.shape[-1]
    U, Vh = U[..., :k], Vh[..., :k, :]
    return S, U * U, Vh * Vh, U @ Vh


def _eigh_invariants(result):
    L, V = result
    return L, V * V, (V * L.unsqueeze(-2)) @ V.mT


def _qr_modes(shapes):
    m, n = shapes[0][-2:]
    return st.sampled_from(["reduced", "complete"] if m <= n else ["reduced"]).map(
        lambda mode: {"mode": mode})


def _hermitian_if_square(shapes):
    m, n = shapes[0][-2:]
    return st.sampled_from([False, True] if m == n else [False]).map(
        lambda hermitian: {"hermitian": hermitian})


_MATRICES = st.sampled_from([[(1, 1)], [(2, 2)], [(3, 2)], [(2, 3)], [(3, 1)], [(2, 3, 3)],
                             [(2, 1, 2, 3)], [(2, 3, 2)]])


RECIPES.update({
    "linalg_svd": Recipe(
        lambda a, full_matrices: _svd_invariants(torch.linalg.svd(
            _spread(a), full_matrices=full_matrices)), ("small",),
        _one_of("full_matrices", False, True), shapes=_MATRICES),
    "linalg_eigh": Recipe(
        lambda a, UPLO: _eigh_invariants(torch.linalg.eigh(_symmetric(a), UPLO=UPLO)),
        ("small",), _one_of("UPLO", "L", "U"), shapes=_SQUARE),
    # Householder reflections fix the signs of Q's columns the same way in every LAPACK.
    "linalg_qr": Recipe(lambda a, mode: tuple(torch.linalg.qr(_spread(a), mode=mode)),
                        ("small",), _qr_modes, shapes=_MATRICES),
    "linalg_matrix_exp": Recipe(torch.linalg.matrix_exp, ("any",), shapes=_SQUARE),
    # A full rank kept under the steps of gradcheck: the pseudo-inverse is smooth there.
    "linalg_pinv": Recipe(lambda a, hermitian: torch.linalg.pinv(
        _symmetric(a) if hermitian else _spread(a), hermitian=hermitian), ("small",),
        _hermitian_if_square, shapes=_MATRICES),
})


RECIPES.update({
    "linalg_det": Recipe(lambda a: torch.linalg.det(_conditioned(a)), ("small",), shapes=_SQUARE),
    "linalg_slogdet": Recipe(lambda a: torch.linalg.slogdet(_conditioned(a)).logabsdet,
                             ("small",), shapes=_SQUARE),
    "linalg_inv_ex": Recipe(lambda a: torch.linalg.inv(_conditioned(a)), ("small",),
                            shapes=_SQUARE),
    "linalg_cholesky_ex": Recipe(
        lambda a, upper: torch.linalg.cholesky(_positive_definite(a), upper=upper), ("small",),
        _one_of("upper", False, True), shapes=_SQUARE),
    "cholesky": Recipe(lambda a, upper: _quiet(lambda: _positive_definite(a).cholesky(upper)),
                       ("small",), _one_of("upper", False, True), shapes=_SQUARE),
    "linalg_solve_ex": Recipe(
        lambda a, b, left: torch.linalg.solve(_conditioned(a), b, left=left), ("small", "any"),
        _solve_sides, shapes=_SOLVE_SHAPES),
    "addr": Recipe(lambda m, u, v, **p: torch.addr(m, u, v, **p), ("any",) * 3, _scales,
                   shapes=st.one_of(_sizes("nm", "n", "m"), _sizes("m", "n", "m"))),
    "dist": Recipe(lambda a, b, p: torch.dist(a, b, p), ("any", "any"),
                   _one_of("p", 2, 1, 3, 1.5, float("inf"))),
})


_TRIANGULAR_SHAPES = st.sampled_from([[(2, 2), (2, 1)], [(3, 3), (3, 2)], [(2, 3, 3), (3, 3)],
                                      [(2, 2), (3, 2, 2)], [(1, 1), (1, 3)], [(2, 2), (1, 2)]])


def _triangular_flags(shapes):
    a, b = shapes
    lefts = [left for left, side in ((True, -2), (False, -1)) if b[side] == a[-1]]
    return st.fixed_dictionaries({"upper": st.booleans(), "left": st.sampled_from(lefts),
                                  "unitriangular": st.booleans()})


def _old_triangular_flags(shapes):
    return st.fixed_dictionaries({"upper": st.booleans(), "transpose": st.booleans(),
                                  "unitriangular": st.booleans()})


def _triangular_solve(b, a, **flags):
    with warnings.catch_warnings():  # torch.triangular_solve is deprecated: warned once
        warnings.simplefilter("ignore")
        return tuple(torch.triangular_solve(b, _conditioned(a), **flags))


RECIPES.update({
    "linalg_solve_triangular": Recipe(
        lambda a, b, **flags: torch.linalg.solve_triangular(_conditioned(a), b, **flags),
        ("small", "any"), _triangular_flags, shapes=_TRIANGULAR_SHAPES),
    # A kept at full rank: the solution is smooth there, for every driver.
    "linalg_lstsq": Recipe(
        lambda a, b, driver: tuple(torch.linalg.lstsq(_spread(a), b, driver=driver)[:2]),
        ("small", "any"), _one_of("driver", "gels", "gelsy", "gelsd", "gelss"),
        shapes=st.sampled_from([[(3, 2), (3, 2)], [(2, 2), (2, 1)], [(2, 3), (2, 2)],
                                [(2, 3, 2), (2, 3, 1)], [(3, 2), (3,)], [(2, 3, 2), (2, 3)],
                                [(1, 3, 2), (2, 3, 2)], [(2, 3, 2), (1, 3, 1)]])),
    "triangular_solve": Recipe(
        _triangular_solve, ("any", "small"), _old_triangular_flags,
        # torch's tangent of cloned_coefficient is not broadcast: A's batch is the whole batch
        shapes=_TRIANGULAR_SHAPES.map(lambda shapes: [shapes[1], shapes[0]]).filter(
            lambda shapes: shapes[0][-2] == shapes[1][-1] and len(shapes[1]) >= len(shapes[0]))),
})


def _pivoted(a):
    """Small entries, and larger ones on the anti-diagonal: rows that must be swapped."""
    m, n = a.shape[-2:]
    steps = torch.arange(n, 0, -1, dtype=a.dtype, device=a.device)
    return 0.1 * a + torch.eye(m, n, dtype=a.dtype, device=a.device).flip(-2) * steps


def _last_row_pivots(lu):
    """Valid pivots for any LU: each step swaps with the last row."""
    m, n = lu.shape[-2:]
    return torch.full(tuple(lu.shape[:-2]) + (min(m, n),), m, dtype=torch.int32,
                      device=lu.device)


def _lu_solve_flags(shapes):
    a, b = shapes
    lefts = [left for left, side in ((True, -2), (False, -1)) if b[side] == a[-1]]
    return st.fixed_dictionaries({"left": st.sampled_from(lefts), "adjoint": st.booleans()})


RECIPES.update({
    "linalg_lu_factor_ex": Recipe(lambda a: torch.linalg.lu_factor_ex(_pivoted(a)).LU,
                                  ("small",), shapes=_MATRICES),
    "linalg_lu": Recipe(lambda a: tuple(torch.linalg.lu(_pivoted(a)))[1:], ("small",),
                        shapes=_MATRICES),
    "lu_unpack": Recipe(lambda lu: tuple(torch.lu_unpack(lu, _last_row_pivots(lu)))[1:],
                        shapes=_MATRICES),
    "linalg_lu_solve": Recipe(
        lambda lu, b, **flags: torch.linalg.lu_solve(_conditioned(lu), _last_row_pivots(lu), b,
                                                     **flags),
        ("small", "any"), _lu_solve_flags, shapes=_TRIANGULAR_SHAPES),
})


def _factor(u, upper):
    """A Cholesky factor: one triangle, well away from a zero on its diagonal."""
    t = u.triu() if upper else u.tril()
    return t + 2 * torch.eye(u.shape[-1], dtype=u.dtype, device=u.device)


RECIPES.update({
    "cholesky_solve": Recipe(
        lambda b, u, upper: torch.cholesky_solve(b, _factor(u, upper), upper), ("any", "small"),
        _one_of("upper", False, True),
        shapes=_TRIANGULAR_SHAPES.map(lambda shapes: [shapes[1], shapes[0]]).filter(
            lambda shapes: shapes[0][-2] == shapes[1][-1])),
    "cholesky_inverse": Recipe(lambda u, upper: torch.cholesky_inverse(_factor(u, upper), upper),
                               ("small",), _one_of("upper", False, True), shapes=_SQUARE),
})

# Reflectors scaled so that no tau_i ||v_i||² comes near 1, where a reflector is singular.
RECIPES["linalg_householder_product"] = Recipe(
    lambda a, tau: torch.linalg.householder_product(a, tau * 0.25), ("small", "small"),
    shapes=st.sampled_from([[(1, 1), (1,)], [(2, 2), (2,)], [(3, 2), (2,)], [(3, 2), (1,)],
                            [(3, 3), (3,)], [(2, 3, 2), (2, 2)], [(2, 1, 3, 1), (2, 1, 1)]]))


# The same reflectors, applied to a matrix from the side its shape allows.
RECIPES["ormqr"] = Recipe(
    lambda a, tau, c, left, transpose: torch.ormqr(a, tau * 0.25, c, left, transpose),
    ("small", "small", "any"),
    lambda shapes: st.fixed_dictionaries({"left": st.just(shapes[2][-2] == shapes[0][-2]),
                                          "transpose": st.booleans()}),
    shapes=st.sampled_from([[(1, 1), (1,), (1, 2)], [(3, 2), (2,), (3, 4)],
                            [(3, 2), (2,), (4, 3)], [(3, 3), (3,), (3, 3)],
                            [(2, 3, 2), (2, 2), (2, 3, 1)]]))


def _pick(*choices):
    return lambda shapes: st.sampled_from(choices)


def _ldexp(a, exponent):
    with warnings.catch_warnings():  # an input broadcast larger is resized, with a warning
        warnings.filterwarnings("ignore", "An output with one or more elements was resized")
        return torch.ldexp(a, exponent)


RECIPES.update({
    # chapter "More shapes, more elementwise"
    "select_scatter": Recipe(lambda a, s, dim, index: torch.select_scatter(a, s, dim, index),
                             ("any", "any"), _pick({"dim": 0, "index": -1},
                                                   {"dim": 0, "index": 0}),
                             shapes=_sizes("nm", "m")),
    "slice_scatter": Recipe(lambda a, s, **p: torch.slice_scatter(a, s, **p), ("any", "any"),
                            _pick({"dim": 1, "start": 1, "end": None, "step": 2},
                                  {"dim": -1, "start": -2, "end": None, "step": 1},
                                  {"dim": 1, "start": 0, "end": 2, "step": 1}),
                            shapes=st.just([(3, 4), (3, 2)])),
    "diagonal_scatter": Recipe(lambda a, s, **p: torch.diagonal_scatter(a, s, **p),
                               ("any", "any"),
                               _pick({"offset": 0, "dim1": 0, "dim2": 1},
                                     {"offset": 1, "dim1": 0, "dim2": 1},
                                     {"offset": 0, "dim1": 1, "dim2": 0}),
                               shapes=st.just([(3, 4), (3,)])),
    # a negative start only where the piece ends before the last element: see the
    # chapter's differences for torch's gradient at the end
    "narrow_copy": Recipe(lambda a, start: torch.narrow_copy(a, 0, start, 1), shapes=_wide(),
                          params=_one_of("start", 0, 1, -2)),
    "fmax": Recipe(torch.fmax, ("any", "any")),
    "fmin": Recipe(torch.fmin, ("any", "any")),
    "copysign": Recipe(torch.copysign, ("nonzero", "nonzero")),
    "copysign_number": Recipe(lambda a, other: torch.copysign(a, other), ("nonzero",),
                              _one_of("other", -1.5, 2, -0.0)),
    "ldexp": Recipe(_ldexp, ("any", "small")),
    "nextafter": Recipe(torch.nextafter, ("any", "any")),
    # angle's one jump, at zero, is out of reach; frexp's, at powers of two, rarely met
    "angle": Recipe(torch.angle, ("nonzero",)),
    "frexp": Recipe(torch.frexp),
    "var_mean": Recipe(lambda a, **p: torch.var_mean(a, **p), shapes=_wide(),
                       params=_spread_params),
    "std_mean": Recipe(lambda a, **p: torch.std_mean(a, **p), shapes=_wide(),
                       params=_spread_params),
    "norm_dims": Recipe(lambda a, b, p, keepdim: torch.pairwise_distance(a, b, p, keepdim=keepdim),
                        ("any", "any"), min_ndim=1, params=lambda shapes: st.builds(
                            lambda p, k: {"p": p, "keepdim": k},
                            st.sampled_from([1.0, 2.0, 3.0, 1.5]), st.booleans())),
    "renorm": Recipe(lambda a, **p: torch.renorm(a, **p), min_ndim=2,
                     params=lambda shapes: st.builds(
                         lambda p, d, m: {"p": p, "dim": d, "maxnorm": m},
                         st.sampled_from([1, 2, 3]), st.sampled_from([0, 1, -1]),
                         st.sampled_from([0.5, 1.0, 100.0]))),
    "elu": Recipe(torch.selu),
    "celu": Recipe(lambda a, alpha: torch.celu(a, alpha), params=_one_of("alpha", 1.0, 0.5, 2)),
    "threshold": Recipe(lambda a, threshold: torch.threshold(a, threshold, 2.0),
                        params=_one_of("threshold", 0.1, -0.5)),
    "hardshrink": Recipe(lambda a, lambd: a.hardshrink(lambd),
                         params=_one_of("lambd", 0.5, 0.3)),
    # chapter "A view made again on another base": the whole of src as the slice, both laid
    # out alike, the one case whose gradient is the derivative of the values (the op reads
    # memory: as_strided's way)
    "slice_inverse": Recipe(lambda a, s, **p: _slice_inverse(a.contiguous(), s.contiguous(),
                                                             **p), ("any", "any"),
                            _pick({"dim": 1, "start": 0, "end": None, "step": 1},
                                  {"dim": 0, "start": 0, "end": 3, "step": 1}),
                            shapes=st.just([(3, 4), (3, 4)])),
})


test_first_order, test_second_order = gradient_tests(RECIPES)
