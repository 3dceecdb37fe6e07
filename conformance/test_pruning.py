"""torch.nn.utils.prune: a parameter reparametrized as an original times a mask, by a hook."""

import re

import pytest
import torch
from torch.nn.utils import prune

from conformance._support import raises

WEIGHT = [[1.0, -5.0, 3.0], [0.5, -2.0, 4.0]]  # magnitudes all distinct


def layer(weight=WEIGHT):
    m = torch.nn.Linear(len(weight[0]), len(weight))
    with torch.no_grad():
        m.weight.copy_(torch.tensor(weight))
        m.bias.copy_(torch.arange(len(weight), dtype=torch.float32))
    return m


def pruning_hooks(m):
    return [h for h in m._forward_pre_hooks.values() if isinstance(h, prune.BasePruningMethod)]


def test_the_parameter_moves_to_orig_and_a_mask_buffer_appears():
    m = layer()
    weight = m.weight
    assert prune.l1_unstructured(m, "weight", amount=2) is m
    assert list(m._parameters) == ["bias", "weight_orig"]
    assert list(m._buffers) == ["weight_mask"]
    assert list(m.state_dict()) == ["bias", "weight_orig", "weight_mask"]
    assert m.weight_orig is weight
    assert m.weight_mask.tolist() == [[0.0, 1.0, 1.0], [0.0, 1.0, 1.0]]
    assert m.weight_mask.dtype == torch.float32
    assert not isinstance(m.weight, torch.nn.Parameter)
    assert type(m.weight.grad_fn).__name__ == "MulBackward0"
    assert m.weight.tolist() == [[0.0, -5.0, 3.0], [0.0, -2.0, 4.0]]


def test_the_method_is_the_forward_pre_hook_and_recomputes_the_weight():
    m = layer()
    prune.l1_unstructured(m, "weight", amount=0.5)  # round(3.0): three entries
    (hook,) = m._forward_pre_hooks.values()
    assert type(hook) is prune.L1Unstructured and hook._tensor_name == "weight"
    assert hook.amount == 0.5
    with torch.no_grad():
        m.weight_orig.fill_(2.0)
    assert m.weight.tolist() == [[0.0, -5.0, 3.0], [0.0, 0.0, 4.0]]  # not yet recomputed
    assert m(torch.zeros(1, 3)).tolist() == [[0.0, 1.0]]
    assert m.weight.tolist() == [[0.0, 2.0, 2.0], [0.0, 0.0, 2.0]]
    assert hook(m, ()) is None


def test_a_fraction_rounds_half_to_even():
    t = torch.tensor([5.0, 1.0, 4.0, 2.0, 3.0])
    assert prune.L1Unstructured(0.5).compute_mask(t, torch.ones(5)).tolist() == [
        1.0, 0.0, 1.0, 0.0, 1.0]  # 2.5 rounds to 2
    assert prune.L1Unstructured(0.7).compute_mask(t, torch.ones(5)).tolist() == [
        1.0, 0.0, 0.0, 0.0, 0.0]  # 3.5 rounds to 4
    assert prune._compute_nparams_toprune(0.5, 5) == 2 and prune._compute_nparams_toprune(3, 5) == 3


def test_gradients_reach_orig_through_the_mask():
    m = layer()
    prune.l1_unstructured(m, "weight", amount=2)
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    m(x).sum().backward()
    assert m.weight_orig.grad.tolist() == [[0.0, 7.0, 9.0], [0.0, 7.0, 9.0]]
    assert m.bias.grad.tolist() == [2.0, 2.0]
    assert m.weight_mask.grad is None and not m.weight_mask.requires_grad


def test_pruning_again_builds_a_container_that_prunes_among_live_entries():
    m = layer()
    prune.l1_unstructured(m, "weight", amount=2)
    def user(module, args):
        return None

    m.register_forward_pre_hook(user)
    prune.l1_unstructured(m, "weight", amount=0.5)  # half of the 4 live ones
    hooks = list(m._forward_pre_hooks.values())
    assert hooks[0] is user
    container = hooks[-1]
    assert type(container) is prune.PruningContainer and len(container) == 2
    assert [type(p).__name__ for p in container] == ["L1Unstructured", "L1Unstructured"]
    assert container[-1].amount == 0.5 and container._tensor_name == "weight"
    assert m.weight_mask.tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    prune.random_unstructured(m, "weight", amount=1)
    assert list(m._forward_pre_hooks.values())[-1] is container and len(container) == 3
    assert int((m.weight_mask == 0).sum()) == 5


def test_structured_pruning_zeroes_whole_channels_by_their_norm():
    m = layer([[1.0, -5.0, 3.0], [0.5, -2.0, 4.0], [-1.0, 1.0, 0.0], [2.0, 2.0, 2.0]])
    prune.ln_structured(m, "weight", amount=1, n=1, dim=0)  # row 2: L1 norm 2
    assert m.weight_mask.sum(1).tolist() == [3.0, 3.0, 0.0, 3.0]
    prune.ln_structured(m, "weight", amount=1, n=float("inf"), dim=1)  # column 0: max 2
    assert m.weight_mask.tolist() == [[0.0, 1.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, 0.0],
                                      [0.0, 1.0, 1.0]]
    prune.ln_structured(m, "weight", amount=0.5, n=2, dim=-1)  # round(1.0) of the live 2
    assert m.weight_mask.sum(0).tolist() == [0.0, 3.0, 0.0]  # column 2: norm 5.4 < 5.7
    assert [type(p).__name__ for p in pruning_hooks(m)[0]] == ["LnStructured"] * 3


def test_structured_pruning_skips_channels_already_zero():
    m = layer([[0.1, 5.0, 3.0], [0.2, 2.0, 5.0]])
    prune.l1_unstructured(m, "weight", amount=2)  # column 0, entry by entry
    prune.ln_structured(m, "weight", amount=1, n=1, dim=1)  # of columns 1 and 2: norms 7, 8
    assert m.weight_mask.tolist() == [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]


def test_random_unstructured_prunes_the_largest_draws_of_rand_like():
    m = layer()
    torch.manual_seed(3)
    draws = torch.rand(2, 3)
    torch.manual_seed(3)
    prune.random_unstructured(m, "weight", amount=2)
    expected = torch.ones(6)
    expected[draws.view(-1).topk(2).indices] = 0
    assert m.weight_mask.view(-1).tolist() == expected.tolist()


def test_random_structured_prunes_the_channels_of_the_smallest_draws():
    m = layer([[1.0] * 5] * 3)
    torch.manual_seed(11)
    draws = torch.rand(5)
    torch.manual_seed(11)
    prune.random_structured(m, "weight", amount=2, dim=1)
    kept = (draws > draws.sort().values[1]).float()
    assert m.weight_mask.tolist() == [kept.tolist()] * 3


def test_remove_makes_the_pruned_values_a_parameter_again():
    m = layer()
    orig = m.weight
    prune.l1_unstructured(m, "weight", amount=2)
    assert prune.is_pruned(m)
    assert prune.remove(m, "weight") is m
    assert m.weight is orig and type(m.weight) is torch.nn.Parameter
    assert m.weight.tolist() == [[0.0, -5.0, 3.0], [0.0, -2.0, 4.0]]
    assert list(m._parameters) == ["bias", "weight"] and list(m._buffers) == []
    assert list(m.state_dict()) == ["bias", "weight"]
    assert len(m._forward_pre_hooks) == 0 and not prune.is_pruned(m)


def test_remove_and_is_pruned_look_at_the_hooks():
    net = torch.nn.Sequential(layer(), torch.nn.ReLU())
    assert not prune.is_pruned(net)
    prune.identity(net[0], "bias")
    assert prune.is_pruned(net)
    assert net[0].bias_mask.tolist() == [1.0, 1.0]
    text = ("Parameter 'weight' of module Linear(in_features=3, out_features=2, bias=True) has "
            "to be pruned before pruning can be removed")
    with raises(ValueError, text):
        prune.remove(net[0], "weight")


def test_custom_from_mask_multiplies_into_the_mask_in_force():
    m = layer()
    prune.custom_from_mask(m, "bias", torch.tensor([1, 0]))
    assert m.bias_mask.tolist() == [1.0, 0.0] and m.bias_mask.dtype == torch.float32
    prune.custom_from_mask(m, "bias", torch.tensor([0, 1]))
    assert m.bias_mask.tolist() == [0.0, 0.0]
    with raises(AssertionError, "default_mask shape torch.Size([2]) must match self.mask "
                                "shape torch.Size([3])"):
        prune.custom_from_mask(m, "bias", torch.tensor([0, 1, 1]))


def test_global_pruning_chooses_across_parameters():
    a, b = layer(), layer([[0.25, 6.0], [0.75, -0.3]])
    prune.global_unstructured([(a, "weight"), (b, "weight")],
                              pruning_method=prune.L1Unstructured, amount=4)
    assert a.weight_mask.tolist() == [[1.0, 1.0, 1.0], [0.0, 1.0, 1.0]]
    assert b.weight_mask.tolist() == [[0.0, 1.0], [0.0, 0.0]]
    assert type(pruning_hooks(a)[0]) is prune.CustomFromMask
    prune.global_unstructured([(a, "weight"), (b, "weight")],
                              pruning_method=prune.L1Unstructured, amount=0.2)  # 1 of 6 live
    assert a.weight_mask.tolist() == [[0.0, 1.0, 1.0], [0.0, 1.0, 1.0]]
    assert type(pruning_hooks(a)[0]) is prune.PruningContainer


def test_global_pruning_reads_importance_scores_by_module_and_name():
    a, b = layer(), layer([[0.25, 6.0], [0.75, -0.3]])
    scores = {(b, "weight"): torch.tensor([[9.0, 9.0], [9.0, 0.0]])}
    prune.global_unstructured([(a, "weight"), (b, "weight")], prune.L1Unstructured,
                              importance_scores=scores, amount=2)
    assert a.weight_mask.tolist() == [[1.0, 1.0, 1.0], [0.0, 1.0, 1.0]]
    assert b.weight_mask.tolist() == [[1.0, 1.0], [1.0, 0.0]]


def test_global_pruning_refusals():
    a = layer()
    with raises(TypeError, "global_unstructured(): parameters is not an Iterable"):
        prune.global_unstructured(3, prune.L1Unstructured, amount=1)
    with raises(TypeError, "global_unstructured(): importance_scores must be of type dict"):
        prune.global_unstructured([(a, "weight")], prune.L1Unstructured, [], amount=1)
    text = ('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method '
            f"{prune.LnStructured} of type structured")
    with raises(TypeError, text):
        prune.global_unstructured([(a, "weight")], prune.LnStructured, amount=1, n=2, dim=0)
    assert not prune.is_pruned(a)


@pytest.mark.parametrize("amount, kind, text", [
    (1.5, ValueError, "amount=1.5 should either be a float in the range [0, 1] or a "
                      "non-negative integer"),
    (-1, ValueError, "amount=-1 should either be a float in the range [0, 1] or a "
                     "non-negative integer"),
    (-0.1, ValueError, "amount=-0.1 should either be a float in the range [0, 1] or a "
                       "non-negative integer"),
    ("3", TypeError, "Invalid type for amount: 3. Must be int or float."),
    (None, TypeError, "Invalid type for amount: None. Must be int or float."),
])
def test_amounts_are_checked_when_a_method_is_made(amount, kind, text):
    for make in (prune.RandomUnstructured, prune.L1Unstructured,
                 lambda a: prune.RandomStructured(a), lambda a: prune.LnStructured(a, 2)):
        with raises(kind, text):
            make(amount)


def test_a_count_larger_than_the_tensor_is_refused_and_rolled_back():
    m = layer()
    with raises(ValueError, "amount=7 should be smaller than the number of parameters to "
                            "prune=6"):
        prune.l1_unstructured(m, "weight", amount=7)
    assert list(m._parameters) == ["bias", "weight"] and list(m._buffers) == []
    assert type(m.weight) is torch.nn.Parameter and len(m._forward_pre_hooks) == 0
    with raises(ValueError, "amount=3 should be smaller than the number of parameters to "
                            "prune=2"):
        prune.random_structured(m, "weight", amount=3, dim=0)
    assert list(m._parameters) == ["bias", "weight"]


def test_structured_refusals():
    m = layer()
    with raises(ValueError, "Structured pruning can only be applied to multidimensional "
                            "tensors. Found tensor of shape torch.Size([2]) with 1 dims"):
        prune.ln_structured(m, "bias", amount=1, n=2, dim=0)
    with raises(IndexError, "Invalid index 2 for tensor of size torch.Size([2, 3])"):
        prune.random_structured(m, "weight", amount=1, dim=2)
    assert list(m._parameters) == ["bias", "weight"]


def test_importance_scores_of_another_shape_are_refused():
    m = layer()
    text = ("importance_scores should have the same shape as parameter weight of "
            "Linear(in_features=3, out_features=2, bias=True), got torch.Size([3, 2]) vs "
            "torch.Size([2, 3])")
    with raises(AssertionError, text):
        prune.l1_unstructured(m, "weight", 1, importance_scores=torch.ones(3, 2))
    with raises(AssertionError, "importance_scores should have the same shape as tensor t, "
                                "got torch.Size([2]) vs torch.Size([3])"):
        prune.L1Unstructured(1).prune(torch.ones(3), importance_scores=torch.ones(2))


def test_importance_scores_choose_instead_of_the_weight():
    m = layer()
    scores = torch.tensor([[6.0, 5.0, 4.0], [3.0, 2.0, 1.0]])
    prune.l1_unstructured(m, "weight", amount=2, importance_scores=scores)
    assert m.weight_mask.tolist() == [[1.0, 1.0, 1.0], [1.0, 0.0, 0.0]]
    n = layer([[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]])
    prune.ln_structured(n, "weight", 1, 1, 0, importance_scores=torch.tensor(
        [[3.0, 3.0], [0.5, 0.5], [2.0, 2.0]]))
    assert n.weight_mask.tolist() == [[1.0, 1.0], [0.0, 0.0], [1.0, 1.0]]


def test_prune_on_a_bare_tensor():
    t = torch.tensor([3.0, -1.0, 2.0, 0.5])
    assert prune.L1Unstructured(2).prune(t).tolist() == [3.0, 0.0, 2.0, 0.0]
    mask = torch.tensor([1.0, 1.0, 0.0, 1.0])
    assert prune.L1Unstructured(1).prune(t, default_mask=mask).tolist() == [
        3.0, -1.0, 0.0, 0.0]  # the zero of the mask in force, and the least magnitude
    scores = torch.tensor([0.0, 9.0, 9.0, 9.0])
    assert prune.Identity().prune(t, importance_scores=scores).tolist() == t.tolist()
    assert prune.L1Unstructured(1).prune(t, importance_scores=scores).tolist() == [
        0.0, -1.0, 2.0, 0.5]


def test_the_container_holds_methods_of_one_name():
    first = prune.L1Unstructured(1)
    first._tensor_name = "weight"
    container = prune.PruningContainer(first)
    assert container._tensor_name == "weight" and list(container) == [first]
    with raises(TypeError, "<class 'int'> is not a BasePruningMethod subclass"):
        container.add_pruning_method(3)
    other = prune.Identity()
    other._tensor_name = "bias"
    pattern = (r"\ACan only add pruning methods acting on the parameter named 'weight' to "
               r"PruningContainer <\w+\.nn\.utils\.prune\.PruningContainer object at 0x[0-9a-f]+>"
               r"\. Found 'bias'\Z")
    with pytest.raises(ValueError, match=pattern):
        container.add_pruning_method(other)
    container.add_pruning_method(None)
    assert len(container) == 2 and container[1] is None


def test_a_method_never_applied_has_no_name():
    with pytest.raises(AttributeError, match="_tensor_name"):
        prune.L1Unstructured(1).apply_mask(layer())
    with pytest.raises(TypeError):
        prune.BasePruningMethod()


def test_two_pruning_hooks_for_one_name_are_refused():
    m = layer()
    for _ in range(2):
        hook = prune.Identity()
        hook._tensor_name = "weight"
        m.register_forward_pre_hook(hook)
    text = ("Avoid adding multiple pruning hooks to the same tensor weight of module "
            "Linear(in_features=3, out_features=2, bias=True). Use a PruningContainer.")
    with raises(AssertionError, text):
        prune.l1_unstructured(m, "weight", 1)


def test_a_refused_amount_takes_the_old_hook_away():
    m = layer()
    prune.l1_unstructured(m, "weight", 1)
    with pytest.raises(ValueError):
        prune.l1_unstructured(m, "weight", -1)
    assert len(m._forward_pre_hooks) == 0 and list(m._buffers) == ["weight_mask"]


def test_the_mask_takes_the_parameter_dtype():
    m = layer().double()
    prune.l1_unstructured(m, "weight", 1)
    assert m.weight_mask.dtype == torch.float64 and m.weight.dtype == torch.float64


def test_a_pruned_state_dict_loads_into_a_pruned_module():
    a, b = layer(), layer([[9.0, 9.0, 9.0], [9.0, 9.0, 9.0]])
    prune.l1_unstructured(a, "weight", 2)
    prune.identity(b, "weight")
    b.load_state_dict(a.state_dict())
    assert b.weight_mask.tolist() == a.weight_mask.tolist()
    assert b(torch.ones(1, 3)).tolist() == a(torch.ones(1, 3)).tolist()


def test_the_module_names():
    for name in ("BasePruningMethod", "PruningContainer", "Identity", "RandomUnstructured",
                 "L1Unstructured", "RandomStructured", "LnStructured", "CustomFromMask"):
        cls = getattr(prune, name)
        assert re.fullmatch(r"\w+\.nn\.utils\.prune", cls.__module__) and cls.__name__ == name
    for name in ("identity", "random_unstructured", "l1_unstructured", "random_structured",
                 "ln_structured", "global_unstructured", "custom_from_mask", "remove",
                 "is_pruned"):
        assert callable(getattr(prune, name))
    assert [c.PRUNING_TYPE for c in (prune.Identity, prune.RandomUnstructured,
                                     prune.L1Unstructured, prune.RandomStructured,
                                     prune.LnStructured, prune.CustomFromMask)] == [
        "unstructured", "unstructured", "unstructured", "structured", "structured", "global"]
