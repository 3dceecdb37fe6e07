"""The events torch 2.13 records inside an op: the ops its kernels call, with their input
shapes. Each program's whole profile is compared, every event at its depth, so these
programs are ones whose outline refgrad already shares (test_profiler.py)."""

import pytest
import torch
from torch.autograd.profiler import profile
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._profiler_kernel_events_expected import TREES
from conformance._support import event_tree as tree

F = torch.nn.functional


def _x():
    return torch.ones(2, 3, requires_grad=True)


def numbers_wrapped():
    f, d = torch.ones(2, 3), torch.ones(2, 3, dtype=torch.float64)
    f * 2, f + 2.0, d * 2.0, d - 2, f.add(2, alpha=3), 2 - f, f / 2, f > 1, f != 1.0, f % 2
    f * True, f.clone().mul_(2.0)


def reductions():
    f = torch.ones(2, 3)
    f.sum(), f.sum(1), f.sum(-1, keepdim=True), f.sum((0, 1)), f.amax(1), f.amin(0)
    f.amax(1, keepdim=True), f.mean(), f.mean(1), f.mean(1, keepdim=True), f.max(), f.min()
    f.prod(), f.prod(1), torch.full((), 2.0).sum()
    torch.ones(2, 3, dtype=torch.bool).sum()
    f.norm(), f.norm(dim=1), f.norm(dim=1, keepdim=True), torch.linalg.vector_norm(f, 1)
    g = torch.ones(2, 3, 4)
    F.layer_norm(f, (3,)), F.layer_norm(g, (4,)), F.layer_norm(g, (3, 4))


def factories():
    f = torch.ones(2, 3)
    torch.zeros(2, 3), torch.full((2,), 1.5), torch.rand(2), torch.randn(2, 3)
    torch.zeros_like(f), torch.ones_like(f.t()), torch.full_like(f, 2.0), torch.empty_like(f)
    torch.rand_like(f), torch.randn_like(f), f.new_zeros(2), f.new_ones(2), f.new_full((2,), 1)
    torch.zeros(2, dtype=torch.int64)


def views_and_copies():
    f = torch.ones(2, 3)
    f[0].expand(2, 3), f[:, 1:], f.t(), f.transpose(0, 1), f.unsqueeze(0).squeeze(0)
    f.permute(1, 0), f.diagonal(), f.view(6), f.detach(), f.clone(), f.t().clone()
    f[:, ::2].clone(), f.clone(memory_format=torch.contiguous_format), f.t().contiguous()
    f.double(), f.to(torch.float16), f.relu(), f ** 2, f ** 1, f ** 0, f.clamp(0, 1)
    f.masked_fill(f > 2, 0.0), torch.where(f > 0, f, f)


def products():
    f, e = torch.ones(2, 3), torch.ones(1, 2).expand(2, 2)
    f @ f.t(), f.t() @ f, f @ torch.ones(3, 2), e @ f, f.t() @ e, e @ e
    b = torch.ones(1, 3, 2)
    torch.bmm(b.transpose(1, 2), b), torch.bmm(e.unsqueeze(0), e.unsqueeze(0))
    f.abs(), torch.ones(3).long().abs()


def gradients():
    x = _x()
    (x * x).sum().backward()
    x.exp().mean().backward()
    (x @ x.t()).sum().backward()
    (x / 3).relu().sum().backward()
    (x ** 2).sum().backward()
    x.softmax(1).sum().backward()
    (x.log_softmax(0) * torch.ones(2, 3)).sum().backward()
    x.amax(1).sum().backward()
    F.linear(x, torch.ones(4, 3)).sum().backward()


def composites_under_inference_mode():
    a, w, v, t = torch.ones(2, 3), torch.ones(4, 3), torch.ones(3), torch.zeros(2).long()
    with torch.inference_mode():
        F.linear(a, w), F.linear(a, w, torch.ones(4)), v @ v, a @ v, a @ w.t()
        a.softmax(1), F.log_softmax(a, 1), F.cross_entropy(a, t), a.t().reshape(6)
        a.flatten(), a.t().contiguous(), a.to(torch.float64), a.square()
        F.dropout(a, 0.5, training=False)


def composites_with_grad():
    a, w = torch.ones(2, 3, requires_grad=True), torch.ones(4, 3, requires_grad=True)
    F.linear(a, w, torch.ones(4)).sum().backward()
    (a[0] @ a[1]).backward()
    a[:, 1:].sum().backward()


class _Seen(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def a_users_mode_under_inference_mode():
    a, w = torch.ones(2, 3), torch.ones(4, 3)
    with torch.inference_mode(), _Seen():
        F.linear(a, w), a.t().reshape(6), a.neg().sum()


def more_kernels():
    f, i, j = torch.ones(2, 3), torch.zeros(2).long(), torch.ones(2, 2).long()
    torch.arange(5), torch.arange(1, 5), torch.arange(0.0, 3, 2), torch.eye(3), torch.eye(2, 3)
    f.max(1), f.min(0), f.max(1, keepdim=True), torch.ones(3).min(0)
    torch.var_mean(f), torch.var_mean(f, 1), torch.std_mean(f, 1, keepdim=True)
    F.mse_loss(f, f, reduction="sum"), F.mse_loss(f, f, reduction="none")
    f.split(1), f.split([1, 2], 1), f.chunk(2), f.unbind(0), f.narrow(1, 1, 2)
    f[i], f[j], f[:, i], f[i, i], f[i, :, None]
    f.sum().item(), bool(f.sum()), float(f.sum()), int(f.sum()), f.bool().logical_and_(f > 0)
    v = torch.ones(3)
    torch.outer(v, v), torch.ger(v, v)
    torch.where(f > 0, f, 0.0), torch.where(f > 0, 0.0, f), torch.where(f > 0, 1, 0.0)
    torch.where(f > 0, v.long(), 0.5)
    n, m = v.long(), v.int()
    n * 2, m * 2, n > 2.5, m > 2, n.bool() * 2, n + 2.5, n % 2.5, n[0] > 2.5


def more_gradients():
    x = _x()
    F.layer_norm(x, (3,)).sum().backward()
    F.layer_norm(x * 1, (3,)).backward(torch.ones(2, 3))
    torch.cat([x, x]).sum().backward()
    x.narrow(1, 1, 2).sum().backward()
    x.clamp(torch.zeros(3), torch.ones(3)).sum().backward()
    low, high = torch.zeros(3, requires_grad=True), torch.ones(3, requires_grad=True)
    x.clamp(low, high).sum().backward()
    (x @ torch.ones(3)).sum().backward()
    torch.where(x > 0, x, 0.0).sum().backward()
    i, j = torch.zeros(2).long(), torch.ones(2, 2).long()
    x[i].sum().backward()
    x[:, j].sum().backward()


def in_place_kernels():
    f, a = torch.ones(2, 3), torch.ones(2, 3, dtype=torch.int64)
    b = torch.ones(3, dtype=torch.bool)
    f.clone().relu_(), a.clone().relu_(), a.relu(), a.clamp_min(0), f.clone().abs_()
    b.clone().logical_not_(), f.clone().nan_to_num_(), f.clone().t_(), f[0].clone().t_()
    f.clone().unsqueeze_(0), f.clone().transpose_(0, 1), f.unsqueeze(0).squeeze_(0)
    f.clone().remainder_(2), f.clone().fmod_(2.5), a.clone().floor_divide_(2)
    f.clone().eq_(1), a.clone().eq_(1.5), b.clone().eq_(1), a.clone().lt_(2), f.clone().ne_(f)
    f.clone().clamp_(0, 1), f.clone().pow_(2), f.clone().pow_(1), f.clone().pow_(0)
    a.clone().bitwise_left_shift_(1), a.clone().bitwise_right_shift_(True)
    torch.equal(f, f), f.is_same_size(f), torch.isclose(f, f), f.isfinite()
    c = b.clone()
    c &= b
    c |= b
    c ^= b


def truths_reduced():
    b, f = torch.ones(2, 2, dtype=torch.bool), torch.ones(2, 2)
    e, u = torch.zeros(0, 2, dtype=torch.bool), torch.ones(2, 2, dtype=torch.uint8)
    b.all(), b.all(0), b.all(0, keepdim=True), b.any(), b.any(1), f.all(), f.any(0), e.all()
    b.all((0, 1)), b[0].all(), b.t().all(), u.all(), u.any(0), e.all(0), b[0, 0].any()
    f[0, 0].all(0), torch.zeros(0, 3).all(), torch.zeros_like(e), f.new_zeros(0)
    torch.allclose(f, f), torch.allclose(f, f + 1, atol=0.5), f.allclose(f, equal_nan=True)


def made_from_data():
    x = torch.ones(2)
    torch.tensor([0]), torch.tensor(2.5), torch.tensor([[1.0, 2.0]], dtype=torch.float64)
    torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor(True), torch.as_tensor([1, 2])
    x.new_tensor([1, 2]), torch.tensor([1, 2], dtype=torch.float32)


def aliases():
    f = torch.ones(2, 2)
    torch.negative(f), f.negative(), torch.true_divide(f, 2), f.clip(0, 1), torch.fix(f)
    f.clone().negative_(), f.clone().true_divide_(2), f.clone().swapdims_(0, 1)
    torch.special.expit(f), torch.special.psi(f), torch.concat([f, f]), torch.greater(f, 1)
    f.clone().arctan2_(f), torch.special.softmax(f, 0), torch.special.round(f)
    torch.multiply(f, other=f), torch.clip(f, min=0.5)


def transposes_in_place_of_none():
    v, m = torch.ones(2), torch.ones(2, 3)
    v.t(), torch.ones(()).t(), m.transpose(0, 0), m.transpose(1, -1), v.transpose(0, -1)
    m.t(), m.mT, m.swapaxes(0, 0), m.transpose(0, 1)


def numbers_on_either_side():
    f, d = torch.tensor([2.0, 3.0]), torch.tensor([2.0, 3.0], dtype=torch.float64)
    torch.xlogy(f, 2.0), torch.xlogy(2, f), torch.special.xlogy(f, 2.0)
    torch.special.xlogy(2.0, f), torch.special.xlog1py(f, 2), torch.special.xlog1py(True, f)
    torch.special.zeta(f, 2.0), torch.special.zeta(2, d), torch.special.zeta(d, 2.0)
    torch.xlogy(d, 3.0), torch.special.zeta(2.0, d)


def few_tests_for_isin():
    x, t = torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4])
    torch.isin(x, t), torch.isin(x, 2), torch.isin(x, 2, invert=True), torch.isin(2, t)
    torch.isin(x.float(), t), torch.isin(2.5, t), torch.isin(x, t.reshape(2, 1), invert=True)
    torch.isin(x, torch.arange(11)), torch.isin(1.5, torch.arange(9.0))


def scatters_fills_and_sorters():
    m, i0, i01 = torch.tensor([[2.0, 1.0], [1.0, 3.0]]), torch.tensor([0]), torch.tensor([[0, 1]])
    s, src = torch.tensor([1.0, 3.0, 5.0]), torch.ones(2, 2)
    m.index_fill_(0, i0, 1.0), m.index_fill_(1, i0, torch.tensor(2.0)), m.index_fill(0, i0, 1.0)
    m.t().index_fill(1, i0, 1.0), torch.ones(2, 3, 4).index_fill_(1, i0, 2.0)
    m.scatter_(0, i01, 1.0), m.scatter_(0, i01, src), m.scatter(0, i01, 1.0)
    m.scatter_add_(0, i01, src), m.scatter_add(0, i01, src)
    sorter = torch.tensor([0, 1, 2])
    torch.searchsorted(s, torch.tensor([2.0, 4.0]), sorter=sorter)
    torch.searchsorted(s, 2.0, sorter=sorter), torch.searchsorted(s, 2.0, side="right")


def multivariate_gammas():
    m = torch.tensor([[2.0, 1.5], [1.25, 3.0]])
    torch.mvlgamma(m, 1), torch.mvlgamma(m, 3), m.clone().mvlgamma_(2)
    torch.special.multigammaln(m.double(), 2), torch.mvlgamma(torch.tensor(3.0), 2)


def integers_beside_numbers():
    i, u, b = torch.tensor([1, 2]), torch.tensor([1, 2], dtype=torch.uint8), torch.tensor([True])
    torch.xlogy(i, 2), torch.xlogy(2, i), torch.xlogy(i, 2.5), torch.xlogy(2.5, i)
    torch.xlogy(i, i)
    torch.special.zeta(3, u), torch.special.xlog1py(b, 3), torch.special.zeta(i, 2.0)
    torch.special.xlogy(u, -2)


def tensors_read_as_numbers():
    a, b = torch.tensor(1.0), torch.tensor(2.0)
    torch.tensor([a, b]), torch.tensor([[1.0, a], [b, 4.0]]), torch.tensor(((a, b),))
    torch.tensor([torch.tensor([1.0])]), torch.as_tensor([a, 3.0]), a.new_tensor([b, a])


def log_sum_exps():
    m = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
    torch.logsumexp(m, 1), torch.logsumexp(m, (0, 1), keepdim=True), m.logsumexp(-1, True)
    torch.logsumexp(torch.tensor([1, 2]), 0), torch.special.logsumexp(m.double(), 0)
    torch.logsumexp(torch.ones(2, 3, 4), (0, 2))


def divisions_and_zero_dimensional_operands():
    i, u, b = torch.tensor([1, 2]), torch.tensor([3, 250], dtype=torch.uint8), torch.tensor([True])
    f, z, zf = torch.tensor([1.0, 2.0]), torch.tensor(2), torch.tensor(2.0, dtype=torch.float64)
    i / i, i / 2, u / 300, torch.div(i, i, rounding_mode=None), i / 2.5, i / z, b / b, z / i
    torch.div(i, 2, rounding_mode=None), f / z, f * z, z * f, f + zf, i * z, f / i, i / True


PROGRAMS = [numbers_wrapped, numbers_on_either_side, few_tests_for_isin, reductions, factories,
            views_and_copies, products, gradients, composites_under_inference_mode,
            composites_with_grad, a_users_mode_under_inference_mode, more_kernels, more_gradients,
            in_place_kernels, truths_reduced, made_from_data, aliases, transposes_in_place_of_none,
            scatters_fills_and_sorters, multivariate_gammas, integers_beside_numbers,
            tensors_read_as_numbers, log_sum_exps, divisions_and_zero_dimensional_operands]


def test_a_profile_begun_inside_a_users_mode_under_inference_mode():
    a, w = torch.ones(2, 3), torch.ones(4, 3)
    with _Seen():
        with profile(record_shapes=True) as prof:
            with torch.inference_mode():
                F.linear(a, w)
    rows = TREES["a_users_mode_under_inference_mode"]
    start = [row[1] for row in rows].index("aten::linear")
    end = next(i for i in range(start + 1, len(rows)) if rows[i][0] == 0)
    assert tree(prof.function_events) == rows[start:end]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__)
def test_the_events_inside_ops(program):
    with profile(record_shapes=True) as prof:
        program()
    assert tree(prof.function_events) == TREES[program.__name__]


def training_step():
    """A step of a small model's training, made before the profile; the step is profiled."""
    torch.manual_seed(0)
    first, second = torch.nn.Linear(3, 4), torch.nn.Linear(4, 2)
    sgd = torch.optim.SGD([*first.parameters(), *second.parameters()], lr=0.1)
    x, y = torch.ones(5, 3), torch.zeros(5).long()

    def step():
        sgd.zero_grad()
        F.cross_entropy(second(first(x).relu()), y).backward()
        F.mse_loss(first(x), torch.zeros(5, 4)).backward()
        first.weight.var(0).sum().backward()
        first.weight.std().backward()
        sgd.step()

    step()
    return step


def test_the_events_inside_a_training_step():
    step = training_step()
    with profile(record_shapes=True) as prof:
        step()
    assert tree(prof.function_events) == TREES["training_step"]


def test_events_inside_an_op_have_no_sequence_number_and_no_shapes_unasked():
    x = _x()
    with profile() as prof:
        x.sum().backward()
    inside = [e for e in prof.function_events
              if e.cpu_parent is not None and e.cpu_parent.name.startswith("aten::")]
    assert [e.name for e in inside] == [
        "aten::as_strided", "aten::fill_", "aten::empty_like", "aten::empty_strided",
        "aten::fill_", "aten::as_strided", "aten::empty_strided"]
    assert {e.sequence_nr for e in inside} == {-1}
    assert {str(e.input_shapes) for e in inside} == {"[]"}


def test_averages_count_the_events_inside():
    f = torch.ones(2, 3)
    with profile() as prof:
        f.sum(), f.sum(), torch.zeros_like(f)
    counts = {a.key: a.count for a in prof.key_averages()}
    assert counts["aten::fill_"] == 2
    assert counts["aten::as_strided"] == 2
    assert counts["aten::zero_"] == 1
    assert counts["aten::empty_strided"] == 1
