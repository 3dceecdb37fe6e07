"""Mixed precision, the rest: the older spellings of autocast and GradScaler, autocast in a
checkpoint's recomputation, and optimizers that take the scale into their own step."""

import contextlib
import inspect
import warnings

import pytest
import torch
import torch.cuda.amp
import torch.utils.checkpoint as cp

from conformance._support import node_names

HALF = torch.float16


def _older(device, name, newer):
    return f"`torch.{device}.amp.{name}(args...)` is deprecated. Please use `{newer}` instead."


CPU_AUTOCAST = _older("cpu", "autocast", "torch.amp.autocast('cpu', args...)")
CPU_SCALER = _older("cpu", "GradScaler", "torch.amp.GradScaler('cpu', args...)")


def _caught(make):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            made = make()
        except TypeError as error:
            made = error
    return made, [(w.category, str(w.message), w.filename, w.lineno) for w in caught]


def _at(make):
    return make.__code__.co_filename, make.__code__.co_firstlineno


def test_older_spellings_are_marked_deprecated_with_torchs_signatures():
    cuda = torch.cuda.amp
    assert torch.cpu.amp.autocast.__deprecated__ == CPU_AUTOCAST
    assert torch.cpu.amp.GradScaler.__init__.__deprecated__ == CPU_SCALER
    assert cuda.autocast.__deprecated__ == _older(
        "cuda", "autocast", "torch.amp.autocast('cuda', args...)")
    assert cuda.custom_fwd.__deprecated__ == (
        "`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use "
        "`torch.amp.custom_fwd(args..., device_type='cuda')` instead.")
    assert list(inspect.signature(cuda.autocast).parameters) == [
        "enabled", "dtype", "cache_enabled"]
    assert inspect.signature(cuda.autocast).parameters["dtype"].default is HALF
    assert inspect.signature(cuda.autocast).parameters["dtype"].annotation is torch.dtype
    assert str(inspect.signature(cuda.GradScaler)) == (
        "(init_scale: float = 65536.0, growth_factor: float = 2.0, backoff_factor: float = "
        "0.5, growth_interval: int = 2000, enabled: bool = True) -> None")
    assert str(inspect.signature(cuda.custom_fwd)) == "(fwd=None, *, cast_inputs=None)"
    assert str(inspect.signature(cuda.custom_bwd)) == "(bwd)"
    assert (torch.cpu.amp.autocast.__qualname__, torch.cuda.amp.GradScaler.__qualname__) == (
        "autocast", "GradScaler")


def test_they_warn_at_the_callers_line_before_binding_arguments():
    def make():
        return torch.cpu.amp.autocast(dtype=HALF)

    def wrong_region():
        return torch.cpu.amp.autocast(dtype=HALF, foo=1)

    def wrong_scaler():
        return torch.cpu.amp.GradScaler(foo=1)

    made, caught = _caught(make)
    assert isinstance(made, torch.cpu.amp.autocast)
    assert caught == [(FutureWarning, CPU_AUTOCAST, _at(make)[0], _at(make)[1] + 1)]
    made, caught = _caught(wrong_region)
    assert str(made) == "autocast.__new__() got an unexpected keyword argument 'foo'"
    assert caught == [(FutureWarning, CPU_AUTOCAST, _at(make)[0], _at(wrong_region)[1] + 1)]
    made, caught = _caught(wrong_scaler)
    assert str(made) == "GradScaler.__init__() got an unexpected keyword argument 'foo'"
    assert caught == [(FutureWarning, CPU_SCALER, _at(make)[0], _at(wrong_scaler)[1] + 1)]


def test_an_autocast_subclass_warns_once_made_a_scaler_subclass_on_each_instance():
    def subclasses():
        class Region(torch.cpu.amp.autocast):
            pass

        class Scaler(torch.cpu.amp.GradScaler):
            pass

        return Region, Scaler

    (region, scaler), caught = _caught(subclasses)
    assert [c[:2] for c in caught] == [(FutureWarning, CPU_AUTOCAST)]
    assert _caught(lambda: region(dtype=HALF))[1] == []
    assert [c[:2] for c in _caught(scaler)[1]] == [(FutureWarning, CPU_SCALER)]


def test_cuda_custom_function_decorators_warn_and_set_the_cuda_device():
    def forward(ctx, x):
        return x

    made, caught = _caught(lambda: torch.cuda.amp.custom_fwd(forward))
    assert made.__wrapped__ is forward and len(caught) == 1 and caught[0][0] is FutureWarning
    made, caught = _caught(lambda: torch.cuda.amp.custom_fwd(cast_inputs=torch.float32))
    assert made.keywords == {"device_type": "cuda", "cast_inputs": torch.float32}
    made, caught = _caught(lambda: torch.cuda.amp.custom_bwd(forward))
    assert made.__wrapped__ is forward and "custom_bwd" in caught[0][1]


def _switches():
    on = torch.is_autocast_enabled("cpu")
    return on, torch.get_autocast_dtype("cpu") if on else None, torch.is_autocast_cache_enabled()


def _checkpointed(reentrant, forward_region):
    """A checkpointed product, what the switches were at each of its runs, and its leaves."""
    seen = []

    def product(x, w):
        seen.append(_switches())
        return torch.mm(x, w)

    leaves = torch.randn(3, 3, requires_grad=True), torch.randn(3, 3, requires_grad=True)
    with forward_region:
        out = cp.checkpoint(product, *leaves, use_reentrant=reentrant)
    return out, seen, leaves


def _same_grads(leaves, plain):
    return all(torch.equal(a.grad, b.grad) for a, b in zip(leaves, plain))


@pytest.mark.parametrize("reentrant", [True, False])
def test_a_checkpoint_recomputes_in_the_autocast_state_of_its_forward(reentrant):
    region = torch.autocast("cpu", dtype=HALF, cache_enabled=False)
    y, seen, leaves = _checkpointed(reentrant, region)
    y.float().sum().backward()
    assert seen == [(True, HALF, False)] * 2 and _switches() == (False, None, True)
    assert (y.dtype, leaves[0].grad.dtype) == (HALF, torch.float32)
    plain = [t.detach().requires_grad_() for t in leaves]
    with torch.autocast("cpu", dtype=HALF):
        torch.mm(*plain).float().sum().backward()
    assert _same_grads(leaves, plain)


@pytest.mark.parametrize("reentrant", [True, False])
def test_a_forward_outside_a_region_recomputes_outside_one(reentrant):
    y, seen, leaves = _checkpointed(reentrant, contextlib.nullcontext())
    with torch.autocast("cpu", dtype=HALF):
        y.sum().backward()
        assert _switches() == (True, HALF, True)
    assert seen == [(False, None, True)] * 2 and leaves[0].grad.dtype is torch.float32
    plain = [t.detach().requires_grad_() for t in leaves]
    total = torch.mm(*plain).sum()
    with torch.autocast("cpu", dtype=HALF):  # the backward's own products cast
        total.backward()
    assert _same_grads(leaves, plain)


class _Fused(torch.optim.SGD):
    _step_supports_amp_scaling = True

    def step(self, closure=None):
        grads = [p.grad.clone() for p in self.param_groups[0]["params"]]
        self.seen = getattr(self, "grad_scale", "unset"), getattr(self, "found_inf", "unset"), grads
        return "stepped"


def _scaled(optimizer_class, factor=1.0):
    p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    optimizer, scaler = optimizer_class([p], lr=0.1), torch.amp.GradScaler("cpu", init_scale=4.0)
    scaler.scale((p * factor).sum()).backward()
    return p, optimizer, scaler


@pytest.mark.parametrize("factor", [1.0, 1e38])
def test_an_optimizer_scaling_itself_gets_the_scale_and_the_flag_for_its_step(factor):
    p, optimizer, scaler = _scaled(_Fused, factor)
    assert scaler.step(optimizer) == "stepped"  # even on an overflow: the optimizer skips
    scale, found_inf, grads = optimizer.seen
    assert (scale.item(), found_inf.item()) == (4.0, float(factor > 1))
    assert torch.equal(grads[0], torch.full((2,), 4.0) * factor)  # checked, not unscaled
    assert not hasattr(optimizer, "grad_scale") and not hasattr(optimizer, "found_inf")
    assert found_inf is not scaler._found_inf_per_device(optimizer)[p.device]
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called"):
        scaler.step(optimizer)
    scaler.update()
    assert scaler.get_scale() == (4.0 if factor == 1.0 else 2.0)


def test_after_unscale_or_with_its_own_grad_scale():
    p, optimizer, scaler = _scaled(_Fused)
    scaler.unscale_(optimizer)
    scaler.step(optimizer)
    assert optimizer.seen[0] is None and torch.equal(optimizer.seen[2][0], torch.ones(2))
    scaler.update()
    p.grad = None
    scaler.scale(p.sum()).backward()
    optimizer.grad_scale = torch.tensor(3.0)
    scaler.step(optimizer)
    assert optimizer.seen[0].item() == 12.0 and not hasattr(optimizer, "grad_scale")


def test_a_step_taking_grad_scaler_gets_the_scaler_and_a_warning():
    class Older(torch.optim.SGD):
        _step_supports_amp_scaling = True

        def step(self, closure=None, grad_scaler=None):
            self.seen = grad_scaler, self.param_groups[0]["params"][0].grad.clone()
            return 7

    p, optimizer, scaler = _scaled(Older)

    def step():
        return scaler.step(optimizer)

    result, caught = _caught(step)
    assert caught == [(FutureWarning, (
        "GradScaler is going to stop passing itself as a keyword argument to the passed "
        "optimizer. In the near future GradScaler registers `grad_scale: Tensor` and "
        "`found_inf: Tensor` to the passed optimizer and let the optimizer use them directly."
    ), _at(step)[0], _at(step)[1] + 1)]
    assert result == 7 and optimizer.seen[0] is scaler
    assert torch.equal(optimizer.seen[1], torch.full((2,), 4.0))
    with pytest.raises(AssertionError, match="^No inf checks were recorded prior to update.$"):
        scaler.update()


def test_margin_ranking_loss_and_vecdot_cast_at_entry():
    half = torch.randn(3, 4).half().requires_grad_()
    with torch.autocast("cpu", dtype=HALF):
        loss = torch.nn.functional.margin_ranking_loss(half[0], half[1], torch.ones(4).half())
        dot = torch.linalg.vecdot(torch.randn(2, 3, requires_grad=True), torch.randn(2, 3))
        vector = torch.linalg.vecdot(half[2], torch.randn(4))  # float32 y: cast, not refused
        with pytest.raises(RuntimeError, match="found x of type Half and y of type Double"):
            torch.linalg.vecdot(torch.randn(2, 3), torch.randn(2, 3).double())
    assert loss.dtype is torch.float32 and dot.dtype is HALF and vector.dtype is HALF
    assert type(dot.grad_fn.next_functions[0][0].next_functions[0][0]).__name__ == (
        "ToCopyBackward0")
    assert type(vector.grad_fn).__name__ == "VdotBackward0"
    assert node_names(loss.grad_fn).count("ToCopyBackward0") == 2  # input1 and input2


def test_a_scaler_subclass_may_replace_the_usual_steps_last_part():
    class Counting(torch.amp.GradScaler):
        def _maybe_opt_step(self, optimizer, optimizer_state, *args, **kwargs):
            self.asked = [v.item() for v in optimizer_state["found_inf_per_device"].values()]
            return super()._maybe_opt_step(optimizer, optimizer_state, *args, **kwargs)

    p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    optimizer, scaler = torch.optim.SGD([p], lr=0.5), Counting("cpu", init_scale=4.0)
    scaler.scale(p.sum()).backward()
    assert scaler.step(optimizer) is None and scaler.asked == [0.0]
    assert p.tolist() == [0.5, 1.5] and scaler._get_scale_async() is scaler._scale
