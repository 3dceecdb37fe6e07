"""torch.linalg.eig and eigvals return complex tensors: torch computes them, refgrad refuses by
name, in words that say it does not compute them yet (a difference the book names)."""

import os

import pytest
import torch

TARGET = os.environ.get("REFGRAD_CONFORMANCE_TARGET", "refgrad")

A = [[0.0, -1.0], [1.0, 0.0]]  # a rotation: eigenvalues ±i


@pytest.mark.parametrize("name", ["eig", "eigvals"])
def test_complex_eigenvalues(name):
    function = getattr(torch.linalg, name)
    if TARGET == "torch":
        result = function(torch.tensor(A))
        values = result if name == "eigvals" else result.eigenvalues
        assert values.dtype == torch.complex64
        assert sorted(v.imag for v in values.tolist()) == [-1.0, 1.0]
        return
    with pytest.raises(NotImplementedError, match="^refgrad does not yet compute "
                       f"torch.linalg.{name} as torch does: its complex"):
        function(torch.tensor(A))
