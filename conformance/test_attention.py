"""Black-box tests: F.scaled_dot_product_attention: values against the definition, gradients
against central differences, the composite's graph or the fused node, layouts, dropout,
refusals.
"""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import numeric_gradient, preorder_names, raises, saved_names

RNG = np.random.default_rng(23)

GRAPHS = {  # name: (shapes, options, torch"s graph in preorder)
    "plain": ([(2, 3, 4), (2, 5, 4), (2, 5, 6)], {},
        "UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 "
        "....SafeSoftmaxBackward0 .....UnsafeViewBackward0 ......BmmBackward0 "
        ".......ViewBackward0 ........ExpandBackward0 .........MulBackward1 "
        "..........AccumulateGrad .......ReshapeAliasBackward0 ........ExpandBackward0 "
        ".........MulBackward1 ..........TransposeBackward0 ...........AccumulateGrad "
        "..ViewBackward0 ...ExpandBackward0 ....AccumulateGrad"),
    "two_dims": ([(3, 4), (5, 4), (5, 6)], {},
        "MmBackward0 .SafeSoftmaxBackward0 ..MmBackward0 ...MulBackward1 ....AccumulateGrad "
        "...MulBackward1 ....TransposeBackward0 .....AccumulateGrad .AccumulateGrad"),
    "bool_mask": ([(2, 3, 4), (2, 5, 4), (2, 5, 6)], {"attn_mask": "bool"},
        "UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 "
        "....SafeSoftmaxBackward0 .....AddBackward0 ......UnsafeViewBackward0 "
        ".......BmmBackward0 ........ViewBackward0 .........ExpandBackward0 "
        "..........MulBackward1 ...........AccumulateGrad ........ReshapeAliasBackward0 "
        ".........ExpandBackward0 ..........MulBackward1 ...........TransposeBackward0 "
        "............AccumulateGrad ......None ..ViewBackward0 ...ExpandBackward0 "
        "....AccumulateGrad"),
    "float_mask_grad": ([(2, 3, 4), (2, 5, 4), (2, 5, 6)], {"attn_mask": "grad"},
        "UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 "
        "....SafeSoftmaxBackward0 .....AddBackward0 ......UnsafeViewBackward0 "
        ".......BmmBackward0 ........ViewBackward0 .........ExpandBackward0 "
        "..........MulBackward1 ...........AccumulateGrad ........ReshapeAliasBackward0 "
        ".........ExpandBackward0 ..........MulBackward1 ...........TransposeBackward0 "
        "............AccumulateGrad ......AccumulateGrad ..ViewBackward0 ...ExpandBackward0 "
        "....AccumulateGrad"),
    "causal": ([(2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 6)], {"is_causal": True},
        "UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 "
        "....SafeSoftmaxBackward0 .....AddBackward0 ......UnsafeViewBackward0 "
        ".......BmmBackward0 ........ViewBackward0 .........ExpandBackward0 "
        "..........MulBackward1 ...........AccumulateGrad ........ReshapeAliasBackward0 "
        ".........ExpandBackward0 ..........MulBackward1 ...........TransposeBackward0 "
        "............AccumulateGrad ......None ..ViewBackward0 ...ExpandBackward0 "
        "....AccumulateGrad"),
    "negative_scale": ([(2, 3, 4), (2, 5, 4), (2, 5, 6)], {"scale": -0.25},
        "UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 "
        "....SafeSoftmaxBackward0 .....UnsafeViewBackward0 ......BmmBackward0 "
        ".......ViewBackward0 ........ExpandBackward0 .........MulBackward1 "
        "..........AccumulateGrad .......ReshapeAliasBackward0 ........ExpandBackward0 "
        ".........MulBackward1 ..........TransposeBackward0 ...........AccumulateGrad "
        "..ViewBackward0 ...ExpandBackward0 ....AccumulateGrad"),
    "grouped": ([(2, 4, 3, 4), (2, 2, 5, 4), (2, 2, 5, 6)], {"enable_gqa": True},
        "UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 "
        "....SafeSoftmaxBackward0 .....UnsafeViewBackward0 ......BmmBackward0 "
        ".......ViewBackward0 ........ExpandBackward0 .........MulBackward1 "
        "..........AccumulateGrad .......ReshapeAliasBackward0 ........ExpandBackward0 "
        ".........MulBackward1 ..........TransposeBackward0 ...........ViewBackward0 "
        "............CloneBackward0 .............ExpandBackward0 "
        "..............UnsqueezeBackward0 ...............AccumulateGrad ..ViewBackward0 "
        "...ExpandBackward0 ....ViewBackward0 .....CloneBackward0 ......ExpandBackward0 "
        ".......UnsqueezeBackward0 ........AccumulateGrad"),
    "fused": ([(2, 2, 5, 4), (2, 2, 7, 4), (2, 2, 7, 4)], {},
        "ScaledDotProductFlashAttentionForCpuBackward0 .AccumulateGrad .AccumulateGrad "
        ".AccumulateGrad"),
    "fused_grouped_mask": ([(2, 4, 5, 4), (2, 2, 7, 4), (2, 2, 7, 4)], {"enable_gqa": True,
                                                                 "attn_mask": "bool"},
        "ScaledDotProductFlashAttentionForCpuBackward0 .AccumulateGrad .AccumulateGrad "
        ".AccumulateGrad"),
    "broadcast": ([(1, 3, 4), (2, 5, 4), (2, 5, 6)], {},
        "UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 "
        "....SafeSoftmaxBackward0 .....CloneBackward0 ......TransposeBackward0 "
        ".......UnsafeViewBackward0 ........MmBackward0 .........ViewBackward0 "
        "..........TransposeBackward0 ...........MulBackward1 ............TransposeBackward0 "
        ".............AccumulateGrad .........TBackward0 ..........SqueezeBackward1 "
        "...........MulBackward1 ............AccumulateGrad ..ViewBackward0 "
        "...ExpandBackward0 ....AccumulateGrad"),
}


def _operands(shapes, options, dtype=None, requires_grad=True):
    """Leaves of float64 normal values, and the options with their masks made."""
    arrays = [RNG.standard_normal(s) for s in shapes]
    leaves = [torch.tensor(a, dtype=dtype or torch.float64, requires_grad=requires_grad)
              for a in arrays]
    options = dict(options)
    size = (shapes[0][-2], shapes[1][-2])
    if options.get("attn_mask") == "bool":
        options["attn_mask"] = torch.tensor(RNG.random(size) > 0.3)
    elif options.get("attn_mask") in ("float", "grad"):
        wanted = requires_grad and options["attn_mask"] == "grad"
        options["attn_mask"] = torch.tensor(RNG.standard_normal(size),
                                            dtype=dtype or torch.float64, requires_grad=wanted)
    return arrays, leaves, options


def _down(node, *edges):
    """The node reached from ``node`` by following the given edges."""
    for edge in edges:
        node = node.next_functions[edge][0]
    return node


def _softmax(s):
    top = np.max(s, -1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(s - top)
    total = e.sum(-1, keepdims=True)
    return np.where(total > 0, e / np.where(total > 0, total, 1), 0)


def _reference(q, k, v, mask=None, is_causal=False, scale=None, enable_gqa=False):
    """The definition: softmax(q @ k.T * scale + mask) @ v, a row with no key giving zeros."""
    if enable_gqa and k.shape[-3] != q.shape[-3]:
        k = np.repeat(k, q.shape[-3] // k.shape[-3], -3)
        v = np.repeat(v, q.shape[-3] // v.shape[-3], -3)
    s = q @ np.swapaxes(k, -1, -2) * (scale if scale is not None else 1 / math.sqrt(q.shape[-1]))
    if is_causal:
        s = np.where(np.tri(s.shape[-2], s.shape[-1], dtype=bool), s, -np.inf)
    if mask is not None:
        s = s + (np.where(mask, 0.0, -np.inf) if mask.dtype == bool else mask)
    return _softmax(s) @ v


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_graph_is_torchs(name):
    shapes, options, graph = GRAPHS[name]
    _, leaves, options = _operands(shapes, options)
    out = F.scaled_dot_product_attention(*leaves, **options)
    assert preorder_names(out.grad_fn, 30) == graph


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_values_and_gradients(name):
    shapes, options, _ = GRAPHS[name]
    arrays, leaves, options = _operands(shapes, options)
    mask = options.get("attn_mask")
    out = F.scaled_dot_product_attention(*leaves, **options)
    plain = {k: v for k, v in options.items() if k != "attn_mask"}
    masked = None if mask is None else mask.detach().numpy()
    expected = _reference(*arrays, masked, **plain)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12, atol=1e-12)
    probe = RNG.standard_normal(expected.shape)
    (out * torch.tensor(probe)).sum().backward()
    for i, leaf in enumerate(leaves):
        def loss(a, i=i):
            given = list(arrays)
            given[i] = a
            return float((_reference(*given, masked, **plain) * probe).sum())

        np.testing.assert_allclose(leaf.grad.numpy(), numeric_gradient(loss, arrays[i]),
                                   rtol=1e-6, atol=1e-7)
    if mask is not None and mask.requires_grad:
        def by_mask(m):
            return float((_reference(*arrays, m, **plain) * probe).sum())

        np.testing.assert_allclose(mask.grad.numpy(), numeric_gradient(by_mask, masked),
                                   rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_without_grad_nothing_is_recorded(name):
    shapes, options, _ = GRAPHS[name]
    arrays, leaves, options = _operands(shapes, options, requires_grad=False)
    out = F.scaled_dot_product_attention(*leaves, **options)
    assert out.grad_fn is None and out.dtype == torch.float64 and out.is_contiguous()
    mask = options.get("attn_mask")
    plain = {k: v for k, v in options.items() if k != "attn_mask"}
    expected = _reference(*arrays, None if mask is None else mask.detach().numpy(), **plain)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("scale", [None, 0.3, -0.3])
def test_the_scale_is_split_between_query_and_key(scale):
    _, leaves, _ = _operands([(2, 3, 4), (2, 5, 4), (2, 5, 6)], {})
    out = F.scaled_dot_product_attention(*leaves, scale=scale)
    root = math.sqrt(abs(scale) if scale is not None else 1 / math.sqrt(4))
    softmax = _down(out.grad_fn, 0, 0, 0, 0)
    assert type(softmax).__name__ == "SafeSoftmaxBackward0"
    assert saved_names(softmax) == ["_saved_dim", "_saved_result"]
    assert softmax._saved_dim == 2**64 - 1  # -1, as torch shows it
    product = _down(softmax, 0, 0)
    by_query, by_key = _down(product, 0, 0, 0), _down(product, 1, 0, 0)
    assert by_query._saved_other == (-root if scale is not None and scale < 0 else root)
    assert by_key._saved_other == root
    weights = softmax._saved_result.detach().numpy()
    np.testing.assert_allclose(weights.sum(-1), 1.0, rtol=1e-12)


def test_the_fused_node_keeps_torchs_attributes():
    _, leaves, options = _operands([(2, 4, 5, 4), (2, 2, 7, 4), (2, 2, 7, 4)],
                                   {"enable_gqa": True, "attn_mask": "bool"})
    mask = options["attn_mask"]
    out = F.scaled_dot_product_attention(*leaves, **options, is_causal=True, scale=0.4)
    node = out.grad_fn
    assert saved_names(node) == [
        "_saved_attn_mask", "_saved_dropout_p", "_saved_is_causal", "_saved_key",
        "_saved_logsumexp", "_saved_output", "_saved_query", "_saved_scale", "_saved_value"]
    assert (node._saved_dropout_p, node._saved_is_causal, node._saved_scale) == (0.0, True, 0.4)
    assert node._saved_query is leaves[0] and node._saved_key is leaves[1]
    assert node._saved_value is leaves[2]
    assert torch.equal(node._saved_output, out)
    added = node._saved_attn_mask  # the boolean mask as the numbers it adds
    assert added.dtype == torch.float64
    assert added.tolist() == np.where(mask.numpy(), 0.0, -np.inf).tolist()
    lse = node._saved_logsumexp.detach()
    assert lse.shape == (2, 4, 5) and lse.stride() == (20, 1, 4)
    q, k = leaves[0].detach().numpy(), np.repeat(leaves[1].detach().numpy(), 2, 1)
    s = q @ np.swapaxes(k, -1, -2) * 0.4 + added.numpy()
    s = np.where(np.tri(5, 7, dtype=bool), s, -np.inf)
    np.testing.assert_allclose(lse.numpy(), np.log(np.exp(s).sum(-1)), rtol=1e-12)
    assert [type(n).__name__ for n, _ in node.next_functions] == ["AccumulateGrad"] * 3


def test_the_fused_kernels_logsumexp_carries_no_gradient():
    _, leaves, _ = _operands([(1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4)], {})
    out = F.scaled_dot_product_attention(*leaves)
    node = out.grad_fn
    lse = node._saved_logsumexp
    assert not lse.requires_grad and lse.grad_fn is None
    seen = []
    node.register_hook(lambda grad_inputs, grad_outputs: seen.append(len(grad_outputs)))
    out.sum().backward()
    assert seen == [1]  # one gradient slot: the log-sum-exp has none


def test_a_query_that_sees_no_key_gets_zeros():
    mask = np.ones((3, 5), bool)
    mask[1] = False
    for shapes in ([(2, 3, 4), (2, 5, 4), (2, 5, 4)], [(1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4)]):
        _, leaves, _ = _operands(shapes, {})
        out = F.scaled_dot_product_attention(*leaves, attn_mask=torch.tensor(mask))
        assert out[..., 1, :].abs().sum().item() == 0.0
        out.sum().backward()
        assert leaves[0].grad[..., 1, :].abs().sum().item() == 0.0
        assert not any(leaf.grad.isnan().any().item() for leaf in leaves)


def test_the_fused_output_follows_the_query_and_its_gradients_keep_the_heads_inside():
    # a (B, L, H, E) tensor seen as (B, H, L, E), as attention layers make them
    base = torch.tensor(RNG.standard_normal((2, 5, 2, 4)), requires_grad=True)
    other = torch.tensor(RNG.standard_normal((2, 2, 5, 4)), requires_grad=True)
    out = F.scaled_dot_product_attention(base.transpose(1, 2), other, other)
    assert out.stride() == (40, 4, 8, 1)
    assert type(out.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"
    out.sum().backward()
    assert base.grad.stride() == (40, 8, 4, 1) and other.grad.stride() == (40, 20, 4, 1)
    assert (base.grad._version, other.grad._version) == (0, 1)  # the second one a copy
    key_first = F.scaled_dot_product_attention(other, base.transpose(1, 2), other)
    assert key_first.stride() == (40, 20, 4, 1)
    handed = torch.autograd.grad(key_first.sum(), (other, base))
    assert [g.stride() for g in handed] == [(40, 4, 8, 1), (40, 8, 4, 1)]


def test_float16_is_computed_in_float32():
    arrays, leaves, _ = _operands([(2, 3, 4), (2, 5, 4), (2, 5, 6)], {}, dtype=torch.float16)
    out = F.scaled_dot_product_attention(*leaves)
    assert out.dtype == torch.float16 and type(out.grad_fn).__name__ == "ToCopyBackward0"
    assert [type(n).__name__ for n, _ in out.grad_fn.next_functions] == ["UnsafeViewBackward0"]
    wide = [leaf.detach().float().numpy() for leaf in leaves]
    np.testing.assert_allclose(out.detach().float().numpy(), _reference(*wide), rtol=2e-3,
                               atol=2e-3)
    fused = F.scaled_dot_product_attention(*[torch.ones(1, 1, 3, 4, dtype=torch.float16,
                                                        requires_grad=True)] * 3)
    assert fused.dtype == torch.float16
    assert fused.grad_fn._saved_logsumexp.dtype == torch.float32


def _fixed():
    q = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(1, 3, 4)
    k = torch.linspace(-2, 1, 16, dtype=torch.float64).reshape(1, 4, 4).cos()
    v = torch.arange(8, dtype=torch.float64).reshape(1, 4, 2)
    return q, k, v


def test_dropout_draws_torchs_numbers():
    torch.manual_seed(5)
    out = F.scaled_dot_product_attention(*_fixed(), dropout_p=0.5)
    expected = [[[3.262136162741088, 4.131617508685544], [0.0, 0.5307585194177967],
                 [7.379377878446963, 9.204839787234466]]]
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)


def test_dropout_is_on_the_weights():
    q, k, v = (t.requires_grad_() for t in _fixed())
    out = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
    dropped = _down(out.grad_fn, 0, 0, 0, 0)
    assert type(dropped).__name__ == "MulBackward0"
    assert type(dropped.next_functions[0][0]).__name__ == "SafeSoftmaxBackward0"
    zeroed = F.scaled_dot_product_attention(q, k, v, dropout_p=1.0)
    assert zeroed.abs().sum().item() == 0.0
    torch.manual_seed(1)
    draws = sum(F.scaled_dot_product_attention(*_fixed(), dropout_p=0.25) for _ in range(400))
    mean = (draws / 400).numpy()  # the kept weights are scaled: the mean is the plain output
    plain = F.scaled_dot_product_attention(*_fixed()).numpy()
    np.testing.assert_allclose(mean, plain, rtol=0.1, atol=0.1)


Z = "torch.zeros"
REFUSALS = [
    (f"F.scaled_dot_product_attention({Z}(2, 3, 4), {Z}(2, 5, 4), {Z}(2, 5, 6), "
     f"attn_mask={Z}(3, 5), is_causal=True)", RuntimeError,
     "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"),
    (f"F.scaled_dot_product_attention({Z}(2, 3, 4), {Z}(2, 5, 4, dtype=torch.float64), "
     f"{Z}(2, 5, 6))", RuntimeError,
     "Expected query, key, and value to have the same dtype, but got query.dtype: float "
     "key.dtype: double and value.dtype: float instead."),
    (f"F.scaled_dot_product_attention({Z}(4), {Z}(5, 4), {Z}(5, 6))", RuntimeError,
     "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: 1 "
     "key.dim: 2 and value.dim: 2 instead."),
    (f"F.scaled_dot_product_attention({Z}(2, 3, 4), {Z}(2, 5, 3), {Z}(2, 5, 6))", RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 3]."),
    (f"F.scaled_dot_product_attention({Z}(2, 3, 4), {Z}(2, 5, 4), {Z}(2, 6, 6))", RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [2, 5] but got: [2, 6]."),
    (f"F.scaled_dot_product_attention({Z}(2, 3, 4), {Z}(2, 5, 4), {Z}(2, 5, 6), "
     f"attn_mask={Z}(3, 5, dtype=torch.int64))", RuntimeError,
     "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
     "attn_mask.dtype: long int and  query.dtype: float instead."),
    (f"F.scaled_dot_product_attention({Z}(2, 3, 4), {Z}(2, 5, 4), {Z}(2, 5, 6), "
     f"attn_mask={Z}(4, 5))", RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"),
    (f"F.scaled_dot_product_attention({Z}(2, 6, 3, 4), {Z}(2, 4, 5, 4), {Z}(2, 4, 5, 4), "
     "enable_gqa=True)", RuntimeError,
     "Number of heads in key and value must divide the number of heads in "),
    (f"F.scaled_dot_product_attention({Z}(2, 6, 3, 4), {Z}(2, 3, 5, 4), {Z}(2, 3, 5, 4))",
     RuntimeError,
     "The size of tensor a (6) must match the size of tensor b (3) at non-singleton dimension 1"),
    (f"F.scaled_dot_product_attention({Z}(2, 3, 4, dtype=torch.int64), "
     f"{Z}(2, 5, 4, dtype=torch.int64), {Z}(2, 5, 6, dtype=torch.int64))", RuntimeError,
     "expected scalar type Float but found Long"),
    (f"F.scaled_dot_product_attention({Z}(2, 3, 4), {Z}(2, 5, 4), {Z}(2, 5, 6), "
     "dropout_p=1.5)", RuntimeError, "dropout probability has to be between 0 and 1, but got 1.5"),
    (f"F.scaled_dot_product_attention({Z}(1, 1, 3, 4), {Z}(1, 1, 3, 4), {Z}(1, 1, 3, 4), "
     f"attn_mask={Z}(3))", IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got -2)"),
    (f"F.scaled_dot_product_attention({Z}(2, 3, 4), {Z}(2, 5, 4), {Z}(2, 5, 6), "
     "dropout_p=2.0)", RuntimeError, "dropout probability has to be between 0 and 1, but got 2"),
    (f"F.scaled_dot_product_attention({Z}(2, 3, 4), {Z}(2, 5, 4), {Z}(2, 5, 6), None, 0.0, "
     "False, 0.5)", TypeError,
     "scaled_dot_product_attention() takes from 3 to 6 positional arguments but 7 were given"),
    (f"F.scaled_dot_product_attention({Z}(2, 3, 4), {Z}(2, 5, 4), 'a')", TypeError,
     "scaled_dot_product_attention(): argument 'value' (position 3) must be Tensor, not str"),
    (f"F.scaled_dot_product_attention({Z}(2, 3, 4), {Z}(2, 5, 4))", TypeError,
     'scaled_dot_product_attention() missing 1 required positional arguments: "value"'),
]


@pytest.mark.parametrize(("call", "kind", "message"), REFUSALS)
def test_refusals(call, kind, message):
    with raises(kind, message):
        eval(call, {"torch": torch, "F": F})


EMPTY = ("AddBackward0 .None .MulBackward1 ..AddBackward0 ...AddBackward0 ....SumBackward0 "
         ".....AccumulateGrad ....SumBackward0 .....AccumulateGrad ...SumBackward0 "
         "....AccumulateGrad")


@pytest.mark.parametrize(("shapes", "out"), [
    ([(2, 3, 4), (2, 0, 4), (2, 0, 6)], (2, 3, 6)),
    ([(2, 0, 4), (2, 5, 4), (2, 5, 6)], (2, 0, 6)),
    ([(1, 3, 4), (2, 0, 4), (2, 0, 6)], (1, 3, 6)),  # no broadcasting there
    ([(2, 3, 4), (2, 5, 3), (2, 5, 0)], (2, 3, 0)),  # nor a check of the key's size
    ([(2, 4, 3, 4), (2, 2, 0, 4), (2, 2, 0, 4)], (2, 4, 3, 4)),
])
def test_no_query_or_an_empty_value_gives_zeros_connected_to_every_operand(shapes, out):
    _, leaves, _ = _operands(shapes, {})
    result = F.scaled_dot_product_attention(*leaves, attn_mask=torch.zeros(7, 9),
                                            is_causal=True)  # neither is looked at
    assert result.shape == out and result.is_contiguous() and not result.any()
    assert preorder_names(result.grad_fn, 10) == EMPTY
    assert result.grad_fn.next_functions[1][0]._saved_other == 0
    result.sum().backward()
    assert all(leaf.grad.shape == leaf.shape and not leaf.grad.any() for leaf in leaves)


def test_a_key_with_no_positions_still_meets_the_value():
    with raises(RuntimeError, "Expected size for first two dimensions of batch2 tensor to be: "
                              "[2, 0] but got: [2, 1]."):
        F.scaled_dot_product_attention(torch.zeros(2, 3, 4), torch.zeros(2, 0, 4),
                                       torch.zeros(2, 1, 6))


def test_the_masks_layout_does_not_choose_the_kernel():
    x = torch.ones(1, 1, 3, 4, requires_grad=True)
    for mask in (torch.zeros(3, 6)[:, ::2], torch.ones(3, 3, dtype=torch.bool).t()):
        out = F.scaled_dot_product_attention(x, x, x, attn_mask=mask)
        assert type(out.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"


def test_the_fused_kernel_takes_a_mask_and_is_causal_together():
    # only the composite refuses the two together
    ones = torch.ones(1, 1, 3, 4)
    out = F.scaled_dot_product_attention(ones, ones, ones, attn_mask=torch.zeros(3, 3),
                                         is_causal=True)
    assert out.tolist() == ones.tolist()


def test_forward_mode_runs_through_the_composite_but_not_the_fused_row():
    fw = torch.autograd.forward_ad
    arrays, _, _ = _operands([(2, 3, 4), (2, 5, 4), (2, 5, 6)], {})
    tangents = [RNG.standard_normal(a.shape) for a in arrays]
    with fw.dual_level():
        duals = [fw.make_dual(torch.tensor(a), torch.tensor(t)) for a, t in zip(arrays, tangents)]
        found = fw.unpack_dual(F.scaled_dot_product_attention(*duals, is_causal=True)).tangent
    step = 1e-6
    ahead = _reference(*[a + step * t for a, t in zip(arrays, tangents)], is_causal=True)
    behind = _reference(*[a - step * t for a, t in zip(arrays, tangents)], is_causal=True)
    np.testing.assert_allclose(found.numpy(), (ahead - behind) / (2 * step), rtol=1e-6,
                               atol=1e-8)
    with fw.dual_level():
        x = fw.make_dual(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2))
        with raises(NotImplementedError, "Trying to use forward AD with "
                    "_scaled_dot_product_flash_attention_for_cpu that does not support it "
                    "because it has not been implemented yet.\nPlease file an issue to PyTorch "
                    "at https://github.com/pytorch/pytorch/issues/new?template=feature-"
                    "request.yml so that we can prioritize its implementation or submit a PR "
                    "adding the implementation to derivatives.yaml"):
            F.scaled_dot_product_attention(x, x, x)


def test_no_features_weigh_every_key_alike():
    arrays, leaves, _ = _operands([(2, 3, 0), (2, 5, 0), (2, 5, 6)], {})
    out = F.scaled_dot_product_attention(*leaves)
    np.testing.assert_allclose(out.detach().numpy(),
                               np.broadcast_to(arrays[2].mean(1, keepdims=True), (2, 3, 6)),
                               rtol=1e-12)
    by_query = _down(out.grad_fn, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert type(by_query).__name__ == "MulBackward1" and by_query._saved_other == math.inf
