"""Flags that are not Python's bool, and numbers first with out= or by keyword."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

DROPOUTS = [(F.dropout, "dropout", 1), (F.alpha_dropout, "alpha_dropout", 1),
            (F.feature_alpha_dropout, "feature_alpha_dropout", 2),
            (F.dropout1d, "feature_dropout", 2), (F.dropout2d, "feature_dropout", 4),
            (F.dropout3d, "feature_dropout", 5)]


@pytest.mark.parametrize("function, operator, ndim", DROPOUTS)
@pytest.mark.parametrize("training, shown", [(1, "int"), (0, "int"), (None, "NoneType"),
                                             (1.0, "float"), (np.True_, "numpy.bool")])
@pytest.mark.parametrize("inplace", [False, True])
def test_a_dropout_takes_only_a_bool_for_training(function, operator, ndim, training, shown,
                                                  inplace):
    x = torch.ones((2,) * ndim)
    name = operator + "_" * inplace
    with raises(TypeError, f"{name}(): argument 'train' (position 3) must be bool, not {shown}"):
        function(x, 0.5, training, inplace)


@pytest.mark.parametrize("function, operator, ndim", DROPOUTS[:3])
def test_inplace_only_picks_the_operator(function, operator, ndim):
    x = torch.ones((2,) * ndim)
    assert function(x, 0.5, True, 1) is x  # a truthy int: the in-place form
    assert function(x, 0.5, False, 0) is x


def test_a_dropout_checks_its_dimensions_first():
    with raises(RuntimeError, "dropout1d: Expected 2D or 3D input, but received a 1D input. "
                              "Note that dropout1d exists to provide channel-wise dropout on "
                              "inputs with 1 spatial dimension, a channel dimension, and an "
                              "optional batch dimension (i.e. 2D or 3D inputs)."):
        F.dropout1d(torch.ones(3), 0.5, 1)


def test_an_unbatched_dropout1d_is_refused_after_it_unsqueezes_in_place():
    x = torch.ones(2, 3)
    with raises(TypeError, "feature_dropout_(): argument 'train' (position 3) must be bool, "
                           "not int"):
        F.dropout1d(x, 0.5, 1, True)
    assert x.shape == (1, 2, 3)


def test_feature_alpha_dropout_parses_before_its_dimensions():
    with raises(TypeError, "feature_alpha_dropout(): argument 'train' (position 3) must be "
                           "bool, not int"):
        F.feature_alpha_dropout(torch.ones(3), 0.5, 1)


@pytest.mark.parametrize("name", ["dropout", "dropout_", "alpha_dropout", "feature_dropout",
                                  "feature_alpha_dropout_"])
def test_the_namespace_dropouts_parse_their_arguments(name):
    function, x = getattr(torch, name), torch.ones(2, 3)
    with raises(TypeError, f"{name}(): argument 'train' (position 3) must be bool, not int"):
        function(x, 0.5, 1)
    with raises(TypeError, f"{name}(): argument 'p' (position 2) must be float, not str"):
        function(x, "a", False)
    with raises(TypeError, f'{name}() missing 1 required positional arguments: "train"'):
        function(x, p=0.5, training=False)
    assert function(x, p=0.5, train=False) is x


x4 = torch.ones(2, 3, 4, 4)


@pytest.mark.parametrize("call, message", [
    (lambda v: F.kl_div(x4, x4, reduction="sum", log_target=v),
     "kl_div(): argument 'log_target' must be bool, not {}"),
    (lambda v: F.poisson_nll_loss(x4, x4, log_input=v),
     "poisson_nll_loss(): argument 'log_input' (position 3) must be bool, not {}"),
    (lambda v: F.poisson_nll_loss(x4, x4, True, v),
     "poisson_nll_loss(): argument 'full' (position 4) must be bool, not {}"),
    (lambda v: F.triplet_margin_loss(x4, x4, x4, swap=v),
     "triplet_margin_loss(): argument 'swap' (position 7) must be bool, not {}"),
    (lambda v: F.instance_norm(x4, use_input_stats=v),
     "instance_norm(): argument 'use_input_stats' (position 6) must be bool, not {}"),
    (lambda v: torch.kl_div(x4, x4, 1, log_target=v),
     "kl_div(): argument 'log_target' must be bool, not {}"),
    (lambda v: torch.triplet_margin_loss(x4, x4, x4, 1.0, 2, 1e-6, v),
     "triplet_margin_loss(): argument 'swap' (position 7) must be bool, not {}"),
])
@pytest.mark.parametrize("value, shown", [(1, "int"), (0, "int"), (None, "NoneType"),
                                          (1.0, "float")])
def test_flags_handed_to_an_operator_must_be_bools(call, message, value, shown):
    with raises(TypeError, message.format(shown)):
        call(value)


def test_flags_of_python_code_are_taken_for_their_truth():
    x = torch.ones(2, 3)
    assert F.gaussian_nll_loss(x, x, x, full=1).shape == ()
    assert F.relu(x.clone(), inplace=1).shape == (2, 3)


BITS = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
        "bitwise_right_shift", "remainder"]
FIRST = (" * (Tensor input, Tensor other, *, Tensor out = None)\n * (Number self, Tensor other)"
         "\n{} * (Tensor input, Number other, *, Tensor out = None)\n")
t = torch.tensor([1, 2, 3])


@pytest.mark.parametrize("name", BITS)
@pytest.mark.parametrize("out, shown", [(torch.empty(3, dtype=torch.int64), "Tensor"),
                                        (None, "NoneType")])
def test_a_number_first_has_no_out(name, out, shown):
    with raises(TypeError, f"{name}() received an invalid combination of arguments - got (int, "
                           f"Tensor, out={shown}), but expected one of:\n" + FIRST.format("")):
        getattr(torch, name)(3, t, out=out)


@pytest.mark.parametrize("name", BITS)
def test_a_number_first_is_self_by_keyword(name):
    function = getattr(torch, name)
    assert function(self=3, other=t).tolist() == function(3, t).tolist()
    assert function(3, other=t).tolist() == function(3, t).tolist()
    reason = "      didn't match because some of the keywords were incorrect: input\n"
    with raises(TypeError, f"{name}() received an invalid combination of arguments - got "
                           "(other=Tensor, input=int, ), but expected one of:\n"
                           + FIRST.format(reason)):
        function(input=3, other=t)


def test_two_numbers_are_marked_against_the_number_form():
    reason = "      didn't match because some of the arguments have invalid types: (!int!, !int!)\n"
    with raises(TypeError, "bitwise_and() received an invalid combination of arguments - got "
                           "(int, int), but expected one of:\n" + FIRST.format(reason)):
        torch.bitwise_and(3, 3)


@pytest.mark.parametrize("name, second", [("pow", "exponent"), ("float_power", "exponent"),
                                          ("xlogy", "other")])
def test_a_number_form_with_out_takes_self_by_keyword(name, second):
    function = getattr(torch, name)
    assert function(self=3, **{second: t}).tolist() == function(3, t).tolist()
    out = torch.empty(3, dtype=function(3, t).dtype)
    function(self=3, **{second: t}, out=out)
    assert out.tolist() == function(3, t).tolist()
    forms = "".join(f" * ({text}, *, Tensor out = None)\n" for text in (
        f"Tensor input, Tensor {second}", f"Number self, Tensor {second}",
        f"Tensor input, Number {second}"))
    with raises(TypeError, f"{name}() received an invalid combination of arguments - got "
                           f"({second}=Tensor, input=int, ), but expected one of:\n" + forms):
        function(input=3, **{second: t})


@pytest.mark.parametrize("name", ["fmod", "copysign", "eq", "lt"])
@pytest.mark.parametrize("call, got", [
    (lambda f: f(3, t, out=torch.empty(3)), "(int, Tensor, out=Tensor)"),
    (lambda f: f(3, t, out=None), "(int, Tensor, out=NoneType)"),
    (lambda f: f(3, other=t), "(int, other=Tensor)"),
    (lambda f: f(self=3, other=t), "(other=Tensor, self=int, )"),
])
def test_a_number_first_lists_every_argument_given(name, call, got):
    with raises(TypeError, f"{name}() received an invalid combination of arguments - got {got}, "
                           "but expected one of:\n * (Tensor input, Tensor other, *, Tensor out = "
                           "None)\n * (Tensor input, Number other, *, Tensor out = None)\n"):
        call(getattr(torch, name))


@pytest.mark.parametrize("name", ["hypot", "atan2", "fmax", "logaddexp", "nextafter", "igamma"])
def test_two_tensor_functions_read_their_keywords(name):
    function, x = getattr(torch, name), torch.tensor([1.0, 2.0])
    with raises(TypeError, f"{name}(): argument 'input' must be Tensor, not int"):
        function(input=3, other=x)
    with raises(TypeError, f'{name}() missing 2 required positional argument: "input", "other"'):
        function(self=3, other=x)
    assert function(input=x, other=x).tolist() == function(x, x).tolist()


def test_heaviside_names_its_values():
    x = torch.tensor([-1.0, 0.0, 2.0])
    assert torch.heaviside(x, values=x).tolist() == torch.heaviside(x, x).tolist()
    with raises(TypeError, "heaviside(): argument 'input' (position 1) must be Tensor, not int"):
        torch.heaviside(3, other=x)


def test_floor_divide_takes_a_number_first_by_its_hidden_form():
    assert torch.floor_divide(7, t).tolist() == [7, 3, 2]
    assert torch.floor_divide(input=7, other=t).tolist() == [7, 3, 2]
    out = torch.empty(3, dtype=torch.int64)
    torch.floor_divide(7, t, out=out)
    assert out.tolist() == [7, 3, 2]
