"""Losses given an input and a target of different dtypes: what each computes or refuses."""

import math
import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises, unique_preorder

DTYPES = [torch.float32, torch.float64, torch.float16, torch.int64, torch.int32, torch.uint8,
          torch.bool]
PAIRS = [(a, b) for a in DTYPES for b in DTYPES]
NAMES = {torch.float32: "Float", torch.float64: "Double", torch.float16: "Half",
         torch.int64: "Long", torch.int32: "Int", torch.uint8: "Byte", torch.bool: "Bool"}
TWO_BOOLS = ("Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
             "`^` or `logical_xor()` operator instead.")
ONE_BOOL = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead.")
NEGATION = ("Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead.")
SHAPES = [((2, 3), (2, 3)), ((2, 3), (3,)), ((), ())]


def _quiet(call, *args, **kwargs):
    """``call`` without the warning a target of another size gives (checked elsewhere)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return call(*args, **kwargs)


def _operands(da, db, shapes=((2, 3), (2, 3))):
    a = torch.tensor([0, 1, 1, 0, 1, 0][:max(1, math.prod(shapes[0]))]).reshape(shapes[0])
    b = torch.tensor([1, 1, 0, 1, 0, 0][:max(1, math.prod(shapes[1]))]).reshape(shapes[1])
    return a.to(da), b.to(db)


def _cast_refused(kind, into):
    return f"result type {NAMES[kind]} can't be cast to the desired output type {NAMES[into]}"


def _close(result, expected, *kinds):
    tolerance = 2e-3 if torch.float16 in kinds else 1e-6
    assert torch.allclose(result.double(), expected.double(), rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("name, kernel", [("mse_loss", "mse_cpu"),
                                          ("smooth_l1_loss", "smooth_l1_cpu")])
@pytest.mark.parametrize("da, db", PAIRS)
def test_mse_and_smooth_l1_compute_in_the_promoted_dtype(da, db, name, kernel, reduction,
                                                         shapes):
    a, b = _operands(da, db, shapes)
    kind = torch.promote_types(da, db)
    loss = getattr(F, name)
    if not kind.is_floating_point:
        with raises(NotImplementedError, f"\"{kernel}\" not implemented for '{NAMES[kind]}'"):
            _quiet(loss, a, b, reduction=reduction)
        return
    result = _quiet(loss, a, b, reduction=reduction)
    assert result.dtype == kind
    _close(result, _quiet(loss, a.double(), b.double(), reduction=reduction), kind)


@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("da, db", PAIRS)
def test_huber_writes_into_the_input_dtype(da, db, reduction, shapes):
    a, b = _operands(da, db, shapes)
    kind = torch.promote_types(da, db)
    if not torch.can_cast(kind, da):
        with raises(RuntimeError, _cast_refused(kind, da)):
            _quiet(F.huber_loss, a, b, reduction=reduction)
    elif not kind.is_floating_point:
        with raises(NotImplementedError, f"\"huber_cpu\" not implemented for '{NAMES[kind]}'"):
            _quiet(F.huber_loss, a, b, reduction=reduction, delta=0.5)
    else:
        result = _quiet(F.huber_loss, a, b, reduction=reduction, delta=0.5)
        assert result.dtype == da
        _close(result, _quiet(F.huber_loss, a.double(), b.double(), reduction=reduction,
                              delta=0.5), da)


FLOATS = [torch.float32, torch.float64, torch.float16]
GRADIENT_PAIRS = [(a, b, side) for a in DTYPES for b in DTYPES for side in (0, 1)
                  if (a, b)[side].is_floating_point]


@pytest.mark.parametrize("reduction", ["none", "mean"])
@pytest.mark.parametrize("name, node", [("mse_loss", "MseLossBackwardBackward0"),
                                        ("smooth_l1_loss", "SmoothL1LossBackwardBackward0")])
@pytest.mark.parametrize("da, db, side", GRADIENT_PAIRS)
def test_a_gradient_is_written_in_its_operand_dtype(da, db, side, name, node, reduction):
    a, b = _operands(da, db)
    wants = (a, b)[side].requires_grad_()
    loss = getattr(F, name)(a, b, reduction=reduction)
    (grad,) = torch.autograd.grad(loss.sum(), wants, create_graph=True)
    assert grad.dtype == wants.dtype
    assert unique_preorder(grad.grad_fn) == [node, "AccumulateGrad"]  # no cast after the row
    a64, b64 = a.detach().double(), b.detach().double()
    ref = (a64, b64)[side].requires_grad_()
    (expected,) = torch.autograd.grad(getattr(F, name)(a64, b64, reduction=reduction).sum(), ref)
    _close(grad, expected, wants.dtype)


@pytest.mark.parametrize("da, db, side", [p for p in GRADIENT_PAIRS if p[0].is_floating_point
                                          and p[0] != p[1]])
def test_the_huber_gradient_demands_one_dtype(da, db, side):
    a, b = _operands(da, db)
    wants = (a, b)[side].requires_grad_()
    loss = F.huber_loss(a, b)
    assert loss.dtype == da
    found, expected = (db, da) if side == 0 else (da, db)
    with raises(RuntimeError, f"Found dtype {NAMES[found]} but expected {NAMES[expected]}"):
        loss.backward()
    assert wants.grad is None


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("da, db", PAIRS)
def test_logits_loss_meets_the_dtypes_step_by_step(da, db, reduction):
    a, b = _operands(da, db)
    loss = F.binary_cross_entropy_with_logits
    if not da.is_floating_point:  # log σ(input) comes first
        with raises(NotImplementedError, f"\"log_sigmoid_cpu\" not implemented for "
                                         f"'{NAMES[da]}'"):
            loss(a, b, reduction=reduction)
    elif db == torch.bool:  # then 1 - target, written into a copy of the target
        with raises(RuntimeError, TWO_BOOLS):
            loss(a, b, reduction=reduction)
    elif not db.is_floating_point:  # then the input multiplied into it, in place
        with raises(RuntimeError, _cast_refused(torch.promote_types(da, db), db)):
            loss(a, b, reduction=reduction)
    else:
        result = loss(a, b, reduction=reduction)
        assert result.dtype == db  # the loss is written into the target's dtype
        _close(result, loss(a.double(), b.double(), reduction=reduction), da, db)


def test_logits_loss_checks_the_input_before_pos_weight_shape():
    a, b = torch.tensor(1), torch.tensor(1.0)
    with raises(NotImplementedError, "\"log_sigmoid_cpu\" not implemented for 'Long'"):
        F.binary_cross_entropy_with_logits(a, b, pos_weight=torch.ones(3))
    with raises(RuntimeError, ONE_BOOL):
        F.binary_cross_entropy_with_logits(a.float(), b, pos_weight=torch.tensor([True]))
    with raises(RuntimeError, "output with shape [] doesn't match the broadcast shape [3]"):
        F.binary_cross_entropy_with_logits(a.float(), b, pos_weight=torch.ones(3))
    with raises(RuntimeError, _cast_refused(torch.float32, torch.int64)):
        F.binary_cross_entropy_with_logits(a.float(), a, weight=torch.ones(3))


def test_logits_loss_rounds_each_step_into_its_dtype():
    x = torch.tensor([0.3, -1.7, 2.2], dtype=torch.float16)
    y = torch.tensor([1.0, 0.0, 0.5])
    # log σ(x) is float16, the loss float32: not the float32 loss of float32 logits
    assert F.binary_cross_entropy_with_logits(x, y).dtype == torch.float32
    each = F.binary_cross_entropy_with_logits(x, y, reduction="none")
    assert each.tolist() == [0.55419921875, 0.16796875, 1.20477294921875]
    assert each.tolist() != F.binary_cross_entropy_with_logits(x.float(), y,
                                                               reduction="none").tolist()


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("da, db", PAIRS)
def test_soft_margin_negates_into_the_input_dtype(da, db, reduction):
    a, b = _operands(da, db)
    kind = torch.promote_types(da, db)
    if da == torch.bool:
        with raises(RuntimeError, NEGATION):
            F.soft_margin_loss(a, b, reduction=reduction)
    elif not torch.can_cast(kind, da):
        with raises(RuntimeError, _cast_refused(kind, da)):
            F.soft_margin_loss(a, b, reduction=reduction)
    elif not da.is_floating_point:  # the exponential, in place, of an integer
        with raises(RuntimeError, _cast_refused(torch.float32, da)):
            F.soft_margin_loss(a, b, reduction=reduction)
    else:
        result = F.soft_margin_loss(a, b, reduction=reduction)
        assert result.dtype == da
        _close(result, F.soft_margin_loss(a.double(), b.double(), reduction=reduction), da)


def test_soft_margin_gradient_negates_the_target_in_its_own_dtype():
    x = torch.tensor([-0.1, 0.2], requires_grad=True)
    with raises(RuntimeError, NEGATION):
        F.soft_margin_loss(x, torch.tensor([True, False])).backward()
    F.soft_margin_loss(x, torch.tensor([1, 0], dtype=torch.uint8), reduction="sum").backward()
    z = math.exp(255 * -0.1)  # -1 as a uint8 is 255
    assert x.grad.dtype == torch.float32
    assert torch.allclose(x.grad, torch.tensor([-z / (1 + z), 0.0]))


@pytest.mark.parametrize("da, db", PAIRS)
def test_dist_subtracts_first(da, db):
    a, b = _operands(da, db)
    kind = torch.promote_types(da, db)
    if torch.bool in (da, db):
        with raises(RuntimeError, TWO_BOOLS if da == db else ONE_BOOL):
            torch.dist(a, b)
    elif not kind.is_floating_point:
        with raises(RuntimeError, "norm(): input dtype should be either floating point or "
                                  f"complex. Got {NAMES[kind]} instead."):
            torch.dist(a, b)
    else:
        result = torch.dist(a, b, 3)
        assert result.dtype == kind
        _close(result, torch.dist(a.double(), b.double(), 3), kind)


@pytest.mark.parametrize("kind", [torch.int64, torch.uint8, torch.bool])
def test_binary_cross_entropy_has_no_integer_kernel(kind):
    a = torch.tensor([0, 1, 3]).to(kind)  # 3 is out of range: the dtype is refused first
    with raises(NotImplementedError,
                f"\"binary_cross_entropy\" not implemented for '{NAMES[kind]}'"):
        F.binary_cross_entropy(a, a)


def test_cross_refuses_a_bool_input_before_comparing_dtypes():
    b = torch.tensor([[True, False, True]])
    for other in (b, torch.ones(1, 3), torch.ones(2, 3, dtype=torch.bool)):
        with raises(NotImplementedError, "\"cross\" not implemented for 'Bool'"):
            torch.linalg.cross(b, other)
    with raises(RuntimeError, "expected scalar type Float but found Bool"):
        torch.linalg.cross(torch.ones(1, 3), b)


def test_trapezoid_refuses_bools():
    b = torch.tensor([[True, False, True]])
    x = torch.tensor([0.0, 1.0, 2.0])
    for name in ("trapezoid", "cumulative_trapezoid"):
        with raises(RuntimeError, f"{name}: received a bool input for `y`, but bool is not "
                                  "supported"):
            getattr(torch, name)(b)
        for y, at in ((b, x), (x, b[0])):
            with raises(RuntimeError, f"{name}: received a bool input for `x` or `y`, but bool "
                                      "is not supported"):
                getattr(torch, name)(y, at)
    # trapezoid finds the dimension first: an empty one integrates to zeros
    assert torch.trapezoid(torch.ones(2, 0, dtype=torch.bool)).tolist() == [False, False]
    with raises(RuntimeError, "cumulative_trapezoid: received a bool input for `y`, but bool "
                              "is not supported"):
        torch.cumulative_trapezoid(torch.tensor(True))


def test_cov_refuses_a_bool_input_before_its_weights():
    b = torch.tensor([[True, False, True]])
    for call in (lambda: torch.cov(b), lambda: torch.corrcoef(b),
                 lambda: torch.cov(b, fweights=torch.tensor([1.0, 2.0, 3.0]))):
        with raises(RuntimeError, "cov(): bool dtype is not supported for input"):
            call()


def test_a_pair_loss_tangent_is_the_sum_of_two_unreduced_rows():
    fw = torch.autograd.forward_ad
    x = torch.tensor([[0.3, -1.7, 2.2], [0.1, 0.2, -0.4]])
    y = torch.tensor([[1.0, 0.0, 0.5], [0.0, 1.0, 1.0]])
    with fw.dual_level():
        # the target's float16 term is added to the input's float32 zeros, then averaged
        loss = F.mse_loss(x, fw.make_dual(y.half(), torch.full((2, 3), 0.5).half()))
        tangent = fw.unpack_dual(loss).tangent
        assert tangent.dtype == torch.float32 and tangent.item() == 0.46673583984375
        # an integer operand's zeros cannot hold its float term
        with raises(RuntimeError, _cast_refused(torch.float32, torch.int64)):
            F.mse_loss(fw.make_dual(x, torch.ones(2, 3)), y.long())
        with raises(RuntimeError, "Found dtype Float but expected Half"):  # the target's first
            F.huber_loss(fw.make_dual(x, torch.ones(2, 3)), y.half())
