"""scan, map and associative_scan of torch._higher_order_ops, run eagerly."""

import pytest
import torch

from conformance._support import compile_side_effects_put_back


@pytest.fixture(autouse=True)
def _compile_side_effects_put_back():
    """torch runs these operators through its compiler, whose first run patches the process."""
    with compile_side_effects_put_back(torch):
        yield


def _edges(t):
    return [None if n is None else type(n).__name__ for n, _ in t.grad_fn.next_functions]


def _trace_error(fn):
    with pytest.raises(RuntimeError) as info:
        fn()
    return type(info.value).__name__, str(info.value)


# torch's scan warns from inside its own tracing (deprecated helpers, a non-leaf's .grad read)
TORCH_INTERNAL_WARNINGS = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
                           pytest.mark.filterwarnings("ignore::UserWarning")]


def _hops():
    import torch._higher_order_ops as hops

    return hops


@TORCH_INTERNAL_WARNINGS[0]
@TORCH_INTERNAL_WARNINGS[1]
def test_scan_carry_outputs_node_and_gradients():
    hops = _hops()
    xs = torch.tensor([[1.0], [2.0], [3.0], [4.0], [5.0]], requires_grad=True)
    i0 = torch.zeros(1, requires_grad=True)
    w = torch.tensor([2.0], requires_grad=True)

    def add(c, x):
        n = c + x * w
        return n, n.clone()

    c, ys = hops.scan(add, i0, xs)
    assert c.tolist() == [30.0] and ys.flatten().tolist() == [2.0, 6.0, 12.0, 20.0, 30.0]
    assert type(c.grad_fn).__name__ == "ScanAutogradOpBackward"
    assert _edges(c) == ["AccumulateGrad"] * 3
    (c.sum() + ys.sum()).backward()
    assert xs.grad.flatten().tolist() == [12.0, 10.0, 8.0, 6.0, 4.0]
    assert i0.grad.tolist() == [6.0] and w.grad.tolist() == [50.0]


@TORCH_INTERNAL_WARNINGS[0]
@TORCH_INTERNAL_WARNINGS[1]
def test_scan_dim_and_reverse_move_outside_the_node():
    hops = _hops()
    xs = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    c, ys = hops.scan(lambda c, x: (c + x, c * x), torch.zeros(2), xs, dim=1, reverse=True)
    assert c.tolist() == [6.0, 15.0]
    assert ys.tolist() == [[5.0, 6.0, 0.0], [44.0, 30.0, 0.0]]
    assert _edges(c) == [None, "FlipBackward0"]
    assert type(ys.grad_fn).__name__ == "PermuteBackward0"


@TORCH_INTERNAL_WARNINGS[0]
@TORCH_INTERNAL_WARNINGS[1]
def test_scan_refusals():
    hops = _hops()
    xs = torch.ones(3, 2)
    add = lambda c, x: (c + x, c * x)  # noqa: E731
    for call, text in [
        (lambda: hops.scan(1, torch.zeros(2), xs), "Combine_fn must be a callable, but got 1"),
        (lambda: hops.scan(add, torch.zeros(2), xs, dim=1.0),
         "Dim must be an int, but got <class 'float'>"),
        (lambda: hops.scan(add, torch.zeros(2), xs, reverse=1),
         "Reverse must be a bool, but got <class 'int'>"),
        (lambda: hops.scan(add, [], xs), "scan() operator requires init leaves."),
        (lambda: hops.scan(add, 1, xs), "All init leaves must be a Tensor but got 1"),
        (lambda: hops.scan(add, torch.zeros(2), torch.zeros(0, 2)),
         "All xs leaves must at least have 'dim' number of dimensions and scan dimension > 0"),
    ]:
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == text
    kind, text = _trace_error(lambda: hops.scan(lambda c, x: (c.sum(), x.clone()),
                                                torch.zeros(2), xs))
    assert kind == "UncapturedHigherOrderOpError"
    # torch may spell the size symbolically (s0) once it has compiled scan before
    assert text.startswith("Expected init and carry to have same metadata but found:\npair[0] "
                           "differ in 'shape: torch.Size([")
    assert "vs torch.Size([])', 'stride: (1,) vs ()'" in text
    kind, text = _trace_error(lambda: hops.scan(lambda c, x: (c + x, x), torch.zeros(2), xs))
    assert "Encountered aliasing during higher order op tracing" in text


@TORCH_INTERNAL_WARNINGS[0]
@TORCH_INTERNAL_WARNINGS[1]
def test_scan_without_xs_returns_init():
    hops = _hops()
    init = torch.zeros(1)
    c, ys = hops.scan(lambda c, x: (c + x, c), init, [])
    assert c is init and ys == []


def test_map_stacks_and_records_its_node():
    hops = _hops()
    xm = torch.tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], requires_grad=True)
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    r = hops.map(lambda x, y, k: x * y + k, xm, w, 1)
    assert r.tolist() == [[1.0, 4.0], [5.0, 10.0], [9.0, 16.0]]
    assert type(r.grad_fn).__name__ == "MapAutogradOpBackward"
    assert _edges(r) == ["AccumulateGrad", "AccumulateGrad"]
    r.sum().backward()
    assert xm.grad.tolist() == [[2.0, 3.0]] * 3 and w.grad.tolist() == [6.0, 9.0]
    with torch.no_grad():
        assert not hops.map(lambda x: x * 2, xm).requires_grad


def test_map_refusals():
    hops = _hops()
    with pytest.raises(RuntimeError, match=r"^Leading dimensions of mapped xs cannot be 0\.$"):
        hops.map(lambda x: x + 1, torch.zeros(0, 2))
    with pytest.raises(RuntimeError) as info:
        hops.map(lambda x: x + 1, [torch.zeros(2, 2), torch.zeros(3, 2)])
    assert str(info.value) == ("Leading dimensions of mapped xs must be consistent. Got shapes "
                               "[torch.Size([2, 2]), torch.Size([3, 2])].")
    kind, text = _trace_error(lambda: hops.map(lambda x: x, torch.ones(3, 2)))
    assert "Encountered aliasing during higher order op tracing" in text
    kind, text = _trace_error(lambda: hops.map(lambda x: x.add_(1), torch.ones(3, 2)))
    assert "Encountered input mutation during higher order op tracing" in text


@TORCH_INTERNAL_WARNINGS[0]
@TORCH_INTERNAL_WARNINGS[1]
def test_associative_scan_generic_values_and_gradients():
    hops = _hops()
    x = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], requires_grad=True)
    r = hops.associative_scan(lambda p, q: p * q, x, 0, combine_mode="generic")
    assert r.tolist() == [1.0, 2.0, 6.0, 24.0, 120.0, 720.0, 5040.0]
    assert type(r.grad_fn).__name__ == "PermuteBackward0"
    r.sum().backward()
    assert x.grad.tolist() == [5913.0, 2956.0, 1970.0, 1476.0, 1176.0, 960.0, 720.0]
    s = hops.associative_scan(lambda p, q: p + q, torch.tensor([[1.0, 2.0, 3.0]]), -1,
                              reverse=True, combine_mode="generic")
    assert s.tolist() == [[6.0, 5.0, 3.0]]


def test_associative_scan_refusals():
    hops = _hops()
    x = torch.ones(3)
    keep = lambda p, q: p  # noqa: E731
    for call, kind, text in [
        (lambda: hops.associative_scan(1, x, 0), ValueError,
         "Combine_fn must be a callable, but got 1"),
        (lambda: hops.associative_scan(keep, x, 0.0), ValueError,
         "Dim must be an int, but got <class 'float'>"),
        (lambda: hops.associative_scan(keep, x, 0, reverse=1), RuntimeError,
         "Reverse must be a bool, but got <class 'int'>"),
        (lambda: hops.associative_scan(keep, x, 0, combine_mode="x"), ValueError,
         "Combine_mode must either 'pointwise' or 'generic', but got x"),
        (lambda: hops.associative_scan(keep, x, 0), ValueError,
         "For combine_mode='pointwise', all input tensors need to be on CUDA or XPU"),
        (lambda: hops.associative_scan(keep, [x, 1], 0, combine_mode="generic"), ValueError,
         "xs leaves must be a Tensor"),
        (lambda: hops.associative_scan(keep, torch.zeros(0), 0, combine_mode="generic"),
         ValueError, "All xs leaves must at least have 'dim' number of dimensions and scan "
         "dimension > 0"),
    ]:
        with pytest.raises(kind) as info:
            call()
        assert str(info.value) == text
