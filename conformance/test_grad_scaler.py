"""torch.amp.GradScaler on the CPU: scaling, unscaling, skipped steps, the scale's schedule."""

import pickle
import warnings

import pytest
import torch

from conformance._support import raises

INF = float("inf")


def _setup(init_scale=4.0, **options):
    w = torch.nn.Parameter(torch.ones(2))
    return w, torch.optim.SGD([w], lr=0.1), torch.amp.GradScaler("cpu", init_scale, **options)


def _iteration(w, opt, scaler, factor):
    opt.zero_grad()
    scaler.scale((w * torch.tensor(factor)).sum()).backward()
    result = scaler.step(opt)
    scaler.update()
    return result


def test_a_clean_step_unscales_and_an_overflowing_one_is_skipped():
    w, opt, scaler = _setup(growth_interval=2)
    assert _iteration(w, opt, scaler, [1.0, INF]) is None
    assert w.tolist() == [1.0, 1.0] and scaler.get_scale() == 2.0
    _iteration(w, opt, scaler, [1.0, 2.0])
    assert w.grad.tolist() == [1.0, 2.0] and w.tolist() == pytest.approx([0.9, 0.8])
    assert scaler.state_dict()["_growth_tracker"] == 1 and scaler.get_scale() == 2.0
    _iteration(w, opt, scaler, [1.0, 2.0])
    assert scaler.get_scale() == 4.0 and scaler.state_dict()["_growth_tracker"] == 0
    _iteration(w, opt, scaler, [float("nan"), 2.0])
    assert scaler.get_scale() == 2.0 and w.tolist() == pytest.approx([0.8, 0.6])


def test_scale_makes_its_tensors_lazily_and_scales_nested_outputs():
    scaler = torch.amp.GradScaler("cpu", init_scale=8.0)
    assert scaler.get_scale() == 8.0 and scaler._scale is None
    a, (b, c) = scaler.scale([torch.ones(1), (torch.ones(1), torch.ones(1) * 2)])
    assert (a.item(), b.item(), c.item()) == (8.0, 8.0, 16.0)
    assert scaler._scale.dtype is torch.float32 and scaler._growth_tracker.dtype is torch.int32
    assert isinstance(scaler.scale(iter([torch.ones(1)])), map)
    with raises(ValueError, "outputs must be a Tensor or an iterable of Tensors"):
        scaler.scale(3)


def test_the_order_of_unscale_step_and_update_is_enforced():
    w, opt, scaler = _setup()
    fix = ("This may indicate your script did not use scaler.scale(loss or outputs) earlier in "
           "the iteration.")
    with raises(AssertionError, "Attempted step but _scale is None.  " + fix):
        scaler.step(opt)
    scaler.scale(w.sum()).backward()
    scaler.unscale_(opt)
    assert w.grad.tolist() == [1.0, 1.0]
    with raises(RuntimeError, "unscale_() has already been called on this optimizer since the "
                              "last update()."):
        scaler.unscale_(opt)
    scaler.step(opt)
    with raises(RuntimeError, "unscale_() is being called after step()."):
        scaler.unscale_(opt)
    with raises(RuntimeError, "step() has already been called since the last update()."):
        scaler.step(opt)
    with raises(RuntimeError, "Closure use is not currently supported if GradScaler is "
                              "enabled."):
        scaler.step(opt, closure=lambda: None)


def test_refusals_of_update_and_of_half_gradients():
    w, opt, scaler = _setup()
    scaler.scale(w.sum())
    with raises(AssertionError, "No inf checks were recorded prior to update."):
        scaler.update()
    with raises(AssertionError, "No inf checks were recorded for this optimizer."):
        scaler.step(opt)
    scaler.update(16.0)
    assert scaler.get_scale() == 16.0
    with raises(AssertionError, "new_scale should be a float or a 1-element "
                                "torch.cuda.FloatTensor or torch.FloatTensor with "
                                "requires_grad=False."):
        scaler.update(torch.ones(2))
    half = torch.nn.Parameter(torch.ones(2, dtype=torch.float16))
    half.grad = torch.ones(2, dtype=torch.float16)
    with raises(ValueError, "Attempting to unscale FP16 gradients."):
        scaler.unscale_(torch.optim.SGD([half], lr=0.1))


def test_settings_state_dict_and_disabled_scalers():
    with raises(AssertionError, "The growth factor must be > 1.0."):
        torch.amp.GradScaler("cpu", growth_factor=1.0)
    with raises(AssertionError, "The backoff factor must be < 1.0."):
        torch.amp.GradScaler("cpu", backoff_factor=1.0)
    scaler = torch.amp.GradScaler("cpu")
    assert scaler.state_dict() == {"scale": 65536.0, "growth_factor": 2.0,
                                   "backoff_factor": 0.5, "growth_interval": 2000,
                                   "_growth_tracker": 0}
    scaler.scale(torch.ones(1))
    scaler.load_state_dict({"scale": 3.0, "growth_factor": 4.0, "backoff_factor": 0.25,
                            "growth_interval": 7, "_growth_tracker": 5})
    assert (scaler.get_scale(), scaler.get_growth_factor(), scaler.get_backoff_factor(),
            scaler.get_growth_interval(), scaler._get_growth_tracker()) == (3.0, 4.0, 0.25, 7, 5)
    with raises(RuntimeError, "The source state dict is empty, possibly because it was saved "
                              "from a disabled instance of GradScaler."):
        scaler.load_state_dict({})
    off = torch.amp.GradScaler("cpu", enabled=False)
    assert (off.state_dict(), off.get_scale(), off.is_enabled()) == ({}, 1.0, False)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert not torch.amp.GradScaler().is_enabled()
    assert [str(w.message) for w in seen] == [
        "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."]


def test_the_kernels_directly():
    grads = [torch.tensor([2.0, 4.0]), torch.tensor([INF, 1.0])]
    found, inv = torch.zeros(()), torch.tensor(0.5)
    assert torch._amp_foreach_non_finite_check_and_unscale_(grads, found, inv) is None
    assert [g.tolist() for g in grads] == [[1.0, 2.0], [INF, 0.5]] and found.item() == 1.0
    scale, tracker = torch.tensor(3e38), torch.tensor(1, dtype=torch.int32)
    assert torch._amp_update_scale_(scale, tracker, torch.tensor(0.0), 2.0, 0.5, 2) is scale
    assert (scale.item(), tracker.item()) == (pytest.approx(3e38), 0)  # growth would overflow


@pytest.mark.parametrize("args, kind, message", [
    (([torch.ones(2)], torch.zeros(2), torch.ones(())), RuntimeError,
     "found_inf must be a 1-element tensor."),
    (([torch.ones(2)], torch.zeros(2), torch.ones((), dtype=torch.double)), RuntimeError,
     "found_inf must be a 1-element tensor."),
    (([torch.ones(2)], torch.zeros((), dtype=torch.double), torch.ones(())), RuntimeError,
     "found_inf must be a float tensor."),
    (([torch.ones(2)], torch.zeros(2), torch.ones(2)), RuntimeError,
     "inv_scale must be a 1-element tensor."),
    (([torch.ones(2, dtype=torch.long)], torch.zeros(()), torch.ones(())), NotImplementedError,
     "\"_amp_foreach_non_finite_check_and_unscale_cpu\" not implemented for 'Long'"),
])
def test_unscale_kernel_refusals(args, kind, message):
    with raises(kind, message):
        torch._amp_foreach_non_finite_check_and_unscale_(*args)


@pytest.mark.parametrize("scale, tracker, message", [
    (torch.tensor(4.0, dtype=torch.double), torch.tensor(0), "growth_tracker must be an int "
                                                            "tensor."),
    (torch.tensor([4.0, 3.0]), torch.tensor(0), "current_scale must be a 1-element tensor."),
    (torch.tensor([4.0, 3.0]), torch.tensor([0, 1], dtype=torch.int32),
     "growth_tracker must be a 1-element tensor."),
    (torch.tensor(4.0, dtype=torch.double), torch.tensor(0, dtype=torch.int32),
     "current_scale must be a float tensor."),
])
def test_update_kernel_refusals(scale, tracker, message):
    with raises(RuntimeError, message):
        torch._amp_update_scale_(scale, tracker, torch.tensor(0.0), 2.0, 0.5, 2)


def test_a_scaler_pickles_its_numbers_between_iterations_only():
    w, opt, scaler = _setup(growth_interval=5)
    _iteration(w, opt, scaler, [1.0, 2.0])
    copy = pickle.loads(pickle.dumps(scaler))
    assert copy._scale is None and copy.state_dict() == scaler.state_dict()
    scaler.scale(w.sum()).backward()
    scaler.unscale_(opt)
    with raises(AssertionError, "A GradScaler instance may only be pickled at the beginning "
                                "of an iteration, or at the end after scaler.update()."):
        pickle.dumps(scaler)


def test_the_older_spellings_warn_and_cuda_is_disabled():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        cpu = torch.cpu.amp.GradScaler(init_scale=8.0)
        cuda = torch.cuda.amp.GradScaler()
        region = torch.cuda.amp.autocast()
    assert [(w.category, str(w.message)) for w in seen] == [
        (FutureWarning, "`torch.cpu.amp.GradScaler(args...)` is deprecated. Please use "
                        "`torch.amp.GradScaler('cpu', args...)` instead."),
        (FutureWarning, "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                        "`torch.amp.GradScaler('cuda', args...)` instead."),
        (UserWarning, "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                      "Disabling."),
        (FutureWarning, "`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
                        "`torch.amp.autocast('cuda', args...)` instead."),
        (UserWarning, "CUDA is not available or torch_xla is imported. Disabling autocast.")]
    assert (cpu.is_enabled(), cpu.get_scale(), cuda.is_enabled(), region._enabled) == (
        True, 8.0, False, False)
    assert isinstance(cpu, torch.amp.GradScaler) and isinstance(region, torch.autocast)
