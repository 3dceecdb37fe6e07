"""torch.utils.checkpoint: both forms, their recomputations, warnings, errors and RNG state."""

import contextlib
import warnings

import pytest
import torch
from torch.autograd.graph import saved_tensors_hooks
from torch.utils.checkpoint import (
    CheckpointError,
    checkpoint,
    checkpoint_sequential,
    detach_variable,
    set_checkpoint_debug_enabled,
    set_checkpoint_early_stop,
)

from conformance._support import FREED, raises

NO_USE_REENTRANT = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
    "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
    "exception. use_reentrant=False is recommended, but if you need to preserve the current "
    "default behavior, you can pass use_reentrant=True. Refer to docs for more details on "
    "the differences between the two variants."
)
SEQUENTIAL_NO_USE_REENTRANT = (
    "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be "
    "passed explicitly. In version 2.9 we will raise an exception if use_reentrant is not "
    "passed. use_reentrant=False is recommended, but if you need to preserve the current "
    "default behavior, you can pass use_reentrant=True. Refer to docs for more details on "
    "the differences between the two variants."
)
GRAD_REFUSED = (
    "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or "
    "passing an `inputs` parameter to .backward(). To resolve this error, you can either "
    "set use_reentrant=False, or call .backward() without passing the `inputs` argument."
)
TIP = (
    "\nTip: To see a more detailed error message, either pass `debug=True` to\n"
    "`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n"
    "with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to\n"
    "enable checkpoint\u2011debug mode globally.\n\n"
    "If this error occurs under torch.compile with automatic_dynamic_shapes enabled,\n"
    "it may be because the recomputation selected a different compiled graph than the\n"
    "forward pass (e.g., a dynamic graph instead of the original static graph).\n"
    "To fix this, either:\n"
    "  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as\n"
    "    dynamic upfront, avoiding the static-to-dynamic transition.\n"
    "  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache\n"
    "    reordering, which can change which graph is checked first between forward\n"
    "    and recompute.\n"
    "See https://github.com/pytorch/pytorch/issues/166926 for more details and\n"
    "workaround examples.\n"
)
SUPPRESSED = (
    "torch.utils.checkpoint: the forward context provided by context_fn suppressed an "
    "exception raised during the checkpointed forward. This is not supported because "
    "checkpoint cannot return a value for a failed forward."
)
BOTH = [False, True]


@pytest.fixture(autouse=True)
def generator_left_as_found():
    with torch.random.fork_rng():
        yield


def leaf():
    return torch.tensor([0.5, 1.0, 1.5], requires_grad=True)


class Counted:
    """A function saving three tensors, counting how often it starts and finishes."""

    def __init__(self):
        self.starts = self.ends = 0

    def __call__(self, t, scale=1.0):
        self.starts += 1
        y = (t.sin() * scale).exp() * t
        z = y + 1  # saves nothing: code after the last save
        self.ends += 1
        return z


def gradient(fn, x, *args, **kwargs):
    x = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(fn(x, *args, **kwargs).sum(), x)
    return g


def backward_grad(y, x):
    x.grad = None
    y.sum().backward()
    return x.grad


def test_the_module_is_there_after_importing_torch():
    assert torch.utils.checkpoint.checkpoint is checkpoint
    assert issubclass(CheckpointError, RuntimeError)


def test_use_reentrant_not_given_warns_and_means_reentrant():
    x = leaf()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = checkpoint(lambda t: t.sin(), x)
        z = checkpoint_sequential([torch.sin, torch.cos], 2, x)
    assert [(w.category, str(w.message)) for w in caught] == [
        (UserWarning, NO_USE_REENTRANT), (UserWarning, SEQUENTIAL_NO_USE_REENTRANT)]
    assert type(y.grad_fn).__name__ == "CheckpointFunctionBackward"
    assert type(z.grad_fn).__name__ == "CosBackward0"


@pytest.mark.parametrize("reentrant", BOTH)
def test_gradients_equal_those_without_checkpoint(reentrant):
    fn, x = Counted(), leaf()
    y = checkpoint(fn, x, use_reentrant=reentrant)
    assert torch.equal(y, fn(x.detach()))
    assert torch.allclose(backward_grad(y, x), gradient(Counted(), x))


def test_non_reentrant_works_with_grad_and_keyword_arguments():
    fn, x = Counted(), leaf()
    (g,) = torch.autograd.grad(checkpoint(fn, x, use_reentrant=False, scale=2.0).sum(), x)
    assert torch.allclose(g, gradient(Counted(), x, scale=2.0))
    assert (fn.starts, fn.ends) == (2, 1)


def test_non_reentrant_works_with_backward_inputs():
    x, w = leaf(), torch.tensor(2.0, requires_grad=True)
    y = checkpoint(lambda t: (t * w).exp(), x, use_reentrant=False)
    y.sum().backward(inputs=[w])
    assert x.grad is None
    assert torch.allclose(w.grad, (x * (x * w).exp()).sum().detach())


def test_non_reentrant_gradients_of_gradients():
    def f(t):
        return (t.sin() * t).exp()

    x = torch.tensor([0.5, 1.0], dtype=torch.float64, requires_grad=True)
    y = checkpoint(f, x, use_reentrant=False)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    plain = x.detach().requires_grad_()
    (g_plain,) = torch.autograd.grad(f(plain).sum(), plain, create_graph=True)
    (gg_plain,) = torch.autograd.grad(g_plain.sum(), plain)
    assert torch.allclose(g, g_plain) and torch.allclose(gg, gg_plain)
    assert torch.autograd.gradcheck(lambda t: checkpoint(f, t, use_reentrant=False), (x,))
    assert torch.autograd.gradgradcheck(lambda t: checkpoint(f, t, use_reentrant=False), (x,))


def test_non_reentrant_keyword_tensors_get_gradients():
    x, w = leaf(), torch.tensor(2.0, requires_grad=True)
    y = checkpoint(lambda t, w: (t * w).sin(), x, use_reentrant=False, w=w)
    y.sum().backward()
    assert torch.allclose(w.grad, (x * (x * w).cos()).sum().detach())


def test_recomputation_counts_and_early_stop():
    fn, x = Counted(), leaf()
    y = checkpoint(fn, x, use_reentrant=False)
    assert (fn.starts, fn.ends) == (1, 1)
    y.sum().backward()
    assert (fn.starts, fn.ends) == (2, 1)  # stopped after the last saved tensor
    fn = Counted()
    with set_checkpoint_early_stop(False):  # needed while the forward runs, not after
        y = checkpoint(fn, x, use_reentrant=False)
    y.sum().backward()
    assert (fn.starts, fn.ends) == (2, 2)
    fn = Counted()
    y = checkpoint(fn, x, use_reentrant=False, early_stop=False)
    y.sum().backward()
    assert (fn.starts, fn.ends) == (2, 2)


def test_early_stop_switch_wins_over_the_argument():
    fn, x = Counted(), leaf()
    with set_checkpoint_early_stop(True):
        y = checkpoint(fn, x, use_reentrant=False, early_stop=False)
    y.sum().backward()
    assert (fn.starts, fn.ends) == (2, 1)


def test_reentrant_recomputes_the_whole_function():
    fn, x = Counted(), leaf()
    y = checkpoint(fn, x, use_reentrant=True)
    assert (fn.starts, fn.ends) == (1, 1)
    y.sum().backward()
    assert (fn.starts, fn.ends) == (2, 2)


@pytest.mark.parametrize("reentrant", BOTH)
def test_each_backward_with_retain_graph_recomputes(reentrant):
    fn, x = Counted(), leaf()
    y = checkpoint(fn, x, use_reentrant=reentrant)
    y.sum().backward(retain_graph=True)
    first = x.grad.clone()
    y.sum().backward()
    assert fn.starts == 3
    assert torch.allclose(x.grad, 2 * first)
    with raises(RuntimeError, FREED):
        y.sum().backward()


def test_nested_checkpoints_recompute_the_outer_function_first():
    count = {"inner": 0, "outer": 0}

    def inner(t):
        count["inner"] += 1
        return t.sin().exp()

    def outer(t):
        count["outer"] += 1
        return checkpoint(inner, t.cos(), use_reentrant=False).tanh()

    x = leaf()
    (g,) = torch.autograd.grad(checkpoint(outer, x, use_reentrant=False).sum(), x)
    assert count == {"inner": 3, "outer": 2}
    assert torch.allclose(g, gradient(outer, x))


def test_checkpointed_forward_keeps_only_the_arguments():
    def block(h, w):
        return (h @ w).sin().tanh()

    def saved_activations(run):
        kept = {}  # held here, so that no two of them can share an address

        def pack(t):
            if t.grad_fn is not None:  # an activation, not a parameter or the input
                kept[t.data_ptr()] = t
            return t

        x = torch.ones(4, 3, requires_grad=True)
        ws = [torch.full((3, 3), 0.1, requires_grad=True) for _ in range(3)]
        with saved_tensors_hooks(pack, lambda t: t):
            h = x
            for w in ws:
                h = run(block, h, w)
        return len(kept)

    assert saved_activations(lambda f, *a: f(*a)) == 6
    assert saved_activations(lambda f, *a: checkpoint(f, *a, use_reentrant=False)) == 2
    assert saved_activations(lambda f, *a: checkpoint(f, *a, use_reentrant=True)) == 2


def test_non_reentrant_gives_parameters_gradients_when_no_input_requires_grad():
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = checkpoint(lambda t: (t * w).sin(), torch.ones(2), use_reentrant=False)
    y.sum().backward()
    assert torch.allclose(w.grad, torch.cos(w).detach())


def test_reentrant_warns_when_no_input_requires_grad_and_loses_gradients():
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = checkpoint(lambda t: (t * w).sin(), torch.ones(2), use_reentrant=True)
    assert [(w.category, str(w.message)) for w in caught] == [
        (UserWarning, "None of the inputs have requires_grad=True. Gradients will be None")]
    assert not y.requires_grad


def test_reentrant_refuses_grad_and_backward_inputs():
    x = leaf()
    with raises(RuntimeError, GRAD_REFUSED):
        torch.autograd.grad(checkpoint(torch.sin, x, use_reentrant=True).sum(), x)
    with raises(RuntimeError, GRAD_REFUSED):
        checkpoint(torch.sin, x, use_reentrant=True).sum().backward(inputs=[x])


def test_reentrant_refuses_outputs_that_do_not_require_grad():
    y = checkpoint(lambda t: t.detach() * 2, leaf(), use_reentrant=True)
    with raises(RuntimeError, "none of output has requires_grad=True, this checkpoint() is "
                "not necessary"):
        y.sum().backward()


def test_reentrant_passes_non_tensor_outputs_through():
    x = leaf()
    out = checkpoint(lambda t: (5, t.sin(), "a", t.cos()), x, use_reentrant=True)
    assert (out[0], out[2]) == (5, "a")
    (out[1].sum() + out[3].sum()).backward()
    assert torch.allclose(x.grad, (x.cos() - x.sin()).detach())


def test_option_errors():
    x = leaf()
    with raises(ValueError, "Unexpected keyword arguments: a,b"):
        checkpoint(lambda t, a, b: t, x, use_reentrant=True, a=1, b=2)
    only = "Passing `context_fn` or `debug` is only supported when use_reentrant=False."
    with raises(ValueError, only):
        checkpoint(torch.sin, x, use_reentrant=True, debug=True)
    with raises(ValueError, only):
        checkpoint(torch.sin, x, use_reentrant=True, context_fn=lambda: (None, None))
    with raises(ValueError, "determinism_check should be one of ['default', 'none'], but got "
                "strict"):
        checkpoint(torch.sin, x, use_reentrant=False, determinism_check="strict")
    with raises(ValueError, "debug=True is incompatible with non-default context_fn"):
        checkpoint(torch.sin, x, use_reentrant=False, debug=True,
                   context_fn=lambda: (None, None))
    with set_checkpoint_debug_enabled(True):
        with raises(ValueError, "debug=True is incompatible with non-default context_fn"):
            checkpoint(torch.sin, x, use_reentrant=False, context_fn=lambda: (None, None))
    with raises(ValueError, "Unexpected keyword arguments: foo,bar"):
        checkpoint_sequential([torch.sin], 1, x, use_reentrant=False, foo=1, bar=2)
    with raises(RuntimeError, "Only tuple of tensors is supported. Got Unsupported input "
                "type: list"):
        detach_variable([x])


class Moody:
    """Saves tensors of a different number or kind the second time it runs."""

    def __init__(self, change):
        self.change, self.calls = change, 0

    def __call__(self, t):
        self.calls += 1
        return self.change(t) if self.calls > 1 else t.sin().exp()


def recompute_error(change, **options):
    x = leaf()
    y = checkpoint(Moody(change), x, use_reentrant=False, **options)
    y.sum().backward()


def test_fewer_tensors_on_recomputation():
    message = (
        "torch.utils.checkpoint: A different number of tensors was saved during the original "
        "forward and recomputation.\nNumber of tensors saved during forward: 2\n"
        "Number of tensors saved during recomputation: 1.\n" + TIP
    )
    with raises(CheckpointError, message):
        recompute_error(lambda t: t.exp())
    with raises(CheckpointError, message):  # the count is checked even without metadata
        recompute_error(lambda t: t.exp(), determinism_check="none")


def test_more_tensors_on_recomputation():
    message = ("torch.utils.checkpoint: trying to save more tensors during recomputation "
               "than during the original forward pass.\n" + TIP)
    with set_checkpoint_early_stop(False):
        with raises(CheckpointError, message):
            recompute_error(lambda t: t.sin().exp().exp())


def test_different_metadata_on_recomputation():
    def meta(shape, dtype):
        return f"{{'shape': torch.Size({shape}), 'dtype': torch.{dtype}, 'device': " \
               "device(type='cpu')}"

    rows = "".join(
        f"tensor at position {i}:\nsaved metadata: {meta([3], 'float32')}\n"
        f"recomputed metadata: {meta([3], 'float64')}\n" for i in range(2))
    with raises(CheckpointError, "torch.utils.checkpoint: Recomputed values for the following "
                "tensors have different metadata than during the forward pass.\n"
                + rows + ".\n" + TIP):
        recompute_error(lambda t: t.double().sin().exp())


def test_determinism_check_none_lets_the_difference_through():
    with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (6) "
                "at non-singleton dimension 0"):
        recompute_error(lambda t: torch.cat([t, t]).sin().exp(), determinism_check="none")


def test_unpacking_a_saved_tensor_twice():
    class ReadsTwice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            ctx.save_for_backward(t)
            return t * 2

        @staticmethod
        def backward(ctx, g):
            ctx.saved_tensors
            ctx.saved_tensors
            return g * 2

    y = checkpoint(lambda t: ReadsTwice.apply(t.sin()), leaf(), use_reentrant=False)
    with raises(CheckpointError, "torch.utils.checkpoint: Unpack is being triggered for a "
                "tensor that was already unpacked once. If you are calling ctx.saved_tensors "
                "in backward, make sure to do so only once. Otherwise please open an issue "
                "with details on your use case."):
        y.sum().backward()


def test_context_fn_surrounds_forward_and_recomputation():
    log = []

    @contextlib.contextmanager
    def tag(name):
        log.append(name + " in")
        yield
        log.append(name + " out")

    fn, x = Counted(), leaf()
    y = checkpoint(fn, x, use_reentrant=False, context_fn=lambda: (tag("fwd"), tag("re")))
    y.sum().backward()
    assert log == ["fwd in", "fwd out", "re in"]  # early stop leaves "re" by an exception
    assert torch.allclose(x.grad, gradient(Counted(), x))


def test_a_forward_context_may_not_swallow_an_error():
    def fails(t):
        t.sin()
        raise KeyError("boom")

    with raises(RuntimeError, SUPPRESSED):
        checkpoint(fails, leaf(), use_reentrant=False,
                   context_fn=lambda: (contextlib.suppress(KeyError), contextlib.nullcontext()))
    with pytest.raises(KeyError):
        checkpoint(fails, leaf(), use_reentrant=False)


def test_without_grad_mode_the_function_just_runs():
    for reentrant in BOTH:
        fn, x = Counted(), leaf()
        with torch.no_grad():
            y = checkpoint(fn, x, use_reentrant=reentrant)
        assert (fn.starts, y.requires_grad) == (1, False)


def test_an_input_changed_in_place_is_caught():
    x = leaf()
    z = x * 1
    y = checkpoint(torch.sin, z, use_reentrant=False)
    z.add_(1)
    with raises(RuntimeError, "one of the variables needed for gradient computation has been "
                "modified by an inplace operation: [torch.FloatTensor [3]], which is output 0 "
                "of Add, is at version 1; expected version 0 instead. Hint: enable anomaly "
                "detection to find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False)."):
        y.sum().backward()


def test_backward_inside_the_checkpointed_function():
    def inner_grad(t):
        (g,) = torch.autograd.grad(t.sin().sum(), t, create_graph=True)
        return g * t

    x = leaf()
    y = checkpoint(inner_grad, x, use_reentrant=False)
    assert torch.allclose(backward_grad(y, x), gradient(inner_grad, x))


def dropout(t):
    return t * (torch.rand(t.shape) > 0.5) * 2


@pytest.mark.parametrize("reentrant", BOTH)
def test_preserved_rng_state_recomputes_the_same_random_numbers(reentrant):
    torch.manual_seed(0)
    x = torch.ones(64, requires_grad=True)
    y = checkpoint(dropout, x, use_reentrant=reentrant)
    after_forward = torch.get_rng_state()
    assert torch.equal(backward_grad(y, x), y.detach())
    assert torch.equal(torch.get_rng_state(), after_forward)  # backward forks the generator


@pytest.mark.parametrize("reentrant", BOTH)
def test_without_preserved_rng_state_the_numbers_differ(reentrant):
    torch.manual_seed(0)
    x = torch.ones(64, requires_grad=True)
    y = checkpoint(dropout, x, use_reentrant=reentrant, preserve_rng_state=False)
    assert not torch.equal(backward_grad(y, x), y.detach())


def test_rng_state_round_trip_and_type():
    state = torch.get_rng_state()
    assert (type(state), state.dtype, state.dim(), state.requires_grad) == (
        torch.Tensor, torch.uint8, 1, False)
    first = torch.rand(5)
    torch.set_rng_state(state)
    assert torch.equal(torch.rand(5), first)
    torch.manual_seed(5)
    state = torch.get_rng_state()
    torch.manual_seed(7)
    torch.set_rng_state(state)
    assert torch.initial_seed() == 5


def test_set_rng_state_refuses():
    size = torch.get_rng_state().numel()
    with raises(TypeError, "expected a torch.ByteTensor, but got list"):
        torch.set_rng_state([1, 2])
    with raises(TypeError, "RNG state must be a torch.ByteTensor"):
        torch.set_rng_state(torch.zeros(size))
    with raises(RuntimeError, f"Expected a CPUGeneratorImplState of size {size} but found the "
                "input RNG state size to be 3"):
        torch.set_rng_state(torch.zeros(3, dtype=torch.uint8))


def test_fork_rng_restores_the_state():
    state = torch.get_rng_state()
    with torch.random.fork_rng():
        torch.rand(4)
    assert torch.equal(torch.get_rng_state(), state)
    with torch.random.fork_rng(enabled=False):
        torch.rand(4)
    assert not torch.equal(torch.get_rng_state(), state)


def counted_chain(count):
    def link(i):
        def run(t):
            count[i] += 1
            return t.sin()

        return run

    return [link(i) for i in range(len(count))]


@pytest.mark.parametrize("reentrant", BOTH)
def test_checkpoint_sequential(reentrant):
    count = [0] * 5
    x = leaf()
    y = checkpoint_sequential(counted_chain(count), 2, x, use_reentrant=reentrant)
    assert count == [1] * 5
    g = backward_grad(y, x)
    assert count == [2, 2, 1, 1, 1]  # the last segment takes what is left over
    expected = x.detach()
    for _ in range(5):
        expected = expected.sin()
    assert torch.allclose(y, expected)
    assert torch.allclose(g, gradient(lambda t: t.sin().sin().sin().sin().sin(), x))


def test_checkpoint_sequential_with_more_segments_than_functions():
    with raises(ValueError, "range() arg 3 must not be zero"):
        checkpoint_sequential([torch.sin], 3, leaf(), use_reentrant=False)


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_an_error_in_the_function_leaves_no_checkpoint_state_behind(use_reentrant):
    a = torch.tensor([1.0, 2.0], requires_grad=True)

    def fails(t):
        t.exp()
        raise ValueError("boom")

    with raises(ValueError, "boom"):
        checkpoint(fails, a, use_reentrant=use_reentrant)
    assert torch.is_grad_enabled()
    y = a.exp()
    assert torch.equal(y.grad_fn._saved_result, y)
    y.sum().backward()
    assert torch.equal(a.grad, y.detach())
