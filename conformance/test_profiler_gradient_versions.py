"""Under the profiler, gradient formulas that torch writes in place arrive at the same
versions as without it, on torch's API: the profiler is no dispatch mode."""

import gc
import weakref

import pytest
import torch

PICKS = {
    "a basic index": lambda x: x[1].sum(),
    "an index tensor": lambda x: x[torch.tensor([1, 0])].sum(),
    "max of all": lambda x: x.max(),
    "min of all": lambda x: x.min(),
    "median of all": lambda x: x.median(),
    "max along a dim": lambda x: x.max(1)[0].sum(),
    "gather": lambda x: x.gather(1, torch.tensor([[0], [1]])).sum(),
    "take": lambda x: x.take(torch.tensor([0, 3])).sum(),
    "index_select": lambda x: x.index_select(1, torch.tensor([0, 2])).sum(),
    "sort": lambda x: x.sort(1)[0].sum(),
    "topk": lambda x: x.topk(2)[0].sum(),
    "cummax": lambda x: x.cummax(1)[0].sum(),
    "masked_select": lambda x: x.masked_select(x > 2).sum(),
    "sum": lambda x: x.sum(),
}


def version_of_grad(pick, profiled: bool) -> int:
    x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], requires_grad=True)
    if profiled:
        with torch.autograd.profiler.profile():
            pick(x).backward()
    else:
        pick(x).backward()
    return x.grad._version


@pytest.mark.parametrize("name", PICKS)
def test_the_version_under_the_profiler_is_the_version_without(name):
    assert version_of_grad(PICKS[name], True) == version_of_grad(PICKS[name], False)


def test_the_versions_torch_gives():
    assert version_of_grad(PICKS["a basic index"], True) == 0
    assert version_of_grad(PICKS["an index tensor"], True) == 1
    assert version_of_grad(PICKS["max of all"], True) == 1
    assert version_of_grad(PICKS["max along a dim"], True) == 2


def test_max_fills_its_zeros_in_place_and_the_gradient_is_taken_whole():
    x = torch.tensor([1.0, 5.0, 5.0], requires_grad=True)
    y = x.max()
    with torch.autograd.profiler.profile() as prof:
        y.backward()
    names = [e.name for e in prof.function_events]
    assert "aten::masked_fill_" in names and "aten::mul" not in names
    accumulated = names[names.index("torch::autograd::AccumulateGrad") + 1:]
    assert accumulated[0] == "aten::detach" and "aten::copy_" not in accumulated
    assert x.grad.tolist() == [0.0, 0.5, 0.5]


def test_a_tensor_written_in_place_under_the_profiler_is_not_kept():
    with torch.autograd.profiler.profile():
        z = torch.zeros(3)
        z.masked_fill_(torch.tensor([True, False, True]), 2.0)
        kept = weakref.ref(z)
        del z
        gc.collect()
        assert kept() is None


@pytest.mark.parametrize("values", [[1.0, 5.0, 5.0], [float("nan"), 2.0, float("nan")]])
def test_max_shares_its_gradient_as_without_the_profiler(values):
    grads = []
    for profiled in (True, False):
        x = torch.tensor(values, requires_grad=True)
        if profiled:
            with torch.autograd.profiler.profile():
                x.max().backward()
        else:
            x.max().backward()
        grads.append((x.grad.tolist(), x.grad._version))
    assert grads[0] == grads[1]
