"""Gradient recipes for the rows that make or take complex tensors (chapter 02c).

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
