"""Black-box tests: torch.histogram reaches a dispatch mode whole, as histogram.bin_ct for a
count of bins and histogram.bins_tensor for a tensor of edges, with the arguments laid out
as torch's schema lays them out, before any of its checks; the results still record
NotImplemented where an input requires grad. The same assertions run on torch."""

import pytest
import torch

from conformance._support import recording_mode


def _described(value):
    if isinstance(value, torch.Tensor):
        return ("T", tuple(value.shape))
    return value


class Seen(recording_mode()):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append((str(func), [_described(a) for a in args],
                          {k: _described(v) for k, v in (kwargs or {}).items()}))
        return func(*args, **(kwargs or {}))


X, W, EDGES = [1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 2.0, 2.0], [0.0, 2.0, 5.0]
T4 = ("T", (4,))
CASES = {  # id: (call, what the mode sees, hist)
    "count_weighted": (lambda x, w, b: torch.histogram(x, 2, weight=w),
                       ("aten.histogram.bin_ct", [T4, 2], {"weight": T4}), [2.0, 4.0]),
    "default_count": (lambda x, w, b: x.histogram(),
                      ("aten.histogram.bin_ct", [T4], {}), None),
    "count_100_given": (lambda x, w, b: torch.histogram(x, bins=100, density=False),
                        ("aten.histogram.bin_ct", [T4], {}), None),
    "range_of_ints": (lambda x, w, b: torch.histogram(x, 3, range=(0, 6), density=True),
                      ("aten.histogram.bin_ct", [T4, 3], {"range": [0.0, 6.0], "density": True}),
                      [0.125, 0.25, 0.125]),
    "edges": (lambda x, w, b: torch.histogram(x, b),
              ("aten.histogram.bins_tensor", [T4, ("T", (3,))], {}), [1.0, 3.0]),
    "edges_weighted": (lambda x, w, b: x.histogram(b, weight=w, density=True),
                       ("aten.histogram.bins_tensor", [T4, ("T", (3,))],
                        {"weight": T4, "density": True}), None),
}


@pytest.mark.parametrize("inference", [False, True], ids=["autograd", "inference"])
@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_histogram_reaches_a_mode_whole(case, inference):
    call, seen, hist = case
    x, w, b = torch.tensor(X), torch.tensor(W), torch.tensor(EDGES)
    with torch.inference_mode(inference), Seen() as mode:
        out = call(x, w, b)
    assert mode.seen == [seen]
    assert type(out).__name__ == "histogram" and out.bin_edges.dtype is torch.float32
    if hist is not None:
        assert out.hist.tolist() == hist


REFUSED = {  # id: (call, the error's start)
    "no_bins": (lambda x, w, b: torch.histogram(x, 0), "torch.histogram(): bins must be > 0"),
    "range_not_finite": (lambda x, w, b: torch.histogram(x, 2, range=(0.0, float("inf"))),
                         "torch.histogramdd: dimension 0's range"),
    "weight_short": (lambda x, w, b: torch.histogram(x, b, weight=w[:3]),
                     "torch.histogramdd: if weight tensor is provided it should"),
}


@pytest.mark.parametrize("case", REFUSED.values(), ids=REFUSED.keys())
def test_the_mode_sees_the_call_before_its_checks_refuse_it(case):
    call, message = case
    x, w, b = torch.tensor(X), torch.tensor(W), torch.tensor(EDGES)
    with Seen() as mode, pytest.raises(RuntimeError, match=message.replace("(", r"\(")
                                       .replace(")", r"\)")):
        call(x, w, b)
    assert [name for name, _, _ in mode.seen][-1].startswith("aten.histogram.")


def test_results_record_not_implemented_above_the_mode():
    x = torch.tensor(X, requires_grad=True)
    with Seen() as mode:
        out = torch.histogram(x, 2)
    assert [name for name, _, _ in mode.seen] == ["aten.histogram.bin_ct"]
    assert out.hist.grad_fn.name() == out.bin_edges.grad_fn.name() == (
        "torch::autograd::NotImplemented")


def test_a_modes_func_hands_back_a_plain_tuple():
    handed = []

    class Keeping(Seen):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            handed.append(type(out))
            return out

    x = torch.tensor(X)
    with Keeping():
        torch.histogram(x, 2)
    assert handed == [tuple]
