"""Black-box tests: what a dispatch mode sees of autograd's own work. A saved output is
detached when saved and again when unpacked; AccumulateGrad takes a first gradient over
(detach) or copies it (new_empty_strided, copy_; a clone for a leaf that is not dense); a
second gradient is added in place (add_), or out of place under create_graph. Values,
strides and versions stay as without a mode. The same assertions run on torch.
"""

import warnings

import pytest
import torch

from conformance._support import recording_mode

Names = recording_mode(lambda func: str(func).replace("aten.", "").replace(".default", ""))
SEED = ["sum", "ones_like", "expand"]


def _leaf(*shape):
    return torch.full(shape or (3,), 0.5, dtype=torch.float64).requires_grad_()


FORWARD = [
    (torch.relu, ["relu", "detach"]),
    (torch.exp, ["exp", "detach"]),
    (torch.sigmoid, ["sigmoid", "detach"]),
    (torch.tanh, ["tanh", "detach"]),
    (lambda x: torch.softmax(x, 0), ["_softmax", "detach"]),
    (lambda x: torch.pow(2.0, x), ["pow.Scalar", "detach"]),
    (lambda x: x**2, ["pow.Tensor_Scalar"]),  # keeps its input: nothing detached
    (torch.sin, ["sin"]),
    (lambda x: x.sort(), ["sort"]),  # keeps its indices, which have no history
    (lambda x: x.max(), ["max", "detach"]),
    (lambda x: x.clone().exp_(), ["clone", "exp_", "detach"]),
    (lambda x: torch.linalg.eigh(torch.eye(2, dtype=x.dtype) + x[0]),
     ["eye", "select.int", "add.Tensor", "_linalg_eigh", "detach", "detach"]),
]


@pytest.mark.parametrize(("call", "seen"), FORWARD)
def test_a_saved_output_is_detached_after_its_op(call, seen):
    x = _leaf()
    with Names() as mode:
        call(x)
    assert mode.seen == seen


def test_nothing_is_detached_without_a_graph():
    x, plain = _leaf(), torch.full((3,), 0.5, dtype=torch.float64)
    with Names() as mode:
        with torch.no_grad():
            x.exp()
        plain.exp()
    assert mode.seen == ["exp", "exp"]


GRAPHS = [
    # (graph, what the mode sees in the graph and its backward, .grad._version)
    (lambda x: x.sum(), ["sum", "ones_like", "expand", "new_empty_strided", "copy_"], 1),
    (lambda x: (x * 2).sum(), ["mul.Tensor", *SEED, "mul.Tensor", "detach"], 0),
    (lambda x: (x * x).sum(),
     ["mul.Tensor", *SEED, "mul.Tensor", "mul.Tensor", "add.Tensor", "detach"], 0),
    (lambda x: x.exp().sum(), ["exp", "detach", *SEED, "detach", "mul.Tensor", "detach"], 0),
    (lambda x: x.relu().sum(),
     ["relu", "detach", *SEED, "detach", "threshold_backward", "detach"], 0),
    (lambda x: (x.exp() * x).sum(),
     ["exp", "detach", "mul.Tensor", *SEED, "mul.Tensor", "mul.Tensor", "detach",
      "mul.Tensor", "add.Tensor", "detach"], 0),
    (lambda x: x.view(3, 1).sum(), ["view", *SEED, "view", "new_empty_strided", "copy_"], 1),
    (lambda x: x.float().sum(), ["_to_copy", *SEED, "_to_copy", "detach"], 0),
]


@pytest.mark.parametrize(("graph", "seen", "version"), GRAPHS)
def test_backward_shows_unpacks_and_the_first_gradient(graph, seen, version):
    x = _leaf()
    with Names() as mode:
        graph(x).backward()
    assert mode.seen == seen
    assert x.grad._version == version
    y = _leaf()
    graph(y).backward()
    assert torch.equal(x.grad, y.grad) and x.grad.stride() == y.grad.stride()


def test_a_given_gradient_is_copied_and_a_computed_one_taken_over():
    x, z = _leaf(), _leaf()
    with Names() as mode:
        x.backward(torch.ones(3, dtype=torch.float64))
        (z * 3).backward(torch.ones(3, dtype=torch.float64))
    assert mode.seen == ["ones", "new_empty_strided", "copy_", "mul.Tensor", "ones", "mul.Tensor",
                         "detach"]
    assert (x.grad._version, z.grad._version) == (1, 0)


def test_a_transposed_leaf_gets_a_copy_laid_out_as_it():
    x = _leaf(2, 3).detach().t().requires_grad_()
    with Names() as mode:
        (x * 2).sum().backward()
    assert mode.seen == ["mul.Tensor", *SEED, "mul.Tensor", "new_empty_strided", "copy_"]
    assert (x.grad.stride(), x.grad._version) == ((1, 3), 1)


def test_a_zero_gradient_is_made_real_before_it_is_copied_into_grad():
    # sgn's gradient is a zero tensor: kept as it is where it obeys the leaf's layout,
    # made real (zeros, expand) for new_empty_strided where it must be copied.
    x, y = _leaf(2, 3), _leaf(2, 3).detach().t().requires_grad_()
    with Names() as mode:
        torch.sgn(x).sum().backward()
        torch.sgn(y).sum().backward()
    zeros = ["sgn", "detach", *SEED, "detach", "_efficientzerotensor"]
    assert mode.seen == [*zeros, "detach", *zeros, "zeros", "expand", "new_empty_strided",
                         "copy_"]
    assert (x.grad._is_zerotensor(), y.grad._is_zerotensor()) == (True, False)
    assert (y.grad.stride(), y.grad._version, y.grad.tolist()) == ((1, 3), 1, [[0.0] * 2] * 3)


def test_a_leaf_that_is_not_dense_gets_a_clone_or_keeps_its_gradient():
    def sparse_leaf():
        return torch.full((2, 6), 0.5, dtype=torch.float64)[:, ::2].detach().requires_grad_()

    x, z = sparse_leaf(), sparse_leaf()
    with Names() as mode:
        x.sum().backward()
        (z * 2).sum().backward()
    assert mode.seen == [*SEED, "clone", "mul.Tensor", *SEED, "mul.Tensor", "detach"]
    assert (x.grad.stride(), x.grad._version, z.grad.stride()) == ((3, 1), 0, (3, 1))


def test_a_second_gradient_is_added_in_place():
    x = _leaf()
    with Names() as mode:
        y = x.exp()
        y.sum().backward(retain_graph=True)
        y.sum().backward()
    assert mode.seen == ["exp", "detach", *SEED, "detach", "mul.Tensor", "detach",
                         *SEED, "detach", "mul.Tensor", "add_.Tensor"]
    assert x.grad._version == 1
    assert torch.allclose(x.grad, 2 * x.detach().exp())


def test_create_graph_copies_and_records_then_adds_out_of_place():
    x = _leaf()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # create_graph's reference cycle
        with Names() as mode:
            (x.exp() * 1).sum().backward(create_graph=True)
            (x * 3).sum().backward(create_graph=True)
    assert mode.seen == [
        "exp", "detach", "mul.Tensor", *SEED, "mul.Tensor", "detach", "mul.Tensor",
        "new_empty_strided", "copy_", "mul.Tensor", *SEED, "mul.Tensor", "add.Tensor"]
    assert type(x.grad.grad_fn).__name__ == "AddBackward0"
    x.grad = None


def test_retain_grad_and_hooks():
    x = _leaf()
    x.register_hook(lambda g: g * 3)
    with Names() as mode:
        y = x * 2
        y.retain_grad()
        y.register_hook(lambda g: g * 2)
        y.sum().backward()
    assert mode.seen == ["mul.Tensor", *SEED, "mul.Tensor", "clone", "mul.Tensor",
                         "mul.Tensor", "detach"]
    assert (x.grad.tolist(), y.grad._version, x.grad._version) == ([12.0] * 3, 0, 0)


def test_autograd_grad_takes_nothing_over():
    x = _leaf()
    with Names() as mode:
        torch.autograd.grad(x.exp().sum(), x)
    assert mode.seen == ["exp", "detach", *SEED, "detach", "mul.Tensor"]


def test_a_saved_result_read_is_unpacked():
    x = _leaf()
    with Names() as mode:
        y = x.exp()
        y.grad_fn._saved_result
    assert mode.seen == ["exp", "detach", "detach"]


def test_with_saved_tensor_hooks_only_unpacks_detach():
    x = _leaf()
    with Names() as mode:
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            y = x.exp() * x.sin()
        y.sum().backward()
    assert mode.seen == [
        "exp", "sin", "mul.Tensor", *SEED, "detach", "detach", "mul.Tensor", "mul.Tensor",
        "detach", "cos", "mul.Tensor", "detach", "mul.Tensor", "add.Tensor", "detach"]


def test_a_custom_function_saving_its_output():
    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            out = a * 2
            ctx.save_for_backward(a, out)
            return out

        @staticmethod
        def backward(ctx, grad):
            ctx.saved_tensors  # noqa: B018 - unpacked: its output detached anew
            return grad * 2

    x = _leaf()
    with Names() as mode:
        Twice.apply(x).sum().backward()
    assert mode.seen == ["mul.Tensor", "detach", *SEED, "detach", "mul.Tensor", "detach"]


def test_two_modes_each_see_every_step_innermost_first():
    seen = []

    def tagged(tag):
        from torch.utils._python_dispatch import TorchDispatchMode

        class Tagged(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                seen.append(tag + func.__name__)
                return func(*args, **(kwargs or {}))

        return Tagged()

    x = _leaf()
    with tagged("A:"), tagged("B:"):
        x.exp().sum().backward()
    names = ["exp.default", "detach.default", "sum.default", "ones_like.default",
             "expand.default", "detach.default", "mul.Tensor", "detach.default"]
    assert seen == [t + n for n in names for t in ("B:", "A:")]


def test_allow_mutation_sees_the_second_gradient_written_into_grad():
    from torch.autograd.graph import allow_mutation_on_saved_tensors

    x = _leaf()
    (x * 2).sum().backward()
    with allow_mutation_on_saved_tensors():
        x.grad.requires_grad_()
        y = (x.grad * x.grad).sum()  # saves .grad, which the next backward adds into
        (x * 3).sum().backward()
        y.backward()
    assert x.grad.tolist() == [5.0] * 3
    assert x.grad.grad.tolist() == [4.0] * 3  # twice the gradient before the add_


def test_detach_and_data_reach_a_mode_as_detach():
    x = torch.ones(3, requires_grad=True)
    with Names() as mode:
        d = x.detach()
        e = x.data
    assert mode.seen == ["detach", "detach"]
    with torch.no_grad():
        x.add_(1)
    assert (d._version, e._version, d.requires_grad, e.requires_grad) == (1, 0, False, False)
