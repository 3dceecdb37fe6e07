"""How var, std, var_mean, std_mean and vector norms compute: overflow, last digits."""

import math

import pytest
import torch

BIG = [7.0, -0.0, 1e30]  # squares overflow float32; their mean's distances do not
STD_OF_BIG = 5.7735029267188544e29


def test_float32_std_over_every_element_squares_in_float64():
    assert torch.std(torch.tensor(BIG)).item() == STD_OF_BIG
    assert torch.var(torch.tensor([1e20, 0.0])).item() == math.inf  # 5e39: past float32


@pytest.mark.parametrize("keepdim", [False, True])
def test_float32_std_along_a_dim_squares_in_float64(keepdim):
    x = torch.tensor([BIG, [1.0, 2.0, 4.0]])
    std = torch.std(x, 1, keepdim=keepdim)
    assert std.flatten().tolist() == [STD_OF_BIG, torch.tensor(1.5275252316519468).item()]
    spread, mean = torch.std_mean(x, 1, keepdim=keepdim)
    assert spread.flatten().tolist() == std.flatten().tolist()
    assert mean.flatten()[0].item() == torch.tensor(1e30 / 3).item()


@pytest.mark.parametrize("values", [[math.inf, math.inf], [-math.inf, 1.0], [1.0, math.nan]])
@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
def test_the_mean_of_var_mean_is_its_running_mean(name, values):
    spread, mean = getattr(torch, name)(torch.tensor(values))
    assert math.isnan(spread.item()) and math.isnan(mean.item())


def test_the_running_mean_has_its_own_last_digit():
    x = torch.tensor([-7.31, 6.95, 5.28, -4.9, -0.09], dtype=torch.float64)
    assert torch.var_mean(x)[1].item() == -0.013999999999999908  # the sum / 5 ends in 879


def test_float16_spread_rounds_once():
    x = torch.tensor([0.25, 7.0, 100.0], dtype=torch.float16)
    assert torch.std(x, correction=0).item() == 45.5
    y = torch.tensor([-0.77, -0.58, -0.15, 5.46], dtype=torch.float16)
    assert torch.std(y).item() == 2.9921875
    assert torch.var(y).item() == 8.953125
    assert torch.std_mean(y)[0].item() == 2.9921875


@pytest.mark.parametrize("p", [2, 1, 3, 0.5])
def test_float16_norm_is_computed_in_float32(p):
    x = torch.tensor([300.0, 400.0], dtype=torch.float16)  # 300 squared is past float16
    expected = (300.0 ** p + 400.0 ** p) ** (1 / p)
    assert torch.norm(x, p).item() == torch.tensor(expected, dtype=torch.float16).item()


@pytest.mark.parametrize("p", [2, 3, 1, math.inf])
def test_a_norm_of_slices_of_one_element_is_their_size(p):
    x = torch.tensor([[1e20], [-3.0]])
    assert torch.norm(x, p, dim=1).tolist() == [torch.tensor(1e20).item(), 3.0]
    assert torch.linalg.vector_norm(torch.tensor([-1e20]), p).item() == torch.tensor(
        1e20).item()
    assert torch.norm(torch.tensor([1e20, 1e20]), 2).item() == math.inf


def test_norm_1_adds_one_element_after_the_other():
    x = torch.tensor([9.12, 8.96, -8.87, -8.3, 6.71, 4.72, 3.39, -3.84, 2.12, 2.14, 1.62,
                      -6.83, -1.39, -2.13, 4.46, 9.9, 8.99, 0.88, -1.1, -4.64])
    assert torch.norm(x, 1).item() == 100.1099853515625
    assert torch.norm(x.reshape(1, 20), 1, dim=1).item() == 100.1099853515625
