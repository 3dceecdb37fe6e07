"""Black-box tests: torch.nn.functional's own Python steps come before its operator's parser.

A function of F that is Python in torch reads its reduction, compares sizes, unpacks its
window or compares its margin before the C++ operator's parser reads the other arguments; a
call that is wrong in both ways is refused by what torch's Python meets first, with that
error alone (not chained to another). The same assertions run on torch.
"""

import traceback

import pytest
import torch
import torch.nn.functional as F

x, y = torch.rand(2, 3), torch.rand(2, 3)
x4, y4 = torch.rand(2, 3, 4, 5), torch.rand(2, 3, 4, 5)
longs, row = torch.zeros(2, 3, dtype=torch.long), torch.rand(3)
ids, table = torch.tensor([0, 1]), torch.rand(4, 2)
AMBIGUOUS = "Boolean value of Tensor with more than one value is ambiguous"
A_TENSOR = "cond must be a bool, but got a Tensor"
INTS = "must be tuple of ints, "

CALLS = {
    # size_average is read as a truth value before reduce
    **{f"{name} size_average": (getattr(F, name), (x, y, y, 0), RuntimeError, AMBIGUOUS)
       for name in ("l1_loss", "mse_loss", "smooth_l1_loss", "soft_margin_loss", "kl_div",
                    "multilabel_margin_loss")},
    # the reduction and the weight's size before the parser reads delta
    "huber_loss reduction": (F.huber_loss, (x, y, y, "a"), ValueError,
                             "is not a valid value for reduction"),
    "huber_loss reduction 1": (F.huber_loss, (x, y, 1, "a"), ValueError,
                               "1 is not a valid value for reduction"),
    "huber_loss weight": (F.huber_loss, (x, y, None, None, "a"), AttributeError,
                          "'str' object has no attribute 'size'"),
    "huber_loss weight's size": (F.huber_loss, (x, y, "mean", "a", row), ValueError,
                                 "Weights and input must have the same size."),
    "huber_loss delta": (F.huber_loss, (x, y, "mean", "a"), TypeError,
                         "huber_loss(): argument 'delta' (position 4) must be float, not str"),
    # the window unpacked first
    "lp_pool2d short window": (F.lp_pool2d, (x, y, "a"), ValueError,
                               "not enough values to unpack (expected 2, got 1)"),
    "lp_pool2d long window": (F.lp_pool2d, (x4, 2, (2, 1, 1)), ValueError,
                              "too many values to unpack (expected 2)"),
    "lp_pool3d window of a tensor": (F.lp_pool3d, (x, y, y), ValueError,
                                     "not enough values to unpack (expected 3, got 2)"),
    "lp_pool3d window of a str": (F.lp_pool3d, (x, y, "mean"), ValueError,
                                  "too many values to unpack (expected 3)"),
    # the sizes taken apart and worked out in Python
    "max_unpool1d window of a tensor": (F.max_unpool1d, (x, y, y), IndexError,
                                        "tuple index out of range"),
    "max_unpool2d window of a str": (F.max_unpool2d, (x, y, "mean"), IndexError,
                                     "tuple index out of range"),
    "max_unpool2d sizes of tensors": (F.max_unpool2d, (x, y, y), TypeError, A_TENSOR),
    "max_unpool1d sizes of tensors": (F.max_unpool1d, (x, longs, torch.tensor([2])),
                                      TypeError, A_TENSOR),
    "max_unpool3d window of a str": (F.max_unpool3d, (x, y, "a"), TypeError,
                                     "unsupported operand type(s) for -: 'str' and 'int'"),
    "max_unpool3d stride of a str": (F.max_unpool3d, (x, y, y, "a"), TypeError,
                                     'can only concatenate str (not "Tensor") to str'),
    "max_unpool3d sizes of tensors": (F.max_unpool3d, (x4, y4, y4), TypeError, A_TENSOR),
    # the margin compared first
    "triplet_margin_loss tensor margin": (F.triplet_margin_loss, (x, y, y, y, "a"),
                                          RuntimeError, AMBIGUOUS),
    "triplet_margin_loss margin of None": (F.triplet_margin_loss, (x, y, None, None, "a"),
                                           TypeError, "'<=' not supported between instances"),
    "triplet_margin_loss margin of a str": (F.triplet_margin_loss, (x, y, 1, "a"), TypeError,
                                            "'<=' not supported between instances"),
    "triplet_margin_loss keyword margin": (F.triplet_margin_loss, (x, 1, y), RuntimeError,
                                           AMBIGUOUS, {"margin": y}),
    # the operator's arguments in their order: the window before the output size
    **{f"fractional_max_pool{n}d{w} window": (
        getattr(F, f"fractional_max_pool{n}d{w}"), (x4, y4, "a"), TypeError,
        f"fractional_max_pool{n}d(): argument 'kernel_size' (position 2) must be tuple of "
        "ints, not Tensor") for n in (2, 3) for w in ("", "_with_indices")},
    "fractional_max_pool2d output size": (F.fractional_max_pool2d, (x4, 2, 2.5), TypeError,
                                          "argument 'output_size' (position 3) must be tuple"
                                          " of ints, not float"),
    # embedding_renorm_'s own parser reads max_norm
    "embedding max_norm": (F.embedding, (x, y, 1, "a"), TypeError,
                           "embedding_renorm_(): argument 'max_norm' (position 3) must be "
                           "float, not str"),
    "embedding norm_type": (F.embedding, (ids, table, None, 1.0, "a"), TypeError,
                            "embedding_renorm_(): argument 'norm_type' (position 4) must be "
                            "float, not str"),
    # the parser reads a shape or a padding before the weight and the numbers after it
    **{f"{name} {arg}": (getattr(F, name), (x, y, "a", "a"), TypeError,
                         f"{name}(): argument '{arg}' (position 2) {INTS}not Tensor")
       for name, arg in (("layer_norm", "normalized_shape"), ("rms_norm", "normalized_shape"),
                         ("pad", "pad"))},
    **{f"{name} {arg} of floats": (getattr(F, name), (x, [1.0, 1]), TypeError,
                                   f"{name}(): argument '{arg}' (position 2) {INTS}but found "
                                   "element of type float at pos 0")
       for name, arg in (("layer_norm", "normalized_shape"), ("pad", "pad"))},
    "layer_norm shape by keyword": (F.layer_norm, (x,), TypeError,
                                    f"argument 'normalized_shape' (position 2) {INTS}not str",
                                    {"normalized_shape": "a", "weight": "a"}),
    # inplace tested first: the in-place operator's parser names itself
    **{f"{name} in place": (getattr(F, name), (x, y, *[1] * (at - 2), True), TypeError,
                            f"{name}_(): argument '{arg}' (position 2) must be Number, not "
                            "Tensor") for name, arg, at in (
        ("elu", "alpha", 2), ("celu", "alpha", 2), ("leaky_relu", "negative_slope", 2),
        ("threshold", "threshold", 3), ("rrelu", "lower", 4))},
    # the reduction, then the sizes, then the parser
    "binary_cross_entropy target size": (F.binary_cross_entropy, (x, row, "a"), ValueError,
                                         "Using a target size (torch.Size([3])) that is "
                                         "different to the input size"),
    "binary_cross_entropy reduction": (F.binary_cross_entropy, (x, y, "a"), ValueError,
                                       "foo is not a valid value for reduction",
                                       {"reduction": "foo"}),
    "binary_cross_entropy weight": (F.binary_cross_entropy, (x, y, 5), AttributeError,
                                    "'int' object has no attribute 'size'"),
    "with_logits target size": (F.binary_cross_entropy_with_logits, (x, row, "a"),
                                ValueError, "Target size (torch.Size([3])) must be the same"),
    "with_logits reduction": (F.binary_cross_entropy_with_logits, (x, y), ValueError,
                              "foo is not a valid value for reduction",
                              {"pos_weight": "a", "reduction": "foo"}),
    "margin_ranking_loss dimensions": (F.margin_ranking_loss, (x, y, row, "a"), RuntimeError,
                                       "All input tensors should have same dimension"),
    "margin_ranking_loss reduction": (F.margin_ranking_loss, (x, y, y), ValueError,
                                      "foo is not a valid value for reduction",
                                      {"reduction": "foo", "margin": "a"}),
    "smooth_l1_loss reduction": (F.smooth_l1_loss, (x, y), ValueError,
                                 "foo is not a valid value for reduction",
                                 {"reduction": "foo", "beta": "a"}),
    "cosine_embedding_loss reduction": (F.cosine_embedding_loss, (x, y, y, "a"), ValueError,
                                        "foo is not a valid value for reduction",
                                        {"reduction": "foo"}),
    "hinge_embedding_loss reduction": (F.hinge_embedding_loss, (x, y, "a"), ValueError,
                                       "foo is not a valid value for reduction",
                                       {"reduction": "foo"}),
}


def _shown_alone(error: BaseException) -> bool:
    printed = "".join(traceback.format_exception(error))
    return "During handling of the above exception" not in printed


@pytest.mark.parametrize("case", CALLS.values(), ids=CALLS.keys())
def test_python_steps_come_first(case):
    function, args, kind, words, *keywords = case
    with pytest.raises(kind) as caught:
        function(*args, **(keywords[0] if keywords else {}))
    assert words in str(caught.value)
    assert _shown_alone(caught.value)


def test_the_same_functions_still_compute():
    torch.manual_seed(0)
    assert F.huber_loss(x, y, "sum", 0.5, torch.ones(2, 3)).shape == ()
    assert F.huber_loss(x, y, "none", torch.tensor(0.5)).shape == (2, 3)
    assert F.lp_pool2d(x4, 2, (2, 1)).shape == (2, 3, 2, 5)
    assert F.lp_pool3d(x4, 2, 2).shape == (2, 1, 2, 2)
    assert F.max_unpool1d(x, longs, 2).shape == (2, 6)
    assert F.max_unpool2d(x4, torch.zeros(2, 3, 4, 5, dtype=torch.long), 2,
                          output_size=(8, 10)).shape == (2, 3, 8, 10)
    assert F.triplet_margin_loss(x, y, y, torch.tensor(0.5)).shape == ()
    assert F.fractional_max_pool2d(x4, torch.tensor(2), 3).shape == (2, 3, 3, 3)
    assert F.fractional_max_pool3d(x4, 2, output_ratio=0.5).shape == (2, 1, 2, 2)
    assert F.embedding(ids, torch.rand(4, 2), None, 1).shape == (2, 2)
    assert F.binary_cross_entropy(x, y, torch.rand(3)).shape == ()
    assert F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.rand(3)).shape == ()
    assert F.margin_ranking_loss(x, y, y, torch.tensor(0.5)).shape == ()
    assert F.smooth_l1_loss(x, y, beta=0.0).shape == ()
    assert F.cosine_embedding_loss(x, y, torch.ones(2), 0.1).shape == ()
    assert F.hinge_embedding_loss(x, y, 2).shape == ()
    assert F.layer_norm(x, [torch.tensor(3)]).shape == (2, 3)
    assert F.pad(x, [1, 1]).shape == (2, 5)


@pytest.mark.parametrize("legacy", [(True, False), (False, True), (True, True), (False, False),
                                    (None, False), (False, None)])
def test_legacy_reductions_keep_their_meaning(legacy):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = F.l1_loss(x, y, *legacy)
    reduce = legacy[1] is not False
    assert got.shape == (() if reduce else (2, 3))


@pytest.mark.parametrize("args, shown", [(((1, 1), 5, "a"), "int"),
                                         (((1, 1), None, "a"), "NoneType")])
def test_pad_reads_its_mode_before_its_value(args, shown):
    with pytest.raises(TypeError) as caught:
        F.pad(x, *args)
    assert str(caught.value) == f"pad(): argument 'mode' (position 3) must be str, not {shown}"


def test_rrelu_in_place_is_torchs_own():
    assert F.rrelu_ is torch.rrelu_
    with pytest.raises(TypeError) as caught:
        F.rrelu_(x.clone(), y, None, None, "a")
    assert str(caught.value) == "rrelu_(): argument 'lower' (position 2) must be Number, not Tensor"
    z, drawn = x.clone() - 0.5, torch.Generator().manual_seed(3)
    assert F.rrelu_(z, 0.1, 0.3, True, drawn) is z and z._version == 1
