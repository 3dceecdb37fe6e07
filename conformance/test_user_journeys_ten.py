"""Journeys through small generative models: a GAN with a gradient penalty and spectral
norms, a VAE's reparameterised samples and KL terms, a flow's transformed distributions and
log-determinants, a DDPM schedule with an exponential moving average of the weights; and how
often a layer reads a parametrized weight."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import distributions as dist
from torch import nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import spectral_norm

RNG = np.random.default_rng(10)


def arr(*shape):
    return torch.tensor(RNG.standard_normal(shape))


def set_from_numpy(module):
    """The module in float64, with weights NumPy draws: no seed shared with other tests."""
    with torch.no_grad():
        for p in module.double().parameters():
            p.copy_(arr(*p.shape) * 0.3)
    return module


class Counted(nn.Module):
    """A parametrization that counts how often the weight is read."""

    def __init__(self):
        super().__init__()
        self.reads = 0

    def forward(self, weight):
        self.reads += 1
        return weight * 1


def reads_in_one_call(module, name, *inputs):
    counter = Counted()
    parametrize.register_parametrization(module, name, counter)
    counter.reads = 0
    module(*inputs)
    return counter.reads


@pytest.mark.parametrize(("name", "shape", "bias"), [
    ("weight", (5, 3), True), ("bias", (5, 3), True), ("weight", (2, 5, 3), True),
    ("weight", (2, 5, 3), False), ("weight", (3,), True)])
def test_linear_reads_a_parametrized_weight_once(name, shape, bias):
    layer = set_from_numpy(nn.Linear(3, 4, bias=bias))
    assert reads_in_one_call(layer, name, arr(*shape)) == 1


@pytest.mark.parametrize("kind", [nn.RNN, nn.LSTM, nn.GRU])
def test_recurrent_layers_read_a_parametrized_weight_as_torch_does(kind):
    # asked for with hasattr, then read, once to see whether it changed and once to keep it
    layer = set_from_numpy(kind(2, 3, num_layers=2))
    assert reads_in_one_call(layer, "weight_hh_l1", arr(4, 1, 2)) == 4


@pytest.mark.parametrize(("training", "grad", "reads"), [
    (True, True, 3), (False, True, 4), (False, False, 5)])
@pytest.mark.parametrize("name", ["in_proj_weight", "in_proj_bias"])
def test_attention_reads_its_in_projection_as_torch_does(name, training, grad, reads):
    # twice deciding on the fused path, then listed, checked and used as far as it goes
    mha = set_from_numpy(nn.MultiheadAttention(4, 2, batch_first=True)).train(training)
    x = arr(3, 2, 4)
    with torch.set_grad_enabled(grad):
        assert reads_in_one_call(mha, name, x, x, x) == reads


@pytest.mark.parametrize(("training", "grad", "reads"), [
    (True, True, 3), (False, True, 5), (False, False, 2)])
def test_an_encoder_layer_reads_its_attention_weights_as_torch_does(training, grad, reads):
    layer = set_from_numpy(nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True))
    layer.train(training)
    counter = Counted()
    parametrize.register_parametrization(layer.self_attn, "in_proj_weight", counter)
    counter.reads = 0
    with torch.set_grad_enabled(grad):
        out = layer(arr(3, 2, 4))
    assert counter.reads == reads and out.shape == (3, 2, 4)


def test_spectral_norm_takes_one_power_step_per_forward():
    torch.manual_seed(0)
    layer = spectral_norm(set_from_numpy(nn.Linear(3, 4)))
    norm = layer.parametrizations.weight[0]
    weight = layer.parametrizations.weight.original.detach().numpy()
    v = norm._v.numpy().copy()
    layer(arr(5, 3))
    u = weight @ v
    u /= np.linalg.norm(u)
    v = weight.T @ u
    v /= np.linalg.norm(v)
    np.testing.assert_allclose(norm._u.numpy(), u, rtol=1e-12)
    np.testing.assert_allclose(norm._v.numpy(), v, rtol=1e-12)
    layer.eval()  # no further step: the weight over u W v
    np.testing.assert_allclose(layer.weight.detach().numpy(), weight / (u @ weight @ v),
                               rtol=1e-12)
    assert layer.weight.grad_fn.name() == "DivBackward0"


def test_linear_refuses_an_input_of_the_wrong_width_in_the_products_words():
    layer = set_from_numpy(nn.Linear(3, 4))
    with pytest.raises(RuntimeError) as info:
        layer(arr(2, 2, 6))
    assert str(info.value) == "mat1 and mat2 shapes cannot be multiplied (4x6 and 3x4)"
    with pytest.raises(RuntimeError) as info:
        layer(arr())
    assert str(info.value) == ("both arguments to linear need to be at least 1D, "
                               "but they are 0D and 2D")


def test_gradient_penalty_of_a_linear_critic_is_the_weights_norm():
    critic = set_from_numpy(nn.Linear(2, 1))
    interp = (torch.tensor(RNG.random((6, 1))) * arr(6, 2)).requires_grad_(True)
    g, = torch.autograd.grad(critic(interp), interp, grad_outputs=torch.ones(6, 1).double(),
                             create_graph=True, retain_graph=True)
    w = critic.weight.detach().numpy()[0]
    np.testing.assert_allclose(g.detach().numpy(), np.tile(w, (6, 1)), rtol=1e-12)
    penalty = ((g.norm(2, dim=1) - 1) ** 2).mean()
    penalty.backward()
    n = np.linalg.norm(w)
    np.testing.assert_allclose(critic.weight.grad.numpy()[0], 2 * (n - 1) * w / n, rtol=1e-10)
    assert critic.bias.grad is None and interp.grad is None


def test_frozen_discriminator_and_a_detached_fake():
    gen = set_from_numpy(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)))
    disc = set_from_numpy(nn.Sequential(nn.Linear(2, 4), nn.LeakyReLU(0.2, inplace=True),
                                        nn.Linear(4, 1)))
    crit = nn.BCEWithLogitsLoss()
    fake = gen(arr(5, 3))
    crit(disc(fake.detach()), torch.zeros(5, 1).double()).backward()
    assert all(p.grad is None for p in gen.parameters())
    kept = [p.grad.clone() for p in disc.parameters()]
    disc.requires_grad_(False)
    out = disc(fake)
    assert out.grad_fn.name() == "AddmmBackward0"
    crit(out, torch.ones_like(out)).backward()
    assert all(torch.equal(p.grad, k) for p, k in zip(disc.parameters(), kept))
    assert all(p.grad is not None for p in gen.parameters())
    disc.zero_grad(set_to_none=False)
    assert all(p.grad.abs().sum() == 0 for p in disc.parameters())


def test_reparameterised_samples_and_the_kl_to_a_standard_normal():
    mu = arr(4, 2).requires_grad_()
    logvar = arr(4, 2).requires_grad_()
    q = dist.Normal(mu, (0.5 * logvar).exp())
    torch.manual_seed(7)
    z = q.rsample()
    torch.manual_seed(7)
    eps = torch.randn(4, 2, dtype=torch.float64)
    assert torch.equal(z, mu + eps * (0.5 * logvar).exp())
    assert z.grad_fn.name() == "AddBackward0" and not q.sample().requires_grad
    kl = dist.kl_divergence(q, dist.Normal(0.0, 1.0))
    m, lv = mu.detach().numpy(), logvar.detach().numpy()
    np.testing.assert_allclose(kl.detach().numpy(), 0.5 * (m ** 2 + np.exp(lv) - 1 - lv),
                               rtol=1e-12)
    by_hand = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    assert torch.allclose(kl.sum(), by_hand)
    gz, = torch.autograd.grad(z.sum(), logvar)
    np.testing.assert_allclose(gz.numpy(), 0.5 * eps.numpy() * np.exp(0.5 * lv), rtol=1e-12)


def test_a_sigmoid_of_an_affine_normal_has_the_change_of_variables_density():
    loc, log_scale = arr(2).requires_grad_(), arr(2).requires_grad_()
    td = dist.TransformedDistribution(
        dist.Normal(torch.zeros(2).double(), torch.ones(2).double()),
        [dist.transforms.AffineTransform(loc, log_scale.exp()),
         dist.transforms.SigmoidTransform()])
    y = torch.tensor(RNG.random((4, 2)) * 0.9 + 0.05)
    lp = td.log_prob(y)
    x = np.log(y.numpy()) - np.log1p(-y.numpy())
    s, m = np.exp(log_scale.detach().numpy()), loc.detach().numpy()
    base = -0.5 * ((x - m) / s) ** 2 - 0.5 * np.log(2 * np.pi)
    want = base - np.log(s) - np.log(y.numpy() * (1 - y.numpy()))
    np.testing.assert_allclose(lp.detach().numpy(), want, rtol=1e-10)
    assert td.event_shape == () and td.batch_shape == (2,) and td.has_rsample


def test_the_log_determinant_of_an_lu_parametrised_matrix():
    p, lower, upper = torch.linalg.lu(torch.tensor(np.linalg.qr(RNG.standard_normal((3, 3)))[0]))
    log_s = upper.diagonal().abs().log().requires_grad_()
    below = torch.tril(torch.ones(3, 3).double(), -1)
    w = p @ (lower * below + torch.eye(3).double()) @ (
        upper * below.T + torch.diag(upper.diagonal().sign() * log_s.exp()))
    result = torch.linalg.slogdet(w)
    assert result.logabsdet.grad_fn.name() == "LinalgSlogdetBackward0"
    assert torch.allclose(result.logabsdet, log_s.sum(), atol=1e-12)
    assert torch.allclose(torch.logdet(w * result.sign), log_s.sum(), atol=1e-12)
    g, = torch.autograd.grad(result.logabsdet, log_s)
    np.testing.assert_allclose(g.numpy(), np.ones(3), rtol=1e-10)
    wg = w.detach().requires_grad_()
    torch.slogdet(wg)[1].backward()
    np.testing.assert_allclose(wg.grad.numpy(), np.linalg.inv(wg.detach().numpy()).T,
                               rtol=1e-10)


def test_a_ddpm_schedule_gathered_by_timestep():
    betas = torch.linspace(1e-4, 0.02, 20, dtype=torch.float64)
    alphas_cumprod = torch.cumprod(1 - betas, dim=0)
    want = np.cumprod(1 - np.linspace(1e-4, 0.02, 20))
    np.testing.assert_allclose(alphas_cumprod.numpy(), want, rtol=1e-12)
    t = torch.tensor([0, 19, 7])
    picked = alphas_cumprod.gather(-1, t).reshape(3, 1, 1, 1)
    assert picked.shape == (3, 1, 1, 1) and picked.flatten().tolist() == want[[0, 19, 7]].tolist()
    previous = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
    assert previous[0].item() == 1.0 and torch.equal(previous[1:], alphas_cumprod[:-1])
    freqs = torch.exp(-math.log(10000) * torch.arange(4, dtype=torch.float32) / 4)
    emb = torch.cat([(t[:, None].float() * freqs).sin(), (t[:, None].float() * freqs).cos()], -1)
    assert emb.dtype == torch.float32 and emb.shape == (3, 8)
    with pytest.raises(RuntimeError) as info:
        alphas_cumprod.gather(0, torch.tensor([20]))
    assert str(info.value) == "index 20 is out of bounds for dimension 0 with size 20"


def test_moving_averages_by_lerp_foreach_and_averaged_model_agree():
    swa = torch.optim.swa_utils
    model = set_from_numpy(nn.Sequential(nn.Linear(2, 3), nn.SiLU(), nn.Linear(3, 1)))
    ema = swa.AveragedModel(model, multi_avg_fn=swa.get_ema_multi_avg_fn(0.9))
    one_by_one = [p.detach().clone() for p in model.parameters()]
    listed = [p.detach().clone() for p in model.parameters()]
    by_numpy = [p.detach().numpy().copy() for p in model.parameters()]
    averaged = None  # AveragedModel's first update copies the weights
    for _ in range(3):
        with torch.no_grad():
            for p in model.parameters():
                p.add_(arr(*p.shape) * 0.1)
            for e, p in zip(one_by_one, model.parameters()):
                e.lerp_(p, 0.1)
            torch._foreach_lerp_(listed, list(model.parameters()), 0.1)
        ema.update_parameters(model)
        now = [p.detach().numpy().copy() for p in model.parameters()]
        by_numpy = [0.9 * e + 0.1 * p for e, p in zip(by_numpy, now)]
        averaged = now if averaged is None else [0.9 * e + 0.1 * p
                                                 for e, p in zip(averaged, now)]
    for a, b, c, d, e in zip(one_by_one, listed, ema.module.parameters(), by_numpy, averaged):
        np.testing.assert_allclose(a.numpy(), d, rtol=1e-12)
        np.testing.assert_allclose(b.numpy(), d, rtol=1e-12)
        np.testing.assert_allclose(c.detach().numpy(), e, rtol=1e-12)
    assert ema.n_averaged.item() == 3 and ema.n_averaged.dtype == torch.int64


def test_samples_drawn_in_inference_mode_stay_out_of_graphs():
    decoder = set_from_numpy(nn.Linear(2, 3))
    with torch.inference_mode():
        sample = decoder(arr(4, 2))
    assert sample.is_inference() and not sample.requires_grad and sample.grad_fn is None
    with pytest.raises(RuntimeError, match="^Inference tensors cannot be saved for backward."):
        (sample * decoder.weight.sum()).sum()
    with pytest.raises(RuntimeError,
                       match="^Inplace update to inference tensor outside InferenceMode"):
        sample.add_(1)
    assert sample.clone().requires_grad_().requires_grad
