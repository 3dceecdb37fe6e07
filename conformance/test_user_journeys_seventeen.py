"""Journeys through schedules, warps, mixtures, half precision, data, hooks, patches and
rankings: a warm-up chained into a cosine schedule, cycles and plateaus, with their state
saved and loaded; a spatial transformer sampling an image through a learned affine grid; a
mixture density network; a CPU autocast region with a gradient scaler; a data pipeline of
splits, weighted samplers and loaders; hooks on every module and on state dicts; a vision
transformer's patches by unfold; and the ranking losses of metric learning."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.optim import lr_scheduler as L

RNG = np.random.default_rng(17)


def arr(*shape, scale=1.0):
    return torch.tensor(RNG.standard_normal(shape) * scale)


def test_a_warm_up_chained_into_cosine_cycles_and_plateaus():
    net = nn.Linear(3, 1).double()
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    seq = L.SequentialLR(opt, [L.LinearLR(opt, start_factor=0.1, total_iters=3),
                               L.CosineAnnealingLR(opt, T_max=5, eta_min=0.001)], milestones=[3])
    lrs = []
    for _ in range(9):
        opt.step()
        seq.step()
        lrs.append(seq.get_last_lr()[0])
    np.testing.assert_allclose(lrs, [0.04, 0.07, 0.1, 0.090546341222, 0.065796341222,
                                     0.035203658778, 0.010453658778, 0.001, 0.010453658778])
    sd = seq.state_dict()
    assert sorted(sd) == ["_last_lr", "_milestones", "_schedulers", "last_epoch"]
    assert sd["_schedulers"][0]["_last_lr"] == [0.07] and sd["last_epoch"] == 9
    opt2 = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    seq2 = L.SequentialLR(opt2, [L.LinearLR(opt2, start_factor=0.1, total_iters=3),
                                 L.CosineAnnealingLR(opt2, T_max=5, eta_min=0.001)], [3])
    seq2.load_state_dict(sd)
    opt2.param_groups[0]["lr"] = opt.param_groups[0]["lr"]
    for o, s in ((opt, seq), (opt2, seq2)):
        o.step()
        s.step()
    assert seq.get_last_lr() == seq2.get_last_lr()
    cyc = L.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
    seen = []
    for _ in range(5):
        opt.step()
        cyc.step()
        seen.append((round(cyc.get_last_lr()[0], 12), round(opt.param_groups[0]["momentum"], 12)))
    assert seen == [(0.055, 0.85), (0.1, 0.8), (0.055, 0.85), (0.01, 0.9), (0.0325, 0.875)]
    opt3 = torch.optim.SGD(net.parameters(), lr=1.0)
    pl = L.ReduceLROnPlateau(opt3, mode="max", factor=0.5, patience=1, cooldown=1,
                             threshold=0.1, threshold_mode="abs", min_lr=0.1)
    for m in [1.0, 1.05, 1.02, 1.0, 2.0, 2.0, 2.0]:
        pl.step(m)
    assert (opt3.param_groups[0]["lr"], pl.num_bad_epochs, pl.cooldown_counter) == (0.25, 0, 1)
    with pytest.raises(ValueError, match="optimizer must support momentum or beta1 with "
                                         "`cycle_momentum` option enabled"):
        L.CyclicLR(torch.optim.Adagrad(net.parameters()), base_lr=0.01, max_lr=0.1)
    with pytest.raises(ValueError, match="SequentialLR expects all schedulers to belong to the "
                                         "same optimizer, but got scheduler StepLR at index 1"):
        L.SequentialLR(opt, [cyc, L.StepLR(opt3, 2)], milestones=[3])
    with pytest.raises(ValueError, match="threshold mode x is unknown!"):
        L.ReduceLROnPlateau(opt3, threshold_mode="x")
    with pytest.warns(UserWarning, match=r"Detected call of `lr_scheduler.step\(\)` before "
                                         r"`optimizer.step\(\)`"):
        L.StepLR(torch.optim.SGD(net.parameters(), lr=1.0), 2).step()


def test_a_spatial_transformer_samples_through_a_learned_affine_grid():
    img = arr(2, 3, 5, 6).requires_grad_()
    theta = (torch.tensor([[1.0, 0, 0], [0, 1, 0]], dtype=torch.float64)
             + 0.1 * arr(2, 2, 3)).requires_grad_()
    grid = F.affine_grid(theta, [2, 3, 4, 4], align_corners=False)
    assert grid.grad_fn.name() == "AffineGridGeneratorBackward0" and grid.shape == (2, 4, 4, 2)
    for mode in ["bilinear", "nearest", "bicubic"]:
        out = F.grid_sample(img, grid, mode=mode, padding_mode="reflection", align_corners=False)
        assert out.grad_fn.name() == "GridSampler2DBackward0"
        gi, gt = torch.autograd.grad(out.pow(2).sum(), [img, theta])
        assert gi.shape == img.shape and (gt.abs().sum() > 0) == (mode != "nearest")
    vol = arr(1, 2, 3, 4, 5)
    g3 = F.affine_grid(torch.eye(3, 4, dtype=torch.float64)[None], [1, 2, 2, 3, 3],
                       align_corners=False)
    assert F.grid_sample(vol, g3, align_corners=False).shape == (1, 2, 2, 3, 3)
    # a diverged localisation net: NaN is NaN in an image, 0 in a volume, as torch's kernels
    lost = torch.tensor([[[[float("nan"), 0.2]]]], dtype=torch.float64, requires_grad=True)
    assert F.grid_sample(img[:1], lost, align_corners=False).isnan().all()
    lost3 = torch.tensor([[[[[float("nan"), 0.2, 0.1], [0.3, -0.4, 0.5]]]]], dtype=torch.float64,
                         requires_grad=True)
    out3 = F.grid_sample(vol, lost3, align_corners=False)
    assert out3[..., 0].flatten().tolist() == [0.0, 0.0]
    out3.sum().backward()
    assert lost3.grad[0, 0, 0, 0].tolist() == [0.0, 0.0, 0.0]
    near, = torch.autograd.grad(F.grid_sample(img[:1], lost, mode="nearest",
                                              align_corners=False).sum(), lost)
    assert near.tolist() == [[[[0.0, 0.0]]]]
    edge = torch.tensor([[[[float("inf"), 0.2]]]], dtype=torch.float64, requires_grad=True)
    gi, ge = torch.autograd.grad(F.grid_sample(img[:1], edge, padding_mode="border",
                                               align_corners=True).sum(), [img, edge])
    assert torch.allclose(gi[0, 0, 2:4, 5], torch.tensor([0.6, 0.4], dtype=torch.float64))
    assert ge[0, 0, 0, 0].item() == 0.0 and bool(ge.isfinite().all())  # x clipped to the edge
    with pytest.warns(UserWarning, match="Default grid_sample and affine_grid behavior has "
                                         "changed to align_corners=False since 1.3.0"):
        F.affine_grid(theta, [2, 3, 4, 4])
    ident = F.affine_grid(torch.eye(2, 3)[None], [1, 1, 2, 2], align_corners=True)
    assert ident.flatten().tolist() == [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
    corner = F.grid_sample(torch.arange(4.0).view(1, 1, 2, 2), torch.tensor([[[[0.5, -0.5]]]]),
                           align_corners=True)
    assert corner.item() == 1.25
    with pytest.raises(NotImplementedError, match=r"affine_grid only supports 4D and 5D sizes, "
                       r"for 2D and 3D affine transforms, respectively. Got size \[2, 3, 4\]."):
        F.affine_grid(theta, [2, 3, 4], align_corners=False)
    with pytest.raises(ValueError, match=r"Expected a batch of 2D affine matrices of shape "
                                         r"Nx2x3 for size \[2, 3, 4, 4\]. Got "
                                         r"torch.Size\(\[2, 1, 3\]\)."):
        F.affine_grid(theta[:, :1], [2, 3, 4, 4], align_corners=False)
    with pytest.raises(ValueError, match="nn.functional.grid_sample\\(\\): expected mode to be "
                                         "'bilinear', 'nearest' or 'bicubic', but got: 'area'"):
        F.grid_sample(img, grid, mode="area", align_corners=False)
    with pytest.raises(RuntimeError, match=r"grid_sampler\(\): expected grid and input to have "
                                           r"same batch size, but got input with sizes \[2, 3, 5, "
                                           r"6\] and grid with sizes \[1, 4, 4, 2\]"):
        F.grid_sample(img, grid[:1], align_corners=False)
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Double"):
        F.grid_sample(img.float(), grid, align_corners=False)


def test_a_mixture_density_network_by_mixture_same_family():
    D = torch.distributions
    logits, mu, ls = arr(4, 3).requires_grad_(), arr(4, 3, 2).requires_grad_(), arr(4, 3, 2)
    comp = D.Independent(D.Normal(mu, ls.exp()), 1)
    mix = D.MixtureSameFamily(D.Categorical(logits=logits), comp)
    assert (mix.batch_shape, mix.event_shape, comp.batch_shape) == ((4,), (2,), (4, 3))
    assert repr(mix) == ("MixtureSameFamily(\n  Categorical(logits: torch.Size([4, 3])),\n  "
                         "Independent(Normal(loc: torch.Size([4, 3, 2]), scale: "
                         "torch.Size([4, 3, 2])), 1))")
    lp = mix.log_prob(arr(4, 2))
    assert lp.grad_fn.name() == "LogsumexpBackward0"
    lp.mean().neg().backward()
    assert torch.allclose(logits.grad.sum(-1), torch.zeros(4, dtype=torch.float64))
    assert mix.sample((5,)).shape == (5, 4, 2) and mix.variance.shape == (4, 2)
    with pytest.raises(NotImplementedError):
        mix.rsample()
    with pytest.raises(NotImplementedError, match="No KL\\(p \\|\\| q\\) is implemented for p "
                                                  "type MixtureSameFamily"):
        D.kl_divergence(mix, mix)
    with pytest.raises(ValueError, match="The Mixture distribution needs to be an  instance of "
                                         "torch.distributions.Categorical"):
        D.MixtureSameFamily(logits, comp)
    with pytest.raises(ValueError, match="Expected reinterpreted_batch_ndims <= "
                                         "len\\(base_distribution.batch_shape\\), actual 4 vs 3"):
        D.Independent(D.Normal(mu, 1.0), 4)
    conc = arr(3, 4).exp().requires_grad_()
    z = D.Dirichlet(conc).rsample()
    assert z.grad_fn.name() == "_DirichletBackward" and torch.allclose(
        z.sum(-1), torch.ones(3, dtype=torch.float64))
    D.kl_divergence(D.Dirichlet(conc), D.Dirichlet(torch.ones(3, 4, dtype=torch.float64))
                    ).sum().backward()
    assert conc.grad.shape == (3, 4)
    with pytest.raises(ValueError, match="`concentration` parameter must be at least "
                                         "one-dimensional."):
        D.Dirichlet(torch.tensor(1.0))
    with pytest.raises(ValueError, match="to be within the support \\(Simplex\\(\\)\\)"):
        D.Dirichlet(conc).log_prob(torch.ones(3, 4, dtype=torch.float64))


def test_a_cpu_autocast_region_with_a_gradient_scaler():
    net = nn.Sequential(nn.Linear(4, 8), nn.LayerNorm(8), nn.GELU(), nn.Linear(8, 3))
    x, t = torch.tensor(RNG.standard_normal((5, 4)), dtype=torch.float32), torch.tensor([0, 2, 1,
                                                                                         1, 0])
    with torch.autocast("cpu", dtype=torch.float16):
        h = net[0](x)
        out = net(x)
        loss = F.cross_entropy(out, t)
        assert (h.dtype, out.dtype, loss.dtype) == (torch.float16, torch.float16, torch.float32)
        assert h.grad_fn.name() == "AddmmBackward0" and net[1](h).dtype == torch.float16
        assert (x + out[:, :1]).dtype == torch.float32 and torch.cat([out, x[:, :3]]).dtype == (
            torch.float32)
        with torch.autocast("cpu", enabled=False):
            assert net[0](x).dtype == torch.float32 and not torch.is_autocast_enabled("cpu")
    assert not torch.is_autocast_enabled("cpu")
    loss.backward()
    assert net[0].weight.grad.dtype == torch.float32
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 4, growth_interval=2)
    opt, scales = torch.optim.SGD(net.parameters(), lr=0.1), []
    for i in range(4):
        opt.zero_grad()
        with torch.autocast("cpu", dtype=torch.float16):
            scaled = scaler.scale(F.cross_entropy(net(x), t))
        assert scaled.grad_fn.name() == "MulBackward0" and scaled.dtype == torch.float32
        scaled.backward()
        if i == 2:
            net[0].weight.grad[0, 0] = float("inf")
        scaler.unscale_(opt)
        nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        assert scaler.step(opt) is None
        scaler.update()
        scales.append(scaler.get_scale())
    assert scales == [16.0, 32.0, 16.0, 16.0]
    assert scaler.state_dict() == {"scale": 16.0, "growth_factor": 2.0, "backoff_factor": 0.5,
                                   "growth_interval": 2, "_growth_tracker": 1}
    with pytest.warns(UserWarning, match="In CPU autocast, but the target dtype is not "
                                         "supported. Disabling autocast."):
        with torch.autocast("cpu", dtype=torch.float64):
            assert (x @ x.T).dtype == torch.float32
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda, .* device type at start "
                                           "of device string: tpu"):
        torch.autocast("tpu")
    off = torch.amp.GradScaler("cpu", enabled=False)
    assert off.scale(loss) is loss and off.get_scale() == 1.0
