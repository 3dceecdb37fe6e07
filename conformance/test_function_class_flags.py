"""A custom Function's class flags: boxed_grads_call and clear_saved_tensors_on_access."""

import numpy as np
import pytest
import torch

from conformance._support import FREED, raises

READ_TWICE = ("saved_tensors can only be accessed once when clear_saved_tensors_on_access=True "
              "is set on the autograd.Function. Either access saved_tensors only once, or set "
              "clear_saved_tensors_on_access=False.")


def test_flags_default_to_false():
    assert torch.autograd.Function.boxed_grads_call is False
    assert torch.autograd.Function.clear_saved_tensors_on_access is False


def pair(materialize=True):
    seen = []

    class Pair(torch.autograd.Function):
        boxed_grads_call = True

        @staticmethod
        def forward(ctx, x, k):
            ctx.set_materialize_grads(materialize)
            return x * 2, x * k

        @staticmethod
        def backward(ctx, grads):
            seen.append((type(grads), [None if g is None else g.tolist() for g in grads]))
            first = grads.pop(0)
            return first * 2 + (0 if grads[0] is None else grads[0] * 3), None

    return Pair, seen


@pytest.mark.parametrize("materialize", [True, False])
def test_boxed_backward_receives_one_list(materialize):
    Pair, seen = pair(materialize)
    x = torch.ones(2, requires_grad=True)
    a, _ = Pair.apply(x, 3.0)
    a.sum().backward()
    missing = [0.0, 0.0] if materialize else None
    assert seen == [(list, [[1.0, 1.0], missing])]
    assert x.grad.tolist() == [2.0, 2.0]


def test_boxed_single_output_hooks_and_jvp_see_tuples():
    seen = []

    class Double(torch.autograd.Function):
        boxed_grads_call = True

        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def jvp(ctx, *tangents):
            seen.append(("jvp", type(tangents)))
            return tangents[0] * 2

        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, grads):
            seen.append(("backward", type(grads), len(grads)))
            return grads[0] * 2

    x = torch.ones(2, requires_grad=True)
    y = Double.apply(x)
    y.grad_fn.register_prehook(lambda gi: seen.append(("pre", type(gi))))
    y.grad_fn.register_hook(lambda gi, go: seen.append(("post", type(gi), type(go))))
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    assert seen == [("pre", tuple), ("backward", list, 1), ("post", tuple, tuple)]
    seen.clear()
    assert y.grad_fn.apply(torch.ones(2), torch.ones(2)).tolist() == [2.0, 2.0]
    assert seen == [("backward", list, 2)]
    seen.clear()
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(2), torch.ones(2))
        assert fwAD.unpack_dual(Double.apply(d)).tangent.tolist() == [2.0, 2.0]
    assert seen == [("jvp", tuple)]


def plain():
    class Plain(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, *grads):
            ctx.saved_tensors
            ctx.saved_tensors
            return grads[0] if type(grads[0]) is not list else grads[0][0] * 10

    return Plain


def test_boxed_grads_call_is_read_when_the_node_is_made_and_when_it_runs():
    for on_when_made, on_when_run, boxes in [(False, True, True), (True, False, True),
                                             (False, False, False)]:
        Plain = plain()
        x = torch.ones(2, requires_grad=True)
        Plain.boxed_grads_call = on_when_made
        y = Plain.apply(x)
        Plain.boxed_grads_call = on_when_run
        y.sum().backward()
        assert x.grad.tolist() == ([10.0, 10.0] if boxes else [1.0, 1.0])


def test_clear_saved_tensors_on_access_is_read_when_the_node_is_made():
    Plain = plain()
    x = torch.ones(2, requires_grad=True)
    y = Plain.apply(x)
    Plain.clear_saved_tensors_on_access = True
    z = Plain.apply(x)
    Plain.clear_saved_tensors_on_access = False
    y.sum().backward()  # two reads allowed
    with raises(RuntimeError, READ_TWICE):
        z.sum().backward()


@pytest.mark.parametrize("name", ["boxed_grads_call", "clear_saved_tensors_on_access"])
@pytest.mark.parametrize("value, shown", [(1, "int"), (None, "NoneType"),
                                          (np.bool_(True), "numpy.bool")])
def test_flags_must_be_bools(name, value, shown):
    ran = []

    class Flagged(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ran.append(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    setattr(Flagged, name, value)
    for x in (torch.ones(2), torch.ones(2, requires_grad=True)):
        with raises(RuntimeError, f"{name} must be a bool, got {shown}"):
            Flagged.apply(x)
    assert ran == []


def read_twice_function(reads):
    class Once(torch.autograd.Function):
        clear_saved_tensors_on_access = True

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            for _ in range(reads):
                (x,) = ctx.saved_tensors
                assert x.tolist() == [1.0, 1.0] and ctx._raw_saved_tensors == ()
            return g * 2

    return Once


def test_saved_tensors_read_twice_is_refused():
    x = torch.ones(2, requires_grad=True)
    y = read_twice_function(1).apply(x)
    assert len(y.grad_fn._raw_saved_tensors) == 1
    y.sum().backward(retain_graph=True)
    assert x.grad.tolist() == [2.0, 2.0]
    with raises(RuntimeError, READ_TWICE):  # backward reads them again
        y.sum().backward()
    with raises(RuntimeError, READ_TWICE):
        read_twice_function(2).apply(x).sum().backward()


def test_saved_tensors_read_once_outside_backward():
    x = torch.ones(2, requires_grad=True)
    y = read_twice_function(0).apply(x)
    assert [t.tolist() for t in y.grad_fn.saved_tensors] == [[1.0, 1.0]]
    with raises(RuntimeError, READ_TWICE):
        y.grad_fn.saved_tensors
    y.sum().backward()
    with raises(RuntimeError, READ_TWICE):
        y.grad_fn.saved_tensors
    z = read_twice_function(0).apply(x)
    z.sum().backward()  # released before any read
    with raises(RuntimeError, FREED):
        z.grad_fn.saved_tensors


def test_jvp_reads_saved_tensors_freely():
    class Scale(torch.autograd.Function):
        clear_saved_tensors_on_access = True

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            return x * 2

        @staticmethod
        def jvp(ctx, t):
            assert ctx.saved_tensors[0].tolist() == ctx.saved_tensors[0].tolist()
            return t * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(2), torch.ones(2))
        assert fwAD.unpack_dual(Scale.apply(d)).tangent.tolist() == [2.0, 2.0]
