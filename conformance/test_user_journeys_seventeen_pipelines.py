"""The second half of the seventeenth journeys: a data pipeline of splits, weighted samplers
and loaders; hooks on every module and on state dicts; a vision transformer's patches by
unfold with padded keys and per-head attention weights; and metric learning's ranking losses
with the gradient utilities that go with them."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils import data

RNG = np.random.default_rng(1717)


def arr(*shape, scale=1.0):
    return torch.tensor(RNG.standard_normal(shape) * scale)


def test_a_data_pipeline_of_splits_weighted_samplers_and_loaders():
    ds = data.TensorDataset(torch.arange(20.0).view(10, 2), torch.arange(10))
    a, b, c = data.random_split(ds, [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(42))
    assert (a.indices, b.indices, c.indices) == ([2, 6, 1, 8, 4], [5, 0, 9], [3, 7])
    w = torch.tensor([0.1, 0.1, 5.0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 3.0])
    ws = data.WeightedRandomSampler(w, 12, generator=torch.Generator().manual_seed(0))
    assert list(ws) == [9, 9, 2, 9, 7, 9, 2, 2, 2, 2, 2, 2]
    assert list(data.WeightedRandomSampler(w.tolist(), 5, replacement=False,
                                           generator=torch.Generator().manual_seed(0))) == [
        9, 2, 6, 7, 8]
    cat = data.ConcatDataset([a, data.Subset(ds, [0, 1])])
    assert len(cat) == 7 and cat.cumulative_sizes == [5, 7] and cat[-1][1].item() == 1
    assert list(data.BatchSampler(range(7), 3, True)) == [[0, 1, 2], [3, 4, 5]]
    assert list(data.RandomSampler(range(6), generator=torch.Generator().manual_seed(3))) == [
        4, 0, 3, 2, 1, 5]
    loader = data.DataLoader(ds, batch_size=4, sampler=ws, drop_last=True)
    assert len(loader) == 3 and [y.tolist() for _, y in loader][0] == [2, 5, 2, 2]
    shuffled = data.DataLoader(ds, batch_size=3, shuffle=True,
                               generator=torch.Generator().manual_seed(5))
    assert [y.tolist() for _, y in shuffled] == [[7, 4, 8], [1, 2, 3], [6, 5, 9], [0]]
    rows = data.DataLoader([{"x": torch.ones(2) * i, "n": i, "s": str(i)} for i in range(3)],
                           batch_size=2)
    first = next(iter(rows))
    assert first["n"].tolist() == [0, 1] and first["s"] == ["0", "1"]
    with pytest.raises(ValueError, match="Sum of input lengths does not equal the length of the "
                                         "input dataset!"):
        data.random_split(ds, [0.5, 0.6])
    with pytest.raises(ValueError, match="replacement should be a boolean value, but got "
                                         "replacement=1"):
        data.WeightedRandomSampler(w, 3, replacement=1)
    with pytest.raises(RuntimeError, match="cannot sample n_sample > prob_dist.size\\(-1\\) "
                                           "samples without replacement"):
        list(data.WeightedRandomSampler(w, 20, replacement=False))
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        data.DataLoader(ds, shuffle=True, sampler=ws)
    with pytest.raises(RuntimeError, match="stack expects each tensor to be equal size, but "
                                           "got \\[2\\] at entry 0 and \\[3\\] at entry 1"):
        data.default_collate([torch.zeros(2), torch.zeros(3)])


def test_hooks_on_every_module_and_on_state_dicts():
    from torch.nn.modules import module as M

    net, log = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)), []
    handles = [M.register_module_forward_pre_hook(lambda m, i: log.append(type(m).__name__)),
               M.register_module_full_backward_hook(lambda m, gi, go: log.append(len(gi)))]
    with pytest.warns(UserWarning, match="Full backward hook is firing when gradients are "
                                         "computed with respect to module outputs"):
        net(torch.randn(4, 2)).sum().backward()
    assert log == ["Sequential", "Linear", "ReLU", "Linear", 1, 1, 1, 1]
    for h in handles:
        h.remove()
    lin = nn.Linear(2, 2)
    lin.register_forward_hook(lambda m, a, k, o: o * 0 + len(k), with_kwargs=True)
    assert lin(torch.ones(1, 2)).tolist() == [[0.0, 0.0]]
    lin.register_state_dict_post_hook(lambda m, sd, prefix, local: sd.__setitem__(
        prefix + "extra", torch.tensor(1.0)))
    assert list(lin.state_dict(prefix="p.", keep_vars=True)) == ["p.weight", "p.bias", "p.extra"]
    lin.register_load_state_dict_pre_hook(lambda m, sd, prefix, *rest: sd.pop(prefix + "extra"))
    loaded = []
    lin.register_load_state_dict_post_hook(lambda m, inc: loaded.append(inc.missing_keys))
    assert repr(lin.load_state_dict(lin.state_dict())) == "<All keys matched successfully>"
    r = lin.load_state_dict({"weight": torch.zeros(2, 2), "junk": torch.zeros(1),
                             "extra": torch.tensor(1.0)}, strict=False)
    assert repr(r) == "_IncompatibleKeys(missing_keys=['bias'], unexpected_keys=['junk'])"
    assert loaded == [[], ["bias"]]
    with pytest.raises(RuntimeError, match='Error\\(s\\) in loading state_dict for Linear:\n\t'
                                           'size mismatch for weight: copying a param with shape '
                                           'torch.Size\\(\\[3, 2\\]\\) from checkpoint'):
        lin.load_state_dict({"weight": torch.zeros(3, 2), "bias": torch.zeros(2),
                             "extra": torch.tensor(1.0)}, strict=False)
    net.register_buffer("steps", torch.tensor(0))
    net.register_buffer("tmp", torch.ones(1), persistent=False)
    assert list(net.state_dict())[0] == "steps" and "tmp" not in net.state_dict()
    assert [n for n, _ in net.named_modules(prefix="root")] == ["root", "root.0", "root.1",
                                                                "root.2"]
    with pytest.raises(KeyError, match="attribute 'steps' already exists"):
        net.register_parameter("steps", None)
    with pytest.raises(AttributeError, match="`weight` is not a buffer"):
        net.get_buffer("0.weight")


def test_a_vision_transformer_patches_by_unfold_and_attends_past_padding():
    img = arr(2, 3, 8, 8)
    patches = F.unfold(img, kernel_size=4, stride=4)
    assert patches.shape == (2, 48, 4) and torch.equal(
        F.fold(patches, output_size=(8, 8), kernel_size=4, stride=4), img)
    emb, cls = nn.Linear(48, 16).double(), nn.Parameter(torch.zeros(1, 1, 16, dtype=torch.float64))
    z = torch.cat([cls.expand(2, -1, -1), emb(patches.transpose(1, 2))], 1)
    layer = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, batch_first=True, norm_first=True,
                                       activation="gelu").double()
    enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    pad = torch.tensor([[False] * 5, [False, False, False, True, True]])
    y = enc(z, src_key_padding_mask=pad)
    assert y.grad_fn.name() == "AddBackward0"
    mha = enc.layers[0].self_attn
    _, w = mha(z, z, z, key_padding_mask=pad, average_attn_weights=False)
    assert w.shape == (2, 4, 5, 5) and w.grad_fn.name() == "ViewBackward0"
    assert w[1, :, :, 3:].abs().sum().item() == 0.0
    _, mean = mha(z, z, z, key_padding_mask=pad)
    assert torch.allclose(mean, w.mean(1)) and mha(z, z, z, need_weights=False)[1] is None
    causal = nn.Transformer.generate_square_subsequent_mask(5, dtype=torch.float64)
    assert mha(z, z, z, attn_mask=causal, is_causal=True)[1][0, 0].tolist() == [1.0, 0, 0, 0, 0]
    F.cross_entropy(nn.Linear(16, 10).double()(y[:, 0]), torch.tensor([1, 7]),
                    label_smoothing=0.1).backward()
    assert cls.grad.shape == (1, 1, 16)
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint."):
        mha(z, z, z, is_causal=True)
    with pytest.raises(AssertionError, match="Expected key_padded_mask.shape\\[1\\] to be 5, "
                                             "but got 4"):
        mha(z, z, z, key_padding_mask=pad[:, :4])
    with pytest.raises(RuntimeError, match="The shape of the 2D attn_mask is "
                                           "torch.Size\\(\\[3, 3\\]\\), but should be \\(5, 5\\)."):
        mha(z, z, z, attn_mask=torch.zeros(3, 3))
    with pytest.raises(RuntimeError, match="Expected size of input's dimension 1 to be divisible "
                                           "by the product of kernel_size, but got "
                                           "input.size\\(1\\)=48 and kernel_size=\\(3, 3\\)."):
        F.fold(patches, (8, 8), 3)
    assert repr(nn.Fold((4, 4), 2)) == ("Fold(output_size=(4, 4), kernel_size=2, dilation=1, "
                                        "padding=0, stride=1)")


def test_metric_learning_by_ranking_losses_and_gradient_utilities():
    a, b, y = arr(6).requires_grad_(), arr(6), torch.tensor([1.0, -1, 1, -1, 1, 1])
    assert F.margin_ranking_loss(a, b, y.double(), reduction="none").grad_fn.name() == (
        "ClampMinBackward0")
    c, t = arr(4, 5).requires_grad_(), torch.tensor([[3, 0, -1, 1, 2], [1, -1, 0, 0, 0],
                                                     [0, 1, 2, 3, 4], [-1, 2, 3, 4, 0]])
    mlm = F.multilabel_margin_loss(c, t)
    assert mlm.grad_fn.name() == "MultilabelMarginLossBackward0"
    g, = torch.autograd.grad(mlm, c)
    assert g[2:].abs().sum().item() == 0.0  # rows whose targets fill every class
    mm = F.multi_margin_loss(c, torch.tensor([0, 4, 2, 1]), p=2, margin=0.5,
                             weight=torch.arange(1.0, 6).double())
    assert mm.grad_fn.name() == "MultiMarginLossBackward0"
    an, po, ne = arr(4, 3).requires_grad_(), arr(4, 3), arr(4, 3)
    cos = F.triplet_margin_with_distance_loss(
        an, po, ne, distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), margin=0.5,
        swap=True, reduction="none")
    assert cos.grad_fn.name() == "ClampMinBackward0" and cos.shape == (4,)
    assert F.triplet_margin_loss(an, po, ne, p=1.5, swap=True).grad_fn.name() == "MeanBackward0"
    assert nn.PairwiseDistance(p=3, keepdim=True)(an, po).grad_fn.name() == "NormBackward1"
    with pytest.raises(RuntimeError, match="expected scalar type Long but found Float"):
        F.multilabel_margin_loss(c, t.float())
    with pytest.raises(ValueError, match="only p == 1 and p == 2 supported"):
        F.multi_margin_loss(c, torch.tensor([0, 4, 2, 1]), p=3)
    with pytest.raises(ValueError, match="margin must be greater than 0, got -1"):
        F.triplet_margin_with_distance_loss(an, po, ne, margin=-1)
    with pytest.raises(ValueError, match="var has negative entry/entries"):
        F.gaussian_nll_loss(a, b, -torch.ones(6, dtype=torch.float64))
    net = nn.Sequential(nn.Linear(3, 2), nn.Linear(2, 1)).double()
    vec = nn.utils.parameters_to_vector(net.parameters())
    assert vec.shape == (11,) and vec.grad_fn.name() == "CatBackward0"
    nn.utils.vector_to_parameters(torch.arange(11.0).double(), net.parameters())
    assert net[1].bias.tolist() == [10.0] and net[0].weight.is_leaf
    net(torch.ones(1, 3).double()).sum().backward()
    grads = [p.grad for p in net.parameters()]
    total = nn.utils.get_total_norm(grads, norm_type=3.0)
    assert nn.utils.get_total_norm(grads, float("inf")).item() == 19.0
    nn.utils.clip_grads_with_norm_(net.parameters(), 1.0, total)
    assert abs(nn.utils.get_total_norm([p.grad for p in net.parameters()], 3.0).item() - 1) < 1e-6
    with pytest.raises(RuntimeError, match="The total norm of order 2.0 for gradients from "
                                           "`parameters` is non-finite"):
        nn.utils.get_total_norm([torch.tensor([float("nan")])], error_if_nonfinite=True)
