"""Black-box tests: two dispatch modes, the inner one passing every call through. The outer
mode sees each call as the inner one passed it: factories with the options they were
given (no pin_memory added), formula steps and checks that run no op below them, and
autograd's own work. The same assertions run on torch."""

import pytest
import torch

from conformance._support import calling_mode

Calls = calling_mode()
F = torch.nn.functional


def _leaf():
    return (torch.arange(6, dtype=torch.float64).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()


STEPS = {
    "rsqrt": lambda x: x.rsqrt(),
    "atanh": lambda x: (x * 0.3).atanh(),
    "sinc": torch.sinc,
    "clamp": lambda x: x.clamp(0.3, 0.7),
    "prod": lambda x: x.prod(),
    "trace": lambda x: x.trace(),
    "cumprod": lambda x: x.cumprod(0),
    "inverse": lambda x: (x[:, :2] + torch.eye(2, dtype=x.dtype)).inverse(),
    "silu": F.silu,
    "logit": lambda x: (x * 0.3).logit(),
    "gather": lambda x: x.gather(1, torch.tensor([[0], [1]])),
    "sort": lambda x: x.sort(1).values,
    "hinge": lambda x: F.hinge_embedding_loss(x, torch.tensor([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]],
                                                              dtype=x.dtype)),
    "normalize": F.normalize,
    "batch_norm": lambda x: F.batch_norm(x, None, None, training=True),
}


@pytest.mark.parametrize("name", list(STEPS))
def test_the_outer_mode_sees_what_the_inner_one_passed(name):
    x = _leaf()
    with Calls() as outer, Calls() as inner:
        y = STEPS[name](x)
        y.sum().backward()
    assert inner.seen
    assert outer.seen == inner.seen


def test_a_factory_a_mode_calls_reaches_the_next_mode_as_called():
    x = torch.ones(2, 3)

    class Adding(Calls):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = dict(kwargs or {})
            if str(func) == "aten.new_empty_strided.default":
                kwargs["pin_memory"] = False
            return super().__torch_dispatch__(func, types, args, kwargs)

    with Calls() as outer, Adding():
        x.new_empty_strided((2, 3), (3, 1))
    assert outer.seen == [("aten.new_empty_strided.default", ("T", [2, 3], [3, 1]),
                           {"pin_memory": False})]


def test_a_row_a_mode_calls_is_bound_again_for_the_next_mode():
    x = torch.ones(2, 3)

    class Explicit(Calls):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = dict(kwargs or {})
            if str(func) == "aten.add.Tensor":
                kwargs["alpha"] = 1
            return super().__torch_dispatch__(func, types, args, kwargs)

    with Calls() as outer, Explicit():
        x + x
    assert outer.seen == [("aten.add.Tensor", ("T", "T"), {})]


NONE_FROM_A_FORMULA = {
    "binary_cross_entropy": (
        lambda x: F.binary_cross_entropy(x.sigmoid(), torch.full_like(x, 0.5)),
        "aten.binary_cross_entropy_backward.default", 3),
    "multi_margin_loss": (
        lambda x: F.multi_margin_loss(x.t().contiguous(), torch.tensor([0, 1, 0])),
        "aten.multi_margin_loss_backward.default", 5),
}


@pytest.mark.parametrize("name", sorted(NONE_FROM_A_FORMULA))
def test_a_none_a_formula_passed_is_left_off_when_passed_again(name):
    loss, op, given = NONE_FROM_A_FORMULA[name]
    x = _leaf()
    with Calls() as outer, Calls() as inner:
        loss(x).backward()
    [(_, inner_args, _)] = [entry for entry in inner.seen if entry[0] == op]
    [(_, outer_args, _)] = [entry for entry in outer.seen if entry[0] == op]
    assert inner_args[given:] == (None,)
    assert outer_args == inner_args[:given]
