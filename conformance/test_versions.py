"""Version counters (spec F113-F118, F152, F183), written against torch's API."""

import re

import numpy as np
import pytest
import torch
from torch.autograd.graph import increment_version

from conformance._support import raises


def test_every_in_place_write_counts_once():
    a = torch.ones(2, 3)
    assert a._version == 0 and (a + 1)._version == 0 and a.clone()._version == 0
    a.add_(1)
    a.mul_(2).sub_(1)
    a[0] = 5
    a += 1
    torch.add(a, 1, out=a)
    assert a._version == 6


def test_views_and_detach_share_the_counter_and_data_does_not():
    a = torch.ones(2, 3)
    views = (a.view(6), a[0], a.t(), a.detach())
    a.zero_()
    assert all(v._version == 1 for v in views) and a.data._version == 0
    a.data.add_(1)
    assert a._version == 1
    views[1].mul_(2)  # a write through a view counts for the base and every view
    assert a._version == 2 and all(v._version == 2 for v in views)


def test_increment_version_takes_a_tensor_or_any_iterable():
    b = torch.ones(2)
    assert increment_version(b) is None
    increment_version([b, b])
    increment_version(t for t in (b,))
    assert b._version == 4
    increment_version(b[0])
    assert b._version == 5


def test_increment_version_misuse_bumps_what_came_before():
    b = torch.ones(2)
    with raises(RuntimeError, "increment_version expect a Iterable[Tensor] as input"):
        increment_version(3)
    with raises(RuntimeError, "increment_version expects each element of the iterable to be "
                "a tensor"):
        increment_version([b, 3])
    assert b._version == 1


# F152
def test_inference_tensors_are_skipped():
    with torch.inference_mode():
        t = torch.ones(2)
    increment_version(t)
    with raises(RuntimeError, "Inference tensors do not track version counter."):
        t._version


def test_a_counted_write_fails_the_saved_tensor_check():
    x = torch.ones(2, requires_grad=True)
    y = x * x
    increment_version(x)
    with pytest.raises(RuntimeError, match=r"^one of the variables needed for gradient "
                       r"computation has been modified by an inplace operation: "
                       r"\[torch.FloatTensor \[2\]\] is at version 1; expected version 0"):
        y.sum().backward()


def test_unsafe_set_version_counter_can_go_down():
    from torch._C._autograd import _unsafe_set_version_counter

    a = torch.ones(2)
    a.add_(1)
    _unsafe_set_version_counter((a,), (0,))
    assert a._version == 0
    _unsafe_set_version_counter((a,), (7,))
    assert a._version == 7


BINDING = ("_unsafe_set_version_counter(): incompatible function arguments. The following "
           "argument types are supported:\n    1. (arg0: collections.abc.Sequence[torch.Tensor], "
           "arg1: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> None"
           "\n\nInvoked with: ")


def test_unsafe_set_version_counter_checks_lengths_before_setting_anything():
    from torch._C._autograd import _unsafe_set_version_counter

    a, b = torch.ones(2), torch.ones(2)
    with raises(RuntimeError, "tensors_len=2, versions_len=1"):
        _unsafe_set_version_counter((a, b), (3,))
    assert (a._version, b._version) == (0, 0)


def test_unsafe_set_version_counter_refuses_a_negative_version_where_it_comes():
    from torch._C._autograd import _unsafe_set_version_counter

    a, b = torch.ones(2), torch.ones(2)
    with raises(RuntimeError, "Cannot set a version_counter to a value below 0: -1"):
        _unsafe_set_version_counter([a, b], [7, -1])
    assert (a._version, b._version) == (7, 0)


@pytest.mark.parametrize(("args", "shown"), [
    (((1,), (5,)), "(1,), (5,)"), (((None,), (2.5,)), "(None,), (2.5,)"),
    (((), 3), "(), 3"), ((("a",),), "('a',)"), (((), (2**63,)), "(), (9223372036854775808,)"),
])
def test_unsafe_set_version_counter_reads_its_arguments_as_torchs_binding(args, shown):
    from torch._C._autograd import _unsafe_set_version_counter

    with raises(TypeError, BINDING + shown):
        _unsafe_set_version_counter(*args)


def test_unsafe_set_version_counter_keeps_32_bits_and_takes_any_whole_number():
    from torch._C._autograd import _unsafe_set_version_counter

    a = torch.ones(2)
    _unsafe_set_version_counter((a,), (2**33 + 5,))
    assert a._version == 5
    _unsafe_set_version_counter((a,), (True,))
    assert a._version == 1
    _unsafe_set_version_counter((a,), (np.int64(4),))
    assert a._version == 4


def test_unsafe_preserve_version_counter_hides_writes():
    from torch.autograd.grad_mode import _unsafe_preserve_version_counter

    x = torch.ones(2, requires_grad=True)
    y = x * 1
    z = y * y
    with _unsafe_preserve_version_counter(y):
        with torch.no_grad():
            y.mul_(3)
    assert y._version == 0
    z.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]  # 2 * y with y written to 3, times dy/dx = 1


def test_in_place_on_a_normal_tensor_inside_inference_mode_still_counts():
    # F128
    x = torch.ones(2)
    with torch.inference_mode():
        x.add_(1)
    assert x._version == 1 and not x.is_inference()


def test_in_place_on_a_detached_alias_counts_for_the_original():
    # F127: the write through the alias makes the saved original stale.
    a = torch.ones(2, requires_grad=True)
    b = a * 1
    y = b * b
    b.detach().add_(1)
    assert b._version == 1
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0 instead"):
        y.sum().backward()


@pytest.mark.parametrize(("write", "shown"), [
    (lambda w: w.mul_(2), "Mul"), (lambda w: w.clamp_(min=0), "Clamp1"),
    (lambda w: w.fill_(1), "Fill2"), (lambda w: w.copy_(torch.ones(3)),
                                       "torch::autograd::CopyBackwards"),
    (lambda w: w.__setitem__(0, 5.0), "torch::autograd::CopySlices"),
])
def test_the_modified_message_names_the_producer_as_torch_shortens_it(write, shown):
    leaf = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = leaf * 2
    y = w.sin()
    write(w)
    with pytest.raises(RuntimeError, match=rf"which is output 0 of {re.escape(shown)}, is at"):
        y.sum().backward()


def test_gradients_summed_in_the_engine_count_each_addition_as_a_write():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    (single,) = torch.autograd.grad((a * 2).sum(), a)
    (two,) = torch.autograd.grad((a * 2 + a * 3).sum(), a)
    (three,) = torch.autograd.grad((a * 2 + a * 3 + a * 4).sum(), a)
    assert (single._version, two._version, three._version) == (0, 1, 2)
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    (leaf * 2 + leaf * 3).sum().backward()
    assert leaf.grad._version == 1 and leaf.grad.tolist() == [5.0, 5.0]  # stolen, count kept


class _Pair(torch.autograd.Function):
    """Two outputs; the second is saved as an output when ``save`` says so."""

    @staticmethod
    def forward(ctx, x, save):
        first, second = x + 1, x * 2
        if save:
            ctx.save_for_backward(second)
        return first, second

    @staticmethod
    def backward(ctx, g1, g2):
        ctx.saved_tensors  # noqa: B018 - the version check is in the reading
        return g1 + 2 * g2, None


def _modified(run) -> str:
    with pytest.raises(RuntimeError, match="modified by an inplace operation") as info:
        run()
    return re.search(r"which is output \d+ of [\w:]+,", str(info.value))[0]


def test_a_saved_input_is_named_output_0_of_its_current_grad_fn():
    a = torch.tensor(-0.38, requires_grad=True)
    _, second = _Pair.apply(a, False)
    z = second * second
    with torch.no_grad():
        second.mul_(2)
    assert second.output_nr == 1
    assert _modified(z.backward) == "which is output 0 of _Pair,"
    _, second = _Pair.apply(a, False)
    z = second * second
    second.mul_(2)
    assert _modified(z.backward) == "which is output 0 of Mul,"
    low, high = torch.aminmax(torch.tensor([1.0, 2.0], requires_grad=True))
    z = high * high
    high.mul_(2)
    assert _modified(z.backward) == "which is output 0 of Mul,"


def test_a_saved_output_is_named_by_its_own_number_and_node():
    a = torch.tensor(-0.38, requires_grad=True)
    first, second = _Pair.apply(a, True)
    second.mul_(2)
    assert _modified((first + second).backward) == "which is output 1 of _Pair,"
