"""Journeys through gradient penalties on attention, recurrent layers on packed sequences,
and the checks around them. Each test asserts what such a program observes: node names and
edges, strides, whether a second backward runs, and torch's messages."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import PackedSequence, pack_sequence, pad_sequence

REFUSED = ("derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward is not "
           "implemented")


def numbers(*shape, seed=0, requires_grad=False):
    t = torch.tensor(np.random.default_rng(seed).standard_normal(shape))
    return t.requires_grad_(requires_grad)


def names(node):
    return [None if n is None else type(n).__name__ for n, _ in node.next_functions]


# The fused attention's gradient is one kernel without a derivative: taken with
# create_graph=True it comes out of a NotImplemented node, shared by the query's and the
# key's gradients, with edges to the operands that require grad and to the attention.
def test_attention_gradient_is_a_node_without_derivative():
    q = numbers(2, 3, 4, 8, seed=1, requires_grad=True)
    k = numbers(2, 3, 5, 8, seed=2, requires_grad=True)
    v = numbers(2, 3, 5, 8, seed=3)
    out = F.scaled_dot_product_attention(q, k, v)
    gq, gk = torch.autograd.grad(out.sum(), (q, k), create_graph=True)
    node = gq.grad_fn
    assert type(node).__name__ == "NotImplemented"
    assert node.name() == "torch::autograd::NotImplemented"
    assert gk.grad_fn is node and gq.requires_grad
    assert names(node) == ["AccumulateGrad", "AccumulateGrad",
                           "ScaledDotProductFlashAttentionForCpuBackward0"]
    assert node.next_functions[2][0] is out.grad_fn
    assert not [n for n in dir(node) if n.startswith("_saved")]
    assert gq.stride() == (96, 8, 24, 1) and gk.stride() == (120, 8, 24, 1)
    with pytest.raises(RuntimeError, match=f"^{REFUSED}$"):
        gq.pow(2).sum().backward()


def test_attention_gradient_edges_follow_what_requires_grad():
    q, k = numbers(1, 2, 3, 4, seed=4), numbers(1, 2, 3, 4, seed=5)
    v = numbers(1, 2, 3, 4, seed=6, requires_grad=True)
    out = F.scaled_dot_product_attention(q, k, v)
    gv, = torch.autograd.grad(out.sum(), v, create_graph=True)
    assert names(gv.grad_fn) == ["AccumulateGrad",
                                 "ScaledDotProductFlashAttentionForCpuBackward0"]
    q.requires_grad_()
    out = F.scaled_dot_product_attention(q, k, v.detach())
    go = numbers(*out.shape, seed=7, requires_grad=True)
    gq, = torch.autograd.grad(out, q, go, create_graph=True)
    assert names(gq.grad_fn) == ["AccumulateGrad", "AccumulateGrad",
                                 "ScaledDotProductFlashAttentionForCpuBackward0"]


def test_first_order_attention_gradient_records_nothing():
    q = numbers(2, 3, 4, 8, seed=1, requires_grad=True)
    k = numbers(2, 3, 5, 8, seed=2, requires_grad=True)
    out = F.scaled_dot_product_attention(q, k, k)
    gq, gk = torch.autograd.grad(out.sum(), (q, k))
    assert gq.grad_fn is None and not gq.requires_grad
    assert gq.stride() == (96, 8, 24, 1)


# A gradient penalty through the attention's math path (three dimensions, or a module that
# asks for the weights) runs; through the fused path it is refused.
def test_three_dimensional_attention_differentiates_twice():
    x = numbers(3, 4, 8, seed=8, requires_grad=True)
    out = F.scaled_dot_product_attention(x, x, x)
    assert type(out.grad_fn).__name__ == "UnsafeViewBackward0"
    g, = torch.autograd.grad(out.sum(), x, create_graph=True)
    g.norm().backward()
    assert x.grad.shape == (3, 4, 8) and torch.isfinite(x.grad).all()


@pytest.mark.parametrize("need_weights", [True, False])
def test_multihead_attention_gradient_penalty(need_weights):
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(8, 2, batch_first=True).double()
    x = numbers(2, 4, 8, seed=9, requires_grad=True)
    out, _ = mha(x, x, x, need_weights=need_weights)
    g, = torch.autograd.grad(out.sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "TransposeBackward0"
    if need_weights:
        g.norm().backward()  # the output projection's bias does not reach the gradient
        assert [p.grad is None for p in mha.parameters()] == [False, False, False, True]
    else:
        with pytest.raises(RuntimeError, match=f"^{REFUSED}$"):
            g.norm().backward()


@pytest.mark.parametrize("train", [True, False])
def test_transformer_layer_gradient_penalty_is_refused(train):
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0,
                                       batch_first=True).double().train(train)
    x = numbers(2, 3, 4, seed=10, requires_grad=True)
    g, = torch.autograd.grad(layer(x).sum(), x, create_graph=True)
    with pytest.raises(RuntimeError, match=f"^{REFUSED}$"):
        g.norm().backward()


def _packed():
    torch.manual_seed(0)
    seqs = [torch.randn(5, 3), torch.randn(2, 3), torch.randn(4, 3)]
    return pack_sequence(seqs, enforce_sorted=False), pack_sequence(
        sorted(seqs, key=len, reverse=True))


# torch's LSTM does not check a packed input or its state: index_select, putting the state
# in the packed order, and the network's function refuse what is wrong, in their words.
@pytest.mark.parametrize(("state", "sorted_input", "error", "message"), [
    ((1, 2, 4), False, RuntimeError, "INDICES element is out of DATA bounds, id=2 axis_dim=2"),
    ((3, 4), False, IndexError,
     r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"),
    ((2, 3, 4), False, RuntimeError, "Expected more hidden states in stacked_rnn"),
    ((1, 3, 5), False, RuntimeError,
     r"mat1 and mat2 shapes cannot be multiplied \(3x5 and 4x16\)"),
    ((1, 2, 4), True, RuntimeError, "The size of tensor a \\(2\\) must match the size of "
     "tensor b \\(3\\) at non-singleton dimension 0"),
])
def test_lstm_on_packed_input_leaves_its_state_unchecked(state, sorted_input, error, message):
    unsorted, ordered = _packed()
    lstm = nn.LSTM(3, 4)
    with pytest.raises(error, match=f"^{message}$"):
        lstm(ordered if sorted_input else unsorted, (torch.zeros(state), torch.zeros(state)))


def test_lstm_narrows_a_wider_state_of_a_packed_input():
    unsorted, _ = _packed()
    out, (h, c) = nn.LSTM(3, 4)(unsorted, (torch.zeros(1, 4, 4), torch.zeros(1, 4, 4)))
    assert h.shape == c.shape == (1, 3, 4)
    with pytest.raises(IndexError, match="^index 1 is out of bounds for dimension 0 with "
                                         "size 1$"):
        nn.LSTM(3, 4)(unsorted, torch.zeros(1, 3, 4))  # a state that is not a pair


def test_lstm_on_packed_data_of_the_wrong_shape():
    lstm = nn.LSTM(2, 3).double()
    sizes = torch.tensor([2, 2, 2])
    with pytest.raises(RuntimeError, match=r"^mat1 and mat2 shapes cannot be multiplied "
                                           r"\(1x6 and 2x12\)$"):
        lstm(PackedSequence(torch.zeros(6, dtype=torch.double), sizes))
    with pytest.raises(RuntimeError, match=r"^mat1 and mat2 shapes cannot be multiplied "
                                           r"\(6x3 and 2x12\)$"):
        lstm(PackedSequence(torch.zeros(6, 3, dtype=torch.double), sizes))
    with pytest.raises(RuntimeError, match="^input must have 2 dimensions, got 1$"):
        nn.GRU(2, 3)(PackedSequence(torch.zeros(6), sizes))  # the GRU checks first


# A float32 packed input whose steps all hold one number of sequences runs as a padded one
# through oneDNN: its rows viewed as (steps, batch, features), the output viewed back.
def chain(t, depth):
    found, node = [], t.grad_fn
    while node is not None and len(found) < depth:
        found.append(type(node).__name__)
        node = next((n for n, _ in node.next_functions if n is not None), None)
    return found


@pytest.mark.parametrize("bidirectional", [False, True])
def test_packed_lstm_of_one_batch_size_runs_through_onednn(bidirectional):
    torch.manual_seed(0)
    lstm = nn.LSTM(3, 4, bidirectional=bidirectional, batch_first=True)
    data = torch.randn(6, 3, requires_grad=True)
    out, (h, c) = lstm(PackedSequence(data, torch.tensor([2, 2, 2])))
    layer = ["CatBackward0"] if bidirectional else []
    assert chain(out.data, 2 + bidirectional) == ["ViewBackward0", *layer,
                                                  "MkldnnRnnLayerBackward0"]
    assert out.data.grad_fn._saved_self_sym_sizes == (3, 2, 4 * (1 + bidirectional))
    node = h.grad_fn.next_functions[0][0]
    assert type(node).__name__ == "MkldnnRnnLayerBackward0"
    assert node._saved_batch_first is False and node._saved_batch_sizes == ()
    assert chain(h, 4) == ["StackBackward0", "MkldnnRnnLayerBackward0", "ViewBackward0",
                           "AccumulateGrad"]
    uneven, _ = lstm(PackedSequence(data, torch.tensor([3, 2, 1])))
    assert "MkldnnRnnLayerBackward0" not in chain(uneven.data, 6)
    double, _ = lstm.double()(PackedSequence(data.double(), torch.tensor([2, 2, 2])))
    assert "MkldnnRnnLayerBackward0" not in chain(double.data, 6)


@pytest.mark.parametrize(("shape", "sizes", "message"), [
    ((6,), [2, 2, 2], r"shape '\[3, 2, 6\]' is invalid for input of size 6"),
    ((5, 2), [2, 2, 2], r"shape '\[3, 2, 2\]' is invalid for input of size 10"),
    ((6, 3), [2, 2], r"shape '\[2, 2, 3\]' is invalid for input of size 18"),
])
def test_packed_lstm_of_one_batch_size_refuses_in_views_words(shape, sizes, message):
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        nn.LSTM(2, 3)(PackedSequence(torch.zeros(shape), torch.tensor(sizes)))


def test_packed_lstm_sizes_are_checked_before_the_path_is_chosen():
    with pytest.raises(RuntimeError, match="^expected scalar type Long but found Int$"):
        nn.LSTM(3, 4)(PackedSequence(torch.zeros(6, 3), torch.tensor([2, 2, 2]).int()))


def test_gru_hands_the_batch_size_to_zeros_as_a_tensor():
    sizes = torch.tensor([3.0, 2.0, 1.0])
    with pytest.raises(TypeError, match="^zeros\\(\\): argument 'size' failed to unpack the "
                                        "object at pos 2 with error \"type must be tuple of "
                                        "ints,but got Tensor\"$"):
        nn.GRU(2, 3)(PackedSequence(torch.zeros(6, 2), sizes))


def test_packed_sequence_made_by_hand_asks_for_its_sizes_device():
    with pytest.raises(AttributeError, match="^'list' object has no attribute 'device'$"):
        PackedSequence(torch.zeros(3, 2), [2, 1])
    made = PackedSequence(torch.zeros(3, 2), torch.tensor([2, 1]), torch.tensor([1, 0]))
    assert made.unsorted_indices.tolist() == [1, 0]


def test_pad_sequence_of_zero_dimensional_tensors():
    with pytest.raises(RuntimeError, match="^ArrayRef: invalid slice, N = 1; size = 0$"):
        pad_sequence([torch.tensor(1.0), torch.tensor(2.0)])
    with pytest.raises(IndexError, match="^Dimension specified as 0 but tensor has no "
                                         "dimensions$"):
        pad_sequence([torch.ones(2), torch.tensor(1.0)])
    with pytest.raises(RuntimeError, match="^Expected padding_side to be one of left or "
                                           "right, but got middle.$"):
        pad_sequence([torch.tensor(1.0)], padding_side="middle")


class _Exp(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)
        ctx.save_for_forward(output)

    @staticmethod
    def backward(ctx, g):
        return g * ctx.saved_tensors[0]

    @staticmethod
    def jvp(ctx, t):
        return t * ctx.saved_tensors[0]


class _ExpRuled(_Exp):
    generate_vmap_rule = True


_UNRULED = ("You tried to vmap over _Exp, but it does not have vmap support. Please override "
            "and implement the vmap staticmethod or set generate_vmap_rule=True. For more "
            "details, please see https://pytorch.org/docs/main/notes/extending.func.html")


def _transforms(cls):
    from torch.func import grad, hessian, jacfwd, jvp, vmap

    x, rows = numbers(3, seed=11), numbers(2, 3, seed=12)
    total = lambda t: cls.apply(t).sum()  # noqa: E731
    return {
        "vmap(grad)": lambda: vmap(grad(total))(rows),
        "grad(vmap)": lambda: grad(lambda t: vmap(cls.apply)(t).sum())(rows),
        "jacfwd": lambda: jacfwd(cls.apply)(x),
        "hessian": lambda: hessian(total)(x),
        "vmap(jvp)": lambda: vmap(lambda t: jvp(cls.apply, (t,), (torch.ones(3),))[1])(rows),
        "vmap(grad), unbatched": lambda: vmap(grad(lambda t: (cls.apply(x) * t).sum()))(rows),
    }


# A Function called under vmap needs a vmap rule (its own, or generated) whatever transform
# runs nearer to it: per-sample gradients, jacfwd and hessian refuse one without.
@pytest.mark.parametrize("how", list(_transforms(_Exp)))
def test_function_without_vmap_rule_is_refused_under_any_transform(how):
    with pytest.raises(RuntimeError, match=f"^{_UNRULED}$".replace(".", r"\.")):
        _transforms(_Exp)[how]()
    found = _transforms(_ExpRuled)[how]()
    assert torch.isfinite(found).all()
