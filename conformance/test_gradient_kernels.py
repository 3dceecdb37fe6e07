"""Gradients torch computes with kernels of their own: their graphs, layouts, versions, bits.

For a transposed leaf ``x`` (strides (1, 2)) and ``y = f(x)``, each case checks the graph
of ``y`` and of ``g``, the gradient of ``(y * y).sum()`` taken with ``create_graph=True``
(node names in preorder, each once, "Backward" shortened to "B"), the strides of ``y`` and
``g`` and ``g``'s version, the second derivative (``g.sum()`` differentiated again) or
torch's refusal of it, and the strides and version of ``x.grad`` after a plain
``f(x).sum().backward()``. Values are checked to the bit, as digests of their float64
forms, in float64 and float32, where refgrad computes them as torch does ("-": not checked
here; see test_bce_with_logits_values). The operations: multi_margin_loss and
multilabel_margin_loss (NotImplemented gradients), embedding (embedding_dense_backward),
bilinear (_trilinear), index_put, binary_cross_entropy_with_logits (a gradient written in
place).
"""

import hashlib
import struct

import pytest
import torch
import torch.nn.functional as F

from conformance._support import unique_preorder


def leaf(dtype):
    """A transposed (2, 3) leaf: strides (1, 2)."""
    return (torch.arange(6, dtype=dtype).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()


def other(x):
    return torch.arange(6, dtype=x.dtype).reshape(x.shape) * 0.1


def graph(t) -> str:
    """The nodes below ``t``, each once, in preorder."""
    return " ".join(name.replace("Backward", "B") for name in unique_preorder(t.grad_fn))


def digest(t) -> str:
    flat = t.detach().reshape(-1).tolist()
    return hashlib.sha256(struct.pack(f"<{len(flat)}d", *flat)).hexdigest()[:12]


CASES = {
    "multi_margin": lambda x: F.multi_margin_loss(x, torch.tensor([0, 2])),
    "multi_margin_p2_weight": lambda x: F.multi_margin_loss(
        x, torch.tensor([1, 2]), p=2, margin=0.75,
        weight=torch.tensor([1.0, 2.0, 3.0], dtype=x.dtype)),
    "multi_margin_none": lambda x: F.multi_margin_loss(x, torch.tensor([0, 2]),
                                                       reduction="none"),
    "multi_margin_sum": lambda x: F.multi_margin_loss(x, torch.tensor([2, 1]), reduction="sum"),
    "multilabel_margin": lambda x: F.multilabel_margin_loss(
        x, torch.tensor([[0, -1, 1], [2, 1, -1]])),
    "multilabel_margin_none": lambda x: F.multilabel_margin_loss(
        x, torch.tensor([[0, -1, 1], [2, 1, -1]]), reduction="none"),
    "embedding": lambda x: F.embedding(torch.tensor([[1, 0, 1], [0, 1, 1]]), x.t()),
    "embedding_padding": lambda x: F.embedding(torch.tensor([[1, 0, 2]]), x.t(), padding_idx=0),
    "embedding_freq": lambda x: F.embedding(torch.tensor([[1, 0, 1], [2, 1, 1]]), x.t(),
                                            padding_idx=-1, scale_grad_by_freq=True),
    "bilinear": lambda x: F.bilinear(x, x, torch.ones(1, 3, 3, dtype=x.dtype)),
    "bilinear_bias": lambda x: F.bilinear(
        x, other(x)[:, :2] + 1, torch.arange(12, dtype=x.dtype).reshape(2, 3, 2) * 0.1,
        torch.tensor([0.5, -1.0], dtype=x.dtype)),
    "bilinear_3d": lambda x: F.bilinear(
        x[None], other(x)[:, :2][None], x.t()[None] * torch.arange(
            1, 5, dtype=x.dtype).reshape(4, 1, 1)),
    "index_put": lambda x: x.index_put((torch.tensor([0]),), x[1], accumulate=True),
    "index_put_replace": lambda x: x.index_put((torch.tensor([1]),), x[0] * 2),
    "bce_logits": lambda x: F.binary_cross_entropy_with_logits(x, other(x)),
    "bce_logits_sum": lambda x: F.binary_cross_entropy_with_logits(x, other(x), reduction="sum"),
    "bce_logits_weights": lambda x: F.binary_cross_entropy_with_logits(
        x, other(x), torch.tensor([1.5, 0.5, 2.0], dtype=x.dtype),
        pos_weight=torch.tensor([0.5, 2.0, 1.0], dtype=x.dtype)),
    "bce_logits_weight_none": lambda x: F.binary_cross_entropy_with_logits(
        x, other(x), torch.tensor([1.5, 0.5, 2.0], dtype=x.dtype), reduction="none"),
}

# graph of y, graph of g, (y strides, g strides, g version, x.grad strides, x.grad version)
LAYOUTS = {
    'multi_margin': (
        'MultiMarginLossB0 AccumulateGrad',
        'NotImplemented AddB0 MulB0 MultiMarginLossB0 AccumulateGrad MulB0',
        ((), (3, 1), 0, (1, 2), 1)),
    'multi_margin_p2_weight': (
        'MultiMarginLossB0 AccumulateGrad',
        'NotImplemented AddB0 MulB0 MultiMarginLossB0 AccumulateGrad MulB0',
        ((), (3, 1), 0, (1, 2), 1)),
    'multi_margin_none': (
        'MultiMarginLossB0 AccumulateGrad',
        'NotImplemented AddB0 MulB0 MultiMarginLossB0 AccumulateGrad MulB0',
        ((1,), (3, 1), 0, (1, 2), 1)),
    'multi_margin_sum': (
        'MultiMarginLossB0 AccumulateGrad',
        'NotImplemented AddB0 MulB0 MultiMarginLossB0 AccumulateGrad MulB0',
        ((), (3, 1), 0, (1, 2), 1)),
    'multilabel_margin': (
        'MultilabelMarginLossB0 AccumulateGrad',
        'NotImplemented AddB0 MulB0 MultilabelMarginLossB0 AccumulateGrad MulB0',
        ((), (3, 1), 0, (1, 2), 1)),
    'multilabel_margin_none': (
        'MultilabelMarginLossB0 AccumulateGrad',
        'NotImplemented AddB0 MulB0 MultilabelMarginLossB0 AccumulateGrad MulB0',
        ((1,), (3, 1), 0, (1, 2), 1)),
    'embedding': (
        'EmbeddingB0 TB0 AccumulateGrad',
        'TB0 EmbeddingDenseBB0 AddB0 MulB0 EmbeddingB0 TB0 AccumulateGrad MulB0',
        ((6, 2, 1), (1, 2), 0, (1, 2), 0)),
    'embedding_padding': (
        'EmbeddingB0 TB0 AccumulateGrad',
        'TB0 EmbeddingDenseBB0 AddB0 MulB0 EmbeddingB0 TB0 AccumulateGrad MulB0',
        ((6, 2, 1), (1, 2), 0, (1, 2), 0)),
    'embedding_freq': (
        'EmbeddingB0 TB0 AccumulateGrad',
        'TB0 EmbeddingDenseBB0 AddB0 MulB0 EmbeddingB0 TB0 AccumulateGrad MulB0',
        ((6, 2, 1), (1, 2), 0, (1, 2), 0)),
    'bilinear': (
        'ViewB0 TrilinearB0 ReshapeAliasB0 AccumulateGrad ReshapeAliasB0',
        ('AddB0 ViewB0 TrilinearB0 ReshapeAliasB0 AccumulateGrad ViewB0 AddB0 MulB0 ViewB0 '
         'TrilinearB0 ReshapeAliasB0 MulB0 ViewB0 TrilinearB0'),
        ((1, 1), (3, 1), 0, (1, 2), 1)),
    'bilinear_bias': (
        'AddB0 ViewB0 TrilinearB0 ReshapeAliasB0 AccumulateGrad',
        ('ViewB0 TrilinearB0 ViewB0 AddB0 MulB0 AddB0 ViewB0 TrilinearB0 ReshapeAliasB0 '
         'AccumulateGrad MulB0'),
        ((2, 1), (3, 1), 0, (1, 2), 1)),
    'bilinear_3d': (
        'ViewB0 TrilinearB0 ReshapeAliasB0 UnsqueezeB0 AccumulateGrad MulB0 UnsqueezeB0 TB0',
        ('AddB0 TB0 SqueezeB1 SumB1 MulB0 TrilinearB0 ReshapeAliasB0 UnsqueezeB0 AccumulateGrad '
         'ViewB0 AddB0 MulB0 ViewB0 TrilinearB0 MulB0 UnsqueezeB0 TB0 MulB0 SqueezeB1 ViewB0 '
         'TrilinearB0'),
        ((8, 4, 1), (1, 2), 0, (1, 2), 0)),
    'index_put': (
        'IndexPutB0 AccumulateGrad SelectB0',
        'AddB0 AddB0 MulB0 IndexPutB0 AccumulateGrad SelectB0 MulB0 SelectBB0 ViewB0 SumB1 IndexB0',
        ((1, 2), (1, 2), 0, (1, 2), 1)),
    'index_put_replace': (
        'IndexPutB0 AccumulateGrad MulB0 SelectB0',
        ('AddB0 IndexPutB0 AddB0 MulB0 IndexPutB0 AccumulateGrad MulB0 SelectB0 MulB0 SelectBB0 '
         'MulB0 ViewB0 SumB1 IndexB0'),
        ((1, 2), (1, 2), 0, (1, 2), 1)),
    'bce_logits': (
        'BinaryCrossEntropyWithLogitsB0 AccumulateGrad',
        ('DivB1 MulB0 SubB0 SigmoidB0 AccumulateGrad AddB0 MulB0 BinaryCrossEntropyWithLogitsB0 '
         'MulB0'),
        ((), (1, 2), 1, (1, 2), 3)),
    'bce_logits_sum': (
        'BinaryCrossEntropyWithLogitsB0 AccumulateGrad',
        'MulB0 SubB0 SigmoidB0 AccumulateGrad AddB0 MulB0 BinaryCrossEntropyWithLogitsB0 MulB0',
        ((), (1, 2), 0, (1, 2), 2)),
    'bce_logits_weights': (
        'BinaryCrossEntropyWithLogitsB0 AccumulateGrad',
        ('DivB1 MulB0 MulB0 SubB0 MulB0 SigmoidB0 AccumulateGrad AddB0 MulB0 '
         'BinaryCrossEntropyWithLogitsB0 MulB0'),
        ((), (3, 1), 1, (1, 2), 1)),
    'bce_logits_weight_none': (
        'BinaryCrossEntropyWithLogitsB0 AccumulateGrad',
        ('MulB0 MulB0 SubB0 SigmoidB0 AccumulateGrad AddB0 MulB0 BinaryCrossEntropyWithLogitsB0 '
         'MulB0'),
        ((3, 1), (1, 2), 0, (1, 2), 3)),
}

# digests of y, g, the second derivative and x.grad: float64, then float32
BITS = {
    'multi_margin': (
        '0a1ee389e285 bd0c7388058b - 009f785b7191',
        '012da6d8e4de 687e41fae88a - 0ee436bea23b'),
    'multi_margin_p2_weight': (
        '3209bf8bc378 7f6f6cfd6b1d - daa1b1f57a5e',
        '90f0c6607531 33a8235b7f96 - 73f5f5fd326d'),
    'multi_margin_none': (
        '148e175b7bdb a1ac6c1c5328 - 086ccb096ce1',
        '801ed5661fca b6e5a4656f40 - 3c400fab0436'),
    'multi_margin_sum': (
        'acc339ba6637 40883c03685e - 1be142eb5de3',
        'ec74382d1585 a3d51a497565 - fac834dba035'),
    'multilabel_margin': (
        '0a1ee389e285 5ba10e5ed1f7 - fa1509d94685',
        '6b850cbfd533 291e834c78e2 - f79794248a24'),
    'multilabel_margin_none': (
        '148e175b7bdb 8750192dd9b2 - 7d231a635120',
        'b1048e5c05d3 57ec59c397ac - 20282033f73e'),
    'embedding': (
        '6e9ddc8e9499 5baf983ea78d 89a2e3973ba2 64d038c25aba',
        'cfe495774752 406288d332d2 89a2e3973ba2 64d038c25aba'),
    'embedding_padding': (
        '2387b137939e abaaea39a12b 2c67c1f632be 67aef2f98b0d',
        '083777f0ac39 17e4e3acc5ce 2c67c1f632be 67aef2f98b0d'),
    'embedding_freq': (
        'b9f532101578 65ac71455b57 3b910c4c04be b3f3c927c51c',
        'a8094f91ef39 af1187ede958 3b910c4c04be b3f3c927c51c'),
    'bilinear': (
        '9f49468a3d75 1929b94cf2fa c3143d174ec3 8ef7dd349b67',
        '6fcb308d0194 a5ebe60b3af4 7125c3eec42a d11933cffa05'),
    'bilinear_bias': (
        'a3aaa2642752 49b1e19f09bc 849d5d7c949d 7a7d81f271a5',
        '3cc1802cd3cb 9b5b71b4d23b 57bfe0f37cbd a908a3ca1750'),
    'bilinear_3d': (
        'ae3f65597391 501f69349a46 4c2e4dff0f8d 01b7329a738c',
        '4cc2ee4a9907 71dd0a4a7b36 4e0a65e6ccee ef3a19abcc39'),
    'index_put': (
        '8672a6e968fe 7d6672104057 1d675f02e6c6 d51d98d8919b',
        'b72469912661 624085cddf69 1d675f02e6c6 d51d98d8919b'),
    'index_put_replace': (
        '2eeaeee45765 c5349efa51e6 d748c55db0f1 059ef5f9a707',
        '09ae98a87ba6 4e04a820216b d748c55db0f1 059ef5f9a707'),
    'bce_logits': (
        '798dd5a69f3a 32d094b73478 - f2976d0d0170',
        '- - - -'),
    'bce_logits_sum': (
        'f3eb6e83966c d2da2751a4d6 - 5704afb5af6d',
        '- - - -'),
    'bce_logits_weights': (
        'a44f50a4a7bb 12c4dc106e56 - 6bc118cb0cfc',
        '- - - -'),
    'bce_logits_weight_none': (
        'c8b14dc31fd0 8f6ffdf9359d - 8eb347732971',
        '- - - -'),
}

REFUSED = {"multi_margin": "multi_margin_loss_backward",
           "multilabel_margin": "multilabel_margin_loss_backward"}


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
@pytest.mark.parametrize("name", list(CASES))
def test_gradient_kernels_match_torch(name, dtype):
    x = leaf(dtype)
    y = CASES[name](x)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    x2 = leaf(dtype)
    CASES[name](x2).sum().backward()
    y_graph, g_graph, layout = LAYOUTS[name]
    assert (graph(y), graph(g)) == (y_graph, g_graph)
    assert (y.stride(), g.stride(), g._version, x2.grad.stride(), x2.grad._version) == layout
    refused = [kernel for prefix, kernel in REFUSED.items() if name.startswith(prefix)]
    if refused:
        with pytest.raises(RuntimeError, match=rf"\Aderivative for aten::{refused[0]} is not "
                                               r"implemented\Z"):
            torch.autograd.grad(g.sum(), x)
        second = "-"
    else:
        second = digest(torch.autograd.grad(g.sum(), x)[0])
    wanted = BITS[name][dtype == torch.float32].split()
    found = [digest(y), digest(g), second, digest(x2.grad)]
    assert [f if w != "-" else "-" for f, w in zip(found, wanted)] == wanted
