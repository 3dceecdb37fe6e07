"""Black-box tests: channel dropout refuses an input too small to have channels."""

import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

_REFUSAL = "Feature dropout requires at least 2 dimensions in the input"


@pytest.mark.parametrize("shape", [(4,), ()])
@pytest.mark.parametrize("inplace", [False, True])
def test_dropout2d_warns_then_refuses_fewer_than_two_dims(shape, inplace):
    torch.manual_seed(0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with raises(RuntimeError, _REFUSAL):
            F.dropout2d(torch.ones(shape), 0.5, True, inplace)
    assert [str(w.message).split(":")[0] for w in caught] == ["dropout2d"]
    assert torch.rand(1).item() == 0.49625658988952637  # nothing drawn


def test_nothing_to_draw_is_no_refusal():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for p, training, shape in ((0.0, True, (4,)), (1.0, True, (4,)), (0.5, False, (4,)),
                                   (0.5, True, (0,))):
            assert F.dropout2d(torch.ones(shape), p, training).shape == shape


def test_dropout3d_refuses_a_0d_input_once_batched():
    x = torch.ones(())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with raises(RuntimeError, _REFUSAL):
            F.dropout3d(x, 0.5, True, True)
        assert x.shape == (1,)  # in place, the batch dimension was added first
        assert F.dropout3d(torch.ones(4), 0.5, True).shape == (4,)
