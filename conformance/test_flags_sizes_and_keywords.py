"""Flags, ints and sizes refused in the words of the operator torch's parser reads them for."""

import re

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

m = torch.ones(3, 3)
t = torch.tensor([1.0, 2.0])


@pytest.mark.parametrize("call, message", [
    (lambda: torch.svd(m, 1), "svd(): argument 'some' (position 2) must be bool, not int"),
    (lambda: m.svd(1), "svd(): argument 'some' (position 1) must be bool, not int"),
    (lambda: torch.svd(m, True, 1),
     "svd(): argument 'compute_uv' (position 3) must be bool, not int"),
    (lambda: m.svd(True, None),
     "svd(): argument 'compute_uv' (position 2) must be bool, not NoneType"),
    (lambda: torch.svd(m, some=1), "svd(): argument 'some' must be bool, not int"),
    (lambda: torch.combinations(t, r=2.0), "combinations(): argument 'r' must be int, not float"),
    (lambda: torch.combinations(t, True),
     "combinations(): argument 'r' (position 2) must be int, not bool"),
    (lambda: torch.combinations(t, with_replacement=1),
     "combinations(): argument 'with_replacement' must be bool, not int"),
    (lambda: F.group_norm(torch.ones(1, 4, 2), True),
     "group_norm(): argument 'num_groups' (position 2) must be int, not bool"),
    (lambda: F.local_response_norm(torch.ones(1, 4, 2), True),
     "avg_pool2d(): argument 'kernel_size' (position 2) must be tuple of ints, but found "
     "element of type bool at pos 0"),
    (lambda: F.local_response_norm(torch.ones(1, 4, 2, 2), True),
     "avg_pool3d(): argument 'kernel_size' (position 2) must be tuple of ints, but found "
     "element of type bool at pos 0"),
])
def test_a_flag_or_int_of_another_type_is_refused(call, message):
    with raises(TypeError, message):
        call()


def test_well_formed_flags_still_run():
    assert torch.svd(m, False, False).S.shape == (3,)
    assert m.svd(some=True).U.shape == (3, 3)
    assert torch.combinations(t, 2, True).shape == (3, 2)


one = torch.ones(1, 1, 2)
where = torch.tensor([[[0, 2]]])
cube, cube_where = torch.ones(1, 1, 2, 2, 2), torch.zeros(1, 1, 2, 2, 2, dtype=torch.long)
_UNPOOLED = "max_unpool{}d(): argument '{}' (position {}) must be tuple of ints, but found " \
            "element of type {} at pos 0"


@pytest.mark.parametrize("call, message", [
    (lambda: F.max_unpool1d(one, where, 2.0), _UNPOOLED.format(2, "output_size", 3, "float")),
    (lambda: F.max_unpool1d(one, where, 2, stride=2.0),
     _UNPOOLED.format(2, "output_size", 3, "float")),
    (lambda: F.max_unpool1d(one, where, 2, padding=0.0),
     _UNPOOLED.format(2, "output_size", 3, "float")),
    (lambda: F.max_unpool2d(cube[0], cube_where[0], (2.0, 2)),
     _UNPOOLED.format(2, "output_size", 3, "float")),
    (lambda: F.max_unpool3d(cube, cube_where, 2, stride=2.0),
     _UNPOOLED.format(3, "output_size", 3, "float")),
    (lambda: F.max_unpool3d(cube, cube_where, 2, padding=True),
     _UNPOOLED.format(3, "padding", 5, "bool")),
])
def test_unpooling_sizes_that_are_not_ints_are_refused_by_the_operator(call, message):
    with raises(TypeError, message):
        call()


def test_unpooling_takes_a_bool_after_the_first_stride():
    assert F.max_unpool3d(cube, cube_where, 2, stride=(2, 2, True)).shape == (1, 1, 4, 4, 3)


def _upsampling(name, got, marks, scales):
    return (f"{name}() received an invalid combination of arguments - got {got}, but expected "
            f"one of:\n * {marks[0]}\n      didn't match because some of the arguments have "
            f"invalid types: {marks[1]}\n * {scales}\n")


_NEAREST = "(Tensor input, tuple of ints output_size, tuple of floats scale_factors)"
_LINEAR = ("(Tensor input, tuple of ints output_size, bool align_corners, tuple of floats "
           "scale_factors)")
_ONE = "float scales = None, *, Tensor out = None)"
_TWO = "float scales_h = None, float scales_w = None, *, Tensor out = None)"


@pytest.mark.parametrize("call, name, got, marked, scales", [
    (lambda: F.interpolate(torch.ones(1, 1, 4), size=2.0), "upsample_nearest1d",
     "(Tensor, list, NoneType)", (_NEAREST, "(Tensor, !list of [float]!, !NoneType!)"),
     "(Tensor input, tuple of ints output_size, " + _ONE),
    (lambda: F.interpolate(torch.ones(1, 1, 4, 4), size=True, mode="nearest-exact"),
     "_upsample_nearest_exact2d", "(Tensor, list, NoneType)",
     (_NEAREST, "(Tensor, !list of [bool, bool]!, !NoneType!)"),
     "(Tensor input, tuple of ints output_size, " + _TWO),
    (lambda: F.interpolate(torch.ones(1, 1, 4), scale_factor=2, mode="linear", align_corners=1),
     "upsample_linear1d", "(Tensor, NoneType, int, list)",
     (_LINEAR, "(Tensor, !NoneType!, !int!, !list of [int]!)"),
     "(Tensor input, tuple of ints output_size, bool align_corners, " + _ONE),
    (lambda: F.interpolate(torch.ones(1, 1, 4, 4), size=(2, 2), mode="bicubic",
                           align_corners=0.0, antialias=True),
     "_upsample_bicubic2d_aa", "(Tensor, tuple, float, NoneType)",
     (_LINEAR, "(Tensor, !tuple of (int, int)!, !float!, !NoneType!)"),
     "(Tensor input, tuple of ints output_size, bool align_corners, " + _TWO),
    (lambda: F.interpolate(torch.ones(1, 1, 4, 4), scale_factor=2, mode="bilinear",
                           recompute_scale_factor=True, align_corners=1),
     "upsample_bilinear2d", "(Tensor, list, int, NoneType)",
     (_LINEAR, "(Tensor, !list of [int, int]!, !int!, !NoneType!)"),
     "(Tensor input, tuple of ints output_size, bool align_corners, " + _TWO),
])
def test_interpolate_is_refused_by_its_upsampling_operator(call, name, got, marked, scales):
    with raises(TypeError, _upsampling(name, got, marked, scales)):
        call()


def test_interpolate_takes_the_truth_of_its_other_options():
    x = torch.ones(1, 1, 4, 4)
    assert F.interpolate(x, scale_factor=2, mode="bilinear", antialias=1).shape == (1, 1, 8, 8)
    assert F.interpolate(x, scale_factor=2, recompute_scale_factor=1).shape == (1, 1, 8, 8)
    assert F.interpolate(x, scale_factor=True).shape == (1, 1, 4, 4)
    assert F.interpolate(x, size=2, mode="bilinear", align_corners=True).shape == (1, 1, 2, 2)


_XLOGY = ("special_xlogy() received an invalid combination of arguments - got ({}), but "
          "expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n * (Number "
          "self, Tensor other, *, Tensor out = None)\n * (Tensor input, Number other, *, Tensor "
          "out = None)\n")
_DIVIDE = ("true_divide() received an invalid combination of arguments - got ({}), but "
           "expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n * (Tensor "
           "input, Number other)\n      didn't match because {}\n")


def test_special_xlogy_reads_its_keywords_as_torch_does():
    assert torch.special.xlogy(self=3, other=t).tolist() == pytest.approx([0.0, 2.0794415])
    assert torch.special.xlogy(input=t, other=3).tolist() == pytest.approx([1.0986123, 2.1972246])
    with raises(TypeError, _XLOGY.format("other=Tensor, self=Tensor, ")):
        torch.special.xlogy(self=t, other=t)
    with raises(TypeError, _XLOGY.format("other=Tensor, input=int, ")):
        torch.special.xlogy(input=3, other=t)


def test_true_divide_reads_its_keywords_as_torch_does():
    assert torch.true_divide(input=3, other=t).tolist() == [3.0, 1.5]
    assert torch.true_divide(t, other=2).tolist() == [0.5, 1.0]
    assert torch.true_divide(t, 2, out=torch.empty(2)).tolist() == [0.5, 1.0]
    with raises(TypeError, _DIVIDE.format("other=Tensor, self=Tensor, ",
                                          "some of the keywords were incorrect: self")):
        torch.true_divide(self=t, other=t)


@pytest.mark.parametrize("kwargs", [{"input": t, "other": "a"}, {"other": "a", "input": t}])
def test_a_reason_marks_the_keywords_in_the_signatures_order(kwargs):
    got = "".join(f"{k}={'str' if k == 'other' else 'Tensor'}, " for k in reversed(kwargs))
    with raises(TypeError, _DIVIDE.format(got, "some of the arguments have invalid types: "
                                               "(input=Tensor, !other=str!, )")):
        torch.true_divide(**kwargs)


@pytest.mark.parametrize("order", [("input", "other"), ("other", "input")])
def test_where_marks_its_keywords_in_the_signatures_order(order):
    values = {"input": "a", "other": 1.5}
    reason = ("didn't match because some of the arguments have invalid types: (Tensor, "
              "!input=str!, !other=float!)")
    with pytest.raises(TypeError, match=re.escape(reason)):
        torch.where(t > 0, **{k: values[k] for k in order})


_NEW = "new_{}(): argument 'size' "


@pytest.mark.parametrize("call, message", [
    (lambda: t.new_zeros(2.0), _NEW.format("zeros") + "(position 1) must be tuple of ints, not "
                                                      "float"),
    (lambda: t.new_ones(True), _NEW.format("ones") + "(position 1) must be tuple of ints, not "
                                                     "bool"),
    (lambda: t.new_empty((2.0,)), _NEW.format("empty") + "(position 1) must be tuple of ints, "
                                                         "but found element of type float at "
                                                         "pos 0"),
    (lambda: t.new_zeros(2, 2.0), _NEW.format("zeros") + "failed to unpack the object at pos 2 "
                                                         "with error \"type must be tuple of "
                                                         "ints,but got float\""),
    (lambda: t.new_full((2.0,), 1), _NEW.format("full") + "(position 1) must be tuple of ints, "
                                                          "but found element of type float at "
                                                          "pos 0"),
    (lambda: t.new_zeros(size=2), _NEW.format("zeros") + "must be tuple of ints, not int"),
    (lambda: t.new_zeros(size=(2.0,)), _NEW.format("zeros") + "must be tuple of ints, not "
                                                              "tuple"),
    (lambda: t.new_ones(size=[True]), _NEW.format("ones") + "must be tuple of ints, not list"),
    (lambda: t.new_empty(size=[2, 2.0]), _NEW.format("empty") + "failed to unpack the object at "
                                                                "pos 2 with error \"type must be "
                                                                "tuple of ints,but got float\""),
    (lambda: t.new_zeros(2, size=(2,)), "new_zeros() got multiple values for argument 'size'"),
    (lambda: t.new_zeros(2.0, 3), "new_zeros() takes 1 positional argument but 2 were given"),
    (lambda: t.new_tensor([1.0], pin_memory=False),
     "new_tensor() got an unexpected keyword argument 'pin_memory'"),
    (lambda: t.new_tensor([1.0], layout=torch.strided),
     "new_tensor() got an unexpected keyword argument 'layout'"),
])
def test_the_new_methods_read_their_sizes_in_their_own_names(call, message):
    with raises(TypeError, message):
        call()


def test_the_new_methods_take_what_torch_takes():
    assert t.new_zeros(size=(2, True)).shape == (2, 1)
    assert t.new_zeros(size=(torch.tensor(2),)).shape == (2,)
    assert t.new_zeros(torch.tensor(2), 3).shape == (2, 3)
    assert t.new_full((2, True), 1.0).shape == (2, 1)
    assert t.new_ones(size=[]).shape == ()
    with raises(RuntimeError, "Trying to create tensor with negative dimension -1: [-1]"):
        t.new_zeros(-1)
