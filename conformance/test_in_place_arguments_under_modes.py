"""Black-box tests: an in-place method called with keywords reaches a dispatch mode with
its arguments as torch's binding places them (by position up to the last not at its
default, keyword-only ones only when not at their default, a Scalar's default met only by
its own type); the call a mode makes again writes what the method would; copy_ takes its
source as other. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import calling_mode

Calls = calling_mode()

CASES = [  # (name, the call, what the mode sees of the write)
    ('mul_', 'x.mul_(other=y)',
     ('aten.mul_.Tensor', ('T', 'T'), {})),
    ('mul_number', 'x.mul_(other=2.0)',
     ('aten.mul_.Tensor', ('T', 2.0), {})),
    ('add_', 'x.add_(other=y, alpha=2)',
     ('aten.add_.Tensor', ('T', 'T'), {'alpha': 2})),
    ('add_alpha_1', 'x.add_(y, alpha=1)',
     ('aten.add_.Tensor', ('T', 'T'), {})),
    ('add_alpha_1_float', 'x.add_(y, alpha=1.0)',
     ('aten.add_.Tensor', ('T', 'T'), {'alpha': 1.0})),
    ('sub_', 'x.sub_(other=y)',
     ('aten.sub_.Tensor', ('T', 'T'), {})),
    ('div_floor', "x.div_(other=y, rounding_mode='floor')",
     ('aten.div_.Tensor_mode', ('T', 'T'), {'rounding_mode': 'floor'})),
    ('div_mode_none', 'x.div_(y, rounding_mode=None)',
     ('aten.div_.Tensor_mode', ('T', 'T'), {'rounding_mode': None})),
    ('lerp_', 'x.lerp_(end=y, weight=0.5)',
     ('aten.lerp_.Scalar', ('T', 'T', 0.5), {})),
    ('lerp_weight_1', 'x.lerp_(y, 1)',
     ('aten.lerp_.Scalar', ('T', 'T', 1), {})),
    ('lerp_tensor', 'x.lerp_(y, weight=y)',
     ('aten.lerp_.Tensor', ('T', 'T', 'T'), {})),
    ('addcmul_', 'x.addcmul_(tensor1=y, tensor2=y, value=2)',
     ('aten.addcmul_.default', ('T', 'T', 'T'), {'value': 2})),
    ('addcmul_value_1', 'x.addcmul_(y, y, value=1)',
     ('aten.addcmul_.default', ('T', 'T', 'T'), {})),
    ('addcmul_value_1_float', 'x.addcmul_(y, y, value=1.0)',
     ('aten.addcmul_.default', ('T', 'T', 'T'), {'value': 1.0})),
    ('addcdiv_', 'x.addcdiv_(y, tensor2=y)',
     ('aten.addcdiv_.default', ('T', 'T', 'T'), {})),
    ('nan_to_num_', 'x.nan_to_num_(nan=0.0)',
     ('aten.nan_to_num_.default', ('T', 0.0), {})),
    ('nan_to_num_posinf', 'x.nan_to_num_(posinf=1.0)',
     ('aten.nan_to_num_.default', ('T', None, 1.0), {})),
    ('nan_to_num_neginf', 'x.nan_to_num_(neginf=-1.0)',
     ('aten.nan_to_num_.default', ('T', None, None, -1.0), {})),
    ('pow_', 'x.pow_(exponent=2)',
     ('aten.pow_.Scalar', ('T', 2), {})),
    ('pow_tensor', 'x.pow_(exponent=y)',
     ('aten.pow_.Tensor', ('T', 'T'), {})),
    ('fmod_', 'x.fmod_(other=1.5)',
     ('aten.fmod_.Scalar', ('T', 1.5), {})),
    ('remainder_', 'x.remainder_(other=y)',
     ('aten.remainder_.Tensor', ('T', 'T'), {})),
    ('masked_fill_', 'x.masked_fill_(mask=m, value=0.0)',
     ('aten.masked_fill_.Scalar', ('T', 'T', 0.0), {})),
    ('index_add_', 'x.index_add_(dim=0, index=i, source=s)',
     ('aten.index_add_.default', ('T', 0, 'T', 'T'), {})),
    ('index_add_alpha', 'x.index_add_(0, i, s, alpha=2)',
     ('aten.index_add_.default', ('T', 0, 'T', 'T'), {'alpha': 2})),
    ('index_add_alpha_1', 'x.index_add_(0, i, s, alpha=1)',
     ('aten.index_add_.default', ('T', 0, 'T', 'T'), {})),
    ('scatter_', 'x.scatter_(dim=0, index=i, src=s)',
     ('aten.scatter_.src', ('T', 0, 'T', 'T'), {})),
    ('scatter_value', 'x.scatter_(0, i, value=1.0)',
     ('aten.scatter_.value', ('T', 0, 'T', 1.0), {})),
    ('scatter_value_reduce', "x.scatter_(dim=0, index=i, value=2.0, reduce='multiply')",
     ('aten.scatter_.value_reduce', ('T', 0, 'T', 2.0), {'reduce': 'multiply'})),
    ('scatter_add_', 'x.scatter_add_(0, index=i, src=s)',
     ('aten.scatter_add_.default', ('T', 0, 'T', 'T'), {})),
    ('scatter_reduce_',
     "x.scatter_reduce_(dim=0, index=i, src=s, reduce='amax', include_self=False)",
     ('aten.scatter_reduce_.two', ('T', 0, 'T', 'T', 'amax'), {'include_self': False})),
    ('clamp_min_', 'x.clamp_min_(min=0.5)',
     ('aten.clamp_min_.default', ('T', 0.5), {})),
    ('clamp_min_tensor', 'x.clamp_min_(min=y)',
     ('aten.clamp_min_.Tensor', ('T', 'T'), {})),
    ('atan2_', 'x.atan2_(other=y)',
     ('aten.atan2_.default', ('T', 'T'), {})),
    ('hypot_', 'x.hypot_(other=y)',
     ('aten.hypot_.default', ('T', 'T'), {})),
    ('xlogy_', 'x.xlogy_(other=y)',
     ('aten.xlogy_.Tensor', ('T', 'T'), {})),
    ('xlogy_number', 'x.xlogy_(other=2.0)',
     ('aten.xlogy_.Scalar_Other', ('T', 2.0), {})),
    ('logit_', 'x.logit_(eps=0.1)',
     ('aten.logit_.default', ('T', 0.1), {})),
    ('logit_none', 'x.logit_(eps=None)',
     ('aten.logit_.default', ('T',), {})),
    ('renorm_', 'x.reshape(3, 1).renorm_(p=2, dim=0, maxnorm=1.0)',
     ('aten.renorm_.default', ('T', 2, 0, 1.0), {})),
    ('index_fill_', 'x.index_fill_(dim=0, index=i, value=1.0)',
     ('aten.index_fill_.int_Scalar', ('T', 0, 'T', 1.0), {})),
    ('masked_scatter_', 'x.masked_scatter_(mask=m, source=y)',
     ('aten.masked_scatter_.default', ('T', 'T', 'T'), {})),
    ('put_', 'x.put_(index=i, source=s)',
     ('aten.put_.default', ('T', 'T', 'T'), {})),
    ('put_accumulate', 'x.put_(i, s, accumulate=True)',
     ('aten.put_.default', ('T', 'T', 'T', True), {})),
    ('index_copy_', 'x.index_copy_(dim=0, index=i, source=s)',
     ('aten.index_copy_.default', ('T', 0, 'T', 'T'), {})),
    ('tril_', 'x.reshape(1, 3).tril_(diagonal=1)',
     ('aten.tril_.default', ('T', 1), {})),
    ('tril_0', 'x.reshape(1, 3).tril_(diagonal=0)',
     ('aten.tril_.default', ('T',), {})),
    ('triu_', 'x.reshape(1, 3).triu_(diagonal=1)',
     ('aten.triu_.default', ('T', 1), {})),
    ('squeeze_', 'x.reshape(1, 3).squeeze_(dim=0)',
     ('aten.squeeze_.dim', ('T', 0), {})),
    ('squeeze_dims', 'x.reshape(1, 1, 3).squeeze_(dim=(0, 1))',
     ('aten.squeeze_.dims', ('T', [0, 1]), {})),
    ('unsqueeze_', 'x.unsqueeze_(dim=0)',
     ('aten.unsqueeze_.default', ('T', 0), {})),
    ('transpose_', 'x.reshape(1, 3).transpose_(dim0=0, dim1=1)',
     ('aten.transpose_.default', ('T', 0, 1), {})),
    ('cumsum_', 'x.cumsum_(dim=0)',
     ('aten.cumsum_.default', ('T', 0), {})),
    ('cumsum_dtype_none', 'x.cumsum_(dim=0, dtype=None)',
     ('aten.cumsum_.default', ('T', 0), {})),
    ('cumprod_', 'x.cumprod_(dim=0)',
     ('aten.cumprod_.default', ('T', 0), {})),
    ('floor_divide_', 'x.floor_divide_(other=2)',
     ('aten.floor_divide_.Tensor', ('T', 2), {})),
    ('floor_divide_number', 'x.floor_divide_(2)',
     ('aten.floor_divide_.Tensor', ('T', 2), {})),
    ('heaviside_', 'x.heaviside_(values=y)',
     ('aten.heaviside_.default', ('T', 'T'), {})),
    ('copysign_', 'x.copysign_(other=y)',
     ('aten.copysign_.Tensor', ('T', 'T'), {})),
    ('mvlgamma_', 'x.mvlgamma_(p=1)',
     ('aten.mvlgamma_.default', ('T', 1), {})),
    ('polygamma_', 'x.polygamma_(n=1)',
     ('aten.polygamma_.default', ('T', 1), {})),
    ('true_divide_', 'x.true_divide_(other=y)',
     ('aten.div_.Tensor', ('T', 'T'), {})),
    ('eq_', 'x.eq_(other=y)',
     ('aten.eq_.Tensor', ('T', 'T'), {})),
    ('copy_', 'x.copy_(other=y)',
     ('aten.copy_.default', ('T', 'T'), {})),
    ('copy_non_blocking', 'x.copy_(y, True)',
     ('aten.copy_.default', ('T', 'T', True), {})),
    ('copy_non_blocking_false', 'x.copy_(y, non_blocking=False)',
     ('aten.copy_.default', ('T', 'T'), {})),
]


def _inputs():
    return {"x": torch.tensor([1.5, 2.5, 3.5]), "y": torch.tensor([1.0, 2.0, 3.0]),
            "i": torch.tensor([0, 2]), "s": torch.tensor([4.0, 5.0]),
            "m": torch.tensor([True, False, True])}


@pytest.mark.parametrize(("name", "code", "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_write_is_bound_as_torch_binds_it(name, code, expected):
    given = _inputs()
    with Calls() as mode:
        out = eval(code, {}, given)
    assert mode.seen[-1] == expected
    plain = _inputs()
    assert repr(out.tolist()) == repr(eval(code, {}, plain).tolist())  # as with no mode
    assert repr(given["x"].tolist()) == repr(plain["x"].tolist())


def test_copy_takes_its_source_as_other_and_refuses_src():
    x, y = torch.zeros(3), torch.tensor([1.0, 2.0, 3.0])
    with pytest.raises(TypeError) as caught:
        x.copy_(src=y)
    assert str(caught.value) == 'copy_() missing 1 required positional arguments: "other"'
    with pytest.raises(TypeError) as caught:
        x.copy_(y, src=y)
    assert str(caught.value) == "copy_() got an unexpected keyword argument 'src'"
    expected = ("copy_() received an invalid combination of arguments - got ({}), but "
                "expected (Tensor other, bool non_blocking = False)")
    with pytest.raises(TypeError) as caught:
        x.copy_()
    assert str(caught.value) == expected.format("")
    with pytest.raises(TypeError) as caught:
        x.copy_(y, True, True)
    assert str(caught.value) == expected.format("Tensor, bool, bool")
    assert x.copy_(other=y).tolist() == [1.0, 2.0, 3.0]


class _Changed(torch.utils._python_dispatch.TorchDispatchMode):
    """Calls func with other numbers: lerp_'s weight a quarter, add_'s alpha three."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if str(func) == "aten.lerp_.Scalar":
            args = (*args[:2], 0.25)
        if str(func) == "aten.add_.Tensor":
            kwargs = {"alpha": 3}
        return func(*args, **(kwargs or {}))


def test_a_mode_may_call_the_write_again_with_other_arguments():
    x, y = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 6.0])
    with _Changed():
        x.lerp_(end=y, weight=0.5)
        x.add_(other=y)
        x.nan_to_num_(posinf=1.0)
    assert x.tolist() == [10.5, 21.0]


def test_two_modes_see_the_same_bound_write():
    x, y = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 6.0])
    with Calls() as outer, Calls() as inner:
        x.addcmul_(tensor1=y, tensor2=y, value=2)
    assert outer.seen == inner.seen == [("aten.addcmul_.default", ("T", "T", "T"), {"value": 2})]
    assert x.tolist() == [19.0, 74.0]


def test_a_keyword_operand_that_requires_grad_has_self_cloned_first():
    leaf = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    other = torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)
    y = leaf * 1
    with Calls() as mode:
        y.mul_(other=other)
        y.sum().backward()
    assert [s[0] for s in mode.seen[:2]] == ["aten.clone.default", "aten.mul_.Tensor"]
    assert mode.seen[1][1:] == (("T", "T"), {})
    assert leaf.grad.tolist() == [3.0, 4.0] and other.grad.tolist() == [1.0, 2.0]
    assert type(y.grad_fn).__name__ == "MulBackward0"


def test_a_tensor_read_as_a_number_reaches_the_mode_as_local_scalar_dense():
    x = torch.tensor([1.5, 2.5, 3.5])
    s = x.sum()
    with Calls() as mode:
        read = (bool(s), s.item(), float(s), int(s), [10, 11][s.long() - 7])
    assert read == (True, 7.5, 7.5, 7, 10)
    read_ = ("aten._local_scalar_dense.default", ("T",), {})
    assert [c[0] for c in mode.seen[4:6]] == ["aten._to_copy.default", "aten.sub.Tensor"]
    assert mode.seen[:4] + mode.seen[6:] == [read_] * 5


def test_a_tensor_of_many_values_is_refused_before_the_mode_sees_a_read():
    x = torch.tensor([1.5, 2.5, 3.5])
    with Calls() as mode:
        with pytest.raises(RuntimeError, match="more than one value is ambiguous"):
            bool(x)
        with pytest.raises(ValueError, match="only one element tensors"):
            float(x)
    assert mode.seen == []


def test_a_number_formatted_is_read_from_a_detached_tensor():
    s = torch.tensor([1.5, 2.5], requires_grad=True).sum()
    with Calls() as mode:
        text = f"{s:.2f}"
    assert text == "4.00"
    assert [c[0] for c in mode.seen] == ["aten.detach.default", "aten._local_scalar_dense.default"]
