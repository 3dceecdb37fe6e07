"""A valid call of each function that takes out=, for the out= tests.

Each entry builds its arguments from the ``torch`` module it is given: real torch in
the oracle run, refgrad otherwise.
"""

def _x(t):
    return t.tensor([[0.1, 0.5, 0.9], [0.3, 0.7, 0.2]])


def _y(t):
    return t.tensor([[0.4, 0.2, 0.6], [0.8, 0.3, 0.5]])


def _i(t):
    return t.tensor([[3, 6, 2], [5, 4, 7]])


def _j(t):
    return t.tensor([[1, 4, 3], [2, 6, 1]])


def _m(t):
    return t.tensor([[2.0, 0.5], [0.3, 1.5]])


def _n(t):
    return t.tensor([[1.0, 0.2], [0.4, 2.0]])


def _lower(t):  # triangular, with a positive diagonal: a Cholesky factor
    return t.tensor([[2.0, 0.0], [0.5, 1.5]])


def _v(t):
    return t.tensor([0.5, 2.0])


UNARY = ("abs absolute acos angle arccos arcsin arcsinh arctan arctanh asin asinh atan atanh ceil "
         "cos cosh deg2rad digamma erf erfc erfinv exp exp2 expm1 fix floor frac i0 lgamma log "
         "log10 log1p log2 logit nan_to_num neg negative rad2deg reciprocal round rsqrt sgn "
         "sigmoid sign sin sinc sinh sqrt square tan tanh trunc isneginf isposinf signbit "
         "logical_not msort").split()
BINARY = ("add sub mul div divide true_divide multiply subtract pow float_power fmod remainder "
          "floor_divide atan2 arctan2 copysign fmax fmin maximum minimum hypot nextafter heaviside "
          "logaddexp logaddexp2 xlogy igamma igammac eq ne lt le gt ge greater greater_equal less "
          "less_equal not_equal logical_and logical_or logical_xor").split()
INT_BINARY = ("bitwise_and bitwise_or bitwise_xor bitwise_left_shift bitwise_right_shift "
              "gcd lcm").split()
DIM_REDUCTIONS = ("all any amax amin argmax argmin logsumexp mean nanmean nansum prod sum std "
                  "var cumsum cumprod logcumsumexp softmax log_softmax").split()

CALLS = {}  # name: a function of torch giving (args, kwargs)
for n in UNARY:
    CALLS[n] = lambda t: ((_x(t),), {})
for n in ("acosh", "arccosh"):
    CALLS[n] = lambda t: ((_x(t) + 1,), {})
CALLS["bitwise_not"] = lambda t: ((_i(t),), {})
for n in BINARY:
    CALLS[n] = lambda t: ((_x(t), _y(t)), {})
for n in INT_BINARY:
    CALLS[n] = lambda t: ((_i(t), _j(t)), {})
CALLS["ldexp"] = lambda t: ((_x(t), _j(t)), {})
for n in DIM_REDUCTIONS:
    CALLS[n] = lambda t: ((_x(t), 1), {})
CALLS.update({
    "addcdiv": lambda t: ((_x(t), _y(t), _y(t) + 1), {"value": 0.5}),
    "addcmul": lambda t: ((_x(t), _y(t), _x(t)), {"value": 2}),
    "lerp": lambda t: ((_x(t), _y(t), 0.3), {}),
    "clamp": lambda t: ((_x(t), 0.2, 0.6), {}),
    "clip": lambda t: ((_x(t), 0.2, 0.6), {}),
    "clamp_min": lambda t: ((_x(t), 0.4), {}),
    "clamp_max": lambda t: ((_x(t), 0.4), {}),
    "where": lambda t: ((_x(t) > 0.4, _x(t), _y(t)), {}),
    "norm": lambda t: ((_x(t), 2, 1), {}),
    "quantile": lambda t: ((_x(t), 0.5, 1), {}),
    "nanquantile": lambda t: ((_x(t), 0.5, 1), {}),
    "polygamma": lambda t: ((1, _x(t)), {}),
    "mvlgamma": lambda t: ((_x(t) + 2, 2), {}),
    "cat": lambda t: (([_x(t), _y(t)], 1), {}),
    "concat": lambda t: (([_x(t), _y(t)],), {}),
    "concatenate": lambda t: (([_x(t), _y(t)],), {}),
    "stack": lambda t: (([_x(t), _y(t)], 1), {}),
    "hstack": lambda t: (([_x(t), _y(t)],), {}),
    "vstack": lambda t: (([_x(t), _y(t)],), {}),
    "dstack": lambda t: (([_x(t), _y(t)],), {}),
    "column_stack": lambda t: (([_x(t), _y(t)],), {}),
    "row_stack": lambda t: (([_x(t), _y(t)],), {}),
    "diag": lambda t: ((_x(t), 1), {}),
    "tril": lambda t: ((_x(t),), {}),
    "triu": lambda t: ((_x(t), 1), {}),
    "diff": lambda t: ((_x(t),), {}),
    "gather": lambda t: ((_x(t), 1, t.tensor([[2, 0], [1, 1]])), {}),
    "index_select": lambda t: ((_x(t), 1, t.tensor([2, 0])), {}),
    "masked_select": lambda t: ((_x(t), _x(t) > 0.4), {}),
    "take": lambda t: ((_x(t), t.tensor([5, 0, 3])), {}),
    "take_along_dim": lambda t: ((_x(t), t.tensor([[2, 0], [1, 1]]), 1), {}),
    "nonzero": lambda t: ((_x(t) > 0.4,), {}),
    "index_add": lambda t: ((_x(t), 1, t.tensor([2, 0]), _y(t)[:, :2]), {}),
    "index_copy": lambda t: ((_x(t), 1, t.tensor([2, 0]), _y(t)[:, :2]), {}),
    "scatter": lambda t: ((_x(t), 1, t.tensor([[2, 0], [1, 1]]), _y(t)), {}),
    "scatter_add": lambda t: ((_x(t), 1, t.tensor([[2, 0], [1, 1]]), _y(t)), {}),
    "scatter_reduce": lambda t: ((_x(t), 1, t.tensor([[2, 0], [1, 1]]), _y(t), "sum"), {}),
    "slice_scatter": lambda t: ((_x(t), _y(t)[:, :1]), {"dim": 1, "start": 1, "end": 2}),
    "narrow_copy": lambda t: ((_x(t), 1, 1, 2), {}),
    "renorm": lambda t: ((_x(t), 2, 0, 0.5), {}),
    "threshold": lambda t: ((_x(t), 0.4, -1.0), {}),
    "hardshrink": lambda t: ((_x(t), 0.4), {}),
    "histc": lambda t: ((_x(t),), {"bins": 4, "min": 0, "max": 1}),
    "bucketize": lambda t: ((_x(t), t.tensor([0.25, 0.5, 0.75])), {}),
    "searchsorted": lambda t: ((t.tensor([0.25, 0.5, 0.75]), _x(t)), {}),
    "isin": lambda t: ((_i(t), _j(t)), {}),
    "mm": lambda t: ((_m(t), _n(t)), {}),
    "bmm": lambda t: ((_m(t)[None], _n(t)[None]), {}),
    "matmul": lambda t: ((_m(t), _n(t)), {}),
    "mv": lambda t: ((_m(t), _v(t)), {}),
    "dot": lambda t: ((_v(t), _v(t) + 1), {}),
    "vdot": lambda t: ((_v(t), _v(t) + 1), {}),
    "inner": lambda t: ((_m(t), _n(t)), {}),
    "outer": lambda t: ((_v(t), _v(t) + 1), {}),
    "ger": lambda t: ((_v(t), _v(t) + 1), {}),
    "kron": lambda t: ((_m(t), _n(t)), {}),
    "addmm": lambda t: ((_n(t), _m(t), _n(t)), {"beta": 0.5, "alpha": 2}),
    "addmv": lambda t: ((_v(t), _m(t), _v(t)), {}),
    "addr": lambda t: ((_n(t), _v(t), _v(t) + 1), {}),
    "addbmm": lambda t: ((_n(t), _m(t)[None], _n(t)[None]), {}),
    "baddbmm": lambda t: ((_n(t)[None], _m(t)[None], _n(t)[None]), {}),
    "tensordot": lambda t: ((_m(t), _n(t)), {"dims": 1}),
    "cross": lambda t: ((t.tensor([[1.0, 2.0, 3.0]]), t.tensor([[0.5, -1.0, 2.0]])), {"dim": 1}),
    "inverse": lambda t: ((_m(t),), {}),
    "cholesky_inverse": lambda t: ((_lower(t),), {}),
    "cholesky_solve": lambda t: ((_n(t), _lower(t)), {}),
    "matrix_power": lambda t: ((_m(t), 3), {}),
})
CALLS["argsort"] = lambda t: ((_x(t),), {"stable": True})  # torch's out= needs stable

SEVERAL = {  # the functions returning several tensors, given a tuple of outs
    "max": lambda t: ((_x(t), 1), {}),
    "min": lambda t: ((_x(t), 1), {"keepdim": True}),
    "median": lambda t: ((_x(t), 1), {}),
    "nanmedian": lambda t: ((_x(t), 0), {}),
    "mode": lambda t: ((_x(t), 1), {}),
    "kthvalue": lambda t: ((_x(t), 2, 1), {}),
    "sort": lambda t: ((_x(t), 1), {"descending": True}),
    "topk": lambda t: ((_x(t), 2), {}),
    "cummax": lambda t: ((_x(t), 1), {}),
    "cummin": lambda t: ((_x(t), 0), {}),
    "aminmax": lambda t: ((_x(t),), {"dim": 1}),
    "slogdet": lambda t: ((_m(t),), {}),
}

SPECIAL = {  # torch.special's functions that take out=
    **{name: lambda t: ((_x(t),), {}) for name in (
        "digamma entr erf erfc erfcx erfinv exp2 expit expm1 gammaln i0 i0e i1 i1e log1p "
        "log_ndtr logit ndtr ndtri psi round sinc").split()},
    **{name: lambda t: ((_x(t), _y(t)), {}) for name in ("xlog1py", "xlogy", "gammainc",
                                                          "gammaincc")},
    "polygamma": lambda t: ((1, _x(t)), {}),
    "multigammaln": lambda t: ((_x(t) + 2, 2), {}),
    "logsumexp": lambda t: ((_x(t), 1), {}),
}

LINALG = {  # torch.linalg's functions of one result that take out=
    **{name: lambda t: ((_m(t),), {}) for name in (
        "det inv matrix_norm matrix_rank norm pinv svdvals cond vector_norm").split()},
    **{name: lambda t: ((_lower(t) @ _lower(t).mT,), {}) for name in ("cholesky", "eigvalsh")},
    "cross": lambda t: ((t.tensor([[1.0, 2.0, 3.0]]), t.tensor([[0.5, -1.0, 2.0]])), {}),
    "matrix_power": lambda t: ((_m(t), 3), {}),
    "multi_dot": lambda t: (([_m(t), _n(t), _m(t)],), {}),
    "solve": lambda t: ((_m(t), _n(t)), {}),
    "solve_triangular": lambda t: ((_lower(t), _n(t)), {"upper": False}),
    "tensorsolve": lambda t: ((_m(t), _v(t)), {}),
    "tensorinv": lambda t: ((t.eye(4).reshape(4, 2, 2) * 2,), {"ind": 1}),
    "vecdot": lambda t: ((_v(t), _v(t) + 1), {}),
    "lu_solve": lambda t: ((*t.linalg.lu_factor(_m(t)), _n(t)), {}),
}

LINALG_SEVERAL = {  # torch.linalg's factorizations of several results
    **{name: lambda t: ((_m(t),), {}) for name in (
        "inv_ex", "lu", "lu_factor", "lu_factor_ex", "qr", "slogdet", "svd")},
    **{name: lambda t: ((_lower(t) @ _lower(t).mT,), {}) for name in ("cholesky_ex", "eigh")},
    "solve_ex": lambda t: ((_m(t), _n(t)), {}),
}
