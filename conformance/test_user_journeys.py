"""The journeys of torch's tutorials and recipes, walked with small synthetic data: each
test asserts facts a user relies on (shapes, dtypes, node names, falling losses, gradients
that match a closed form, state_dicts that survive a round trip)."""

import io
import math
import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.func import functional_call, grad, hessian, jacfwd, jacrev, stack_module_state, vmap


def numbers(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def test_autograd_basics_leaves_nodes_and_accumulation():
    w = numbers(5, 3).requires_grad_()
    z = torch.ones(5) @ w
    loss = F.binary_cross_entropy_with_logits(z, torch.zeros(3))
    assert type(z.grad_fn).__name__ == "SqueezeBackward4"
    assert type(loss.grad_fn).__name__ == "BinaryCrossEntropyWithLogitsBackward0"
    loss.backward()
    assert torch.allclose(w.grad, torch.sigmoid(z.detach()).expand(5, 3) / 3)
    inp = torch.eye(4, 5, requires_grad=True)
    out = (inp + 1).pow(2).t()
    out.backward(torch.ones_like(out), retain_graph=True)
    out.backward(torch.ones_like(out))
    assert torch.equal(inp.grad, 4 * (inp.detach() + 1))  # two calls add up
    assert [type(n).__name__ for n, _ in out.grad_fn.next_functions] == ["PowBackward0"]
    with torch.no_grad():
        assert not (w * 2).requires_grad
    assert (w * 2).detach().grad_fn is None


def test_polynomial_fit_by_hand_then_with_a_custom_function():
    x = torch.linspace(-math.pi, math.pi, 200)
    y = torch.sin(x)

    class Legendre3(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            ctx.save_for_backward(t)
            return 0.5 * (5 * t ** 3 - 3 * t)

        @staticmethod
        def backward(ctx, g):
            t, = ctx.saved_tensors
            return g * 1.5 * (5 * t ** 2 - 1)
    a, c = torch.zeros((), requires_grad=True), torch.zeros((), requires_grad=True)
    b, d = torch.full((), -1.0, requires_grad=True), torch.full((), 0.3, requires_grad=True)
    losses = []
    for _ in range(100):
        loss = (a + b * Legendre3.apply(c + d * x) - y).pow(2).sum()
        losses.append(loss.item())
        loss.backward()
        with torch.no_grad():
            for p in (a, b, c, d):
                p -= 5e-6 * p.grad
                p.grad = None
    assert losses[-1] < 0.7 * losses[0]
    assert torch.autograd.gradcheck(Legendre3.apply, (torch.rand(4, dtype=torch.double,
                                                                 requires_grad=True),))


def test_a_lenet_trains_and_its_parameters_have_torchs_shapes():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5),
                        nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(),
                        nn.Linear(120, 10))
    assert [tuple(p.shape) for p in net.parameters()][:4] == [(6, 1, 5, 5), (6,), (16, 6, 5, 5),
                                                              (16,)]
    images, labels = numbers(16, 1, 32, 32), torch.arange(16) % 10
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    losses = []
    for _ in range(15):
        opt.zero_grad()
        loss = F.cross_entropy(net(images), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0]
    assert type(loss.grad_fn).__name__ == "NllLossBackward0"
    assert sorted(opt.state_dict()["state"][0]) == ["momentum_buffer"]


def test_a_dataloader_over_a_tensor_dataset():
    data = torch.utils.data.TensorDataset(numbers(10, 3), torch.arange(10))
    batches = list(torch.utils.data.DataLoader(data, batch_size=4))
    assert [tuple(b[0].shape) for b in batches] == [(4, 3), (4, 3), (2, 3)]
    assert batches[2][1].tolist() == [8, 9] and batches[0][1].dtype == torch.int64


def test_double_backward_of_a_function_that_returns_its_derivative():
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x ** 3, 3 * x ** 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0], output[1])

        @staticmethod
        def backward(ctx, g, g_dx):
            x, dx = ctx.saved_tensors
            return g * dx + g_dx * 6 * x
    x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.double, requires_grad=True)
    assert torch.autograd.gradgradcheck(lambda t: Cube.apply(t)[0], x)
    g, = torch.autograd.grad(Cube.apply(x)[0].sum(), x, create_graph=True)
    gg, = torch.autograd.grad(g.sum(), x)
    assert torch.allclose(gg, 6 * x)


def test_forward_mode_jvp_of_a_module_through_functional_call():
    import torch.autograd.forward_ad as fwAD
    model, inp = nn.Linear(5, 5), numbers(16, 5)
    tangents = {"weight": numbers(5, 5, seed=1), "bias": numbers(5, seed=2)}
    with fwAD.dual_level():
        duals = {k: fwAD.make_dual(p.detach(), tangents[k]) for k, p in model.named_parameters()}
        jvp = fwAD.unpack_dual(functional_call(model, duals, inp)).tangent
    assert torch.allclose(jvp, inp @ tangents["weight"].T + tangents["bias"], atol=1e-6)


def test_jacobians_and_hessians_agree_with_a_closed_form():
    weight, bias, x = (numbers(4, 4).double(), numbers(4, seed=1).double(),
                       numbers(4, seed=2).double())

    def predict(w, b, t):
        return F.linear(t, w, b).tanh()
    closed = (1 - predict(weight, bias, x) ** 2)[:, None] * weight
    assert torch.allclose(jacrev(predict, argnums=2)(weight, bias, x), closed)
    assert torch.allclose(jacfwd(predict, argnums=2)(weight, bias, x), closed)
    h = hessian(predict, argnums=2)(weight, bias, x)
    assert h.shape == (4, 4, 4)
    assert torch.allclose(h, jacrev(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x))


def test_per_sample_gradients_with_vmap_match_a_loop():
    model = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 3)).double()
    data = torch.tensor(np.random.default_rng(3).standard_normal((5, 6)))
    targets = torch.tensor([0, 1, 2, 1, 0])
    params = {k: v.detach() for k, v in model.named_parameters()}

    def loss(p, sample, target):
        return F.cross_entropy(functional_call(model, p, (sample[None],)), target[None])
    batched = vmap(grad(loss), in_dims=(None, 0, 0))(params, data, targets)
    for i in range(5):
        looped = torch.autograd.grad(F.cross_entropy(model(data[i:i + 1]), targets[i:i + 1]),
                                     list(model.parameters()))
        assert all(torch.allclose(batched[k][i], g) for k, g in zip(params, looped))


def test_an_ensemble_stacked_and_vmapped():
    models = [nn.Linear(3, 2) for _ in range(4)]
    params, buffers = stack_module_state(models)
    assert params["weight"].shape == (4, 2, 3) and params["weight"].is_leaf
    x = numbers(7, 3)
    out = vmap(lambda p, b: functional_call(models[0], (p, b), (x,)))(params, buffers)
    assert torch.allclose(out, torch.stack([m(x) for m in models]), atol=1e-6)


def test_saved_tensor_hooks_see_each_saved_tensor():
    seen = []
    a = torch.ones(5, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: seen.append("pack") or t,
                                                  lambda t: seen.append("unpack") or t):
        y = a * (a * 2)
    y.sum().backward()
    assert seen == ["pack", "pack", "unpack", "unpack"]
    assert a.grad.tolist() == [4.0] * 5


def test_pruning_keeps_the_original_and_a_mask():
    import torch.nn.utils.prune as prune
    conv = nn.Conv2d(1, 6, 3)
    prune.l1_unstructured(conv, name="bias", amount=3)
    assert [n for n, _ in conv.named_parameters()] == ["weight", "bias_orig"]
    assert int(conv.bias_mask.sum()) == 3
    assert torch.equal(conv.bias, conv.bias_orig * conv.bias_mask)
    prune.remove(conv, "bias")
    assert [n for n, _ in conv.named_parameters()] == ["weight", "bias"]


def test_a_symmetric_parametrization():
    import torch.nn.utils.parametrize as P

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)
    layer = nn.Linear(3, 3)
    P.register_parametrization(layer, "weight", Symmetric())
    assert torch.equal(layer.weight, layer.weight.T)
    assert type(layer).__name__ == "ParametrizedLinear"
    assert list(layer.state_dict()) == ["bias", "parametrizations.weight.original"]


def test_state_dicts_round_trip_and_warmstart_loosely():
    net = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3))
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    net(numbers(5, 4)).sum().backward()
    opt.step()
    buf = io.BytesIO()
    torch.save({"model": net.state_dict(), "opt": opt.state_dict()}, buf)
    buf.seek(0)
    loaded = torch.load(buf, weights_only=True)
    twin = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3))
    assert str(twin.load_state_dict(loaded["model"])) == "<All keys matched successfully>"
    assert all(torch.equal(a, b) for a, b in zip(twin.state_dict().values(),
                                                  net.state_dict().values()))
    smaller = nn.Sequential(nn.Linear(4, 3))
    result = smaller.load_state_dict(loaded["model"], strict=False)
    assert result.missing_keys == [] and result.unexpected_keys[0] == "1.weight"


def test_zeroing_gradients_and_a_chain_of_schedulers():
    net = nn.Linear(2, 1)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    net(torch.ones(1, 2)).sum().backward()
    opt.zero_grad()
    assert net.weight.grad is None
    s1 = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    s2 = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2], gamma=0.1)
    lrs = []
    for _ in range(3):
        opt.step()
        s1.step()
        s2.step()
        lrs.append(opt.param_groups[0]["lr"])
    assert np.allclose(lrs, [0.05, 0.0025, 0.00125])


def test_checkpointing_recomputes_and_gives_the_same_gradients():
    model = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 1)).double()
    x = torch.tensor(np.random.default_rng(4).standard_normal((5, 6)))
    plain = torch.autograd.grad(model(x).sum(), list(model.parameters()))
    calls = []

    def counted(t):
        calls.append(1)
        return model(t)
    out = torch.utils.checkpoint.checkpoint(counted, x, use_reentrant=False)
    assert all(torch.allclose(a, b) for a, b in
               zip(plain, torch.autograd.grad(out.sum(), list(model.parameters()))))
    assert len(calls) == 2


def test_anomaly_mode_names_the_node_that_made_a_nan():
    x = torch.zeros(3, requires_grad=True)
    with warnings.catch_warnings(record=True) as seen, np.errstate(all="ignore"):
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly():
            y = x.sqrt() * 0
            with pytest.raises(RuntimeError) as caught:
                y.sum().backward()
    assert str(caught.value) == "Function 'SqrtBackward0' returned nan values in its 0th output."
    firsts = [str(w.message).split("\n")[0] for w in seen]
    assert firsts[0].startswith("Anomaly Detection has been enabled.")
    assert firsts[1] == ("Error detected in SqrtBackward0. Traceback of forward call that "
                         "caused the error:")


def test_fusing_conv_and_batch_norm_keeps_the_eval_output():
    from torch.nn.utils.fusion import fuse_conv_bn_eval
    conv, bn = nn.Conv2d(3, 5, 3).double().eval(), nn.BatchNorm2d(5).double()
    bn.train()
    bn(conv(torch.tensor(np.random.default_rng(5).standard_normal((4, 3, 8, 8)))))
    bn.eval()
    x = torch.tensor(np.random.default_rng(6).standard_normal((2, 3, 8, 8)))
    fused = fuse_conv_bn_eval(conv, bn)
    assert type(fused).__name__ == "Conv2d" and torch.allclose(fused(x), bn(conv(x)))
