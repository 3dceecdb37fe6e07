"""refgrad.utils.checkpoint and refgrad.random: the parts torch does not show."""

import pytest

import refgrad
from refgrad.autograd import _is_checkpoint_valid
from refgrad.random import fork_rng, get_rng_state, set_rng_state
from refgrad.utils import _checkpoint_frame
from refgrad.utils.checkpoint import (
    CheckpointError,
    checkpoint,
    set_checkpoint_debug_enabled,
    set_checkpoint_early_stop,
)


@pytest.fixture(autouse=True)
def generator_left_as_found():
    with fork_rng():
        yield


def frames_made(monkeypatch) -> list:
    """Collect every Frame the non-reentrant checkpoint makes from now on."""
    made = []
    real = _checkpoint_frame.Frame

    def record(*args):
        made.append(real(*args))
        return made[-1]

    monkeypatch.setattr("refgrad.utils.checkpoint.Frame", record)
    return made


def test_the_state_is_the_default_generators():
    refgrad.manual_seed(12345)
    refgrad.rand(3)
    state = get_rng_state()
    assert refgrad.equal(state, refgrad.default_generator.get_state())
    refgrad.rand(2)
    assert not refgrad.equal(get_rng_state(), state)


def test_a_held_back_normal_number_survives_the_round_trip():
    refgrad.manual_seed(3)
    refgrad.randn(1, dtype=refgrad.float64)  # keeps its sine back
    state = get_rng_state()
    first = refgrad.randn(3, dtype=refgrad.float64)
    refgrad.manual_seed(4)
    set_rng_state(state)
    assert refgrad.equal(refgrad.randn(3, dtype=refgrad.float64), first)


def test_reexports_and_meta_fork():
    assert refgrad.get_rng_state is get_rng_state
    assert refgrad.random.set_rng_state is set_rng_state
    state = get_rng_state()
    with fork_rng(device_type="meta"):
        refgrad.rand(2)
    assert not refgrad.equal(get_rng_state(), state)


def test_checkpoint_valid_outside_backward_and_in_plain_backward_only():
    seen = []
    x = refgrad.ones(2, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: seen.append(_is_checkpoint_valid()))
    assert _is_checkpoint_valid()
    y.sum().backward(retain_graph=True)
    refgrad.autograd.grad(y.sum(), x, retain_graph=True)
    y.sum().backward(inputs=[x])
    assert seen == [True, False, False]


def test_holders_are_weak_and_die_with_the_graph(monkeypatch):
    frames = frames_made(monkeypatch)
    x = refgrad.tensor([0.5, 1.0], requires_grad=True)
    y = checkpoint(lambda t: t.sin().exp(), x, use_reentrant=False)
    (frame,) = frames
    assert len(frame.holders) == 2 and all(ref() is not None for ref in frame.holders)
    y.sum().backward()
    assert all(ref() is None for ref in frame.holders)


def test_recomputed_values_are_dropped_when_unpacked_even_if_retained(monkeypatch):
    frames = frames_made(monkeypatch)
    x = refgrad.tensor([0.5, 1.0], requires_grad=True)
    y = checkpoint(lambda t: t.sin().exp(), x, use_reentrant=False)
    y.sum().backward(retain_graph=True)
    (frame,) = frames
    holders = [ref() for ref in frame.holders]
    assert all(h is not None for h in holders)
    assert [list(h.values.values()) for h in holders] == [[None], [None]]
    y.sum().backward()
    assert [len(h.values) for h in holders] == [2, 2]  # one entry per backward run


def test_each_unpack_outside_backward_recomputes():
    starts = []

    def fn(t):
        starts.append(1)
        return t.sin()

    x = refgrad.tensor([0.5, 1.0], requires_grad=True)
    y = checkpoint(fn, x, use_reentrant=False)
    first, second = y.grad_fn._saved_self, y.grad_fn._saved_self
    assert len(starts) == 3
    assert refgrad.equal(first, x) and refgrad.equal(second, x)


def test_switches_are_restored_after_an_error():
    with pytest.raises(KeyError):
        with set_checkpoint_early_stop(False), set_checkpoint_debug_enabled(True):
            assert (_checkpoint_frame.switches.early_stop, _checkpoint_frame.switches.debug) \
                == (False, True)
            raise KeyError
    assert (_checkpoint_frame.switches.early_stop, _checkpoint_frame.switches.debug) == (
        None, None)


def test_debug_keeps_the_short_message_as_the_cause():
    calls = []

    def moody(t):
        calls.append(1)
        return (t if len(calls) == 1 else refgrad.cat([t, t])).exp()

    messages = []
    for debug in (False, True):
        calls.clear()
        y = checkpoint(moody, refgrad.ones(2, requires_grad=True), use_reentrant=False,
                       debug=debug)
        with pytest.raises(CheckpointError) as error:
            y.sum().backward()
        messages.append(error.value)
    assert str(messages[0]) == str(messages[1].__cause__)
    assert str(messages[0]).startswith("torch.utils.checkpoint: Recomputed values")
    assert "Operations executed during recomputation:" in str(messages[1])


def test_a_frame_saves_its_arguments_under_the_enclosing_hooks(monkeypatch):
    frames = frames_made(monkeypatch)

    def outer(t):
        return checkpoint(lambda u: u.exp(), t.cos(), use_reentrant=False).sum()

    x = refgrad.tensor([0.5, 1.0], requires_grad=True)
    checkpoint(outer, x, use_reentrant=False)
    outer_frame, inner_frame = frames
    # cos saves x, the inner frame its argument: both are placeholders of the outer frame
    assert len(outer_frame.holders) == 2
    assert inner_frame.inputs[0]._unpack_hook is not None
    assert len(inner_frame.holders) == 1


def test_reentrant_backward_gets_a_gradient_for_every_output():
    # NOTE [Every output counts]: the number before the tensor gets None.
    from refgrad.utils.checkpoint import CheckpointFunction

    x = refgrad.tensor([0.5, 1.0], requires_grad=True)
    number, out = CheckpointFunction.apply(lambda t: (3, t.sin()), True, x)
    assert number == 3 and out.output_nr == 1
    out.sum().backward()
    assert refgrad.allclose(x.grad, x.cos().detach())
