"""torch.native_group_norm: the group-norm row with its statistics, sizes given by hand."""

import pytest
import torch
import torch.nn.functional as F


def _input():
    return torch.linspace(-2.0, 3.0, 36, dtype=torch.float64).reshape(2, 6, 3).requires_grad_()


def test_the_row_gives_group_norm_and_its_statistics():
    x = _input()
    w, b = torch.linspace(0.5, 1.5, 6, dtype=torch.float64), torch.zeros(6, dtype=torch.float64)
    out, mean, rstd = torch.native_group_norm(x, w, b, 2, 6, 3, 3, 1e-5)
    assert torch.equal(out, F.group_norm(x, 3, w, b))
    assert mean.shape == rstd.shape == (2, 3)
    assert type(out.grad_fn).__name__ == "NativeGroupNormBackward0" and mean.grad_fn is out.grad_fn
    groups = x.detach().reshape(2, 3, 6)
    assert torch.allclose(mean, groups.mean(-1))
    assert torch.allclose(rstd, (groups.var(-1, unbiased=False) + 1e-5).rsqrt())


def test_the_sizes_are_taken_as_given():
    x = _input()
    out, mean, _ = torch.native_group_norm(x, None, None, 3, 6, 2, 3, 1e-5)
    assert out.shape == (2, 6, 3) and mean.shape == (3, 3)


@pytest.mark.parametrize(("sizes", "message"), [
    ((2, 6, 4, 3), "Expected X.numel() == N * C * HxW to be true, but got false.  (Could this "
     "error message be improved?  If so, please report an enhancement request to PyTorch.)"),
    ((2, 6, 3, 4), "Expected number of channels in input to be divisible by num_groups, but got "
     "input of shape [2, 6, 3] and num_groups=4"),
    ((2, 6, 3, 0), "Expected num groups to be greater than 0, got 0"),
])
def test_bad_sizes_are_refused_in_torchs_words(sizes, message):
    with pytest.raises(RuntimeError) as caught:
        torch.native_group_norm(_input(), None, None, *sizes, 1e-5)
    assert str(caught.value) == message


def test_a_weight_of_the_wrong_size_is_refused():
    with pytest.raises(RuntimeError, match=r"^Expected weight to be a vector of size equal to "
                       r"the number of channels in input, but got weight of shape \[3\]"):
        torch.native_group_norm(_input(), torch.ones(3, dtype=torch.float64), None, 2, 6, 3, 3,
                                1e-5)
