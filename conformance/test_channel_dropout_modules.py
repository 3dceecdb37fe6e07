"""Black-box tests: nn.Dropout1d, Dropout2d and Dropout3d, modules over the functional channel
dropouts. The same assertions run on torch.
"""

import pytest
import torch
from torch import nn

from conformance._support import raises

_KINDS = [(nn.Dropout1d, (4, 8, 5)), (nn.Dropout2d, (4, 8, 3, 3)),
          (nn.Dropout3d, (2, 8, 2, 2, 2))]


@pytest.mark.parametrize("kind, shape", _KINDS)
def test_whole_channels_are_dropped_while_training(kind, shape):
    torch.manual_seed(0)
    layer = kind(p=0.5)
    out = layer(torch.ones(shape))
    per_channel = out.flatten(2)
    assert set(per_channel.amin(-1).tolist()[0]) <= {0.0, 2.0}
    assert torch.equal(per_channel.amin(-1), per_channel.amax(-1))  # each channel all or none
    layer.eval()
    x = torch.rand(shape)
    assert torch.equal(layer(x), x)


@pytest.mark.parametrize("kind, shape", _KINDS)
def test_they_print_and_refuse_as_torch_does(kind, shape):
    name = kind.__name__
    assert repr(kind()) == f"{name}(p=0.5, inplace=False)"
    assert repr(kind(0.25, inplace=True)) == f"{name}(p=0.25, inplace=True)"
    assert not isinstance(kind(), nn.Dropout) and not isinstance(nn.Dropout(), kind)
    with raises(ValueError, "dropout probability has to be between 0 and 1, but got 1.5"):
        kind(1.5)


def test_the_same_draws_as_the_function():
    x = torch.ones(4, 8, 3, 3)
    torch.manual_seed(3)
    by_module = nn.Dropout2d(0.3)(x)
    torch.manual_seed(3)
    assert torch.equal(by_module, torch.nn.functional.dropout2d(x, 0.3))
    inplace = torch.ones(4, 8, 3, 3)
    assert nn.Dropout2d(0.3, inplace=True)(inplace) is inplace
