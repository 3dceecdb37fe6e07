"""renorm's gradient sums in the accumulation type of its input's dtype, and casts back.

On the CPU torch takes a float32 input's norm and sums in float64 (float16's in
float32), so the second derivative's graph has a ToCopyBackward0, and the values
are those of the wider arithmetic, rounded once.
"""

import pytest
import torch

from conformance._support import unique_preorder


def _graph(cast):
    return ["WhereBackward0", *(["ToCopyBackward0"] if cast else []), "MulBackward0",
            "MulBackward1", "ReciprocalBackward0", "AddBackward1", "LinalgVectorNormBackward0",
            "AccumulateGrad", "SubBackward0", "AddBackward0", "MulBackward0", "RenormBackward0",
            "MulBackward0", "MulBackward0", "MulBackward0", "SumBackward1", "MulBackward0",
            "MaskedFillBackward0", "DivBackward0"]


@pytest.mark.parametrize("dtype, cast", [(torch.float32, True), (torch.float64, False)])
def test_renorms_second_derivative_casts_back_from_the_wider_sums(dtype, cast):
    x = (torch.arange(6, dtype=torch.float64).reshape(2, 3) * 0.37 + 0.4).to(dtype)
    x.requires_grad_()
    y = x.renorm(2, 0, 0.5)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert g.dtype == dtype
    assert unique_preorder(g.grad_fn) == _graph(cast)


def test_a_float32_renorm_gradient_is_computed_wide_and_rounded_once():
    x = (torch.arange(6, dtype=torch.float64).reshape(2, 3) * 0.37 + 0.4)
    narrow = x.float().requires_grad_()
    (g,) = torch.autograd.grad((narrow.renorm(2, 0, 0.5) ** 2).sum(), narrow)
    hexes = [v.hex() for v in g.double().flatten().tolist()]
    assert hexes == ["0x1.2393460000000p-27", "0x1.4e827a0000000p-27", "0x1.a55fe20000000p-26",
                     "0x1.13d6e60000000p-28", "0x1.1bf8f80000000p-28", "-0x1.261fc20000000p-32"]
