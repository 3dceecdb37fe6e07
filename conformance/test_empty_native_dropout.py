"""Black-box tests: native_dropout of an empty input returns the input itself, which takes the
node's history when it requires grad, keeps its version, and gets a new empty mask of its
dtype. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize("train", [True, False, None])
@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3)])
def test_an_empty_input_is_the_output(shape, train):
    x = torch.ones(shape, dtype=torch.float64)
    out, mask = torch.native_dropout(x, 0.5, train)
    assert out is x and mask is not x
    assert (x._version, mask.dtype, mask.shape, mask.stride()) == (
        0, torch.float64, x.shape, x.stride())
    assert out.grad_fn is None and not out.requires_grad


def test_a_leaf_takes_the_history_and_is_moved_into_the_graph():
    x = torch.ones(2, 0, requires_grad=True)
    out, mask = torch.native_dropout(x, 0.5, True)
    assert out is x and not x.is_leaf and type(x.grad_fn).__name__ == "NativeDropoutBackward0"
    assert type(x.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"
    assert not mask.requires_grad and x._version == 0
    with raises(RuntimeError, "leaf variable has been moved into the graph interior"):
        out.sum().backward()


def test_a_result_takes_the_history_over_its_own():
    x = torch.ones(2, 0, requires_grad=True)
    y = x * 2
    out, _ = torch.native_dropout(y, 0.5, False)
    assert out is y and type(y.grad_fn).__name__ == "NativeDropoutBackward0"
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "MulBackward0"
    out.sum().backward()
    assert x.grad.shape == (2, 0)


def test_a_view_stays_a_view_and_no_grad_records_nothing():
    base = torch.ones(3, 0)
    view = base[1:]
    assert torch.native_dropout(view, 0.5, True)[0] is view and view._base is base
    x = torch.ones(2, 0, requires_grad=True)
    with torch.no_grad():
        assert torch.native_dropout(x, 0.5, True)[0] is x
    assert x.is_leaf


def test_dropouts_above_it_also_return_an_empty_input():
    x = torch.ones(2, 0, 3, requires_grad=True)
    for call in (lambda t: torch.nn.functional.dropout(t, 0.5, True),
                 lambda t: torch.dropout(t, 0.5, True),
                 lambda t: torch.nn.functional.alpha_dropout(t, 0.5, True)):
        assert call(x) is x and x.is_leaf


def test_an_empty_dual_input_fails_torchs_assertion():
    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.zeros(2, 0), torch.zeros(2, 0))
        with pytest.raises(RuntimeError, match="Only inplace operations can re-set the forward "
                           "grad of a Tensor that already has one.$"):
            torch.native_dropout(dual, 0.5, True)
