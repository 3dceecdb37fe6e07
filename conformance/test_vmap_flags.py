"""Tensors handed to torch's Python functions for a flag, a bound or a size: refused under
vmap where the vmap batches them, read as outside it where it does not: chapter
19ij_tensors_as_flags_under_vmap."""

import pytest
import torch
from torch.func import grad, vmap

from conformance._vmap_refusals import EITHER, ITEM, refused

F = torch.nn.functional
CONTROL = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent "
           "control flow. We don't support that yet, please file an issue at "
           "https://github.com/pytorch/pytorch/issues .")

# each takes an input and the flag, and gives one tensor
TRUTHS = {
    "relu": lambda x, f: F.relu(x, inplace=f),
    "relu6": lambda x, f: F.relu6(x, inplace=f),
    "selu": lambda x, f: F.selu(x, inplace=f),
    "silu": lambda x, f: F.silu(x, inplace=f),
    "mish": lambda x, f: F.mish(x, inplace=f),
    "hardswish": lambda x, f: F.hardswish(x, inplace=f),
    "hardsigmoid": lambda x, f: F.hardsigmoid(x, inplace=f),
    "elu": lambda x, f: F.elu(x, inplace=f),
    "celu": lambda x, f: F.celu(x, inplace=f),
    "leaky_relu": lambda x, f: F.leaky_relu(x, inplace=f),
    "threshold": lambda x, f: F.threshold(x, 0.5, 2.0, inplace=f),
    "dropout": lambda x, f: F.dropout(x, training=False, inplace=f),
    "alpha_dropout": lambda x, f: F.alpha_dropout(x, training=False, inplace=f),
    "rrelu": lambda x, f: F.rrelu(x, inplace=f),
    "feature_alpha_dropout": lambda x, f: F.feature_alpha_dropout(x[None], inplace=f),
    "dropout1d": lambda x, f: F.dropout1d(x[None], training=False, inplace=f),
    "dropout1d_batch": lambda x, f: F.dropout1d(x.reshape(1, 1, 4), training=False,
                                                inplace=f),
    "dropout2d": lambda x, f: F.dropout2d(x.reshape(1, 1, 2, 2), training=False, inplace=f),
    "dropout3d": lambda x, f: F.dropout3d(x.reshape(1, 1, 1, 2, 2), training=False,
                                          inplace=f),
    "hardtanh_min": lambda x, f: F.hardtanh(x, min_val=f * 0.0 - 2.0),
    "hardtanh_max": lambda x, f: F.hardtanh(x, max_val=f * 2.0),
    "dropout_p": lambda x, f: F.dropout(x, p=f * 0.5, training=False),
    "unique_consecutive_inverse": lambda x, f: torch.unique_consecutive(
        x, return_inverse=f)[0],
    "unique_consecutive_counts": lambda x, f: torch.unique_consecutive(
        x, return_counts=f)[0],
    "unique_counts": lambda x, f: torch.unique(x, return_counts=f)[0],
    "max_pool1d": lambda x, f: F.max_pool1d(x[None], 2, return_indices=f)[0],
    "adaptive_max_pool1d": lambda x, f: F.adaptive_max_pool1d(x[None], 2, return_indices=f)[0],
}


def _flags():
    return torch.tensor([1.0, 0.0, 1.0])


@pytest.mark.parametrize("name", sorted(TRUTHS))
def test_a_batched_flag_is_refused_as_control_flow(name):
    refused(RuntimeError, CONTROL, lambda: vmap(TRUTHS[name])(torch.ones(3, 4), _flags()))


@pytest.mark.parametrize("name", sorted(TRUTHS))
def test_a_batched_flag_under_a_grad_is_refused_as_either_read(name):
    def gradient(x, f):
        return grad(lambda y: TRUTHS[name](y.clone(), f).float().sum())(x)

    refused(RuntimeError, EITHER, lambda: vmap(gradient)(torch.ones(3, 4), _flags()))


@pytest.mark.parametrize("name", ["relu", "silu", "hardtanh_max", "max_pool1d", "dropout_p"])
def test_an_unbatched_flag_is_read_as_outside_vmap(name):
    x = torch.arange(12.0).reshape(3, 4) - 5
    whole = vmap(TRUTHS[name], in_dims=(0, None))(x.clone(), torch.tensor(1.0))
    assert whole.tolist() == torch.stack([TRUTHS[name](r, torch.tensor(1.0))
                                          for r in x.clone()]).tolist()
    refused(RuntimeError, CONTROL, lambda: vmap(TRUTHS[name])(x.clone(), _flags()))


def test_a_flag_of_several_numbers_is_ambiguous_under_a_grad():
    def gradient(x, f):
        return grad(lambda y: F.relu(y.clone(), inplace=f).sum())(x)

    refused(RuntimeError, CONTROL, lambda: vmap(TRUTHS["relu"])(torch.ones(3, 4),
                                                                torch.ones(3, 2)))
    refused(RuntimeError, "Boolean value of Tensor with more than one value is ambiguous",
            lambda: vmap(gradient)(torch.ones(3, 4), torch.ones(3, 2)))
    refused(RuntimeError, CONTROL, lambda: vmap(TRUTHS["relu"])(torch.ones(3, 4), _flags()))


@pytest.mark.parametrize("split", [torch.split, torch.Tensor.split])
def test_a_batched_size_of_split_is_refused_as_item(split):
    def gradient(x, s):
        return grad(lambda y: split(y, s)[0].sum())(x)

    sizes = torch.full((3,), 2)
    refused(RuntimeError, ITEM, lambda: vmap(lambda x, s: split(x, s)[0])(torch.ones(3, 4),
                                                                          sizes))
    refused(RuntimeError, ITEM, lambda: vmap(lambda x, s: split(x, s)[0])(
        torch.ones(3, 4), sizes.float()))
    refused(RuntimeError, EITHER, lambda: vmap(gradient)(torch.ones(3, 4), sizes))
    whole = vmap(lambda x: split(x, torch.tensor(2))[0])(torch.ones(3, 4))
    assert whole.shape == (3, 2)


@pytest.mark.parametrize("function", [
    lambda x, n: F.huber_loss(x, x * 2, delta=n),
    lambda x, n: F.softshrink(x, n * 0.5),
])
def test_a_batched_number_is_refused_as_item(function):
    def gradient(x, n):
        return grad(lambda y: function(y, n).sum())(x)

    numbers = torch.ones(3)
    refused(RuntimeError, ITEM, lambda: vmap(function)(torch.ones(3, 4), numbers))
    refused(RuntimeError, EITHER, lambda: vmap(gradient)(torch.ones(3, 4), numbers))
    whole = vmap(function, in_dims=(0, None))(torch.ones(3, 4), torch.tensor(1.0))
    assert whole.tolist() == torch.stack([function(r, torch.tensor(1.0))
                                          for r in torch.ones(3, 4)]).tolist()


@pytest.mark.parametrize("function", [
    lambda x, n: F.elu(x, alpha=n),
    lambda x, n: F.leaky_relu(x, n),
    lambda x, n: F.softplus(x, beta=n),
    lambda x, n: F.threshold(x, n, 1.0),
    lambda x, n: F.margin_ranking_loss(x, x, torch.ones(4), margin=n),
    lambda x, n: F.poisson_nll_loss(x, x, eps=n),
    lambda x, n: F.layer_norm(x, (4,), eps=n),
    lambda x, n: F.pad(x, (1, 1), value=n),
    lambda x, n: F.rrelu(x, lower=n * 0.1),
    lambda x, n: F.hardshrink(x, n),
    lambda x, n: F.pdist(x.reshape(2, 2), p=n * 4),
])
def test_a_batched_number_given_to_a_functional_is_refused_as_item(function):
    def gradient(x, n):
        return grad(lambda y: function(y, n).sum())(x)

    numbers = torch.full((3,), 0.5)
    refused(RuntimeError, ITEM, lambda: vmap(function)(torch.ones(3, 4), numbers))
    refused(RuntimeError, EITHER, lambda: vmap(gradient)(torch.ones(3, 4), numbers))


@pytest.mark.parametrize("function", [
    lambda b, s: torch.narrow(b, 0, 0, s),
    lambda b, s: torch.split(b, s)[0],
])
def test_an_int_read_under_an_inner_vmap_is_refused_as_item(function):
    def nested(a, s):
        return vmap(lambda b: function(b, s))(a)

    def below_a_grad(a, s):
        return grad(lambda c: vmap(lambda e: function(e, s))(c).sum())(a)

    sizes = torch.full((3,), 2)
    refused(RuntimeError, ITEM, lambda: vmap(nested)(torch.ones(3, 2, 4), sizes))
    refused(RuntimeError, ITEM, lambda: vmap(below_a_grad)(torch.ones(3, 2, 4), sizes))


@pytest.mark.parametrize("unique", [torch.unique, torch.unique_consecutive])
def test_return_inverse_is_asked_before_return_counts(unique):
    def gradient(x, inverse, counts):
        return grad(lambda y: unique(y.clone(), return_inverse=inverse,
                                     return_counts=counts)[0].sum())(x)

    refused(RuntimeError, EITHER, lambda: vmap(gradient)(torch.ones(3, 4), torch.ones(3),
                                                         torch.ones(3, 2)))
    refused(RuntimeError, "Boolean value of Tensor with more than one value is ambiguous",
            lambda: vmap(gradient)(torch.ones(3, 4), torch.ones(3, 2), torch.ones(3)))
