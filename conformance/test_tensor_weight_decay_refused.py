"""A 0-d tensor that requires grad is no Number to torch's argument parser: add's and sub's
alpha refuse it, and so Adam's step refuses such a weight_decay, in the words of add, or, with
foreach=True, of _foreach_add. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises

_FOREACH_FORMS = (
    " * (tuple of Tensors self, Number scalar)\n"
    " * (tuple of Tensors self, tuple of Scalars scalars)\n"
    " * (tuple of Tensors self, Tensor other, *, Number alpha = 1)\n"
    " * (tuple of Tensors self, tuple of Tensors other, *, Number alpha = 1)\n")


def _decay():
    return torch.tensor(0.1, requires_grad=True)


_CALLS = {
    "torch.add": ("add", lambda x: torch.add(x, x, alpha=_decay())),
    "Tensor.add": ("add", lambda x: x.add(x, alpha=_decay())),
    "Tensor.add_": ("add_", lambda x: x.add_(x, alpha=_decay())),
    "number": ("add", lambda x: torch.add(x, 2, alpha=_decay())),
    "torch.sub": ("sub", lambda x: torch.sub(x, x, alpha=_decay())),
    "Tensor.sub_": ("sub_", lambda x: x.sub_(x, alpha=_decay())),
}


@pytest.mark.parametrize("name, call", _CALLS.values(), ids=_CALLS.keys())
def test_alpha_refuses_a_tensor_that_requires_grad(name, call):
    x = torch.ones(3)
    with raises(TypeError, f"{name}(): argument 'alpha' must be Number, not Tensor"):
        call(x)
    with torch.no_grad(), raises(TypeError, f"{name}(): argument 'alpha' must be Number, "
                                            "not Tensor"):
        call(x)
    assert x.tolist() == [1.0, 1.0, 1.0]


def test_a_0d_tensor_without_grad_is_still_a_number():
    x = torch.ones(3)
    assert torch.add(x, x, alpha=torch.tensor(0.5)).tolist() == [1.5, 1.5, 1.5]
    assert x.sub_(x, alpha=torch.tensor(2.0)).tolist() == [-1.0, -1.0, -1.0]


def _params():
    ps = [torch.nn.Parameter(torch.ones(2)) for _ in range(2)]
    for p in ps:
        p.grad = torch.ones(2)
    return ps


@pytest.mark.parametrize("maximize", [False, True])
def test_adam_refuses_it_in_adds_words(maximize):
    ps = _params()
    opt = torch.optim.Adam(ps, weight_decay=_decay(), maximize=maximize)
    with raises(TypeError, "add(): argument 'alpha' must be Number, not Tensor"):
        opt.step()
    assert [opt.state[p]["step"].item() for p in ps] == [1.0, 0.0]  # one by one
    assert all(p.tolist() == [1.0, 1.0] for p in ps)


@pytest.mark.parametrize("cls", [torch.optim.Adam, torch.optim.SGD])
@pytest.mark.parametrize("maximize", [False, True])
@pytest.mark.parametrize("decay", [_decay, lambda: torch.tensor([0.1])], ids=["grad", "1d"])
def test_foreach_refuses_it_in_foreach_adds_words(cls, maximize, decay):
    ps = _params()
    opt = cls(ps, weight_decay=decay(), maximize=maximize, foreach=True)
    name, got = ("_foreach_add_", "tuple") if maximize else ("_foreach_add", "list")
    with raises(TypeError, f"{name}() received an invalid combination of arguments - got "
                           f"({got}, list, alpha=Tensor), but expected one of:\n"
                           + _FOREACH_FORMS):
        opt.step()
    if cls is torch.optim.Adam:
        assert [opt.state[p]["step"].item() for p in ps] == [1.0, 1.0]  # all at once
    assert all(p.tolist() == [1.0, 1.0] and p.grad.tolist() == [1.0, 1.0] for p in ps)


def test_what_takes_it_as_a_tensor():
    for cls, options in ((torch.optim.SGD, {}), (torch.optim.AdamW, {}),
                         (torch.optim.AdamW, {"foreach": True})):
        ps = _params()
        cls(ps, weight_decay=_decay(), **options).step()
        assert all(p.tolist() != [1.0, 1.0] for p in ps)


@pytest.mark.parametrize("foreach", [False, True])
def test_a_0d_weight_decay_without_grad_steps_as_its_number(foreach):
    by_tensor, by_number = _params(), _params()
    torch.optim.Adam(by_tensor, weight_decay=torch.tensor(0.1), foreach=foreach).step()
    torch.optim.Adam(by_number, weight_decay=0.1, foreach=foreach).step()
    for a, b in zip(by_tensor, by_number):
        torch.testing.assert_close(a.detach(), b.detach())
