"""Black-box tests of torch.autograd.forward_ad: levels, dual tensors, and their tangents.

Written against torch's API; they pass on real torch 2.13 and on refgrad. Messages,
reprs and values were recorded from torch.
"""

import re
import threading

import numpy as np
import pytest
import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd.gradcheck import GradcheckError

NO_LEVEL = ("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
            "enter_dual_level() first.")
NOT_LAST = ("Trying to exit a forward AD level that was not the last one that was created. "
            "This is not supported.")


def _tangent(t):
    return fwAD.unpack_dual(t).tangent


# ---- levels

def test_public_names():
    assert fwAD.__all__ == ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level",
                            "make_dual", "unpack_dual", "dual_level"]
    assert torch.autograd.forward_ad is fwAD
    assert fwAD.UnpackedDualTensor._fields == ("primal", "tangent")
    assert issubclass(fwAD.UnpackedDualTensor, tuple)


def test_levels_are_numbered_from_zero_and_do_not_nest():
    with fwAD.dual_level() as first:
        with pytest.raises(RuntimeError, match="^Nested forward mode AD is not supported at"):
            fwAD.enter_dual_level()
        with pytest.raises(RuntimeError, match="^Nested forward mode AD"), fwAD.dual_level():
            pass
        with pytest.raises(RuntimeError) as wrong:
            fwAD.exit_dual_level(level=1)
        assert str(wrong.value) == NOT_LAST
    with fwAD.dual_level() as second:
        pass
    assert (first, second) == (0, 0)


def test_exiting_without_a_level():
    with pytest.raises(RuntimeError, match="^Dual level must be a positive number.$"):
        fwAD.exit_dual_level()
    for level in (-3, 0, 5):
        with pytest.raises(RuntimeError) as wrong:
            fwAD.exit_dual_level(level=level)
        assert str(wrong.value) == NOT_LAST


def test_functional_enter_and_exit_and_the_decorator():
    assert fwAD.enter_dual_level() == 0
    d = fwAD.make_dual(torch.ones(2), torch.full((2,), 3.0))
    fwAD.exit_dual_level()
    assert _tangent(d) is None

    @fwAD.dual_level()
    def scaled(x):
        return _tangent(fwAD.make_dual(x, torch.ones(2)) * 5)

    assert scaled(torch.ones(2)).tolist() == [5.0, 5.0]
    assert scaled(torch.ones(2)).tolist() == [5.0, 5.0]


def test_tangents_are_gone_after_the_level():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.ones(2))
        y = d * 2
        assert _tangent(y) is not None
    assert repr(y) == "tensor([2., 4.])"
    assert fwAD.unpack_dual(y) == (y, None) and fwAD.unpack_dual(y).primal is y
    with fwAD.dual_level():
        assert _tangent(y) is None and _tangent(d) is None


def test_levels_are_global_not_per_thread():
    found = []
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(2), torch.ones(2))
        worker = threading.Thread(target=lambda: found.append(_tangent(d * 10).tolist()))
        worker.start()
        worker.join()
    assert found == [[10.0, 10.0]]


# ---- make_dual and unpack_dual

def _raises(kind, message, fn):
    with pytest.raises(kind) as caught:
        fn()
    assert str(caught.value) == message


def test_make_dual_outside_a_level():
    x = torch.ones(2)
    _raises(RuntimeError, NO_LEVEL, lambda: fwAD.make_dual(x, torch.ones(2)))
    _raises(RuntimeError, "Invalid level given to _make_dual",
            lambda: fwAD.make_dual(x, torch.ones(2), level=3))
    _raises(RuntimeError, "Trying to access a forward AD level with an invalid index. This "
            "index was either not created or is already deleted.",
            lambda: fwAD.make_dual(x, torch.ones(2), level=0))


def test_unpack_dual_outside_a_level_returns_its_argument():
    x = torch.ones(2)
    assert fwAD.unpack_dual(x).primal is x and fwAD.unpack_dual(x).tangent is None
    assert fwAD.unpack_dual(3.0) == (3.0, None)
    primal, tangent = fwAD.unpack_dual(x, level=0)
    assert primal is not x and primal.data_ptr() == x.data_ptr() and tangent is None


def test_make_dual_refusals():
    x = torch.tensor([1.0, 2.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.ones(2))
        _raises(ValueError, "Expected primal to be floating point or complex, but got: "
                "torch.int64", lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.ones(2)))
        _raises(ValueError, "Expected primal to be floating point or complex, but got: "
                "torch.bool", lambda: fwAD.make_dual(torch.ones(2, dtype=torch.bool), x))
        _raises(ValueError, "Expected tangent to be floating point or complex, but got: "
                "torch.int64", lambda: fwAD.make_dual(x, torch.ones(2, dtype=torch.int64)))
        _raises(AttributeError, "'float' object has no attribute 'is_floating_point'",
                lambda: fwAD.make_dual(x, 1.0))
        _raises(RuntimeError, "Trying to set a forward gradient that has a different size "
                "than that of the original Tensor, this is not supported. Tensor is of size "
                "[2, 3] while the given forward gradient is of size [3, 2].",
                lambda: fwAD.make_dual(torch.ones(2, 3), torch.ones(3, 2)))
        _raises(RuntimeError, "Trying to set a forward gradient that has a different size "
                "than that of the original Tensor, this is not supported. Tensor is of size "
                "[] while the given forward gradient is of size [1].",
                lambda: fwAD.make_dual(torch.tensor(1.0), torch.ones(1)))
        _raises(RuntimeError, "Making a dual Tensor based on a Tensor that already has a "
                "forward gradient at the same level 0 is not supported.",
                lambda: fwAD.make_dual(d, torch.ones(3)))
        _raises(RuntimeError, "Setting a forward grad that itself has a forward gradient at "
                "the same level0 is not supported.",
                lambda: fwAD.make_dual(torch.ones(2), fwAD.make_dual(x, torch.ones(2))))
        _raises(RuntimeError, "Invalid level given to _make_dual",
                lambda: fwAD.make_dual(x, torch.ones(2), level=3))


def test_unpack_dual_refusals():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(2), torch.ones(2))
        _raises(TypeError, "_unpack_dual(): argument 'dual' (position 1) must be Tensor, not "
                "float", lambda: fwAD.unpack_dual(3.0))
        _raises(RuntimeError, "Invalid level given to _fw_primal",
                lambda: fwAD.unpack_dual(d, level=1))
        assert fwAD.unpack_dual(torch.ones(2), level=1).tangent is None
        assert fwAD.unpack_dual(d, level=-1).primal is d


def test_the_dual_is_an_alias_and_the_tangent_is_kept_as_given():
    x = torch.tensor([1.0, 2.0])
    t = torch.ones(2)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        primal, tangent = fwAD.unpack_dual(d)
        assert d is not x and d._base is x and d.data_ptr() == x.data_ptr()
        assert primal is not d and primal._base is x and primal.data_ptr() == x.data_ptr()
        assert tangent is t and _tangent(primal) is None and _tangent(x) is None
        d.mul_(2)  # the dual shares x's memory and version counter
        assert x.tolist() == [2.0, 4.0] and x._version == d._version == 1
        assert t.tolist() == [2.0, 2.0]  # and the tangent is written in place
        plain = torch.ones(2)
        assert fwAD.unpack_dual(plain).primal is not plain


def test_tangents_of_another_layout_are_copied():
    with fwAD.dual_level():
        wide = torch.ones(3, 2)
        d = fwAD.make_dual(torch.ones(2, 3), wide.t())
        assert _tangent(d) is not None and _tangent(d)._base is None
        f64 = torch.ones(3, dtype=torch.float64)
        assert _tangent(fwAD.make_dual(torch.ones(3), f64)) is f64
        part = torch.ones(2, 4)[:, :3]
        assert _tangent(fwAD.make_dual(torch.ones(2, 3), part)) is not part


def test_dual_of_a_tensor_that_requires_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.ones(2))
        assert d.grad_fn.name() == "ViewBackward0" and d.grad_fn._saved_self_sym_sizes == (2,)
        assert d.grad_fn.next_functions[0][0] is x.grad_fn or \
            type(d.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"
        primal = fwAD.unpack_dual(d).primal
        assert primal.grad_fn.name() == "torch::autograd::Identity"
        assert primal.grad_fn.next_functions[0][0] is d.grad_fn
        assert repr(primal) == "tensor([1., 2.], grad_fn=<Identity>)"
        with torch.no_grad():
            quiet = fwAD.make_dual(x, torch.ones(2))
        assert quiet.requires_grad and quiet.grad_fn is None
        assert repr(quiet) == "tensor([1., 2.], requires_grad=True, tangent=tensor([1., 1.]))"


# ---- grad mode and inference mode (F154, F161)

# F154, F161
def test_grad_mode_does_not_affect_tangents_and_inference_mode_disables_them():
    x = torch.tensor([1.0, 2.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.ones(2))
        with torch.no_grad():
            y = d * 3
        assert repr(_tangent(y)) == "tensor([3., 3.])"
        with torch.inference_mode():
            z = d * 3
            assert _tangent(d) is None and repr(d) == "tensor([1., 2.])"
            made = fwAD.make_dual(torch.ones(2), torch.ones(2))
            d.mul_(2)
        assert _tangent(z) is None and _tangent(made) is None and made.is_inference()
        assert d.tolist() == [2.0, 4.0] and _tangent(d).tolist() == [1.0, 1.0]
        assert repr(d) == "tensor([2., 4.], tangent=tensor([1., 1.]))"


def test_forward_grad_can_be_switched_off():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(2), torch.ones(2))
        with fwAD._set_fwd_grad_enabled(False):
            assert not fwAD._is_fwd_grad_enabled()
            assert _tangent(d) is None and _tangent(d * 2) is None
            assert repr(d) == "tensor([1., 1.])"
        assert fwAD._is_fwd_grad_enabled() and _tangent(d) is not None


# ---- printing

@pytest.mark.parametrize(("make", "expected"), [
    (lambda: fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.ones(2)),
     "tensor([1., 2.], tangent=tensor([1., 1.]))"),
    (lambda: fwAD.make_dual(torch.tensor(3.0), torch.tensor(0.1)),
     "tensor(3., tangent=0.10000000149011612)"),
    (lambda: fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.ones(2, dtype=torch.float64)),
     "tensor([1., 2.], tangent=tensor([1., 1.], dtype=torch.float64))"),
    (lambda: fwAD.make_dual(torch.zeros(0, 3), torch.zeros(0, 3)),
     "tensor([], size=(0, 3), tangent=tensor([], size=(0, 3)))"),
    (lambda: fwAD.make_dual(torch.tensor([1.0, 2.0], requires_grad=True), torch.ones(2)),
     "tensor([1., 2.], grad_fn=<ViewBackward0>, tangent=tensor([1., 1.]))"),
    (lambda: fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.ones(2, requires_grad=True)),
     "tensor([1., 2.], tangent=tensor([1., 1.], requires_grad=True))"),
    (lambda: fwAD.make_dual(torch.ones(2), torch.ones(2)).requires_grad_(),
     "tensor([1., 1.], requires_grad=True, tangent=tensor([1., 1.]))"),
    (lambda: fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.ones(2)).sin(),
     "tensor([0.8415, 0.9093], tangent=tensor([ 0.5403, -0.4161]))"),
    (lambda: fwAD.make_dual(torch.arange(6.0).view(2, 3) / 5, torch.ones(2, 3)),
     "tensor([[0.0000, 0.2000, 0.4000],\n        [0.6000, 0.8000, 1.0000]],\n"
     "       tangent=tensor([[1., 1., 1.],\n        [1., 1., 1.]]))"),
    (lambda: fwAD.make_dual(torch.ones(2, dtype=torch.float64), torch.ones(2,
                            dtype=torch.float64)),
     "tensor([1., 1.], dtype=torch.float64,\n       tangent=tensor([1., 1.], "
     "dtype=torch.float64))"),
])
def test_repr(make, expected):
    with fwAD.dual_level():
        assert repr(make()) == expected


# ---- values and dtypes

def test_tangents_of_a_few_functions():
    x = torch.tensor([0.5, 1.5], dtype=torch.float64)
    t = torch.tensor([1.0, -2.0], dtype=torch.float64)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        np.testing.assert_allclose(_tangent(d.exp()).numpy(), np.exp(x.numpy()) * t.numpy())
        np.testing.assert_allclose(_tangent(d * d).numpy(), 2 * x.numpy() * t.numpy())
        np.testing.assert_allclose(_tangent(2 ** d).numpy(),
                                   np.log(2) * 2 ** x.numpy() * t.numpy())
        np.testing.assert_allclose(_tangent(d ** d).numpy(),
                                   x.numpy() ** x.numpy() * (np.log(x.numpy()) + 1) * t.numpy())
        assert _tangent(d.sum()).item() == -1.0
        assert _tangent(d > 1) is None and _tangent(d.to(torch.int64)) is None
        values, indices = fwAD.make_dual(torch.tensor([[1.0, 5.0], [3.0, 2.0]]),
                                         torch.tensor([[1.0, 2.0], [3.0, 4.0]])).max(1)
        assert _tangent(values).tolist() == [2.0, 3.0] and _tangent(indices) is None


@pytest.mark.parametrize(("make", "dtype"), [
    (lambda d, d64, e0: d * torch.ones(2, dtype=torch.float64), torch.float64),
    (lambda d, d64, e0: torch.ones(2, dtype=torch.float64) + d, torch.float64),
    (lambda d, d64, e0: d * torch.tensor(2.0, dtype=torch.float64), torch.float32),
    (lambda d, d64, e0: d.double(), torch.float64),
    (lambda d, d64, e0: d64 * 2, torch.float64),
    (lambda d, d64, e0: d64.sin(), torch.float64),
    (lambda d, d64, e0: d64.sum(), torch.float64),
    (lambda d, d64, e0: d64[0], torch.float64),
    (lambda d, d64, e0: d64.half(), torch.float16),
    (lambda d, d64, e0: torch.ones(2, dtype=torch.int64) + e0, torch.float64),
    (lambda d, d64, e0: torch.ones(2) * e0, torch.float32),
])
def test_tangent_dtypes(make, dtype):
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.ones(2))
        d64 = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.ones(2, dtype=torch.float64))
        e0 = fwAD.make_dual(torch.tensor(2.0, dtype=torch.float64),
                            torch.tensor(1.0, dtype=torch.float64))
        assert _tangent(make(d, d64, e0)).dtype == dtype


# ---- views and in-place writes

def test_a_view_shares_its_bases_tangent():
    t = torch.arange(6.0).view(2, 3) * 10
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.arange(6.0).view(2, 3), t)
        row = d[0]
        assert _tangent(row)._base is t and _tangent(row).data_ptr() == t.data_ptr()
        row.mul_(2)
        assert t.tolist() == [[0.0, 20.0, 40.0], [30.0, 40.0, 50.0]]
        d.mul_(5)
        assert _tangent(row).tolist() == [0.0, 100.0, 200.0]


def test_a_view_made_before_its_base_had_a_tangent_finds_it():
    b = torch.zeros(2, 3)
    row, column = b[0], b[:, 1]
    with fwAD.dual_level():
        b.copy_(fwAD.make_dual(torch.ones(2, 3), torch.arange(6.0).view(2, 3)))
        assert _tangent(row).tolist() == [0.0, 1.0, 2.0]
        assert _tangent(column).tolist() == [1.0, 4.0]
        b.mul_(2)
        assert _tangent(row).tolist() == [0.0, 2.0, 4.0]


def test_writing_a_dual_into_a_plain_tensor_or_its_view():
    with fwAD.dual_level():
        z = torch.zeros(2, 3)
        z[1] = fwAD.make_dual(torch.ones(3), torch.full((3,), 5.0))
        assert _tangent(z).tolist() == [[0.0] * 3, [5.0] * 3]
        w = torch.zeros(3)
        w.add_(fwAD.make_dual(torch.ones(3), torch.full((3,), 2.0)))
        w.mul_(3)
        assert repr(w) == "tensor([3., 3., 3.], tangent=tensor([6., 6., 6.]))"
        base = torch.zeros(2, 3)
        view = base[0]
        view.copy_(fwAD.make_dual(torch.ones(3), torch.full((3,), 4.0)))
        assert _tangent(base).tolist() == [[4.0] * 3, [0.0] * 3]
        with pytest.raises(RuntimeError, match="^result type Float can't be cast to the "
                           "desired output type Long$"):
            torch.zeros(3, dtype=torch.int64).add_(fwAD.make_dual(torch.ones(3), torch.ones(3)))


def test_writing_a_dual_in_place():
    with fwAD.dual_level():
        t = torch.full((3,), 2.0)
        k = fwAD.make_dual(torch.ones(3), t)
        k.add_(torch.ones(3))
        assert _tangent(k) is t and t.tolist() == [2.0] * 3
        k.copy_(torch.zeros(3))
        assert t.tolist() == [0.0] * 3
        shared = torch.ones(2)
        a = fwAD.make_dual(torch.ones(2), shared)
        b = fwAD.make_dual(torch.ones(2), shared)
        a.mul_(3)
        assert _tangent(b).tolist() == [3.0, 3.0]
        own = fwAD.make_dual(torch.zeros(2, 3)[0], torch.ones(3))  # its own tangent
        own.add_(1)
        assert _tangent(own._base) is None


def test_writing_into_a_tangent_that_is_a_leaf_requiring_grad():
    leaf = torch.ones(3, requires_grad=True)
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being"):
            fwAD.make_dual(torch.ones(3), leaf).mul_(2)
        k = fwAD.make_dual(torch.ones(3), leaf * 1)
        k.mul_(2)
        assert _tangent(k).grad_fn.name() == "torch::autograd::CopyBackwards"
        assert _tangent(k).tolist() == [2.0] * 3


def test_detach_and_data_drop_the_tangent_and_clone_keeps_it():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(2), torch.full((2,), 3.0))
        assert _tangent(d.detach()) is None and _tangent(d.data) is None
        assert _tangent(d.clone()).tolist() == [3.0, 3.0]
        y = d * 2
        assert _tangent(fwAD.unpack_dual(y).primal) is None


# ---- where forward mode stops

@pytest.mark.parametrize(("name", "args"), [
    ("add", lambda d: (d, d)), ("mul", lambda d: (d, 2)), ("exp", lambda d: (d,)),
    ("clamp", lambda d: (d, 0, 1)), ("sigmoid", lambda d: (d,)),
])
def test_out_functions_write_then_refuse_duals(name, args):
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([0.5, 1.0]), torch.ones(2))
        out = torch.zeros(2)
        with pytest.raises(NotImplementedError) as refused:
            getattr(torch, name)(*args(d), out=out)
        assert str(refused.value) == (f"Trying to use forward AD with {name}_out that does not "
                                      "support it because it is an out= function")
        assert out.tolist() == getattr(torch, name)(*args(d.detach())).tolist()
        target = fwAD.make_dual(torch.zeros(2), torch.ones(2))
        with pytest.raises(NotImplementedError):
            torch.mul(torch.ones(2), 2, out=target)


class _Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.tangent_seen = fwAD.unpack_dual(x).tangent
        return x.exp()

    @staticmethod
    def backward(ctx, g):
        return g


class _ExpWithJvp(torch.autograd.Function):
    @staticmethod
    def forward(x, y, k):
        return x.exp() * y * k, x + 0

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_forward(output[0])

    @staticmethod
    def backward(ctx, g1, g2):
        return g1, g1, None

    @staticmethod
    def jvp(ctx, tx, ty, tk):
        (result,) = ctx.saved_tensors
        ctx.given = (tx, ty, tk)
        return tx * result, tx


def test_custom_functions_need_a_jvp():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([0.0, 1.0]), torch.ones(2))
        with pytest.raises(NotImplementedError) as refused:
            _Exp.apply(d)
        assert str(refused.value) == ("You must implement the jvp function for custom "
                                      "autograd.Function to use it with forward mode AD.")
        assert _tangent(_Exp.apply(torch.ones(2))) is None
        with torch.inference_mode():
            np.testing.assert_allclose(_Exp.apply(d).numpy(), np.exp([0.0, 1.0]), rtol=1e-6)


def test_custom_function_jvp():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([0.0, 1.0]), torch.full((2,), 2.0))
        out, same = _ExpWithJvp.apply(d, torch.ones(2), 3)
        np.testing.assert_allclose(_tangent(out).numpy(), 2 * 3 * np.exp([0.0, 1.0]), rtol=1e-6)
        assert _tangent(same).tolist() == [2.0, 2.0]
        ctx = out.grad_fn
        assert ctx is None  # nothing required grad: no node, yet jvp ran


def test_custom_function_jvp_results_are_checked():
    class Short(_ExpWithJvp):
        @staticmethod
        def jvp(ctx, tx, ty, tk):
            return tx

    class Wide(_ExpWithJvp):
        @staticmethod
        def jvp(ctx, tx, ty, tk):
            return tx, torch.ones(3)

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([0.0, 1.0]), torch.ones(2))
        _raises(RuntimeError, "Function's jvp returned an invalid number of forward gradients "
                "(expected 2 but got 1)", lambda: Short.apply(d, torch.ones(2), 3))
        _raises(RuntimeError, "Trying to set a forward gradient that has a different size "
                "than that of the original Tensor, this is not supported. Tensor is of size "
                "[2] while the given forward gradient is of size [3].",
                lambda: Wide.apply(d, torch.ones(2), 3))


def test_custom_function_forward_sees_no_tangents():
    seen = []

    class Probe(_Exp):
        @staticmethod
        def forward(ctx, x):
            seen.append((fwAD.unpack_dual(x).tangent, fwAD._is_fwd_grad_enabled(),
                         fwAD.unpack_dual(x.exp()).tangent))
            return x * 1

        @staticmethod
        def jvp(ctx, t):
            return t

    with fwAD.dual_level():
        Probe.apply(fwAD.make_dual(torch.ones(2), torch.ones(2)))
    assert seen == [(None, False, None)]


# ---- forward and reverse together

def test_forward_over_reverse_gives_hessian_vector_products():
    x = torch.tensor([0.3, 1.2, -0.7], dtype=torch.float64, requires_grad=True)
    t = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        for f, hvp in [
            (lambda a: (a ** 3).sum(), [1.8, -14.4, -2.1]),
            (lambda a: a.exp().sum(), np.exp([0.3, 1.2, -0.7]) * [1.0, -2.0, 0.5]),
            (lambda a: a.tanh().sum(), [-0.533181878, 1.017125300, 0.383616155]),
            (lambda a: (a.softmax(0) * torch.tensor([1.0, 2.0, 3.0],
                                                   dtype=torch.float64)).sum(),
             [-0.333168078, 0.131898690, 0.201269387]),
        ]:
            (g,) = torch.autograd.grad(f(d), d, create_graph=True)
            np.testing.assert_allclose(_tangent(g).detach().numpy(), hvp, rtol=1e-8)


def test_reverse_over_forward():
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    t = torch.ones(2, requires_grad=True)
    with fwAD.dual_level():
        tangent = _tangent(fwAD.make_dual(x, t).exp().sin())
    tangent.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [-2.8384, -5.5136], rtol=1e-4)
    np.testing.assert_allclose(t.grad.numpy(), np.cos(np.exp([0.5, 1.0])) * np.exp([0.5, 1.0]),
                               rtol=1e-6)


# ---- gradcheck of forward mode

class _SinWithWrongJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_forward(a)
        return a.sin()

    @staticmethod
    def backward(ctx, g):
        raise AssertionError("not used")

    @staticmethod
    def jvp(ctx, t):
        (a,) = ctx.saved_tensors
        return t * a.cos() * 1.01


def test_gradcheck_checks_forward_mode():
    x = torch.tensor([0.5, 1.0, -2.0], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(torch.sin, (x,), check_forward_ad=True)
    assert torch.autograd.gradcheck(lambda a: a.softmax(0), (x,), check_forward_ad=True,
                                    check_backward_ad=False, fast_mode=True)
    assert torch.autograd.gradgradcheck(lambda a: (a ** 3).sum(), (x,), check_fwd_over_rev=True)
    with pytest.raises(GradcheckError) as wrong:
        torch.autograd.gradcheck(_SinWithWrongJvp.apply, (x,), check_forward_ad=True,
                                 check_backward_ad=False)
    assert str(wrong.value) == (
        "Jacobian computed with forward mode mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[ 0.8776,  0.0000,  0.0000],\n"
        "        [ 0.0000,  0.5403,  0.0000],\n"
        "        [ 0.0000,  0.0000, -0.4161]], dtype=torch.float64)\n"
        "analytical:tensor([[ 0.8864,  0.0000, -0.0000],\n"
        "        [ 0.0000,  0.5457, -0.0000],\n"
        "        [ 0.0000,  0.0000, -0.4203]], dtype=torch.float64)\n")


def _jvp_of(forward, jvp, second_tangent=None):
    class Custom(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return forward(x, y)

        @staticmethod
        def jvp(ctx, tx, ty):
            return jvp(tx, ty)

        @staticmethod
        def backward(ctx, *grads):
            return grads[0], None

    with fwAD.dual_level():
        x = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        y = torch.tensor([3.0, 4.0])
        if second_tangent is not None:
            y = fwAD.make_dual(y, second_tangent)
        out = Custom.apply(x, y)
        return [_tangent(o).tolist() for o in (out if isinstance(out, tuple) else (out,))]


@pytest.mark.parametrize("jvp, message", [
    (lambda tx, ty: [tx * 2], "expected Variable or None (got list) for grad output 0."),
    (lambda tx, ty: (tx, "a"), "expected Variable or None (got str) for grad output 1."),
    (lambda tx, ty: ("a",), "expected Variable or None (got str) for grad output 0."),
])
def test_jvp_results_must_be_tensors_or_none(jvp, message):
    with pytest.raises(RuntimeError, match=r"\A" + re.escape(message) + r"\Z"):
        _jvp_of(lambda x, y: (x * 2, x * 3), jvp)


VIEW_CASES = [
    (lambda x, y: x[:1], lambda tx, ty: tx[:1], None, [[1.0]]),
    (lambda x, y: x, lambda tx, ty: tx.view_as(tx), None, [[1.0, 1.0]]),
    (lambda x, y: (x * 2, y), lambda tx, ty: (tx * 2, ty), None, [[2.0, 2.0], [0.0, 0.0]]),
]


@pytest.mark.parametrize("forward, jvp, second, tangents", VIEW_CASES)
def test_a_view_of_an_input_gets_a_view_of_its_tangent(forward, jvp, second, tangents):
    assert _jvp_of(forward, jvp, second) == tangents


NOT_A_VIEW = ("A custom Function's forward is returning a view (or an input as-is) but the jvp "
              "is not returning a view.")


@pytest.mark.parametrize("forward, jvp, second, message", [
    (lambda x, y: x[:1], lambda tx, ty: tx[:1].clone(), None, NOT_A_VIEW),
    (lambda x, y: x, lambda tx, ty: tx, None, NOT_A_VIEW),
    (lambda x, y: (x * 2, y), lambda tx, ty: (tx * 2, ty * 1), torch.tensor([5.0, 5.0]),
     NOT_A_VIEW),
    (lambda x, y: y[:1], lambda tx, ty: tx[:1], torch.tensor([5.0, 5.0]),
     "A custom Function is returning a view but the jvp is not returning a view of the given "
     "grad input."),
])
def test_a_view_of_an_input_with_a_tangent_refuses_other_tangents(forward, jvp, second,
                                                                   message):
    with pytest.raises(RuntimeError, match=r"\A" + re.escape(message) + r"\Z"):
        _jvp_of(forward, jvp, second)


def test_a_view_of_a_viewed_input_needs_a_tangent_of_the_same_base():
    class Part(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return y[:1]

        @staticmethod
        def jvp(ctx, tx, ty):
            return pick(tx, ty)[:1]

        @staticmethod
        def backward(ctx, *grads):
            return None, None

    with fwAD.dual_level():
        x = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        y = fwAD.make_dual(torch.tensor([3.0, 4.0, 5.0]), torch.tensor([5.0, 6.0, 7.0]))[1:]
        pick = lambda tx, ty: ty  # noqa: E731
        assert _tangent(Part.apply(x, y)).tolist() == [6.0]
        pick = lambda tx, ty: tx  # noqa: E731
        with pytest.raises(RuntimeError, match=r"\AA custom Function is returning a view but "
                           r"the jvp is not returning a view of the same base as the given "
                           r"grad input\.\Z"):
            Part.apply(x, y)


@pytest.mark.parametrize(("name", "args"), [
    ("t_", ()), ("transpose_", (0, 1)), ("swapdims_", (0, 1)), ("unsqueeze_", (0,)),
    ("squeeze_", ()), ("as_strided_", ((3, 2), (1, 3))),
])
def test_an_in_place_shape_change_changes_the_tangent_itself(name, args):
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    t = torch.tensor([[1.0, 0.0, 2.0], [0.5, -1.0, 3.0]])
    with fwAD.dual_level():
        d = fwAD.make_dual(x.clone(), t)
        getattr(d, name)(*args)
        tangent = fwAD.unpack_dual(d).tangent
        assert tangent is t
        assert (t.shape, t.stride(), t._version) == (d.shape, d.stride(), 1)


@pytest.mark.parametrize("spread", [
    lambda x: x.std(), lambda x: x.std(0), lambda x: x.std(0, keepdim=True),
    lambda x: torch.std_mean(x)[0], lambda x: torch.std_mean(x, 0)[0],
])
def test_the_tangent_of_a_spread_that_is_zero_is_zero(spread):
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor([1.0, 1.0]), torch.tensor([1.0, 2.0]))
        tangent = fwAD.unpack_dual(spread(dual)).tangent
    assert tangent.flatten().tolist() == [0.0]


def test_std_mean_gives_both_tangents():
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor([[1.0, 3.0], [2.0, 2.0]]),
                              torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        std, mean = (fwAD.unpack_dual(r).tangent for r in torch.std_mean(dual, 1))
    assert std.tolist() == [torch.tensor(0.5).sqrt().item(), 0.0]
    assert mean.tolist() == [1.5, 3.5]


def test_the_tangent_of_sinc_at_zero_is_zero():
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor([0.0, 1.0]), torch.tensor([1.0, -1.0]))
        assert fwAD.unpack_dual(dual.sinc()).tangent.tolist() == [0.0, 1.0]
