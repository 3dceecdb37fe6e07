"""Gradient recipes for the rows that make or take complex tensors (chapters 02c to 02f).

gradcheck works on real numbers, so each recipe reads a complex result back as
its real and imaginary parts (``view_as_real``): the check then covers both rows'
formulas, with the conjugate Wirtinger convention in between.
"""

from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops import OPS
from refgrad._ops.dispatch import call
from tests._gradient_support import Recipe, gradient_tests


def _parts(z):
    return call(OPS["view_as_real"], (z,))


TWO = ("any", "any")

RECIPES: dict[str, Recipe] = {
    "complex": Recipe(lambda a, b: _parts(call(OPS["complex"], (a, b))), TWO, below=1),
    "polar": Recipe(lambda a, b: _parts(call(OPS["polar"], (a, b))), ("positive", "any"),
                    below=1, twice=False),
    "view_as_real": Recipe(lambda a, b: _parts(torch.complex(a, b) * torch.complex(b, a)), TWO),
    "view_as_complex": Recipe(
        lambda a: _parts(call(OPS["view_as_complex"], (a.contiguous(),)) ** 2),
        shapes=st.sampled_from([[(2,)], [(3, 2)], [(2, 1, 2)]]), below=2),
    "conj": Recipe(
        lambda a, b: _parts(call(OPS["conj"], (torch.complex(a, b) * a,))), TWO, below=1),
    "conj_physical": Recipe(
        lambda a, b: _parts(call(OPS["conj_physical"], (torch.complex(a, b) * b,))), TWO, below=1),
}

# refgrad refuses forward-mode tangents through these (NOTE [No complex tangents])
COMPLEX_ROWS = frozenset(RECIPES)

test_first_order, test_second_order = gradient_tests(RECIPES)


def _z(a, b):
    return torch.complex(a, b)


SMALL, RIGHT = ("small", "small"), ("positive", "any")  # RIGHT: off the branch cut of log
TIED = st.sampled_from([[(3,)] * 2, [(2, 3)] * 2])
SQUARE = st.sampled_from([[(2, 2)] * 2, [(3, 3)] * 2])

# Real rows run with complex operands (chapter 02d): recipes of their own, beside the real
# recipes the other families hold under the same names.
COMPLEX_FORMS: dict[str, Recipe] = {
    **{name: Recipe(lambda a, b, name=name: _parts(getattr(_z(a, b), name)()), values, below=1)
       for name, values in (("tanh", SMALL), ("sigmoid", SMALL), ("tan", SMALL),
                            ("rsqrt", RIGHT), ("log10", RIGHT), ("log2", RIGHT),
                            ("exp2", TWO), ("sinh", TWO), ("cosh", TWO), ("atan", SMALL),
                            ("asinh", SMALL), ("atanh", ("inside", "inside")),
                            ("expm1", TWO), ("log1p", RIGHT), ("sinc", TWO))},
    "prod": Recipe(lambda a, b: _parts(_z(a, b).prod()), TWO, shapes=TIED, below=1),
    "prod_dim": Recipe(lambda a, b: _parts(_z(a, b).prod(-1)), TWO, shapes=TIED, below=1),
    "cumprod": Recipe(lambda a, b: _parts(_z(a, b).cumprod(-1)), TWO, shapes=TIED, below=1),
    "trace": Recipe(lambda a, b: _parts(_z(a, b).trace()), TWO,
                    shapes=st.sampled_from([[(2, 3)] * 2, [(3, 3)] * 2]), below=1),
    "vdot": Recipe(lambda a, b, c, d: _parts(torch.vdot(_z(a, b), _z(c, d))), TWO * 2,
                   shapes=st.sampled_from([[(3,)] * 4]), below=1),
    "pow_tensor": Recipe(lambda a, b, c, d: _parts(_z(a, b) ** _z(c, d)),
                         ("positive", "small", "small", "small"), shapes=TIED.map(
                             lambda shapes: shapes * 2), below=1),
    "var": Recipe(lambda a, b: _z(a, b).var(-1), TWO, shapes=TIED),
    "std": Recipe(lambda a, b: _z(a, b).std(), TWO, shapes=TIED),
    "linalg_vector_norm": Recipe(lambda a, b: torch.linalg.vector_norm(_z(a, b), 3), TWO),
    "dist": Recipe(lambda a, b, c, d: torch.dist(_z(a, b), _z(c, d)), TWO * 2,
                   shapes=st.sampled_from([[(3,)] * 4])),
    "sgn": Recipe(lambda a, b: _parts(_z(a, b).sgn()), ("nonzero", "any"), shapes=TIED,
                  below=1),
    # chapter 02e: off the branch cuts (asin's and acos's beyond ±1, acosh's below 1)
    **{name: Recipe(lambda a, b, name=name: _parts(getattr(_z(a, b), name)()), values, below=1)
       for name, values in (("asin", ("inside", "inside")), ("acos", ("inside", "inside")),
                            ("acosh", ("above_one", "any")))},
    "logaddexp": Recipe(lambda a, b, c, d: _parts(torch.logaddexp(_z(a, b), _z(c, d))),
                        TWO * 2, shapes=st.sampled_from([[(3,)] * 4]), below=1),
    "var_mean": Recipe(lambda a, b: (lambda s, m: (s, _parts(m)))(*torch.var_mean(_z(a, b), -1)),
                       TWO, shapes=TIED),
    "std_mean": Recipe(lambda a, b: torch.std_mean(_z(a, b), 0)[0], TWO, shapes=TIED),
    "linalg_inv_ex": Recipe(lambda a, b: _parts(torch.linalg.inv(_z(a, b))), TWO,
                            shapes=SQUARE, below=1),
    "linalg_eigh": Recipe(lambda a, b: torch.linalg.eigvalsh(_z(a, b) + _z(a, b).mH), TWO,
                          shapes=SQUARE, twice=False),
    "linalg_det": Recipe(lambda a, b: _parts(torch.linalg.det(_z(a, b))), TWO,
                         shapes=SQUARE, below=1),
    "linalg_solve_ex": Recipe(
        lambda a, b, c, d: _parts(torch.linalg.solve(_z(a, b), _z(c, d))), TWO * 2,
        shapes=st.sampled_from([[(2, 2)] * 2 + [(2,)] * 2, [(3, 3)] * 2 + [(3, 2)] * 2]),
        below=1),
    "linalg_slogdet": Recipe(
        lambda a, b: (lambda s, la: (_parts(s), la))(*torch.linalg.slogdet(_z(a, b))), TWO,
        shapes=SQUARE, below=1),
    "linalg_pinv": Recipe(lambda a, b: _parts(torch.linalg.pinv(_z(a, b))), TWO,
                          shapes=st.sampled_from([[(3, 2)] * 2, [(2, 3)] * 2]), below=1),
    "linalg_lu_factor_ex": Recipe(lambda a, b: _parts(torch.linalg.lu_factor(_z(a, b)).LU), TWO,
                                  shapes=st.sampled_from([[(3, 3)] * 2, [(2, 3)] * 2]), below=1),
    "linalg_lu": Recipe(lambda a, b: _parts(torch.linalg.lu(_z(a, b)).U), TWO,
                        shapes=st.sampled_from([[(3, 2)] * 2, [(3, 3)] * 2]), below=1),
    "linalg_lu_solve": Recipe(
        lambda a, b, c, d: _parts(torch.linalg.lu_solve(*torch.linalg.lu_factor(_z(a, b)),
                                                        _z(c, d), adjoint=True)), TWO * 2,
        shapes=st.sampled_from([[(3, 3)] * 2 + [(3, 2)] * 2]), below=1),
    "linalg_solve_triangular": Recipe(
        lambda a, b, c, d: _parts(torch.linalg.solve_triangular(
            _z(a, b) + 3 * torch.eye(3), _z(c, d), upper=False)), TWO * 2,
        shapes=st.sampled_from([[(3, 3)] * 2 + [(3, 2)] * 2]), below=1),
    # the singular vectors' gradients are refused, so no second derivative
    "linalg_svd": Recipe(lambda a, b: torch.linalg.svdvals(_z(a, b)), TWO,
                         shapes=st.sampled_from([[(3, 2)] * 2, [(2, 3)] * 2]), twice=False),
}

test_complex_forms_first_order, test_complex_forms_second_order = gradient_tests(
    COMPLEX_FORMS)
