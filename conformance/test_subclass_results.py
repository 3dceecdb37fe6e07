"""A Tensor subclass without a __torch_function__ of its own: what its methods, operators
and tensor properties return is of the subclass, through an AliasBackward0 where it
requires grad; only the outermost call converts; Parameter and classes that define their
own __torch_function__ opt out.
"""

import warnings

import pytest
import torch


class Sub(torch.Tensor):
    pass


class SubSub(Sub):
    pass


def _sub(cls=Sub, requires_grad=False):
    base = (torch.arange(6, dtype=torch.float64).reshape(2, 3, 1) * 0.3 + 0.1)
    return base.requires_grad_(requires_grad).as_subclass(cls)


METHODS = {
    "expand": lambda t: t.expand(2, 3, 4), "view": lambda t: t.view(6),
    "reshape": lambda t: t.reshape(6), "transpose": lambda t: t.transpose(0, 1),
    "t": lambda t: t[..., 0].t(), "permute": lambda t: t.permute(2, 0, 1),
    "unsqueeze": lambda t: t.unsqueeze(0), "squeeze": lambda t: t.squeeze(),
    "squeeze_dim": lambda t: t.squeeze(2), "narrow": lambda t: t.narrow(1, 0, 2),
    "select": lambda t: t.select(0, 1), "getitem": lambda t: t[0],
    "getitem_slice": lambda t: t[:, 1:], "getitem_list": lambda t: t[[0, 1]],
    "expand_as": lambda t: t.expand_as(torch.empty(2, 3, 5)), "detach": lambda t: t.detach(),
    "flatten": lambda t: t.flatten(), "unflatten": lambda t: t.unflatten(1, (3, 1)),
    "view_as": lambda t: t.view_as(torch.empty(6)), "mT": lambda t: t.mT,
    "T": lambda t: t[..., 0].T, "unbind": lambda t: t.unbind(0)[0],
    "split": lambda t: t.split(1)[0], "chunk": lambda t: t.chunk(2)[0],
    "movedim": lambda t: t.movedim(0, 1), "diagonal": lambda t: t[..., 0].diagonal(),
    "unfold": lambda t: t.unfold(1, 2, 1), "clone": lambda t: t.clone(),
    "contiguous": lambda t: t.transpose(0, 1).contiguous(), "add": lambda t: t + 1,
    "radd": lambda t: torch.ones(2, 3, 1, dtype=torch.float64) + t, "neg": lambda t: -t,
    "sum": lambda t: t.sum(), "to": lambda t: t.to(torch.float32), "float": lambda t: t.float(),
    "max_values": lambda t: t.max(1).values, "sort_indices": lambda t: t.sort(1).indices,
    "new_zeros": lambda t: t.new_zeros(2), "data": lambda t: t.data, "real": lambda t: t.real,
    "eq": lambda t: t == 0.1, "repeat": lambda t: t.repeat(1, 1, 2),
}


@pytest.mark.parametrize("name", list(METHODS))
@pytest.mark.parametrize("cls", [Sub, SubSub])
def test_a_subclass_s_methods_return_the_subclass(name, cls):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # .T of a 3-d tensor, in torch
        out = METHODS[name](_sub(cls))
    assert type(out) is cls


@pytest.mark.parametrize("name", ["expand", "transpose", "getitem", "add", "sum", "clone"])
def test_the_conversion_records_an_alias_above_the_operation(name):
    leaf = (torch.arange(6, dtype=torch.float64).reshape(2, 3, 1) * 0.3).requires_grad_()
    sub = leaf.as_subclass(Sub)
    out = METHODS[name](sub)
    assert type(out.grad_fn).__name__ == "AliasBackward0"
    below = out.grad_fn.next_functions[0][0]
    assert below.next_functions[0][0] is sub.grad_fn
    assert type(sub.grad_fn).__name__ == "AliasBackward0"
    out.sum().backward()
    assert type(leaf.grad) is torch.Tensor and leaf.grad.shape == leaf.shape


def test_outside_grad_mode_and_in_place_nothing_is_recorded_or_converted_again():
    sub = _sub(requires_grad=True)
    with torch.no_grad():
        out = sub.expand(2, 3, 4)
    # no node; the converted copy still reports requires_grad, as torch's does
    assert type(out) is Sub and out.grad_fn is None and out.requires_grad
    fresh = _sub()
    same = fresh.mul_(2)
    assert same is fresh and fresh._version == 1
    assert type(fresh.max(1)).__name__ == "max" and type(fresh.split(1)) is tuple


def test_a_method_that_runs_others_records_one_alias():
    sub = _sub(requires_grad=True)
    out = sub.reshape(3, 2).t()
    assert type(out.grad_fn).__name__ == "AliasBackward0"
    assert type(out.grad_fn.next_functions[0][0]).__name__ == "TBackward0"
    (grad,) = torch.autograd.grad(out.sum(), sub)
    assert grad.tolist() == [[[1.0]] * 3] * 2


def test_iterating_gives_the_subclass():
    sub = _sub(requires_grad=True)
    rows = list(sub)
    assert [type(row) for row in rows] == [Sub, Sub]
    assert type(rows[0].grad_fn).__name__ == "AliasBackward0"


def test_parameter_and_classes_with_their_own_torch_function_opt_out():
    class Weight(torch.nn.Parameter):
        pass

    class Own(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            with torch._C.DisableTorchFunctionSubclass():
                return func(*args, **(kwargs or {}))

    p = torch.nn.Parameter(torch.ones(2))
    assert type(p * 2) is torch.Tensor and type(p.expand(3, 2)) is torch.Tensor
    assert type(Weight(torch.ones(2)).expand(3, 2)) is torch.Tensor
    assert type(torch.ones(2).as_subclass(Own).expand(3, 2)) is torch.Tensor
