"""Journeys through autograd's own machinery: a Function with setup_context and a mask it
does not differentiate, trained; an optimizer stepped per parameter by post-accumulate-grad
hooks; torch.autograd.functional's strategies; checkpoints both ways under saved-tensor
hooks; double backward through recurrent, normalizing and convolution layers; a model
evaluated in inference mode; anomaly traces; graph walks and mutation of saved tensors; and
torch.func's grad and vjp through functional_call."""

import re
import warnings

import numpy as np
import pytest
import torch
import torch.autograd.functional as AF
from torch import nn
from torch.autograd.function import once_differentiable
from torch.func import functional_call, grad, grad_and_value, jacfwd, jacrev, jvp, vjp, vmap
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

from conformance._warned import caught_always

RNG = np.random.default_rng(18)


def arr(*shape, scale=1.0):
    return torch.tensor(RNG.standard_normal(shape) * scale)


class ClampWithMask(torch.autograd.Function):
    @staticmethod
    def forward(x, lo, hi):
        mask = (x >= lo) & (x <= hi)
        return x.clamp(lo, hi), mask

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_non_differentiable(output[1])
        ctx.save_for_backward(output[1])
        ctx.set_materialize_grads(False)

    @staticmethod
    @once_differentiable
    def backward(ctx, g, gmask):
        ClampWithMask.seen.append((ctx.needs_input_grad, g is None, gmask is None))
        mask, = ctx.saved_tensors
        return (None if g is None else g * mask), None, None


def test_a_function_with_setup_context_and_a_mask_it_does_not_differentiate_trains():
    ClampWithMask.seen = []
    w, x = arr(4, 3).requires_grad_(), arr(5, 4)
    opt = torch.optim.Adam([w], lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        c, m = ClampWithMask.apply(x @ w, -0.5, 0.5)
        assert c.grad_fn.name() == "ClampWithMaskBackward" and m.grad_fn is None
        assert not m.requires_grad and m.dtype == torch.bool
        c.pow(2).sum().backward()
        y = (x @ w).detach()
        assert torch.allclose(w.grad, x.t() @ (2 * y.clamp(-0.5, 0.5) * ((y >= -0.5) & (y <= 0.5))))
        opt.step()
    assert ClampWithMask.seen == [((True, False, False), False, True)] * 3
    c, m = ClampWithMask.apply(x @ w, -0.5, 0.5)
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
        m.double().sum().backward()
    g, = torch.autograd.grad(c.sum(), w, create_graph=True)
    assert not g.requires_grad and g.grad_fn is None  # once_differentiable's result
    assert type(c.grad_fn.next_functions[0][0]).__name__ == "MmBackward0"
    with pytest.raises(RuntimeError, match="You tried to vmap over ClampWithMask, but it does "
                                           "not have vmap support"):
        vmap(lambda t: ClampWithMask.apply(t, -0.5, 0.5)[0])(x)


def test_post_accumulate_grad_hooks_step_an_optimizer_per_parameter():
    net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2)).double()
    opts = {p: torch.optim.SGD([p], lr=0.1, momentum=0.9) for p in net.parameters()}
    names = {p: n for n, p in net.named_parameters()}
    log = []

    def step(p):
        log.append(("post", names[p]))
        opts[p].step()
        opts[p].zero_grad(set_to_none=True)

    hooks = [p.register_post_accumulate_grad_hook(step) for p in net.parameters()]
    hooks += [p.register_hook(lambda g, n=n: log.append(("pre", n)) or g * 0.5)
              for n, p in net.named_parameters()]
    x = arr(6, 4)
    before = net[0].weight.detach().clone()
    for _ in range(2):
        net(x).pow(2).mean().backward()
    order = ["2.bias", "2.weight", "0.bias", "0.weight"]
    assert log == [(k, n) for n in order for k in ("pre", "post")] * 2
    assert all(p.grad is None for p in net.parameters())
    assert not torch.equal(before, net[0].weight)
    for h in hooks:
        h.remove()
    with pytest.raises(RuntimeError, match="post accumulate grad hooks cannot be registered on "
                                           "non-leaf tensors"):
        net(x).register_post_accumulate_grad_hook(lambda p: None)
    lin, ev = nn.Linear(3, 2), []
    lin.register_full_backward_pre_hook(lambda m, go: ev.append("bpre"))
    lin.register_full_backward_hook(lambda m, gi, go: ev.append("bh"))
    lin.weight.register_post_accumulate_grad_hook(lambda p: ev.append("postW"))
    lin.bias.register_post_accumulate_grad_hook(lambda p: ev.append("postB"))
    lin(torch.randn(2, 3, requires_grad=True)).sum().backward()
    assert ev == ["bpre", "postB", "postW", "bh"]


def test_a_multi_grad_hook_fires_once_in_any_mode_and_with_none_in_all():
    a, b, c = (torch.randn(3, requires_grad=True) for _ in range(3))
    seen = []
    h1 = torch.autograd.graph.register_multi_grad_hook(
        (a, b, c), lambda g: seen.append(("any", g.shape)), mode="any")
    h2 = torch.autograd.graph.register_multi_grad_hook(
        (a, b, c), lambda gs: seen.append(("all", [g is None for g in gs])))
    (a * 2 + b).sum().backward()
    assert seen == [("any", (3,)), ("all", [False, False, True])]
    with pytest.raises(RuntimeError, match="A leaf node was passed to _will_engine_execute_node "
                                           "but we are currently running autograd.grad()"):
        torch.autograd.grad((a * c).sum(), [c])
    h1.remove()
    h2.remove()
    assert type(h1).__name__ == "_MultiHandle"
    with pytest.raises(ValueError, match=r"Expects mode to be one of \('all', 'any'\) but got "
                                         "some"):
        torch.autograd.graph.register_multi_grad_hook((a, b), lambda g: None, mode="some")


def test_autograd_functional_jacobians_by_either_strategy_and_hessians_of_a_layer():
    lin = nn.Linear(3, 2).double()
    x = arr(4, 3)

    def f(t):
        return torch.tanh(lin(t)).sum(-1)

    rev = AF.jacobian(f, x)
    assert torch.allclose(rev, AF.jacobian(f, x, vectorize=True))
    assert torch.allclose(rev, AF.jacobian(f, x, strategy="forward-mode", vectorize=True))
    with pytest.raises(NotImplementedError, match="Computing Jacobian using forward-AD or "
                                                  "forward-over-reverse Hessian isonly"):
        AF.jacobian(f, x, strategy="forward-mode")
    with pytest.raises(NotImplementedError, match="`create_graph=True` and "
                                                  "`strategy=\"forward-mode\"` are not supported"):
        AF.jacobian(f, x, vectorize=True, strategy="forward-mode", create_graph=True)
    assert AF.jacobian(f, x, create_graph=True).grad_fn.name() == "ViewBackward0"

    def g(a, b):
        return (a.sin() * b).sum()

    a, b = arr(3), arr(3)
    h = AF.hessian(g, (a, b))
    h2 = AF.hessian(g, (a, b), vectorize=True, outer_jacobian_strategy="forward-mode")
    assert torch.allclose(h[0][1], torch.diag(a.cos())) and torch.allclose(h2[0][0], h[0][0])
    v = torch.ones(3, dtype=torch.float64)
    out, hv = AF.hvp(lambda t: t.pow(3).sum(), a, v)
    assert torch.allclose(hv, 6 * a)
    assert torch.allclose(AF.vhp(lambda t: t.pow(3).sum(), a, v)[1], hv)
    with pytest.raises(RuntimeError, match="While computing the hessian, found that the jacobian "
                                           "of the user-provided function with respect to input 0 "
                                           "is independent of the input"):
        AF.hessian(lambda t: (t * 2).sum(), a, strict=True)
    with pytest.raises(TypeError, match="The outputs of the user-provided function given to vjp "
                                        "must be either a Tensor or a tuple of Tensors"):
        AF.vjp(lambda t: [t], a)

    def loss(w, bias):
        return functional_call(lin, {"weight": w, "bias": bias}, (x,)).pow(2).sum()

    hp = AF.hessian(loss, (lin.weight.detach(), lin.bias.detach()))
    assert [[tuple(t.shape) for t in r] for r in hp] == [[(2, 3, 2, 3), (2, 3, 2)],
                                                         [(2, 2, 3), (2, 2)]]


def test_checkpoints_both_ways_under_saved_tensor_hooks_and_module_hooks():
    blk = nn.Sequential(nn.Linear(4, 4), nn.GELU(), nn.Linear(4, 4)).double()
    x = arr(3, 4).requires_grad_()
    packed, ev = [], []
    blk[0].register_forward_hook(lambda m, i, o: ev.append("fwd0"))
    blk[2].register_full_backward_hook(lambda m, gi, go: ev.append("bwd2"))
    grads = []
    for reentrant, name in [(True, "CheckpointFunctionBackward"),
                            (False, "BackwardHookFunctionBackward")]:
        packed.clear()
        ev.clear()
        with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append("pack") or t,
                                                      lambda t: packed.append("unpack") or t):
            y = checkpoint(blk, x, use_reentrant=reentrant)
        assert y.grad_fn.name() == name and packed == ["pack"] and ev == ["fwd0"]
        y.sum().backward()
        assert packed == ["pack", "unpack"] and ev == ["fwd0", "fwd0", "bwd2"]
        grads.append(x.grad)
        x.grad = None
    assert torch.allclose(*grads)
    y = checkpoint_sequential(blk, 2, x, use_reentrant=False)
    y.sum().backward()
    assert torch.allclose(x.grad, grads[0])
    with pytest.raises(RuntimeError, match=r"When use_reentrant=True, torch.utils.checkpoint is "
                                           r"incompatible with .grad\(\)"):
        torch.autograd.grad(checkpoint(blk, x, use_reentrant=True).sum(), x)
    with pytest.raises(ValueError, match="Unexpected keyword arguments: s"):
        checkpoint(lambda t, s=1: t * s, x, s=2, use_reentrant=True)
    with pytest.raises(ValueError, match=r"determinism_check should be one of \['default', "
                                         r"'none'\], but got bogus"):
        checkpoint(lambda t: t * 2, x, use_reentrant=False, determinism_check="bogus")
    g, = torch.autograd.grad(checkpoint(lambda t: t.pow(3), x, use_reentrant=False).sum(), x,
                             create_graph=True)
    assert g.grad_fn.name() == "MulBackward0"
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = checkpoint(blk, arr(2, 4), use_reentrant=True)
    assert not out.requires_grad
    assert [str(i.message) for i in w] == ["None of the inputs have requires_grad=True. "
                                           "Gradients will be None"]


def test_double_backward_through_a_gru_layer_norm_and_convolution():
    torch.manual_seed(0)
    gru = nn.GRU(3, 4, batch_first=True, num_layers=2).double()
    x = arr(2, 5, 3).requires_grad_()
    out, h = gru(x)
    assert (out.grad_fn.name(), h.grad_fn.name(), h.shape) == ("TransposeBackward1",
                                                                "StackBackward0", (2, 2, 4))
    g, = torch.autograd.grad(out.pow(2).sum(), x, create_graph=True)
    g.pow(2).sum().backward(retain_graph=True)
    assert gru.weight_hh_l0.grad.abs().sum() > 0
    ln, conv = nn.LayerNorm(4).double(), nn.Conv1d(4, 2, 3, padding=1).double()
    z = conv(ln(out).transpose(1, 2))
    gz, = torch.autograd.grad(z.sum(), x, create_graph=True)
    assert (z.grad_fn.name(), gz.grad_fn.name()) == ("ConvolutionBackward0", "TransposeBackward0")
    gz.abs().sum().backward()
    assert ln.weight.grad.abs().sum() > 0 and conv.weight.grad.shape == (2, 4, 3)
    y = (x * 2).exp().sum()
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()
    cell, hc = nn.GRUCell(3, 4).double(), torch.zeros(2, 4, dtype=torch.float64)
    for t in range(5):
        hc = cell(x[:, t], hc)
    gw, = torch.autograd.grad(hc.sum(), cell.weight_ih, create_graph=True)
    assert (hc.grad_fn.name(), gw.grad_fn.name()) == ("AddBackward0", "AddBackward0")
    assert torch.autograd.grad(gw.sum(), x)[0].shape == (2, 5, 3)
    with pytest.raises(ValueError, match="proj_size argument is only supported for LSTM, not RNN "
                                         "or GRU"):
        nn.GRU(3, 4, proj_size=2)


def test_a_model_evaluated_in_inference_mode_and_its_tensors_refused_after():
    net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1)).double()
    net.eval()
    with torch.inference_mode():
        x = arr(5, 3)
        y = net(x)
        assert (y.requires_grad, y.is_inference(), torch.is_inference_mode_enabled()) == (
            False, True, True)
        with torch.inference_mode(False):
            z = torch.ones(2, requires_grad=True) * 2
            assert z.requires_grad and not z.is_inference()
    saved = "Inference tensors cannot be saved for backward"
    with pytest.raises(RuntimeError, match=saved):
        net(y)
    w = torch.randn(3, requires_grad=True)
    with pytest.raises(RuntimeError, match=saved):
        (w * y[:3, 0]).sum().backward()
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside "
                                           "InferenceMode is not allowed.You can make a clone"):
        y.add_(1)
    with pytest.raises(RuntimeError, match="Setting requires_grad=True on inference tensor "
                                           "outside InferenceMode is not allowed."):
        y.requires_grad_()
    assert not y.clone().is_inference() and y.detach().is_inference()
    net.train()
    net(arr(5, 3)).sum().backward()  # x is an inference tensor, but nothing saves it
    assert net[1].num_batches_tracked.item() == 1 and not net[1].running_mean.is_inference()
    with torch.inference_mode():
        net(x)
    assert net[1].num_batches_tracked.item() == 2

    @torch.inference_mode()
    def predict(t):
        return net(t)

    assert predict(arr(2, 3)).is_inference()
    net(arr(5, 3)).sum().backward()  # statistics written in the mode stay normal tensors
    assert not net[1].running_var.is_inference()


ANOMALY = "/__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp"


def test_anomaly_traces_end_with_the_place_torch_raised_them():
    x = torch.randn(3, requires_grad=True)
    lost = (x * 0).log()  # made outside the mode: no stack kept
    with caught_always(torch) as seen, torch.autograd.detect_anomaly():
        with pytest.raises(RuntimeError, match="Function 'MulBackward0' returned nan values in "
                                               "its 0th output."):
            torch.autograd.grad(lost.sum(), x)
        y = x.pow(3)
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        with pytest.raises(RuntimeError, match="Function 'MulBackward0' returned nan values in "
                                               "its 1th output."):
            torch.autograd.grad(g, x, torch.full((3,), float("nan")))
    texts = [str(w.message) for w in seen if "Anomaly Detection has been" not in str(w.message)]
    assert texts[0] == ("Error detected in MulBackward0. No forward pass information available. "
                        "Enable detect anomaly during forward pass for more information. "
                        f"(Triggered internally at {ANOMALY}:100.)")
    assert texts[1].startswith("Error detected in MulBackward0. Traceback of forward call that "
                               "caused the error:\n")
    assert texts[1].endswith(f"\n (Triggered internally at {ANOMALY}:122.)")
    assert texts[2].startswith("\n\nPrevious calculation was induced by PowBackward0. Traceback "
                               "of forward call that induced the previous calculation:\n")
    assert texts[2].endswith("    y = x.pow(3)\n"
                             f" (Triggered internally at {ANOMALY}:129.)")
    assert len(texts) == 3
    with caught_always(torch) as seen:
        (x * x).sum().backward(create_graph=True)
    assert str(seen[0].message).endswith(
        "make sure to reset the .grad fields of your parameters to None after use to break the "
        "cycle and avoid the leak. (Triggered internally at "
        "/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)")


def test_a_graph_walk_by_next_functions_and_writes_to_saved_tensors_allowed():
    a = torch.randn(3, requires_grad=True)
    y = (a.exp() * 2).sum()
    y.grad_fn.metadata["tag"] = "root"
    stack, seen = [y.grad_fn], []
    while stack:
        node = stack.pop()
        seen.append((node.name(), dict(node.metadata),
                     [None if f is None else f.name() for f, _ in node.next_functions]))
        stack.extend(f for f, _ in node.next_functions if f is not None)
    assert seen == [("SumBackward0", {"tag": "root"}, ["MulBackward0"]),
                    ("MulBackward0", {}, ["ExpBackward0", None]),
                    ("ExpBackward0", {}, ["torch::autograd::AccumulateGrad"]),
                    ("torch::autograd::AccumulateGrad", {}, [])]
    mul = y.grad_fn.next_functions[0][0]
    assert mul._saved_other.item() == 2 and mul._saved_self is None
    exp = mul.next_functions[0][0]
    assert type(exp._raw_saved_result).__name__ == "SavedTensor"
    lin = nn.Linear(3, 2).double()
    x = arr(4, 3)
    opt = torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9)
    with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
        w0 = lin.weight.detach().clone()
        t = lin(x).tanh()
        loss = (t * lin.weight.sum()).sum()
        with torch.no_grad():
            lin.weight.mul_(0.5)
        loss.backward()  # the saved weight is the one before the write
        opt.step()
    where = torch.autograd.graph.__name__  # refgrad's module, where refgrad runs
    assert re.fullmatch(rf"<{re.escape(where)}\._AllowMutationOnSavedContext object at "
                        r"0x[0-9a-f]+>", repr(ctx))
    lin2 = nn.Linear(3, 2).double()
    with torch.no_grad():
        lin2.weight.copy_(w0)
        lin2.bias.copy_(lin.bias + 0.1 * lin.bias.grad)
    (lin2(x).tanh() * w0.sum()).sum().backward()
    assert torch.allclose(lin2.bias.grad, lin.bias.grad)


def test_torch_func_grad_and_vjp_through_functional_call_with_buffers():
    net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Tanh(), nn.Linear(4, 1)).double()
    params = {k: v.detach() for k, v in net.named_parameters()}
    bufs = dict(net.named_buffers())
    x, t = arr(6, 3), arr(6, 1)

    def loss(p, b, x, t):
        return nn.functional.mse_loss(functional_call(net, (p, b), (x,)), t)

    g = grad(loss)(params, bufs, x, t)
    assert sorted(g) == ["0.bias", "0.weight", "1.bias", "1.weight", "3.bias", "3.weight"]
    assert net[1].num_batches_tracked.item() == 1  # the buffers passed are the module's
    (gg,), val = grad_and_value(loss, argnums=(0,))(params, bufs, x, t)
    assert torch.allclose(gg["0.weight"], g["0.weight"]) and val.ndim == 0
    net.eval()
    out, pull = vjp(lambda p: functional_call(net, p, (x,), strict=False), params)
    ct, = pull(torch.ones_like(out))
    assert torch.allclose(ct["3.bias"], torch.tensor([6.0], dtype=torch.float64))

    def per_sample(p, xi, ti):
        return nn.functional.mse_loss(functional_call(net, p, (xi[None],)), ti[None])

    psg = vmap(grad(per_sample), in_dims=(None, 0, 0))(params, x, t)
    assert psg["0.weight"].shape == (6, 4, 3)
    assert torch.allclose(psg["3.bias"].mean(0), grad(loss)(params, bufs, x, t)["3.bias"])
    with pytest.raises(RuntimeError, match="Missing key\\(s\\): '0.bias'"):
        functional_call(net, {"0.weight": params["0.weight"]}, (x,), strict=True)
    with pytest.raises(ValueError, match=r"\['0.weight'\] appeared in multiple dictionaries"):
        functional_call(net, ({"0.weight": params["0.weight"]},
                              {"0.weight": params["0.weight"]}), (x,))
    base = nn.Linear(3, 2).double()
    jac = jacrev(lambda p: functional_call(base, p, (x[:2],)))(dict(base.named_parameters()))
    assert jac["weight"].shape == (2, 2, 2, 3)
    with pytest.raises(RuntimeError, match="Expected f\\(\\*args\\) to return a scalar Tensor, "
                                           "got tensor with 2 dims"):
        grad(lambda p: functional_call(base, p, (x,)))(dict(base.named_parameters()))


CAPTURED = (r"During a grad \(vjp, jvp, grad, etc\) transform, the function provided attempted "
            r"to call in-place operation \({}\) that would mutate a captured Tensor. This is not "
            r"supported; please rewrite the function being transformed to explicitly accept "
            r"the mutated Tensor\(s\) as inputs.")


def test_a_batch_norm_counting_its_batches_under_vjp_is_refused_its_captured_buffer():
    net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Tanh(), nn.Linear(4, 1)).double()
    params = {k: v.detach() for k, v in net.named_parameters()}
    x = arr(6, 3)
    with pytest.raises(RuntimeError, match="^" + CAPTURED.format(r"aten::add_\.Tensor") + "$"):
        vjp(lambda p: functional_call(net, p, (x,), strict=False), params)
    with pytest.raises(RuntimeError, match=CAPTURED.format(r"aten::add_\.Tensor")):
        jacrev(lambda p: functional_call(net, p, (x,), strict=False))(params)
    bufs = dict(net.named_buffers())
    grad(lambda p, b: functional_call(net, (p, b), (x,)).sum())(params, bufs)
    assert net[1].num_batches_tracked.item() == 1  # the refused writes wrote nothing


def test_writes_into_captured_tensors_are_refused_and_into_given_or_made_ones_allowed():
    c, w, t = torch.zeros(1, 3), torch.zeros(3, requires_grad=True), torch.randn(3)
    refused = {
        r"aten::add_\.Tensor": lambda: c.add_(1),
        "aten::zero_": lambda: c.zero_(),
        r"aten::mul_\.Tensor": lambda: c[0, 0:2].mul_(2),
        "aten::copy_": lambda: c.detach().copy_(t),
        "aten::relu_": lambda: torch.relu_(c),
        r"aten::fill_\.Scalar": lambda: c.fill_(2),
        "aten::index_put_": lambda: c.index_put_((torch.tensor([0]),), torch.tensor(1.0)),
        "aten::uniform_": lambda: c.uniform_(),
        "aten::squeeze_": lambda: c.squeeze_(),
        r"aten::squeeze_\.dim": lambda: c.squeeze_(0),
        "aten::unsqueeze_": lambda: c.unsqueeze_(0),
        "aten::t_": lambda: c.t_(),
        "aten::swapdims_": lambda: c.swapdims_(0, 1),
        "aten::resize_": lambda: c.resize_(1, 3),
        "aten::resize_as_": lambda: c.resize_as_(torch.zeros(1, 3)),
        "aten::set_": lambda: c.set_(),
        r"aten::set_\.source_Tensor": lambda: c.set_(torch.zeros(1, 3)),
        r"aten::set_\.source_Tensor_storage_offset": lambda: c.set_(torch.zeros(3), 0, (1, 3)),
        r"aten::set_\.source_Storage": lambda: c.set_(w.untyped_storage()),
        r"aten::add_\.Tensor ": lambda: w.add_(1),  # before autograd's refusal of a leaf
    }
    for name, write in refused.items():
        with pytest.raises(RuntimeError, match=CAPTURED.format(name.strip())):
            grad(lambda u, write=write: (write().sum() * u).sum())(t)
        with torch.no_grad(), pytest.raises(RuntimeError, match=CAPTURED.format(name.strip())):
            jvp(lambda u, write=write: write().sum() * u, (t,), (t,))
    assert c.shape == (1, 3) and w._version == 0

    def made_and_given(u, s):
        made = torch.zeros(3).add_(u)
        u.detach().add_(0)
        s.add_(1)
        return (made * s).sum()

    s = torch.zeros(3)
    assert torch.equal(grad(made_and_given)(t, s), torch.ones(3)) and torch.equal(s, torch.ones(3))
    assert jacfwd(lambda u, v: v.mul_(2) * u)(t, torch.ones(3)).shape == (3, 3)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in "
                                           "an in-place operation."):
        grad(lambda u: u.add_(1).sum())(t)
    with pytest.raises(RuntimeError, match=CAPTURED.format(r"aten::mul_\.Tensor")):
        vmap(grad(lambda u: (c.mul_(2) * u).sum()))(torch.randn(2, 3))

    def outer(u):
        made = torch.ones(3)
        with pytest.raises(RuntimeError, match=CAPTURED.format(r"aten::add_\.Tensor")):
            grad(lambda v: (made.add_(1) * v).sum())(u)
        with pytest.raises(RuntimeError, match=CAPTURED.format(r"aten::mul_\.Tensor")):
            grad(lambda v: (u.mul_(1) * v).sum())(u.clone())
        return (made.add_(1) * u).sum()

    assert torch.equal(grad(outer)(t), torch.full((3,), 2.0))
