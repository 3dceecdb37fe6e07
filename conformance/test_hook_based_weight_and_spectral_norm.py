"""The older nn.utils.weight_norm and spectral_norm: forward pre-hooks that recompute a weight."""

import copy
import warnings

import torch
import torch.nn.functional as F
from torch.nn.utils import remove_spectral_norm, remove_weight_norm, spectral_norm, weight_norm

from conformance._support import raises

DEPRECATED = ("`torch.nn.utils.weight_norm` is deprecated in favor of "
              "`torch.nn.utils.parametrizations.weight_norm`.")


def linear(n_in, n_out, seed=0):
    torch.manual_seed(seed)
    return torch.nn.Linear(n_in, n_out)


def quiet_weight_norm(module, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return weight_norm(module, **kwargs)


def test_weight_norm_warns_and_moves_the_weight_to_g_and_v():
    m = linear(4, 3)
    w = m.weight.detach().clone()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert weight_norm(m) is m
    assert [(c.category, str(c.message)) for c in caught] == [(FutureWarning, DEPRECATED)]
    assert type(m) is torch.nn.Linear
    assert repr(m) == "Linear(in_features=4, out_features=3, bias=True)"
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight_g", "weight_v"]
    assert list(m.state_dict()) == ["bias", "weight_g", "weight_v"]
    assert torch.equal(m.weight_v, w) and m.weight_g.shape == (3, 1)
    assert m.weight.grad_fn.name() == "WeightNormInterfaceBackward0"
    assert [type(h).__name__ for h in m._forward_pre_hooks.values()] == ["WeightNorm"]


def test_weight_norm_recomputes_at_each_call_and_trains_g_and_v():
    m = quiet_weight_norm(linear(4, 3))
    with torch.no_grad():
        m.weight_g.mul_(2)
    x = torch.linspace(-1, 1, 8).reshape(2, 4)
    stale = m.weight
    m(x).sum().backward()
    assert m.weight is not stale and torch.allclose(m.weight, stale * 2)
    assert m.weight_g.grad.shape == (3, 1) and m.weight_v.grad.shape == (3, 4)
    with raises(RuntimeError, "Cannot register two weight_norm hooks on the same parameter "
                "weight"):
        quiet_weight_norm(m)
    with raises(RuntimeError, "Only Tensors created explicitly by the user (graph leaves) support "
                "the deepcopy protocol at the moment.  If you were attempting to deepcopy a "
                "module, this may be because of a torch.nn.utils.weight_norm usage, see "
                "https://github.com/pytorch/pytorch/pull/103001"):
        copy.deepcopy(m)


def test_remove_weight_norm_leaves_a_parameter_of_the_value():
    m = quiet_weight_norm(linear(4, 3))
    expected = m.weight.detach().clone()
    assert remove_weight_norm(m) is m
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight"] and not m._forward_pre_hooks
    assert type(m.weight) is torch.nn.Parameter and torch.allclose(m.weight, expected)
    with raises(ValueError, "weight_norm of 'weight' not found in Linear(in_features=4, "
                "out_features=3, bias=True)"):
        remove_weight_norm(m)


def test_weight_norm_dims():
    for dim, shape, node in ((None, (), "MulBackward0"), (1, (1, 2, 1, 1), "MulBackward0"),
                             (0, (3, 1, 1, 1), "WeightNormInterfaceBackward0")):
        c = quiet_weight_norm(torch.nn.Conv2d(2, 3, 2), dim=dim)
        assert c.weight_g.shape == shape and c.weight.grad_fn.name() == node


def test_spectral_norm_keeps_weight_orig_and_unit_vectors():
    m = linear(5, 3)
    w = m.weight.detach().clone()
    assert spectral_norm(m) is m
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight_orig"]
    assert [n for n, _ in m.named_buffers()] == ["weight_u", "weight_v"]
    assert list(m.state_dict()) == ["bias", "weight_orig", "weight_u", "weight_v"]
    assert m.weight.grad_fn is None and torch.equal(m.weight, w)  # nothing computed yet
    torch.manual_seed(0)
    torch.nn.Linear(5, 3)
    u, v = F.normalize(torch.randn(3), dim=0), F.normalize(torch.randn(5), dim=0)
    assert torch.equal(m.weight_u, u) and torch.equal(m.weight_v, v)  # drawn, not refined
    m(torch.ones(1, 5))
    v = F.normalize(torch.mv(w.T, u), dim=0)
    u = F.normalize(torch.mv(w, v), dim=0)  # one step, v first
    assert torch.allclose(m.weight_u, u, atol=1e-6) and torch.allclose(m.weight_v, v, atol=1e-6)
    assert m.weight.grad_fn.name() == "DivBackward0"
    assert torch.allclose(m.weight, w / torch.dot(u, torch.mv(w, v)), atol=1e-6)


def test_spectral_norm_state_dict_records_a_version_and_loads_old_checkpoints():
    m = spectral_norm(linear(3, 5))
    m(torch.ones(1, 3))
    state = m.state_dict()
    assert state._metadata[""]["spectral_norm"] == {"weight.version": 1}
    other = spectral_norm(linear(3, 5, seed=1))
    assert str(other.load_state_dict(state)) == "<All keys matched successfully>"
    old = {"weight_orig": m.weight_orig.detach().clone(), "weight": m.weight.detach().clone(),
           "weight_u": m.weight_u.clone(), "bias": m.bias.detach().clone()}
    other = spectral_norm(linear(3, 5, seed=1))
    assert str(other.load_state_dict(old)) == "<All keys matched successfully>"
    assert torch.allclose(other.weight_v, m.weight_v, atol=1e-5)
    partial = spectral_norm(linear(3, 5, seed=1)).load_state_dict({"bias": torch.zeros(5)},
                                                                   strict=False)
    assert partial.missing_keys == ["weight_orig", "weight", "weight_u", "weight_orig",
                                    "weight_u", "weight_v"]


def test_spectral_norm_eval_keeps_the_vectors_and_removal_restores_a_parameter():
    m = spectral_norm(linear(5, 3))
    m.eval()
    u = m.weight_u.clone()
    m(torch.ones(1, 5))
    assert torch.equal(u, m.weight_u)
    expected = m.weight.detach().clone()
    with raises(RuntimeError, "Cannot register two spectral_norm hooks on the same parameter "
                "weight"):
        spectral_norm(m)
    assert remove_spectral_norm(m) is m
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight"] and not list(m.buffers())
    assert torch.allclose(m.weight, expected) and not m._forward_pre_hooks
    with raises(ValueError, "spectral_norm of 'weight' not found in Linear(in_features=5, "
                "out_features=3, bias=True)"):
        remove_spectral_norm(m)
    # the load pre-hook stays behind, and reads the plain state as an old checkpoint
    with raises(RuntimeError, 'Error(s) in loading state_dict for Linear:\n\tMissing key(s) in '
                'state_dict: "weight_orig", "weight_u". '):
        m.load_state_dict(m.state_dict())


def test_spectral_norm_refusals_and_transposed_convolutions():
    ct = spectral_norm(torch.nn.ConvTranspose2d(2, 3, 2))
    assert ct.weight_u.shape == (3,) and ct.weight_v.shape == (8,)
    with raises(ValueError, "Expected n_power_iterations to be positive, but got "
                "n_power_iterations=0"):
        spectral_norm(torch.nn.Linear(2, 2), n_power_iterations=0)
    with raises(ValueError, "`SpectralNorm` cannot be applied as parameter `bias` is None"):
        spectral_norm(torch.nn.Linear(2, 2, bias=False), "bias")
