"""torch's removed linear-algebra functions refuse every call with torch's advice."""

import pytest
import torch

from conformance._support import raises

A = torch.eye(2)
REMOVED = "This function was deprecated since version 1.9 and is now removed."


@pytest.mark.parametrize("call", [
    lambda: torch.symeig(A), lambda: torch.eig(A), lambda: torch.solve(A, A),
    lambda: torch.lstsq(A, A), lambda: torch.matrix_rank(A), lambda: A.symeig(True),
    lambda: A.eig(), lambda: A.solve(A), lambda: A.lstsq(A),
])
def test_the_removed_functions_refuse(call):
    with pytest.raises(RuntimeError) as caught:
        call()
    assert str(caught.value).startswith(REMOVED)


def test_the_advice_is_torchs():
    with raises(RuntimeError, f"{REMOVED}\nPlease use the `torch.linalg.matrix_rank` function "
                "instead. The parameter 'symmetric' was renamed in "
                "`torch.linalg.matrix_rank()` to 'hermitian'."):
        torch.matrix_rank(A, symmetric=True)
    with raises(TypeError, "_symeig() missing 1 required positional argument: 'input'"):
        torch.symeig()
    assert not hasattr(torch.Tensor, "matrix_rank")
