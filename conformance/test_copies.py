"""copy.copy, copy.deepcopy and pickle of tensors, parameters and models."""

import copy
import pickle
import warnings

import pytest
import torch

from conformance._support import raises

NOT_A_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol "
    "at the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001"
)


def trained_leaf():
    x = torch.arange(6.0).requires_grad_()
    (x * 2).sum().backward()
    return x


def test_a_deep_copy_is_a_new_leaf_with_a_copy_of_the_gradient():
    x = trained_leaf()
    y = copy.deepcopy(x)
    assert y is not x and y.is_leaf and y.requires_grad and y._version == 1
    assert torch.equal(y.grad, x.grad) and y.grad is not x.grad
    y.detach().add_(1)
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    with raises(RuntimeError, NOT_A_LEAF):
        copy.deepcopy(x * 2)


def test_a_pickle_keeps_values_layout_and_requires_grad_but_no_gradient():
    x = trained_leaf()
    back = pickle.loads(pickle.dumps(x))
    assert back.tolist() == x.tolist() and back.requires_grad and back.grad is None
    assert back._version == 1
    again = pickle.loads(pickle.dumps(x * 2))  # a history is dropped: a leaf that requires grad
    assert again.is_leaf and again.requires_grad and again.tolist()[1] == 2.0
    assert pickle.loads(pickle.dumps(torch.arange(6.0)[::2])).stride() == (2,)
    assert pickle.loads(pickle.dumps(torch.arange(6.0).reshape(2, 3).t())).stride() == (1, 3)
    view = pickle.loads(pickle.dumps(torch.arange(4.0)[1:3]))
    assert view.storage_offset() == 1 and view._base is None and view.tolist() == [1.0, 2.0]
    ints = pickle.loads(pickle.dumps(torch.tensor([1, 2])))
    assert ints.dtype == torch.int64 and not ints.requires_grad


def test_views_share_memory_within_one_deepcopy_and_not_within_one_pickle():
    base = torch.arange(4.0)
    view = base[1:3]
    copied_base, copied_view = copy.deepcopy((base, view))
    copied_view.mul_(10)
    assert copied_base.tolist() == [0.0, 10.0, 20.0, 3.0] and copied_view._base is None
    pickled_base, pickled_view = pickle.loads(pickle.dumps((base, view)))
    pickled_view.mul_(10)
    assert pickled_base.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert base.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_a_shallow_copy_shares_the_memory_but_not_the_version_counter():
    x = trained_leaf()
    shallow = copy.copy(x)
    assert shallow is not x and shallow.is_leaf and shallow.requires_grad and shallow.grad is None
    with torch.no_grad():
        shallow.add_(1)
    assert x.tolist()[0] == 1.0 and x._version == 0 and shallow._version == 2


def test_parameters_copy_without_their_gradient():
    p = torch.nn.Parameter(torch.ones(2))
    p.grad = torch.full((2,), 3.0)
    for q in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert type(q) is torch.nn.Parameter and q.requires_grad and q.grad is None
        assert q.tolist() == [1.0, 1.0]
    frozen = torch.nn.Parameter(torch.ones(2), requires_grad=False)
    assert not copy.deepcopy(frozen).requires_grad
    assert not pickle.loads(pickle.dumps(frozen)).requires_grad
    assert type(copy.copy(p)) is torch.nn.Parameter


def test_a_trained_model_and_its_optimizer_state_deep_copy_and_pickle():
    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
    opt = torch.optim.Adam(model.parameters())
    model(torch.ones(1, 2)).sum().backward()
    opt.step()
    twin = copy.deepcopy(model)
    assert torch.equal(twin[0].weight, model[0].weight) and twin[0].weight is not model[0].weight
    assert twin[0].weight.grad is None
    assert pickle.loads(pickle.dumps(model))[0].bias.requires_grad
    state = copy.deepcopy(opt.state_dict())
    assert torch.equal(state["state"][0]["exp_avg"], opt.state_dict()["state"][0]["exp_avg"])


def test_pickling_a_hooked_tensor_warns_that_the_hook_stays_behind():
    x = torch.ones(2, requires_grad=True)
    x.register_hook(lambda g: g)
    with pytest.warns(UserWarning, match=r"\Abackward hook <function .* on tensor will not be "
                                         r"serialized\.  If this is expected, you can decorate "
                                         r"the function with @torch\.utils\.hooks\."
                                         r"unserializable_hook to suppress this warning\Z"):
        pickle.loads(pickle.dumps(x))
    quiet = torch.ones(2, requires_grad=True)
    quiet.register_hook(torch.utils.hooks.unserializable_hook(lambda g: g))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pickle.loads(pickle.dumps(quiet)).requires_grad
