"""The torch-namespace forms of functional operations: ATen's signatures over F's rows.

Each form must give what its F function gives (values, graph, gradient), read its arguments
in ATen's order, take no reduction where a call leaves it out, and check in ATen's words.
"""

import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import node_names

preorder = node_names


def leaf(*shape):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n, dtype=torch.float64).reshape(shape) * 0.37 % 1.0 + 0.1
            ).requires_grad_()


A, B = leaf(3, 4), leaf(3, 4)
X = leaf(2, 4, 3)
SIGNS = torch.tensor([1.0, -1.0, 1.0], dtype=torch.float64)
ROW_SIGNS = torch.tensor([[1.0, -1.0, 1.0, 1.0]] * 3, dtype=torch.float64)
INDICES = torch.tensor([[0, 2], [2, 1]])

def _quiet(run):
    """``run()``, F's own warning silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run()


PAIRS = {  # name: (the torch-namespace form, the F form it must equal)
    "dropout_eval": (lambda: torch.dropout(X, 0.5, False), lambda: F.dropout(X, 0.5, False)),
    "embedding": (lambda: torch.embedding(A, INDICES), lambda: F.embedding(INDICES, A)),
    "embedding_padding": (lambda: torch.embedding(A, INDICES, 2, True),
                          lambda: F.embedding(INDICES, A, 2, scale_grad_by_freq=True)),
    "layer_norm": (lambda: torch.layer_norm(X, (4, 3), leaf(4, 3), leaf(4, 3), 1e-3, False),
                   lambda: F.layer_norm(X, (4, 3), leaf(4, 3), leaf(4, 3), 1e-3)),
    "kl_div": (lambda: torch.kl_div(A, B), lambda: F.kl_div(A, B, reduction="none")),
    "kl_div_mean": (lambda: torch.kl_div(A, B, 1, log_target=True),
                    lambda: _quiet(lambda: F.kl_div(A, B, reduction="mean", log_target=True))),
    "poisson": (lambda: torch.poisson_nll_loss(A, B * 3, False, True, 1e-8, 2),
                lambda: F.poisson_nll_loss(A, B * 3, False, True, eps=1e-8, reduction="sum")),
    "margin_ranking": (lambda: torch.margin_ranking_loss(A, B, ROW_SIGNS, 0.2),
                       lambda: F.margin_ranking_loss(A, B, ROW_SIGNS, 0.2, reduction="none")),
    "hinge": (lambda: torch.hinge_embedding_loss(A, ROW_SIGNS, 0.5, 2),
              lambda: F.hinge_embedding_loss(A, ROW_SIGNS, 0.5, reduction="sum")),
    "cosine": (lambda: torch.cosine_embedding_loss(A, B, SIGNS, 0.1),
               lambda: F.cosine_embedding_loss(A, B, SIGNS, 0.1, reduction="none")),
    "triplet": (lambda: torch.triplet_margin_loss(A, B, A * 2, 0.5, 1.0, 1e-6, True, 1),
                lambda: F.triplet_margin_loss(A, B, A * 2, 0.5, 1.0, 1e-6, True)),
    "bce_logits": (lambda: torch.binary_cross_entropy_with_logits(A, B, B[0].detach(),
                                                                  A[0].detach()),
                   lambda: F.binary_cross_entropy_with_logits(A, B, B[0].detach(),
                                                              reduction="none",
                                                              pos_weight=A[0].detach())),
    "constant_pad": (lambda: torch.constant_pad_nd(X, (1, 2, -1, 0), 0.5),
                     lambda: F.pad(X, (1, 2, -1, 0), value=0.5)),
    "grid_2d": (lambda: torch.grid_sampler_2d(leaf(1, 2, 3, 4), leaf(1, 2, 2, 2) - 0.5, 0, 0,
                                              False),
                lambda: F.grid_sample(leaf(1, 2, 3, 4), leaf(1, 2, 2, 2) - 0.5,
                                      align_corners=False)),
    "grid_3d": (lambda: torch.grid_sampler_3d(leaf(1, 1, 2, 3, 2), leaf(1, 2, 1, 2, 3) - 0.5, 1,
                                              1, True),
                lambda: F.grid_sample(leaf(1, 1, 2, 3, 2), leaf(1, 2, 1, 2, 3) - 0.5, "nearest",
                                      "border", True)),
    "affine_grid": (lambda: torch.affine_grid_generator(leaf(2, 2, 3), (2, 1, 3, 4), False),
                    lambda: F.affine_grid(leaf(2, 2, 3), (2, 1, 3, 4), False)),
    "bilinear": (lambda: torch.bilinear(A, B, leaf(2, 4, 4), leaf(2)),
                 lambda: F.bilinear(A, B, leaf(2, 4, 4), leaf(2))),
}


@pytest.mark.parametrize("name", PAIRS)
def test_a_namespace_form_is_its_functional_form(name):
    ours, theirs = (f() for f in PAIRS[name])
    assert preorder(ours.grad_fn) == preorder(theirs.grad_fn)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    assert torch.allclose(ours, theirs, rtol=0, atol=1e-12)
    leaves = [t for t in (A, B, X) if t.requires_grad]
    g = torch.autograd.grad((ours * ours).sum(), leaves, allow_unused=True)
    h = torch.autograd.grad((theirs * theirs).sum(), leaves, allow_unused=True)
    for a, b in zip(g, h):
        assert (a is None) == (b is None) and (a is None or torch.allclose(a, b, atol=1e-12))


@pytest.mark.parametrize("form, channels", [
    (torch.dropout, False), (torch.feature_dropout, True), (torch.alpha_dropout, False),
    (torch.feature_alpha_dropout, True)])
def test_dropouts_draw_as_their_functional_forms(form, channels):
    torch.manual_seed(0)
    ours = form(X, 0.3, True)
    alpha = form in (torch.alpha_dropout, torch.feature_alpha_dropout)
    torch.manual_seed(0)
    f = (F.feature_alpha_dropout if channels else F.alpha_dropout) if alpha else (
        F.dropout1d if channels else F.dropout)
    theirs = f(X, 0.3, True)
    assert torch.equal(ours, theirs) and preorder(ours.grad_fn) == preorder(theirs.grad_fn)
    assert ours._version == theirs._version


def test_in_place_dropouts_write_into_their_input():
    for form in (torch.dropout_, torch.alpha_dropout_, torch.feature_dropout_,
                 torch.feature_alpha_dropout_):
        t = X.detach().clone()
        assert form(t, 0.3, True) is t and t._version > 0
    assert torch.dropout(X, 0.5, False) is X
    assert torch.feature_dropout(X[0, 0], 0.5, False) is not None  # checked only when drawing


def test_old_norms_record_atens_norm():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frobenius = torch.frobenius_norm(X, (1, 2))
        assert preorder(frobenius.grad_fn)[0] == "NormBackward1"
        assert frobenius.grad_fn._saved_dim == (1, 2) and frobenius.grad_fn._saved_p == 2
        assert "LinalgSvdBackward0" in preorder(torch.nuclear_norm(X, True).grad_fn)
        assert torch.allclose(torch.nuclear_norm(A), torch.linalg.matrix_norm(A, "nuc"))
        product = torch.chain_matmul(A, B.t(), A)
        assert torch.allclose(product, A @ B.t() @ A)
        assert preorder(product.grad_fn) == preorder(torch.linalg.multi_dot([A, B.t(), A]).grad_fn)
        assert torch.chain_matmul(A).grad_fn.name() == "CloneBackward0"
    assert preorder(torch.norm_except_dim(X, 2, 0).grad_fn) == [
        "ViewBackward0", "NormBackward1", "ViewBackward0", "torch::autograd::AccumulateGrad"]
    assert preorder(torch.norm_except_dim(X, 3, 1).grad_fn) == [
        "TransposeBackward0", "ViewBackward0", "NormBackward1", "ViewBackward0",
        "CloneBackward0", "TransposeBackward0", "torch::autograd::AccumulateGrad"]
    whole = torch.norm_except_dim(X, 2, -1)
    assert whole.grad_fn.name() == "NormBackward0" and whole.grad_fn._saved_p == 2
    assert torch.allclose(whole, X.norm())
    assert torch.norm_except_dim(X, 2, 2).shape == (1, 1, 3)


def test_native_channel_shuffle_has_no_derivative():
    y = torch.native_channel_shuffle(X, 2)
    assert torch.equal(y, torch.channel_shuffle(X, 2)) and y.stride() == (12, 3, 1)
    assert y.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="^derivative for aten::native_channel_shuffle is not "
                       "implemented$"):
        y.sum().backward()


@pytest.mark.parametrize("call, error, message", [
    (lambda: torch.dropout(X, 1.5, True), RuntimeError, "dropout probability has to be between "
     "0 and 1, but got 1.5"),
    (lambda: torch.feature_dropout(X[0, 0], 0.5, True), RuntimeError, "Feature dropout requires "
     "at least 2 dimensions in the input"),
    (lambda: torch.constant_pad_nd(X, (1,)), RuntimeError, "Length of pad must be even but "
     "instead it equals 1"),
    (lambda: torch.constant_pad_nd(X, (1, 1) * 4), RuntimeError, "Length of pad should be no "
     "more than twice the number of dimensions of the input. Pad length is 8while the input "
     "has 3dimensions."),
    (lambda: torch.grid_sampler_2d(leaf(1, 1, 2, 2, 2), leaf(1, 2, 2, 2, 3), 0, 0, False),
     RuntimeError, "grid_sampler\\(\\): expected 4D input and grid with same number of "
     "dimensions, but got input with sizes \\[1, 1, 2, 2, 2\\] and grid with sizes "
     "\\[1, 2, 2, 2, 3\\]"),
    (lambda: torch.affine_grid_generator(leaf(2, 2, 3), (2, 1, 4), False), RuntimeError,
     "AffineGridGenerator needs 4d \\(spatial\\) or 5d \\(volumetric\\) inputs."),
    (lambda: torch.native_channel_shuffle(X, 3), RuntimeError, "Number of channels must be "
     "divisible by groups. Got 4 channels and 3 groups."),
    (lambda: torch.norm_except_dim(X, 2.0, 0), TypeError, "norm_except_dim\\(\\): argument "
     "'pow' \\(position 2\\) must be int, not float"),
])
def test_refusals_in_atens_words(call, error, message):
    with pytest.raises(error, match=f"^{message}$"):
        call()


def test_deprecated_forms_refuse_what_aten_refuses():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="^Tensor dimension is 1, expected 2 instead.$"):
            torch.chain_matmul(A[0])
        with pytest.raises(RuntimeError, match="^Expected at most 2 dimensions, but got 3 "
                           "dimensions instead.$"):
            torch.frobenius_norm(X, (0, 1, 2))
