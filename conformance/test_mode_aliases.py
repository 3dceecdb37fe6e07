"""Black-box tests: what ``func`` a dispatch mode is handed for torch's aliases (clip,
absolute, greater, multiply, arccos, concat, special.expit, det ...), for nonzero and its
forms, for a clone of an inference tensor, and the overload names of common ops. With
autograd on, an alias is resolved before the mode and the mode sees the op it names;
where autograd is out of the way it sees the alias. The same assertions run on torch.
"""

import pytest
import torch

from conformance._mode_support import tagged_mode
from conformance._support import recording_mode

Seen = recording_mode()


def _x():
    return torch.tensor([[0.5, -0.25], [0.75, 0.1]])


def _m():
    return torch.tensor([[1.5, 2.0], [3.0, 4.0]])


# (the call on x, a 2 x 2 tensor with values in (-1, 1), and m, one with values above 1;
#  what the mode sees with autograd on; what it sees inside inference_mode())
ALIASES = [
    (lambda x, m: torch.clip(x, -0.3, 0.3), "aten.clamp.default", "aten.clip.default"),
    (lambda x, m: x.clip(-0.3, 0.3), "aten.clamp.default", "aten.clip.default"),
    (lambda x, m: x.clip_(-0.3, 0.3), "aten.clamp_.default", "aten.clip_.default"),
    (lambda x, m: torch.clip(x, m), "aten.clamp.Tensor", "aten.clip.Tensor"),
    (lambda x, m: torch.fix(x), "aten.trunc.default", "aten.fix.default"),
    (lambda x, m: x.fix_(), "aten.trunc_.default", "aten.fix_.default"),
    (lambda x, m: torch.negative(x), "aten.neg.default", "aten.negative.default"),
    (lambda x, m: x.negative_(), "aten.neg_.default", "aten.negative_.default"),
    (lambda x, m: torch.absolute(x), "aten.abs.default", "aten.absolute.default"),
    (lambda x, m: x.absolute(), "aten.abs.default", "aten.absolute.default"),
    (lambda x, m: x.absolute_(), "aten.abs_.default", "aten.absolute_.default"),
    (lambda x, m: torch.greater(x, 0.2), "aten.gt.Scalar", "aten.greater.Scalar"),
    (lambda x, m: torch.greater(x, m), "aten.gt.Tensor", "aten.greater.Tensor"),
    (lambda x, m: torch.greater_equal(x, 0.2), "aten.ge.Scalar", "aten.greater_equal.Scalar"),
    (lambda x, m: torch.less(x, 0.2), "aten.lt.Scalar", "aten.less.Scalar"),
    (lambda x, m: torch.less_equal(x, m), "aten.le.Tensor", "aten.less_equal.Tensor"),
    (lambda x, m: torch.not_equal(x, 0.2), "aten.ne.Scalar", "aten.not_equal.Scalar"),
    (lambda x, m: x.greater_(0.2), "aten.gt_.Scalar", "aten.greater_.Scalar"),
    (lambda x, m: x.less_equal_(m), "aten.le_.Tensor", "aten.less_equal_.Tensor"),
    (lambda x, m: x.not_equal_(0.2), "aten.ne_.Scalar", "aten.not_equal_.Scalar"),
    (lambda x, m: torch.multiply(x, m), "aten.mul.Tensor", "aten.multiply.Tensor"),
    (lambda x, m: torch.multiply(x, 2), "aten.mul.Tensor", "aten.multiply.Tensor"),
    (lambda x, m: x.multiply_(2), "aten.mul_.Tensor", "aten.multiply_.Tensor"),
    (lambda x, m: torch.divide(x, m), "aten.div.Tensor", "aten.divide.Tensor"),
    (lambda x, m: torch.divide(x, m, rounding_mode="floor"), "aten.div.Tensor_mode",
     "aten.divide.Tensor_mode"),
    (lambda x, m: x.divide_(2), "aten.div_.Tensor", "aten.divide_.Tensor"),
    (lambda x, m: torch.true_divide(x, 2), "aten.div.Tensor", "aten.true_divide.Tensor"),
    (lambda x, m: x.true_divide_(2), "aten.div_.Tensor", "aten.true_divide_.Tensor"),
    (lambda x, m: torch.subtract(x, m), "aten.sub.Tensor", "aten.subtract.Tensor"),
    (lambda x, m: x.subtract_(m), "aten.sub_.Tensor", "aten.subtract_.Tensor"),
    (lambda x, m: torch.arccos(x), "aten.acos.default", "aten.arccos.default"),
    (lambda x, m: x.arccos(), "aten.acos.default", "aten.arccos.default"),
    (lambda x, m: x.arccos_(), "aten.acos_.default", "aten.arccos_.default"),
    (lambda x, m: torch.arcsin(x), "aten.asin.default", "aten.arcsin.default"),
    (lambda x, m: torch.arctan(x), "aten.atan.default", "aten.arctan.default"),
    (lambda x, m: torch.arccosh(m), "aten.acosh.default", "aten.arccosh.default"),
    (lambda x, m: torch.arcsinh(x), "aten.asinh.default", "aten.arcsinh.default"),
    (lambda x, m: torch.arctanh(x), "aten.atanh.default", "aten.arctanh.default"),
    (lambda x, m: torch.arctan2(x, m), "aten.atan2.default", "aten.arctan2.default"),
    (lambda x, m: x.arctan2_(m), "aten.atan2_.default", "aten.arctan2_.default"),
    (lambda x, m: torch.concat([x, m]), "aten.cat.default", "aten.concat.default"),
    (lambda x, m: torch.concatenate([x, m]), "aten.cat.default", "aten.concatenate.default"),
    (lambda x, m: torch.swapaxes(x, 0, 1), "aten.transpose.int", "aten.swapaxes.default"),
    (lambda x, m: x.swapdims(0, 1), "aten.transpose.int", "aten.swapdims.default"),
    (lambda x, m: x.swapaxes_(0, 1), "aten.transpose_.default", "aten.swapaxes_.default"),
    (lambda x, m: torch.moveaxis(x, 0, 1), "aten.permute.default", "aten.moveaxis.int"),
    (lambda x, m: torch.special.expit(x), "aten.sigmoid.default", "aten.special_expit.default"),
    (lambda x, m: torch.special.exp2(x), "aten.exp2.default", "aten.special_exp2.default"),
    (lambda x, m: torch.special.expm1(x), "aten.expm1.default", "aten.special_expm1.default"),
    (lambda x, m: torch.special.log1p(x), "aten.log1p.default", "aten.special_log1p.default"),
    (lambda x, m: torch.special.psi(m), "aten.digamma.default", "aten.special_psi.default"),
    (lambda x, m: torch.special.digamma(m), "aten.digamma.default",
     "aten.special_digamma.default"),
    (lambda x, m: torch.special.erf(x), "aten.erf.default", "aten.special_erf.default"),
    (lambda x, m: torch.special.erfc(x), "aten.erfc.default", "aten.special_erfc.default"),
    (lambda x, m: torch.special.erfinv(x), "aten.erfinv.default",
     "aten.special_erfinv.default"),
    (lambda x, m: torch.special.gammaln(m), "aten.lgamma.default",
     "aten.special_gammaln.default"),
    (lambda x, m: torch.special.sinc(x), "aten.sinc.default", "aten.special_sinc.default"),
    (lambda x, m: torch.special.round(x), "aten.round.decimals", "aten.special_round.default"),
    (lambda x, m: torch.special.xlogy(x, m), "aten.xlogy.Tensor",
     "aten.special_xlogy.default"),
    (lambda x, m: torch.special.i0(x), "aten.i0.default", "aten.special_i0.default"),
    (lambda x, m: torch.special.logsumexp(x, 0), "aten.logsumexp.default",
     "aten.special_logsumexp.default"),
    (lambda x, m: torch.special.softmax(x, 0), "aten._softmax.default",
     "aten.special_softmax.default"),
    (lambda x, m: torch.special.log_softmax(x, 0), "aten._log_softmax.default",
     "aten.special_log_softmax.default"),
    (lambda x, m: torch.special.polygamma(1, m), "aten.polygamma.default",
     "aten.special_polygamma.default"),
    (lambda x, m: torch.det(m), "aten._linalg_det.default", "aten.det.default"),
    (lambda x, m: torch.linalg.det(m), "aten._linalg_det.default", "aten.linalg_det.default"),
    (lambda x, m: torch.slogdet(m), "aten._linalg_slogdet.default", "aten.slogdet.default"),
    (lambda x, m: torch.matrix_exp(m), "aten.linalg_matrix_exp.default",
     "aten.matrix_exp.default"),
]


@pytest.mark.parametrize(("call", "on", "off"), ALIASES)
def test_a_mode_sees_what_an_alias_names_with_autograd_on_and_the_alias_without(call, on, off):
    x, m = _x(), _m()
    with Seen() as mode:
        call(x, m)
    assert mode.seen == [on]
    x = _x()
    with torch.inference_mode(), Seen() as mode:
        call(x, m)
    assert mode.seen == [off]


# a number given to multiply and its kin is wrapped in a normal tensor: see the test below
NUMBER_GIVEN = ("aten.multiply.Tensor", "aten.true_divide.Tensor")
OUT_OF_PLACE = [case for case in ALIASES if not case[2].split(".")[1].endswith("_")]


@pytest.mark.parametrize(("call", "on", "off"), OUT_OF_PLACE)
def test_inference_tensors_alone_hand_the_alias_over_outside_inference_mode(call, on, off):
    with torch.inference_mode():
        x, m = _x(), _m()
    if off in NUMBER_GIVEN:
        return
    with Seen() as mode:
        out = call(x, m)
    assert mode.seen == [off]
    if isinstance(out, torch.Tensor) and out.data_ptr() != x.data_ptr():  # fresh values
        assert not out.is_inference() and out._version == 0  # made below the mode, uncounted
    if isinstance(out, torch.Tensor):
        assert not out._is_view() and out.grad_fn is None


def test_a_number_wrapped_in_a_normal_tensor_brings_autograd_outside_inference_mode():
    with torch.inference_mode():
        x, y = _x(), _m()
    with Seen() as mode:
        torch.multiply(x, 2), torch.true_divide(x, 2), torch.subtract(x, 1)
        torch.multiply(x, y), torch.greater(x, 0.5)
    assert mode.seen == ["aten.mul.Tensor", "aten.div.Tensor", "aten.sub.Tensor",
                         "aten.multiply.Tensor", "aten.greater.Scalar"]
    with torch.inference_mode(), Seen() as mode:
        torch.multiply(x, 2)
    assert mode.seen == ["aten.multiply.Tensor"]


def test_an_in_place_alias_handed_over_whole_gives_back_the_tensor_it_wrote():
    x = _x()
    with torch.inference_mode(), Seen():
        out = x.clip_(-0.3, 0.3)
    assert out is x and x._version == 0 and x.max().item() == pytest.approx(0.3)
    assert x.clip_(-0.2, 0.2) is x and x._version == 1  # without a mode: counted
    with torch.inference_mode():
        z = _x()
    with Seen() as mode:  # below torch's autograd layer: no refusal, nothing counted
        assert z.absolute_() is z
    assert mode.seen == ["aten.absolute_.default"] and z.min().item() == pytest.approx(0.1)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside"):
        z.absolute_()
    wide = torch.ones(2, 3)
    with torch.inference_mode(), Seen() as mode:
        assert wide.swapaxes_(0, 1) is wide
    assert mode.seen == ["aten.swapaxes_.default"] and wide.shape == (3, 2)


def test_each_mode_of_a_stack_sees_the_alias():
    seen = []
    Tagged = tagged_mode(seen)
    x = _x()
    with torch.inference_mode(), Tagged("outer"), Tagged("inner"):
        torch.absolute(x)
    assert seen == [("inner", "aten.absolute.default"), ("outer", "aten.absolute.default")]
