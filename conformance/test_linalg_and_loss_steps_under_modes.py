"""Black-box tests: the steps a dispatch mode sees of composite gradients of linear algebra,
normalizations and losses (group_norm's one kernel, cdist's contiguous gradient, the logits'
gradient out of place, matrix_exp's block matrix by cat, pinv's terms last first, cov's
counts as tensors, aminmax's share over everything; with a graph, cumprod's ones and stack
and det's decomposition), the exact calls in torch's order, as
conformance/_linalg_loss_steps_expected.py lists them. The same assertions run on torch.
"""

import warnings

import pytest
import torch

from conformance._linalg_loss_steps_expected import CREATED, STEPS
from conformance._support import calling_mode, other_operand, transposed_leaf

F = torch.nn.functional
F64 = torch.float64
Calls = calling_mode()
SEED = ["sum.default", "ones_like.default", "expand.default"]

CASES = {
    "group_norm": lambda x: F.group_norm(x[None], 1),
    "bce": lambda x: F.binary_cross_entropy(x * 0.5 + 0.1, other_operand(x) * 0.1),
    "bce_logits": lambda x: F.binary_cross_entropy_with_logits(x, other_operand(x) * 0.1),
    "bce_logits_pos_weight": lambda x: F.binary_cross_entropy_with_logits(
        x, (other_operand(x) * 0.1).requires_grad_(),
        pos_weight=torch.tensor([1.5, 2.0, 0.5], dtype=F64)),
    "cdist": lambda x: torch.cdist(x, other_operand(x)),
    "cdist_both": lambda x: torch.cdist(
        x, other_operand(x).t().contiguous().t().requires_grad_()),
    "tensordot": lambda x: torch.tensordot(x, x, ([1], [1])),
    "ndtri": lambda x: torch.special.ndtri(x * 0.5 + 0.1),
    "log_ndtr": torch.special.log_ndtr,
    "i0e": torch.special.i0e,
    "trapezoid": torch.trapezoid,
    "matrix_exp": lambda x: torch.linalg.matrix_exp(x[:, :2]),
    "pinv": torch.linalg.pinv,
    "pinv_tall": lambda x: torch.linalg.pinv(x.t()),
    "pinv_hermitian": lambda x: torch.linalg.pinv(x @ x.t(), hermitian=True),
    "lstsq": lambda x: torch.linalg.lstsq(x.t(), other_operand(x).t()).solution,
    "cov": torch.cov,
    "cov_weighted": lambda x: torch.cov(x, fweights=torch.tensor([1, 2, 1]),
                                        aweights=torch.tensor([0.5, 1.0, 2.0], dtype=F64)),
    "corrcoef": torch.corrcoef,
    "aminmax": lambda x: x.aminmax()[0],
    "aminmax_dim": lambda x: x.aminmax(dim=1).max,
    "trapezoid_x": lambda x: torch.trapezoid(x, torch.tensor([0.0, 1.0, 3.0], dtype=F64)),
    "cumulative_trapezoid_x": lambda x: torch.cumulative_trapezoid(
        x, torch.tensor([0.0, 1.0, 3.0], dtype=F64)),
    "aminmax_keepdim": lambda x: x.aminmax(dim=0, keepdim=True).min,
    "pinv_atol": lambda x: torch.linalg.pinv(x, atol=0.1),
    "cumprod": lambda x: x.cumprod(1),
    "det": lambda x: torch.linalg.det(x[:, :2] + torch.eye(2, dtype=F64)),
}
WHOLE = ("cov", "cov_weighted", "pinv_hermitian", "trapezoid_x", "cumulative_trapezoid_x",
         "pinv_atol")  # their forward's steps are listed too


def _shown(seen):
    return [f"{name[5:]}{args}" + (f" {kwargs}" if kwargs else "")
            for name, args, kwargs in seen]


@pytest.mark.parametrize("name", sorted(STEPS))
def test_a_backward_shows_torchs_calls_in_torchs_order(name):
    x = transposed_leaf()
    with Calls() as mode:
        y = CASES[name](x)
        start = len(mode.seen)
        y.sum().backward()
    assert [s[0][5:] for s in mode.seen[start:start + 3]] == SEED
    assert _shown(mode.seen[0 if name in WHOLE else start + 3:]) == list(STEPS[name])
    alone = transposed_leaf()
    CASES[name](alone).sum().backward()  # the same gradient, with no mode
    assert torch.equal(x.grad, alone.grad) or torch.allclose(x.grad, alone.grad)


@pytest.mark.parametrize("name", sorted(CREATED))
def test_a_gradient_with_a_graph_shows_torchs_calls(name):
    x = transposed_leaf()
    with Calls() as mode:
        y = CASES[name](x)
        start = len(mode.seen)
        (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert _shown(mode.seen[start + 3:]) == list(CREATED[name])
    assert g.requires_grad


def _contiguous_leaf():
    return (torch.arange(6, dtype=F64).reshape(2, 3) * 0.17 + 0.4).requires_grad_()


@pytest.mark.parametrize("leaf, versions", [(_contiguous_leaf, [1, 3]),
                                            (transposed_leaf, [1, 3])])
def test_the_logits_gradient_under_a_mode_is_written_once(leaf, versions):
    # out of place but for the mean's division: version 1 under a mode, 3 without one
    seen = []
    for mode in (Calls(), None):
        x = leaf()
        loss = F.binary_cross_entropy_with_logits(x, other_operand(x) * 0.1)
        if mode is None:
            loss.backward()
        else:
            with mode:
                loss.backward()
        seen.append(x.grad._version)
    assert seen == versions


def test_cov_refuses_weights_that_sum_to_zero_with_or_without_a_mode():
    x = torch.tensor([[1.0, 2.0, 3.0]])
    for weights in ({"fweights": torch.tensor([0, 0, 0])},
                    {"aweights": torch.tensor([0.0, 0.0, 0.0])}):
        for mode in (Calls(), None):
            with pytest.raises(RuntimeError, match=r"^cov\(\): weights sum to zero, can't be "
                                                   r"normalized$"):
                if mode is None:
                    torch.cov(x, **weights)
                else:
                    with mode:
                        torch.cov(x, **weights)


def test_cov_without_degrees_of_freedom_zeroes_its_count_in_place_under_a_mode():
    x = torch.tensor([[1.0], [2.0]], dtype=F64)
    with Calls() as mode, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = torch.cov(x)
    assert _shown(mode.seen)[:8] == [
        "scalar_tensor.default(1,) {'dtype': torch.int64, 'layout': torch.strided, "
        "'device': device(type='cpu')}",
        "sum.dim_IntList('T', [1])", "div.Tensor('T', 'T')",
        "scalar_tensor.default(0,) {'dtype': torch.int64, 'layout': torch.strided, "
        "'device': device(type='cpu')}",
        "le.Scalar('T', 0)",
        "new_ones.default('T', []) {'dtype': torch.bool, 'layout': torch.strided, "
        "'device': device(type='cpu')}",
        "equal.default('T', 'T')", "zero_.default('T',)"]
    assert out.isnan().all()


@pytest.mark.parametrize("reduction, weighted, version", [
    ("mean", False, 3), ("mean", True, 4), ("sum", False, 2), ("sum", True, 3)])
def test_binary_cross_entropy_writes_the_targets_gradient_in_place(reduction, weighted,
                                                                   version):
    # -logit(p) negated in place, times the gradient and the weight in place, a mean divided
    x = (torch.arange(6, dtype=F64).reshape(2, 3) * 0.13 + 0.1).requires_grad_()
    t = (torch.arange(6, dtype=F64).reshape(2, 3) * 0.11 + 0.2).requires_grad_()
    weight = torch.tensor([0.5, 1.5, 2.0], dtype=F64) if weighted else None
    F.binary_cross_entropy(x, t, weight=weight, reduction=reduction).backward()
    assert t.grad._version == version
    expected = -torch.logit(x.detach()) * (1 if weight is None else weight)
    assert torch.allclose(t.grad, expected / (6 if reduction == "mean" else 1))
    (gt,) = torch.autograd.grad(F.binary_cross_entropy(x, t, weight=weight,
                                                       reduction=reduction), t,
                                create_graph=True)
    assert gt._version == version and gt.grad_fn.name() == (
        "DivBackward1" if reduction == "mean" else "MulBackward0")


@pytest.mark.parametrize("driver, shapes", [
    (None, [[2, 3, 2], [0], [2], [0]]), ("gelsd", [[2, 3, 2], [2, 2], [2], [2, 3]]),
    ("gels", [[2, 3, 2], [2, 2], [0], [0]])])
def test_lstsq_hands_a_mode_its_four_results(driver, shapes):
    from torch.utils._python_dispatch import TorchDispatchMode

    class Results(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            if "lstsq" in str(func):
                self.shapes = [list(t.shape) for t in out]
            return out

    a = (torch.arange(24, dtype=F64).reshape(2, 4, 3) * 0.37 % 1.3 + 0.2).requires_grad_()
    b = torch.arange(16, dtype=F64).reshape(2, 4, 2) * 0.29 % 0.9
    with Results() as mode:
        result = torch.linalg.lstsq(a, b, driver=driver)
    assert mode.shapes == shapes == [list(t.shape) for t in result]
    assert result.rank.grad_fn is None and result.solution.grad_fn.name() == (
        "LinalgLstsqBackward0")
