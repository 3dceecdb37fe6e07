"""tensordot's two paths: a matrix product, or a dot product when the product is 1 by 1.

torch moves the summed dimensions together with ``permute``, and then either
reshapes both sides to matrices for ``mm``, or, when nothing is left over on
either side, flattens both to vectors for ``dot``. The graphs show which.
"""

import pytest
import torch

from conformance._support import unique_preorder

DOT = ["ViewBackward0", "DotBackward0", "ViewBackward0", "PermuteBackward0", "AccumulateGrad",
       "ViewBackward0", "PermuteBackward0", "AccumulateGrad"]
MM = [name.replace("Dot", "Mm") for name in DOT]

# (shape of a, shape of b, dims, graph, a.grad's strides, b.grad's strides)
CASES = [
    ((1, 3), (1, 3), ([1], [1]), DOT, (3, 1), (1, 1)),
    ((3, 1), (3, 1), ([0], [0]), DOT, (1, 3), (1, 1)),
    ((1, 2, 3), (2, 3, 1), ([1, 2], [0, 1]), DOT, (6, 3, 1), (3, 1, 1)),
    ((1, 0), (0, 1), ([1], [0]), DOT, (1, 1), (1, 1)),
    ((1, 1, 3), (3,), ([2], [0]),
     ["ViewBackward0", "DotBackward0", "ViewBackward0", "PermuteBackward0", "AccumulateGrad",
      "PermuteBackward0", "AccumulateGrad"], (3, 3, 1), (1,)),
    ((3,), (3,), ([0], [0]),
     ["ViewBackward0", "DotBackward0", "PermuteBackward0", "AccumulateGrad", "PermuteBackward0",
      "AccumulateGrad"], (1,), (1,)),
    ((1, 3), (2, 3), ([1], [1]), MM[:5] + ["ReshapeAliasBackward0"] + MM[6:], (3, 1), (3, 1)),
]


@pytest.mark.parametrize("a, b, dims, graph, a_strides, b_strides", CASES)
def test_tensordot_takes_torchs_path(a, b, dims, graph, a_strides, b_strides):
    x, y = torch.ones(*a, requires_grad=True), torch.ones(*b, requires_grad=True)
    out = torch.tensordot(x, y, dims)
    assert unique_preorder(out.grad_fn) == graph
    out.sum().backward()
    assert (x.grad.stride(), y.grad.stride()) == (a_strides, b_strides)
    assert (x.grad._version, y.grad._version) == (0, 0)


def test_a_paired_dimension_out_of_range():
    x = torch.ones(0)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range "
                                         r"of \[-1, 0\], but got 1\)"):
        torch.tensordot(x, x, ([1], [1]))
