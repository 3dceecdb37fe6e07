"""torch.func's smaller helpers: replace_all_batch_norm_modules_ stops every batch norm
tracking statistics, in place; functionalize keeps a function's values and checks its
option in torch's words; debug_unwrap hands back a plain tensor."""

import torch
from torch import nn
from torch.func import debug_unwrap, functionalize, replace_all_batch_norm_modules_, vmap

from conformance._support import raises


def test_batch_norms_stop_tracking_running_statistics():
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2), nn.Sequential(nn.BatchNorm2d(3)))
    assert replace_all_batch_norm_modules_(model) is model
    for bn in (model[1], model[2][0]):
        assert bn.running_mean is None and bn.running_var is None
        assert bn.num_batches_tracked is None and bn.track_running_stats is False
    assert dict(model[1].named_buffers()) == {}
    norm = nn.BatchNorm1d(2)
    assert replace_all_batch_norm_modules_(norm) is norm and norm.running_mean is None


def test_a_replaced_batch_norm_normalizes_with_the_batch_s_own_statistics():
    torch.manual_seed(0)
    norm = replace_all_batch_norm_modules_(nn.BatchNorm1d(3))
    x = torch.randn(4, 3)
    expected = (x - x.mean(0)) / torch.sqrt(x.var(0, unbiased=False) + norm.eps)
    torch.testing.assert_close(norm(x), expected)
    assert vmap(norm)(torch.randn(2, 4, 3)).shape == (2, 4, 3)


def test_functionalize_keeps_the_values_of_a_function_that_writes_in_place():
    def f(x):
        y = x.clone()
        y.add_(1)
        y.mul_(2)
        return y

    x = torch.tensor([1.0, 2.0])
    assert functionalize(f)(x).tolist() == [4.0, 6.0] and x.tolist() == [1.0, 2.0]
    assert functionalize(f, remove="mutations_and_views")(x).tolist() == [4.0, 6.0]
    with raises(RuntimeError, (
            "functionalize(f, remove='mutations'): received invalid argument for remove=bad. "
            "Valid options are:\n     remove='mutations': all inplace and out= operators will be"
            " removed from the program, and replaced with their out-of-place equivalents.\n"
            "     remove='mutations_and_views': In addition to the above, all aliasing operators"
            " {view} will be replaced with their non-aliasing counterparts, {view}_copy.\n")):
        functionalize(f, remove="bad")


def test_debug_unwrap_of_a_plain_tensor_is_that_tensor():
    x = torch.ones(2)
    assert debug_unwrap(x) is x and debug_unwrap(x, recurse=False) is x
