"""Black-box tests: the ops that gradient formulas call (slice_backward, select_backward,
elu_backward and the rest), and some forward ops, hand a dispatch mode their arguments by
position, as torch's schema binds them. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import calling_mode
from conformance._support import other_operand as _other
from conformance._support import transposed_leaf as _leaf

F = torch.nn.functional
F64 = torch.float64

Calls = calling_mode()


CASES = [
    (lambda x: x[:, :2].sum(), ("aten.slice_backward.default", ("T", [2, 3], 1, 0, 2, 1), {})),
    (lambda x: x[0].sum(), ("aten.select_backward.default", ("T", [2, 3], 0, 0), {})),
    (lambda x: x.diagonal().sum(),
     ("aten.diagonal_backward.default", ("T", [2, 3], 0, 0, 1), {})),
    (lambda x: x.unfold(1, 2, 1).sum(), ("aten.unfold_backward.default",
                                         ("T", [2, 3], 1, 2, 1), {})),
    (lambda x: torch.polygamma(2, x).sum(), ("aten.polygamma.default", (3, "T"), {})),
    (lambda x: x.logcumsumexp(1).sum(), ("aten.logcumsumexp.default", ("T", 1), {})),
    (lambda x: x.cummax(1)[0].sum(), ("aten.cummax.default", ("T", 1), {})),
    (lambda x: (2 ** x).sum(), ("aten.pow.Scalar", (2, "T"), {})),
    (lambda x: torch.lerp(x, _other(x), 0.3).sum(), ("aten.lerp.Scalar", ("T", "T", 0.3), {})),
    (lambda x: torch.dist(x, _other(x), 3), ("aten.dist.default", ("T", "T", 3), {})),
    (lambda x: torch.baddbmm(x[None, :, :2], x[None], x.t()[None]).sum(),
     ("aten.baddbmm.default", ("T", "T", "T"), {})),
    (lambda x: F.elu(x).sum(), ("aten.elu.default", ("T", 1.0), {})),
    (lambda x: F.selu(x).sum(),
     ("aten.elu_backward.default", ("T", 1.6732632423543772, 1.0507009873554805, 1, False,
                                    "T"), {})),
    (lambda x: F.celu(x).sum(), ("aten.celu.default", ("T",), {})),
    (lambda x: F.softplus(x).sum(), ("aten.softplus_backward.default", ("T", "T", 1, 20), {})),
    (lambda x: F.logsigmoid(x).sum(),
     ("aten.log_sigmoid_backward.default", ("T", "T", "T"), {})),
    (lambda x: F.mse_loss(x, _other(x)),
     ("aten.mse_loss_backward.default", ("T", "T", "T", 1), {})),
    (lambda x: F.smooth_l1_loss(x, _other(x)), ("aten.smooth_l1_loss.default", ("T", "T"), {})),
    (lambda x: F.huber_loss(x, _other(x)), ("aten.huber_loss.default", ("T", "T"), {})),
    (lambda x: F.soft_margin_loss(x, torch.ones(2, 3, dtype=F64)),
     ("aten.soft_margin_loss_backward.default", ("T", "T", "T", 1), {})),
    (lambda x: F.binary_cross_entropy(x * 0.5 + 0.1, _other(x) * 0.1),
     ("aten.binary_cross_entropy_backward.default", ("T", "T", "T", None), {})),
    (lambda x: x.scatter(1, torch.tensor([[0, 1], [1, 0]]), x[:, :2]).sum(),
     ("aten.scatter.src", ("T", 1, "T", "T"), {})),
    (lambda x: x.renorm(1, 0, 0.5).sum(), ("aten.renorm.default", ("T", 1, 0, 0.5), {})),
    (lambda x: x.take(torch.tensor([0, 2])).sum(), ("aten.take.default", ("T", "T"), {})),
    (lambda x: x.clamp_min(0.5).sum(), ("aten.clamp_min.default", ("T", 0.5), {})),
    (lambda x: torch.linalg.cross(x, _other(x)).sum(),
     ("aten.linalg_cross.default", ("T", "T"), {})),
    (lambda x: F.glu(x, 0).sum(), ("aten.glu_backward.default", ("T", "T", 0), {})),
    (lambda x: F.gelu(x, approximate="tanh").sum(),
     ("aten.gelu_backward.default", ("T", "T"), {"approximate": "tanh"})),
    (lambda x: F.leaky_relu(x).sum(),
     ("aten.leaky_relu_backward.default", ("T", "T", 0.01, False), {})),
    (lambda x: torch.cdist(x, _other(x)).sum(),
     ("aten._cdist_forward.default", ("T", "T", 2.0, None), {})),
    (lambda x: F.cross_entropy(x, torch.tensor([0, 2])),
     ("aten.nll_loss_backward.default", ("T", "T", "T", None, 1, -100, "T"), {})),
    (lambda x: F.group_norm(x[None], 1).sum(),
     ("aten.native_group_norm.default", ("T", None, None, 1, 2, 3, 1, 1e-05), {})),
    (lambda x: F.glu(x, 0).sum(), ("aten.glu.default", ("T", 0), {})),
    (lambda x: x.nansum(), ("aten.nansum.default", ("T",), {})),
    (lambda x: x.nansum(1, dtype=torch.float32).sum(),
     ("aten.nansum.default", ("T", [1]), {"dtype": torch.float32})),
    (lambda x: torch.var_mean(x, 1)[0].sum(),
     ("aten.var_mean.correction", ("T", [1]), {"correction": 1})),
]


@pytest.mark.parametrize("call, entry", CASES)
def test_a_formulas_step_goes_by_position(call, entry):
    x = _leaf()
    with Calls() as mode:
        call(x).backward()
    assert entry in mode.seen
