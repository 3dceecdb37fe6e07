"""torch.nn.utils.parametrize: tensors a module computes from other tensors at each read."""

import copy
import pickle

import torch
import torch.nn.utils.parametrize as P

from conformance._support import raises


class Symmetric(torch.nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(0, 1)


class Double(torch.nn.Module):
    def forward(self, X):
        return X * 2

    def right_inverse(self, X):
        return X / 2


class Split(torch.nn.Module):
    def forward(self, a, b):
        return a + b

    def right_inverse(self, X):
        return X * 0.25, X * 0.75


class First(torch.nn.Module):
    def forward(self, X):
        return X[0]


class Wider(torch.nn.Module):
    def forward(self, X):
        return X.double()


def layer(n=3):
    torch.manual_seed(0)
    return torch.nn.Linear(n, n)


def test_registering_swaps_the_class_and_moves_the_weight_under_parametrizations():
    m = layer()
    P.register_parametrization(m, "weight", Symmetric())
    assert type(m).__name__ == "ParametrizedLinear" and type(m).__bases__ == (torch.nn.Linear,)
    assert isinstance(m, torch.nn.Linear) and P.type_before_parametrizations(m) is torch.nn.Linear
    assert type(torch.nn.Linear(2, 2)) is torch.nn.Linear  # other layers keep their class
    names = ["bias", "parametrizations.weight.original"]
    assert [n for n, _ in m.named_parameters()] == names and list(m.state_dict()) == names
    assert repr(m) == (
        "ParametrizedLinear(\n  in_features=3, out_features=3, bias=True\n"
        "  (parametrizations): ModuleDict(\n    (weight): ParametrizationList(\n"
        "      (0): Symmetric()\n    )\n  )\n)")
    assert P.is_parametrized(m) and P.is_parametrized(m, "weight")
    assert not P.is_parametrized(m, "bias") and not P.is_parametrized(torch.nn.Linear(2, 2))


def test_each_read_computes_the_weight_and_gradients_reach_the_original():
    m = layer()
    before = m.weight.detach().clone()
    P.register_parametrization(m, "weight", Symmetric())
    original = m.parametrizations.weight.original
    assert torch.equal(original, before)  # no right_inverse: the original is the old weight
    assert torch.equal(m.weight, m.weight.T) and m.weight.grad_fn.name() == "AddBackward0"
    assert torch.equal(m.weight, before.triu() + before.triu(1).T)
    assert m.weight is not m.weight
    m.weight.sum().backward()
    assert torch.equal(original.grad, torch.ones(3, 3).triu() * 2 - torch.eye(3))


def test_cached_reads_once_until_the_outermost_block_ends():
    m = layer()
    P.register_parametrization(m, "weight", Double())
    with P.cached():
        first = m.weight
        with P.cached():
            assert m.weight is first
        assert m.weight is first
    assert m.weight is not first


def test_assigning_goes_through_the_right_inverses_into_the_same_original():
    m = layer()
    P.register_parametrization(m, "weight", Double())
    original = m.parametrizations.weight.original
    m.weight = torch.eye(3)
    assert m.parametrizations.weight.original is original
    assert torch.equal(original, torch.eye(3) / 2) and torch.equal(m.weight, torch.eye(3))
    P.register_parametrization(m, "weight", Symmetric())
    with raises(RuntimeError, "parametrization Symmetric does not implement right_inverse."):
        m.weight = torch.eye(3)
    assert [type(f).__name__ for f in m.parametrizations.weight] == ["Double", "Symmetric"]


def test_a_right_inverse_returning_a_sequence_makes_numbered_originals():
    m = layer(2)
    w = m.weight.detach().clone()
    P.register_parametrization(m, "weight", Split())
    names = ["bias", "parametrizations.weight.original0", "parametrizations.weight.original1"]
    assert [n for n, _ in m.named_parameters()] == names
    plist = m.parametrizations.weight
    assert torch.equal(plist.original0, w * 0.25) and torch.equal(plist.original1, w * 0.75)
    assert not hasattr(plist, "original")
    m.weight = torch.ones(2, 2)
    assert plist.original1.tolist() == [[0.75, 0.75], [0.75, 0.75]]
    with raises(ValueError, "Cannot leave unparametrized (`leave_parametrized=False`) a tensor "
                "that is parametrized in terms of a sequence of tensors."):
        P.remove_parametrizations(m, "weight", leave_parametrized=False)
    P.remove_parametrizations(m, "weight")
    assert type(m.weight) is torch.nn.Parameter and m.weight.tolist() == [[1.0, 1.0]] * 2


def test_removing_keeps_the_value_in_the_original_and_restores_the_class():
    m = layer()
    P.register_parametrization(m, "weight", Symmetric())
    original = m.parametrizations.weight.original
    expected = m.weight.detach().clone()
    P.remove_parametrizations(m, "weight")
    assert type(m) is torch.nn.Linear and not hasattr(m, "parametrizations")
    assert m.weight is original and torch.equal(m.weight, expected)
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight"]  # re-registered last
    with raises(ValueError, "Module Linear(in_features=3, out_features=3, bias=True) does not "
                "have a parametrization on weight"):
        P.remove_parametrizations(m, "weight")


def test_removing_one_of_two_keeps_the_class_and_can_drop_the_value():
    m = layer(2)
    P.register_parametrization(m, "weight", Double())
    P.register_parametrization(m, "bias", Double())
    original = m.parametrizations.weight.original.detach().clone()
    P.remove_parametrizations(m, "weight", leave_parametrized=False)
    assert type(m).__name__ == "ParametrizedLinear" and torch.equal(m.weight, original)
    assert list(m.parametrizations) == ["bias"]


def test_buffers_are_parametrized_as_buffers():
    bn = torch.nn.BatchNorm1d(2)
    P.register_parametrization(bn, "running_mean", Double())
    assert [n for n, _ in bn.named_buffers()] == [
        "running_var", "num_batches_tracked", "parametrizations.running_mean.original"]
    assert bn.running_mean.tolist() == [0.0, 0.0] and type(bn).__name__ == "ParametrizedBatchNorm1d"


def test_registration_refuses_what_changes_the_tensor_unless_unsafe():
    with raises(ValueError, "Registering a parametrization may not change the shape of the "
                "tensor, unless `unsafe` flag is enabled.\nunparametrized shape: "
                "torch.Size([2, 2])\nparametrized shape: torch.Size([2])"):
        P.register_parametrization(layer(2), "weight", First())
    with raises(ValueError, "Registering a parametrization may not change the dtype of the "
                "tensor, unless `unsafe` flag is enabled.\nunparametrized dtype: "
                "torch.float32\nparametrized dtype: torch.float64"):
        P.register_parametrization(layer(2), "weight", Wider())
    m = layer(2)
    P.register_parametrization(m, "weight", First(), unsafe=True)
    assert m.weight.shape == (2,) and m.parametrizations.weight.unsafe
    with raises(ValueError, "Module 'Linear(in_features=2, out_features=2, bias=True)' does not "
                "have a parameter, a buffer, or a parametrized element with name 'foo'"):
        P.register_parametrization(layer(2), "foo", Double())
    with raises(ValueError, "ParametrizationList requires one or more modules."):
        P.ParametrizationList([], torch.ones(2))


def test_a_second_parametrization_is_checked_against_the_current_value():
    m = layer(2)
    P.register_parametrization(m, "weight", Double())
    with raises(ValueError, "Registering a parametrization may not change the dtype of the "
                "tensor, unless the `unsafe` flag is enabled.\nmodule.weight.dtype: "
                "torch.float32\nparametrization(module.weight).dtype: torch.float64"):
        P.register_parametrization(m, "weight", Wider())
    with raises(ValueError, "Registering a parametrization may not change the shape of the "
                "tensor, unless the `unsafe` flag is enabled.\nmodule.weight.shape: "
                "torch.Size([2, 2])\nparametrization(module.weight).shape: torch.Size([2])"):
        P.register_parametrization(m, "weight", First())
    assert len(m.parametrizations.weight) == 1


def test_a_parametrization_takes_the_module_training_mode():
    m = layer(2).eval()
    f = Double()
    P.register_parametrization(m, "weight", f)
    assert not f.training


def test_state_dict_round_trips_and_pickling_is_refused():
    m = layer(2)
    P.register_parametrization(m, "weight", Double())
    other = torch.nn.Linear(2, 2)
    P.register_parametrization(other, "weight", Double())
    assert str(other.load_state_dict(m.state_dict())) == "<All keys matched successfully>"
    assert torch.equal(other.weight, m.weight)
    with raises(RuntimeError, "Serialization of parametrized modules is only supported through "
                "state_dict(). See:\nhttps://pytorch.org/tutorials/beginner/"
                "saving_loading_models.html#saving-loading-a-general-checkpoint-for-inference-"
                "and-or-resuming-training"):
        pickle.dumps(m)
    twin = copy.deepcopy(m)
    assert type(twin).__name__ == "ParametrizedLinear" and torch.equal(twin.weight, m.weight)
    assert twin.parametrizations.weight.original is not m.parametrizations.weight.original


def test_transfer_shares_the_parametrizations_and_the_originals():
    src = layer(2)
    P.register_parametrization(src, "weight", Double())
    dst = torch.nn.Linear(2, 2)
    assert P.transfer_parametrizations_and_params(src, dst) is dst
    assert type(dst).__name__ == "ParametrizedLinear"
    assert dst.parametrizations.weight.original is src.parametrizations.weight.original
    assert dst.parametrizations.weight[0] is src.parametrizations.weight[0]
    assert torch.equal(dst.weight, src.weight)


class ToDouble(torch.nn.Module):
    def forward(self, X):
        return X

    def right_inverse(self, X):
        return X.double()


class ToNumber(torch.nn.Module):
    def forward(self, *X):
        return X[0]

    def right_inverse(self, X):
        return [X, 5]


def test_right_inverses_must_keep_the_dtype_and_return_tensors():
    with raises(ValueError, "When `right_inverse` outputs one tensor, it may not change the "
                "dtype.\noriginal.dtype: torch.float32\nright_inverse(original).dtype: "
                "torch.float64"):
        P.register_parametrization(layer(2), "weight", ToDouble())
    with raises(ValueError, "'right_inverse' must return a Tensor or a Sequence of tensors "
                "(list, tuple...). Got element 1 of the sequence with type int."):
        P.register_parametrization(layer(2), "weight", ToNumber())
    m = layer(2)
    P.register_parametrization(m, "weight", Split())
    with raises(ValueError, "Tensor 0 returned by `right_inverse` has dtype torch.float64 while "
                "`original0` has dtype torch.float32"):
        m.weight = torch.ones(2, 2, dtype=torch.float64)
    m = layer(2)
    P.register_parametrization(m, "weight", Double())
    with raises(ValueError, "The tensor returned by `right_inverse` has dtype torch.float64 "
                "while `original` has dtype torch.float32"):
        m.weight = torch.ones(2, 2, dtype=torch.float64)
