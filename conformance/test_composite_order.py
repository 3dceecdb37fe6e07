"""Composite losses and similarities made in torch's order, as hooks and the engine see it.

torch's compiled compositions make their pieces in an order of their own: both norms of
``cosine_similarity`` before either division, the right operand of ``kl_div``'s and
``poisson_nll_loss``'s differences first. The nodes are the same in any order, but the
order decides the sequence a saved-tensor hook is handed tensors in, and which of an
input's gradients the engine adds first under ``create_graph=True``, which shows in the
graph of that gradient.
"""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import preorder_names

CASES = {
    "cosine_similarity": lambda x, y: F.cosine_similarity(x, y),
    "kl_div": lambda x, y: F.kl_div(x, y, reduction="batchmean"),
    "kl_div_log_target": lambda x, y: F.kl_div(x, y, reduction="sum", log_target=True),
    "poisson_nll_loss": lambda x, y: F.poisson_nll_loss(x, y * 4),
    "poisson_nll_loss_full": lambda x, y: F.poisson_nll_loss(x, y * 8, full=True),
}
A, B = (2, 3), (2, 1)
# name: (the shapes packed, forward and first gradients, and each gradient's graph)
EXPECTED = {
    "cosine_similarity": (
        [A, B, A, B, B, A, B, A, A, A, A, A, B, A, B, A, A, A, B, A, B, A, B, A, A, A, B, A, B, A,
         B, A, B, B, A, B, A, B],
        [
            "AddBackward0 .DivBackward0 ..MulBackward0 ...None ...DivBackward0 ..CloneBackward0 "
            "...LinalgVectorNormBackward0 .MulBackward0 ..SumBackward1 ...MulBackward0 "
            "..MaskedFillBackward0 ...DivBackward0",
            "AddBackward0 .DivBackward0 ..MulBackward0 ...None ...DivBackward0 ..CloneBackward0 "
            "...LinalgVectorNormBackward0 .MulBackward0 ..SumBackward1 ...MulBackward0 "
            "..MaskedFillBackward0 ...DivBackward0",
        ]),
    "kl_div": (
        [A, A, A, A, A, A, A, A, A, A, A, A],
        [
            "MulBackward0 .None .AccumulateGrad",
            "AddBackward0 .AddBackward0 ..MaskedFillBackward0 ...XlogyBackward0 ..DivBackward0 "
            "...MulBackward0 ...AccumulateGrad .MulBackward0 ..None ..AccumulateGrad",
        ]),
    "kl_div_log_target": (
        [A, A, A, A, A, A, A],
        [
            "NegBackward0 .MulBackward0 ..None ..ExpBackward0 ...AccumulateGrad",
            "AddBackward0 .MulBackward0 ..MulBackward0 ...None ...SubBackward0 ..ExpBackward0 "
            "...AccumulateGrad .MulBackward0 ..None ..ExpBackward0 ...AccumulateGrad",
        ]),
    "poisson_nll_loss": (
        [A, A, A, A, A, A],
        [
            "AddBackward0 .MulBackward0 ..None ..ExpBackward0 ...AccumulateGrad .MulBackward0 "
            "..None ..MulBackward0 ...AccumulateGrad ...None",
            "MulBackward0 .MulBackward0 ..None ..AccumulateGrad .None",
        ]),
    "poisson_nll_loss_full": (
        [A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A],
        [
            "AddBackward0 .MulBackward0 ..None ..ExpBackward0 ...AccumulateGrad .MulBackward0 "
            "..None ..MulBackward0 ...AccumulateGrad ...None",
            "MulBackward0 .AddBackward0 ..AddBackward0 ...AddBackward0 ...MulBackward1 "
            "..MulBackward0 ...None ...AccumulateGrad .None",
        ]),
}


@pytest.mark.parametrize("name", CASES)
def test_pieces_are_made_in_torchs_order(name):
    x = torch.tensor([[-1.0, 0.5, 2.0], [0.25, -0.75, 1.5]], dtype=torch.float64,
                     requires_grad=True)
    y = torch.tensor([[0.25, 0.5, 0.125], [0.5, 0.25, 0.75]], dtype=torch.float64,
                     requires_grad=True)
    packed = []

    def pack(t):
        packed.append(tuple(t.shape))
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = CASES[name](x, y)
        grads = torch.autograd.grad(out.sum(), (x, y), create_graph=True)
    shapes, graphs = EXPECTED[name]
    assert packed == shapes
    assert [preorder_names(g.grad_fn, 3) for g in grads] == graphs
