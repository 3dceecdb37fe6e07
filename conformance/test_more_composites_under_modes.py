"""Black-box tests: below autograd (inference mode, or inference tensors only), a dispatch
mode receives products, conversions and other composites whole, under torch's names for them.
The same assertions run on torch.
"""

import torch
from torch.utils._python_dispatch import TorchDispatchMode


class Names(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        packet = getattr(func, "overloadpacket", None)  # torch's aten.matmul; refgrad's name
        self.seen.append(func.name if packet is None else packet.__name__)
        return func(*args, **(kwargs or {}))


def _normal():
    return torch.arange(6.0).reshape(2, 3).clone()


def _within(out, x) -> bool:
    return x.data_ptr() <= out.data_ptr() < x.data_ptr() + x.numel() * x.element_size()


def test_products_squares_diagonals_and_conversions_come_whole():
    x = _normal().requires_grad_()
    with torch.inference_mode(), Names() as mode:
        outs = (x.square(), x.matmul(x.mT), torch.outer(x[0], x[1]), x.diag(),
                torch.tensordot(x, x, dims=([0, 1], [0, 1])), x.double(), x.to(torch.int64))
        same, moved = x.float(), torch.einsum("ij->ji", x)
    assert mode.seen == ["square", "mT", "matmul", "select", "select", "outer", "diag",
                         "tensordot", "to", "to", "to", "einsum"]
    assert same is x and not moved._is_view() and _within(moved, x) and moved.stride() == (1, 3)
    for out in outs:
        assert out.is_inference() and not _within(out, x)
    assert outs[3].tolist() == [0.0, 4.0] and outs[4].item() == 55.0
    assert outs[5].dtype == torch.float64 and outs[6].dtype == torch.int64


_COPIES = (  # (what the mode is told, the call) on a 2 x 3 tensor; each gives a new tensor
    ("kron", lambda x: torch.kron(x, x)),
    ("ger", lambda x: torch.ger(x[0], x[1])),
    ("row_stack", lambda x: torch.row_stack([x, x])),
    ("cartesian_prod", lambda x: torch.cartesian_prod(x[0], x[1])),
    ("diagflat", lambda x: torch.diagflat(x)),
    ("inner", lambda x: torch.inner(x, x)),
    ("diff", lambda x: x.diff()),
    ("argsort", lambda x: x.argsort(descending=True)),
    ("trapezoid", lambda x: torch.trapezoid(x)),
    ("cumulative_trapezoid", lambda x: torch.cumulative_trapezoid(x)),
)


def test_more_composites_come_whole_in_inference_mode_and_on_inference_tensors():
    for name, make in _COPIES:
        x = _normal().requires_grad_()
        with torch.inference_mode(), Names() as mode:
            out = make(x)
        assert mode.seen[-1] == name and set(mode.seen) <= {"select", name}, (
            name, mode.seen)
        assert out.is_inference() and not _within(out, x), name
        with torch.inference_mode():
            z = _normal()
        with Names() as mode:
            again = make(z)
        assert mode.seen[-1] == name and not again.is_inference(), (name, mode.seen)
        assert again._version == 0 and not again.requires_grad and again.equal(out), name


def test_with_autograd_on_the_same_calls_come_in_pieces():
    x = _normal().requires_grad_()
    for name, make in _COPIES:
        with Names() as mode:
            out = make(x)
        assert name not in mode.seen, (name, mode.seen)
        assert out.grad_fn is not None or name == "argsort", name


def test_results_a_mode_runs_through_func_count_no_writes():
    with torch.inference_mode():
        z = _normal()
    made = (lambda t: t.sum(), lambda t: t.mean(), torch.abs, torch.diag_embed,
            torch.diagflat, lambda t: t.amax(0))
    outside = [make(z)._version for make in made]  # the kernels' own writes, counted
    assert outside == [1, 2, 1, 2, 2, 1]
    with Names():
        assert [make(z)._version for make in made] == [0] * len(made)
    assert [make(z)._version for make in made] == outside  # and counted again after
