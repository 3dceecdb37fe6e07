"""Journeys through per-sample gradients and meta-learning: what a function under
torch.func.vmap may not do with the batched tensors it is handed (read their numbers or
memory, branch on them, make shapes from their values, compare them whole, train a batch
norm on running statistics that are not batched), and what it still may."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.func import grad, vmap

from conformance._vmap_refusals import EITHER, ITEM

CONTROL = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent "
           "control flow. We don't support that yet, please file an issue at "
           "https://github.com/pytorch/pytorch/issues .")
NO_STORAGE = "Cannot access data pointer of Tensor that doesn't have storage"
STATISTICS = (
    "Batch norm got a batched tensor as input while the running_mean or running_var, which "
    "will be updated in place, were not batched.\nIf you are using a module and do not need "
    "eval mode, please set `track_running_stats` to be False.If you are using a prebuilt "
    "module and do not need eval mode, please see the functorch website for resources on how "
    "to patch your module to work with vmap")
DYNAMIC = ("vmap: We do not support batching operators that can output dynamic shape. "
           "Attempted to vmap over aten::{}. Please file an issue at "
           "https://github.com/pytorch/pytorch/issues if you need this feature.")
MASKED_SELECT = ("vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We "
                 "cannot support this because for each batch this would return a differently "
                 "shaped Tensor. Please file an issue at https://github.com/pytorch/pytorch/"
                 "issues if you need this feature.")
MASK_INDEX = ("vmap: We do not support batching operators that can support dynamic shape. "
              "Attempting to batch over indexing with a boolean mask.")


def numbers(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape))


def refused(run, message):
    with pytest.raises(RuntimeError) as caught:
        run()
    assert str(caught.value) == message


@pytest.mark.parametrize("read", [
    lambda x: x.sum().item(), lambda x: float(x[0]), lambda x: int(x[0]),
    lambda x: complex(x[0]), lambda x: [1, 2, 3][x.long()[0]],
])
def test_reading_a_number_of_a_batched_tensor(read):
    refused(lambda: vmap(read)(numbers(4, 3)), ITEM)


@pytest.mark.parametrize("branch", [
    lambda x: x if x.sum() > 0 else -x, lambda x: x * 2 if (x > 0).any() else x,
])
def test_branching_on_a_batched_tensor(branch):
    refused(lambda: vmap(branch)(numbers(4, 3)), CONTROL)


@pytest.mark.parametrize("read", [
    lambda x: x.tolist(), lambda x: x.numpy(), lambda x: np.asarray(x),
    lambda x: x.data_ptr(),
])
def test_reading_the_memory_of_a_batched_tensor(read):
    refused(lambda: vmap(read)(numbers(4, 3)), NO_STORAGE)


# Under vmap(grad(f)), f's tensor is grad's wrapper around the batched one, and any read
# of a number or a branch is refused in one message; memory has none behind it either way.
def test_reads_under_grad_inside_vmap():
    x = numbers(4, 3)
    refused(lambda: vmap(grad(lambda t: t.sum() * t.sum().item()))(x), EITHER)
    refused(lambda: vmap(grad(lambda t: t.sum() if t.sum() > 0 else -t.sum()))(x), EITHER)
    refused(lambda: vmap(grad(lambda t: t.sum() * t.tolist()[0]))(x), NO_STORAGE)
    refused(lambda: grad(lambda t: vmap(lambda r: r.sum() * r.sum().item())(t).sum())(x), ITEM)


def test_reads_that_vmap_allows():
    x = numbers(4, 3)
    scaled = vmap(lambda t, s: t * s.item(), in_dims=(0, None))(x, torch.tensor(2.0))
    assert torch.equal(scaled, x * 2)
    constant = vmap(grad(lambda t: t.sum() * torch.ones(2).sum().item()))(x)
    assert torch.equal(constant, torch.full((4, 3), 2.0, dtype=torch.float64))
    assert grad(lambda t: t.sum() * t.sum().item())(x[0]).shape == (3,)


@pytest.mark.parametrize("layer", [
    lambda x: nn.BatchNorm2d(2).double()(x.unsqueeze(0)),
    lambda x: F.batch_norm(x.unsqueeze(0), torch.zeros(2, dtype=torch.float64),
                           torch.ones(2, dtype=torch.float64), training=True, momentum=0.0),
    lambda x: nn.InstanceNorm2d(2, track_running_stats=True).double()(x.unsqueeze(0)),
])
def test_batch_norm_training_on_unbatched_running_statistics(layer):
    refused(lambda: vmap(layer)(numbers(4, 2, 5, 5)), STATISTICS)


def test_batch_norms_that_vmap_runs():
    x = numbers(4, 2, 5, 5)
    rows = torch.stack([F.batch_norm(s.unsqueeze(0), None, None, training=True) for s in x])
    tracked = nn.BatchNorm2d(2, track_running_stats=False).double()
    assert torch.equal(vmap(lambda t: tracked(t.unsqueeze(0)))(x), rows)
    assert torch.equal(vmap(lambda t: F.batch_norm(t.unsqueeze(0), None, None,
                                                   training=True))(x), rows)
    mean, var = torch.zeros(4, 2, dtype=torch.float64), torch.ones(4, 2, dtype=torch.float64)
    out = vmap(lambda t, m, v: F.batch_norm(t.unsqueeze(0), m, v, training=True))(x, mean, var)
    assert torch.equal(out, rows)
    evaluated = vmap(lambda t: nn.BatchNorm2d(2).double().eval()(t.unsqueeze(0)))(x)
    assert torch.allclose(evaluated.squeeze(1), x / (1 + 1e-5) ** 0.5)


@pytest.mark.parametrize(("run", "message"), [
    (lambda x: x.nonzero(), DYNAMIC.format("nonzero")),
    (lambda x: torch.nonzero(x.sum()), DYNAMIC.format("nonzero")),
    (lambda x: x.nonzero(as_tuple=True)[0], "Batching rule not implemented for "
     "aten::nonzero_numpy. We could not generate a fallback."),
    (lambda x: torch.where(x > 0)[0], DYNAMIC.format("where")),
    (lambda x: x.unique(), DYNAMIC.format("_unique2")),
    (lambda x: torch.unique(x, dim=0), DYNAMIC.format("unique_dim")),
    (lambda x: torch.unique_consecutive(x), DYNAMIC.format("unique_consecutive")),
    (lambda x: x.masked_select(x > 0), MASKED_SELECT),
    (lambda x: x[x > 0], MASK_INDEX),
    (lambda x: x.index_put((x > 0,), torch.tensor(0.0, dtype=torch.float64)), MASK_INDEX),
])
def test_shapes_made_from_batched_values(run, message):
    refused(lambda: vmap(run)(numbers(4, 3, 2)), message)


def test_shapes_made_from_values_under_grad_inside_vmap():
    x = numbers(4, 3)
    refused(lambda: vmap(grad(lambda t: t[torch.where(t > 0)].sum()))(x),
            DYNAMIC.format("nonzero"))
    refused(lambda: vmap(grad(lambda t: t[t > 0].sum()))(x), MASK_INDEX)
    refused(lambda: vmap(grad(lambda t: t.masked_select(t > 0).sum()))(x), MASKED_SELECT)


# torch runs argwhere and isclose slice by slice, with a warning that refgrad does not give
@pytest.mark.filterwarnings("ignore:There is a performance drop")
def test_masks_and_positions_that_vmap_allows():
    x = numbers(4, 3)
    mask = torch.tensor([True, False, True])
    assert torch.equal(vmap(lambda t: t.masked_select(mask))(x), x[:, mask])
    assert torch.equal(vmap(lambda t: t[mask])(x), x[:, mask])
    assert torch.equal(vmap(lambda t: torch.where(t > 0, t, 0.0))(x), x.clamp(min=0))
    ones = torch.ones(4, 3)
    assert torch.equal(vmap(torch.argwhere)(ones), torch.arange(3).view(1, 3, 1).expand(4, 3, 1))


@pytest.mark.filterwarnings("ignore:There is a performance drop")
def test_whole_comparisons_of_batched_tensors():
    x = numbers(4, 3)
    refused(lambda: vmap(lambda t: t * torch.equal(t, t))(x),
            "Batching rule not implemented for aten::equal. We could not generate a fallback.")
    refused(lambda: vmap(lambda t: t * t.equal(torch.ones(3, dtype=torch.float64)))(x),
            "Batching rule not implemented for aten::equal. We could not generate a fallback.")
    refused(lambda: vmap(grad(lambda t: t.sum() * torch.allclose(t, t)))(x),
            "vmap over torch.allclose isn't supported yet. Please file an issue at "
            "https://github.com/pytorch/pytorch/issues if you need this feature.")
    same = vmap(lambda t: t * torch.equal(torch.ones(3), torch.ones(3)))(x)
    assert torch.equal(same, x)
    assert torch.equal(vmap(lambda t: torch.isclose(t, t))(x), torch.ones(4, 3, dtype=torch.bool))


# The forum's first try at per-sample gradients: torch.autograd.grad inside vmap finds no
# graph behind an output made from the batch, and names the output by its place.
def test_autograd_grad_of_a_batched_output():
    x = numbers(4, 3)
    w = numbers(3, seed=1).requires_grad_()
    refused(lambda: vmap(lambda t: torch.autograd.grad((t * w).sum(), w)[0])(x),
            "element 0 of tensors does not require grad and does not have a grad_fn")
    refused(lambda: vmap(lambda t: torch.autograd.grad([(w * 2).sum(), (t * w).sum()], w))(x),
            "element 1 of tensors does not require grad and does not have a grad_fn")
    leaf = x.clone().requires_grad_()
    refused(lambda: vmap(lambda t: torch.autograd.grad((t * 2).sum(), t)[0])(leaf),
            "element 0 of tensors does not require grad and does not have a grad_fn")
    unbatched = vmap(lambda t: t * torch.autograd.grad((w * 2).sum(), w)[0])(x)
    assert torch.equal(unbatched, x * 2)
    per_sample = vmap(grad(lambda v, t: (t * v).sum()), in_dims=(None, 0))(w.detach(), x)
    assert torch.equal(per_sample, x)
