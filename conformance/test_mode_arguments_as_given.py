"""Black-box tests: a dispatch mode is handed sizes and dimensions as the caller gave them
(-1 kept), sort.stable for a stable given, torch's schema binding for the index, scatter,
loss, convolution and normalization ops, the options a _to_copy names, and the ops torch
makes for a NumPy array, a number assigned into a tensor and rrelu's noise. The same
assertions run on torch.
"""

import numpy as np
import pytest
import torch
from torch.autograd.profiler import profile

from conformance._mode_support import graph_under_mode_is_the_ops
from conformance._support import calling_mode, mode_inputs, seen_and_called_again

F = torch.nn.functional
CPU = torch.device("cpu")


Calls = calling_mode()


LAST = [
    (lambda x, y, i: x.view(-1), "aten.view.default", ("T", [-1]), {}),
    (lambda x, y, i: x.view(3, -1), "aten.view.default", ("T", [3, -1]), {}),
    (lambda x, y, i: x.reshape(-1, 2), "aten.view.default", ("T", [-1, 2]), {}),
    (lambda x, y, i: x[:1].expand(4, -1), "aten.expand.default", ("T", [4, -1]), {}),
    (lambda x, y, i: x[:1].expand(2, -1, 3), "aten.expand.default", ("T", [2, -1, 3]), {}),
    (lambda x, y, i: (x > 0).all(-1), "aten.all.dim", ("T", -1), {}),
    (lambda x, y, i: (x > 0).any(-1, True), "aten.any.dim", ("T", -1, True), {}),
    (lambda x, y, i: (x > 0).any((-1, 0)), "aten.any.dims", ("T", [-1, 0]), {}),
    (lambda x, y, i: x.sort()[0], "aten.sort.default", ("T",), {}),
    (lambda x, y, i: x.sort(0, True)[0], "aten.sort.default", ("T", 0, True), {}),
    (lambda x, y, i: x.sort(stable=True)[0], "aten.sort.stable", ("T",), {"stable": True}),
    (lambda x, y, i: x.sort(stable=False)[0], "aten.sort.stable", ("T",), {"stable": False}),
    (lambda x, y, i: x.sort(dim=0, stable=True)[0], "aten.sort.stable", ("T",),
     {"stable": True, "dim": 0}),
    (lambda x, y, i: x.argsort(), "aten.sort.default", ("T",), {}),
    (lambda x, y, i: x.argsort(stable=True), "aten.sort.stable", ("T",), {"stable": True}),
    (lambda x, y, i: torch.msort(x), "aten.sort.default", ("T", 0), {}),
    (lambda x, y, i: x.index_add(0, i, y), "aten.index_add.default", ("T", 0, "T", "T"), {}),
    (lambda x, y, i: x.index_add(0, i, y, alpha=2), "aten.index_add.default",
     ("T", 0, "T", "T"), {"alpha": 2}),
    (lambda x, y, i: x.index_copy(0, i, y), "aten.index_copy.default", ("T", 0, "T", "T"), {}),
    (lambda x, y, i: x.index_fill(1, i, 2.0), "aten.index_fill.int_Scalar",
     ("T", 1, "T", 2.0), {}),
    (lambda x, y, i: x.masked_scatter(x > 0, y), "aten.masked_scatter.default",
     ("T", "T", "T"), {}),
    (lambda x, y, i: x.scatter_add(1, i[None], y[:1, :2]), "aten.scatter_add.default",
     ("T", 1, "T", "T"), {}),
    (lambda x, y, i: x.scatter_reduce(1, i[None], y[:1, :2], "sum"), "aten.scatter_reduce.two",
     ("T", 1, "T", "T", "sum"), {}),
    (lambda x, y, i: x.scatter_reduce(1, i[None], y[:1, :2], "amax", include_self=False),
     "aten.scatter_reduce.two", ("T", 1, "T", "T", "amax"), {"include_self": False}),
    (lambda x, y, i: x.cumprod(1), "aten.cumprod.default", ("T", 1), {}),
    (lambda x, y, i: x.cumprod(1, dtype=torch.float64), "aten.cumprod.default", ("T", 1),
     {"dtype": torch.float64}),
    (lambda x, y, i: F.mse_loss(x, y), "aten.mse_loss.default", ("T", "T"), {}),
    (lambda x, y, i: F.mse_loss(x, y, reduction="sum"), "aten.mse_loss.default",
     ("T", "T", 2), {}),
    (lambda x, y, i: F.conv2d(x.reshape(1, 1, 2, 3), y[:1, :2].reshape(1, 1, 1, 2)),
     "aten.convolution.default", ("T", "T", None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
     {}),
    (lambda x, y, i: F.conv2d(x.reshape(1, 1, 2, 3), y[:1, :2].reshape(1, 1, 1, 2), y[0, :1],
                              padding=1, stride=(1, 2)),
     "aten.convolution.default", ("T", "T", "T", [1, 2], [1, 1], [1, 1], False, [0, 0], 1),
     {}),
    (lambda x, y, i: F.embedding(i, x), "aten.embedding.default", ("T", "T"), {}),
    (lambda x, y, i: F.embedding(i, x, padding_idx=0), "aten.embedding.default",
     ("T", "T", 0), {}),
    (lambda x, y, i: F.layer_norm(x, (3,)), "aten.native_layer_norm.default",
     ("T", [3], None, None, 1e-05), {}),
    (lambda x, y, i: F.layer_norm(x, (3,), y[0], y[1], 1e-3), "aten.native_layer_norm.default",
     ("T", [3], "T", "T", 1e-3), {}),
    (lambda x, y, i: F.nll_loss(x, i), "aten.nll_loss_forward.default",
     ("T", "T", None, 1, -100), {}),
    (lambda x, y, i: F.cross_entropy(x, i, reduction="sum"), "aten.nll_loss_forward.default",
     ("T", "T", None, 2, -100), {}),
]


@pytest.mark.parametrize(("call", "name", "args", "kwargs"), LAST)
def test_the_mode_sees_the_arguments_as_torch_binds_them(call, name, args, kwargs):
    alone, again = seen_and_called_again(Calls, call, (name, args, kwargs))
    if isinstance(again, tuple | list):  # values and indices: argsort's are the indices
        again = again[1] if alone.dtype == torch.int64 else again[0]
    assert torch.equal(again, alone) and again.dtype == alone.dtype


@pytest.mark.parametrize(("call", "name", "args", "kwargs"), LAST)
def test_the_graph_made_under_the_mode_is_the_ops(call, name, args, kwargs):
    graph_under_mode_is_the_ops(Calls, call)


def _seen(call):
    with Calls() as mode:
        call()
    return mode.seen


STRIDED, CONTIGUOUS = torch.strided, torch.contiguous_format
COPIES = [
    (lambda x: x.to(torch.float64), [("aten._to_copy.default", ("T",),
                                      {"dtype": torch.float64})]),
    (lambda x: x.double(), [("aten._to_copy.default", ("T",), {"dtype": torch.float64})]),
    (lambda x: x.to("cpu", torch.float64), [
        ("aten._to_copy.default", ("T",), {"dtype": torch.float64, "device": CPU})]),
    (lambda x: x.to(device="cpu", dtype=torch.float64), [
        ("aten._to_copy.default", ("T",), {"dtype": torch.float64, "device": CPU})]),
    (lambda x: x.to(copy=True), [("aten._to_copy.default", ("T",), {
        "dtype": torch.float32, "layout": STRIDED, "device": CPU})]),
    (lambda x: x.softmax(0, dtype=torch.float64), [
        ("aten._to_copy.default", ("T",), {"dtype": torch.float64, "layout": STRIDED,
                                           "device": CPU}),
        ("aten._softmax.default", ("T", 0, False), {})]),
    (lambda x: F.log_softmax(x, 1, dtype=torch.float64), [
        ("aten._to_copy.default", ("T",), {"dtype": torch.float64, "layout": STRIDED,
                                           "device": CPU}),
        ("aten._log_softmax.default", ("T", 1, False), {})]),
    (lambda x: torch.as_tensor(x, dtype=torch.float64), [
        ("aten._to_copy.default", ("T",), {"dtype": torch.float64, "device": CPU})]),
    (lambda x: torch.asarray(x, dtype=torch.float64), [
        ("aten._to_copy.default", ("T",), {"dtype": torch.float64, "device": CPU})]),
    (lambda x: x.type(torch.float64), [("aten._to_copy.default", ("T",),
                                         {"dtype": torch.float64})]),
    (lambda x: torch.tensor(np.ones(2)), [
        ("aten.lift_fresh.default", ("T",), {}),
        ("aten._to_copy.default", ("T",), {"dtype": torch.float64, "device": CPU})]),
    (lambda x: torch.tensor(np.ones(2), dtype=torch.float32), [
        ("aten.lift_fresh.default", ("T",), {}),
        ("aten._to_copy.default", ("T",), {"dtype": torch.float32, "device": CPU})]),
    (lambda x: torch.asarray(np.ones(2), copy=True), [
        ("aten.lift_fresh.default", ("T",), {}), ("aten.clone.default", ("T",), {})]),
    (lambda x: torch.asarray(np.ones(2), dtype=torch.float32), [
        ("aten.lift_fresh.default", ("T",), {}),
        ("aten._to_copy.default", ("T",), {"dtype": torch.float32, "device": CPU})]),
    (lambda x: x.__setitem__(0, 5.0), [
        ("aten.lift_fresh.default", ("T",), {}), ("aten.select.int", ("T", 0, 0), {}),
        ("aten.fill_.Tensor", ("T", "T"), {})]),
    (lambda x: x.__setitem__((slice(None), 1), 2), [
        ("aten.lift_fresh.default", ("T",), {}), ("aten.select.int", ("T", 1, 1), {}),
        ("aten.fill_.Tensor", ("T", "T"), {})]),
    (lambda x: F.rrelu(x, training=True), [
        ("aten.empty_like.default", ("T",), {"memory_format": CONTIGUOUS}),
        ("aten.rrelu_with_noise.default", ("T", "T", 0.125, 1 / 3, True), {})]),
    (lambda x: F.rrelu(x), [
        ("aten.empty_like.default", ("T",), {"memory_format": CONTIGUOUS}),
        ("aten.rrelu_with_noise.default", ("T", "T"), {})]),
    (lambda x: torch.arange(1, 5, 1), [
        ("aten.arange.start_step", (1, 5), {"device": CPU, "pin_memory": False})]),
    (lambda x: torch.arange(1, 5), [
        ("aten.arange.start", (1, 5), {"device": CPU, "pin_memory": False})]),
    (lambda x: torch.arange(1, 5, 1, out=torch.empty(4, dtype=torch.int64)), [
        ("aten.empty.memory_format", ([4],), {"dtype": torch.int64, "device": CPU,
                                              "pin_memory": False}),
        ("aten.arange.start_out", (1, 5), {"out": "T"})]),
    (lambda x: torch.arange(1, 5, 2, out=torch.empty(2, dtype=torch.int64)), [
        ("aten.empty.memory_format", ([2],), {"dtype": torch.int64, "device": CPU,
                                              "pin_memory": False}),
        ("aten.arange.start_out", (1, 5, 2), {"out": "T"})]),
    (lambda x: torch.rand(2, generator=None), [
        ("aten.rand.generator", ([2],), {"generator": None, "device": CPU,
                                         "pin_memory": False})]),
    (lambda x: torch.randn(2, generator=None, dtype=torch.float64), [
        ("aten.randn.generator", ([2],), {"generator": None, "dtype": torch.float64,
                                          "device": CPU, "pin_memory": False})]),
    (lambda x: torch.randint(3, (2,), generator=None), [
        ("aten.randint.generator", (3, [2]), {"generator": None, "device": CPU,
                                              "pin_memory": False})]),
    (lambda x: F.embedding(torch.tensor([1, 0]), x), [
        ("aten.lift_fresh.default", ("T",), {}), ("aten.embedding.default", ("T", "T"), {})]),
    (lambda x: torch.rand(2), [("aten.rand.default", ([2],), {"device": CPU,
                                                             "pin_memory": False})]),
]


@pytest.mark.parametrize(("call", "expected"), COPIES)
def test_the_mode_sees_torchs_ops_and_their_options(call, expected):
    x, _, _ = mode_inputs()
    assert _seen(lambda: call(x)) == expected


@pytest.mark.parametrize("call", [
    lambda: torch.tensor(np.ones((2, 3)).T), lambda: torch.tensor(np.ones((2, 3))[:, ::2]),
    lambda: torch.tensor(np.arange(3), dtype=torch.float32, requires_grad=True),
    lambda: torch.asarray(np.ones(2), copy=True), lambda: torch.arange(1, 5, 1),
])
def test_what_the_mode_sees_makes_the_same_tensor(call):
    alone = call()
    with Calls():
        made = call()
    assert torch.equal(made, alone) and made.dtype == alone.dtype
    assert made.stride() == alone.stride() and made.requires_grad == alone.requires_grad
    assert made.is_leaf


def test_rrelu_draws_the_same_slopes_under_a_mode():
    x = torch.arange(-3.0, 3.0).reshape(2, 3).t()
    torch.manual_seed(0)
    alone = F.rrelu(x, training=True)
    torch.manual_seed(0)
    with Calls():
        made = F.rrelu(x, training=True)
    assert torch.equal(made, alone) and made.stride() == alone.stride()


def test_a_number_assigned_under_a_mode_is_written():
    x, _, _ = mode_inputs()
    with Calls():
        x[0] = 5.0
        x[1, 1:] = 7
    assert torch.equal(x, torch.tensor([[5.0, 5.0, 5.0], [0.25, 7.0, 7.0]]))


_OPTIONS = ("*, torch.dtype dtype = None, torch.layout layout = None, torch.device device = "
            "None, bool pin_memory = False, bool requires_grad = False)")


def _refusal(name, got, forms):
    listed = "".join(f" * (int window_length, {form}{_OPTIONS}\n" for form in forms)
    return (f"{name}() received an invalid combination of arguments - got {got}, but "
            f"expected one of:\n{listed}")


KAISER = ("", "bool periodic, ", "bool periodic, float beta, ")
HAMMING = ("", "bool periodic, ", "bool periodic, float alpha, ",
           "bool periodic, float alpha, float beta, ")


@pytest.mark.parametrize(("call", "message"), [
    (lambda: torch.kaiser_window(4, beta=5.0),
     _refusal("kaiser_window", "(int, beta=float)", KAISER)),
    (lambda: torch.hamming_window(4, alpha=0.5),
     _refusal("hamming_window", "(int, alpha=float)", HAMMING)),
    (lambda: torch.hamming_window(4, beta=0.5),
     _refusal("hamming_window", "(int, beta=float)", HAMMING)),
    (lambda: torch.hamming_window(4, True, beta=0.5),
     _refusal("hamming_window", "(int, bool, beta=float)", HAMMING)),
    (lambda: torch.kaiser_window(4, beta=5.0, dtype=torch.float64),
     _refusal("kaiser_window", "(int, dtype=torch.dtype, beta=float)", KAISER)),
])
def test_a_window_parameter_given_without_those_before_it_is_refused(call, message):
    with pytest.raises(TypeError) as caught:
        call()
    assert str(caught.value) == message


def test_a_window_given_its_parameters_in_order_is_made():
    assert torch.equal(torch.kaiser_window(4, periodic=True, beta=5.0),
                       torch.kaiser_window(4, True, 5.0))
    assert torch.hamming_window(4, True, 0.5).shape == (4,)


def test_resize_as_reaches_the_mode_with_its_template_not_its_sizes():
    x, y = torch.zeros(2), torch.ones(2, 3)
    assert _seen(lambda: (x.resize_as_(y), torch.resize_as_(x, torch.ones(4), memory_format=(
        torch.contiguous_format)))) == [
        ("aten.resize_as_.default", ("T", "T"), {}), ("aten.ones.default", ([4],), {
            "device": CPU, "pin_memory": False}),
        ("aten.resize_as_.default", ("T", "T"), {"memory_format": torch.contiguous_format})]
    assert x.shape == (4,) and x._version == 2


def test_resize_as_makes_a_resize_event_inside_its_own_with_the_sizes_before():
    x, y = torch.zeros(5), torch.ones(2, 2)
    with profile(record_shapes=True) as prof:
        x.resize_as_(y)
    assert [(e.name, e.input_shapes, e.cpu_parent and e.cpu_parent.name)
            for e in prof.function_events] == [
        ("aten::resize_as_", [[5], [2, 2], []], None),
        ("aten::resize_", [[5], [], []], "aten::resize_as_")]


def test_resize_reaches_the_mode_with_its_sizes_as_a_list():
    x = torch.zeros(2)
    assert _seen(lambda: (x.resize_(4), x.resize_((2, 2)), x.resize_(2, 2))) == [
        ("aten.resize_.default", ("T", [4]), {}), ("aten.resize_.default", ("T", [2, 2]), {}),
        ("aten.resize_.default", ("T", [2, 2]), {})]
    assert x.shape == (2, 2)


@pytest.mark.parametrize(("call", "expected"), [
    (lambda o, g: torch.empty(3, out=o), [("aten.resize_.default", ("T", [3]), {})]),
    (lambda o, g: torch.randn(3, out=o), [("aten.resize_.default", ("T", [3]), {}),
                                          ("aten.normal_.default", ("T",), {})]),
    (lambda o, g: torch.randn(3, generator=g, out=o), [
        ("aten.resize_.default", ("T", [3]), {}),
        ("aten.normal_.default", ("T",), {"generator": "G"})]),
    (lambda o, g: torch.rand(3, generator=g, out=o), [
        ("aten.resize_.default", ("T", [3]), {}),
        ("aten.uniform_.default", ("T",), {"generator": "G"})]),
])
def test_a_drawn_or_empty_out_is_resized_then_filled_under_a_mode(call, expected):
    out, generator = torch.empty(0), torch.Generator()
    seen = _seen(lambda: call(out, generator))
    assert [(name, args, {k: "G" if isinstance(v, torch.Generator) else v
                          for k, v in named.items()})
            for name, args, named in seen] == expected
    assert out.shape == (3,)


@pytest.mark.parametrize("call", [
    lambda o, g: torch.randn(3, 2, generator=g, out=o),
    lambda o, g: torch.rand(3, 2, generator=g, out=o),
])
def test_an_out_drawn_under_a_mode_holds_the_same_numbers(call):
    alone = torch.empty(2, 3).t()
    call(alone, torch.Generator().manual_seed(1))
    made = torch.empty(2, 3).t()
    with Calls():
        call(made, torch.Generator().manual_seed(1))
    assert torch.equal(made, alone) and made.stride() == alone.stride() == (1, 3)
