"""White-box tests of refgrad._formatting against strings recorded from torch.

Every expected string below is the ``repr`` that torch 2.13.0 (CPU) printed
for ``torch.from_numpy(<the same array>)`` with the same attributes and print
options; they were recorded from torch 2.13 and pasted here as literals, so the
test does not need torch. The tensors are stand-ins: objects with exactly the
five attributes the printer reads.
"""

import math

import numpy as np
import pytest

from conformance._support import StandIn
from refgrad import _formatting, _printoptions
from refgrad._formatting import tensor_repr
from refgrad._printoptions import get_printoptions, set_printoptions


def make(array: np.ndarray, attrs: dict) -> StandIn:
    grad_fn = None
    if "grad_fn" in attrs:
        grad_fn = type(attrs["grad_fn"], (), {})()
    requires_grad = bool(attrs.get("requires_grad") or grad_fn)
    return StandIn(array, requires_grad=requires_grad, grad_fn=grad_fn)


@pytest.fixture(autouse=True)
def default_options():
    set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")


# Recorded from torch 2.13.0: (array, attributes, print options, repr).
CASES = [
    pytest.param(
        np.array(2.0, dtype=np.float32),
        {},
        {},
        "tensor(2.)",
        id="scalar_float",
    ),
    pytest.param(
        np.array(2, dtype=np.int64),
        {},
        {},
        "tensor(2)",
        id="scalar_int",
    ),
    pytest.param(
        np.array(True),
        {},
        {},
        "tensor(True)",
        id="scalar_bool",
    ),
    pytest.param(
        np.array(2.0, dtype=np.float64),
        {},
        {},
        "tensor(2., dtype=torch.float64)",
        id="scalar_f64",
    ),
    pytest.param(
        np.array(0.1, dtype=np.float64),
        {},
        {},
        "tensor(0.1000, dtype=torch.float64)",
        id="scalar_f64_frac",
    ),
    pytest.param(
        np.array(1e-10, dtype=np.float32),
        {},
        {},
        "tensor(1.0000e-10)",
        id="scalar_tiny",
    ),
    pytest.param(
        np.array(np.nan, dtype=np.float32),
        {},
        {},
        "tensor(nan)",
        id="scalar_nan",
    ),
    pytest.param(
        np.array(-np.inf, dtype=np.float64),
        {},
        {},
        "tensor(-inf, dtype=torch.float64)",
        id="scalar_neg_inf",
    ),
    pytest.param(
        np.array(-7, dtype=np.int32),
        {},
        {},
        "tensor(-7, dtype=torch.int32)",
        id="scalar_int32",
    ),
    pytest.param(
        np.array(6.0, dtype=np.float32),
        {"requires_grad": True},
        {},
        "tensor(6., requires_grad=True)",
        id="scalar_rg",
    ),
    pytest.param(
        np.array(6.0, dtype=np.float32),
        {"grad_fn": "CloneBackward0"},
        {},
        "tensor(6., grad_fn=<CloneBackward0>)",
        id="scalar_gradfn",
    ),
    pytest.param(
        np.array([True, False]),
        {},
        {},
        "tensor([ True, False])",
        id="bool_vec",
    ),
    pytest.param(
        np.array([[True], [True]]),
        {},
        {},
        ("tensor([[True],\n        [True]])"),
        id="bool_mat",
    ),
    pytest.param(
        np.array([1, 2], dtype=np.int64),
        {},
        {},
        "tensor([1, 2])",
        id="int_vec",
    ),
    pytest.param(
        np.array([1, 2], dtype=np.int32),
        {},
        {},
        "tensor([1, 2], dtype=torch.int32)",
        id="int32_vec",
    ),
    pytest.param(
        np.array([-1, 2000], dtype=np.int16),
        {},
        {},
        "tensor([  -1, 2000], dtype=torch.int16)",
        id="int16_vec",
    ),
    pytest.param(
        np.array([-128, 127], dtype=np.int8),
        {},
        {},
        "tensor([-128,  127], dtype=torch.int8)",
        id="int8_vec",
    ),
    pytest.param(
        np.array([0, 255], dtype=np.uint8),
        {},
        {},
        "tensor([  0, 255], dtype=torch.uint8)",
        id="uint8_vec",
    ),
    pytest.param(
        np.array([[1, -2], [300, 4]], dtype=np.int64),
        {},
        {},
        ("tensor([[  1,  -2],\n        [300,   4]])"),
        id="int_mat",
    ),
    pytest.param(
        np.array([1.5, -2.25, 3.0], dtype=np.float32),
        {},
        {},
        "tensor([ 1.5000, -2.2500,  3.0000])",
        id="fixed",
    ),
    pytest.param(
        np.array([1000.0, 1.0], dtype=np.float32),
        {},
        {},
        "tensor([1000.,    1.])",
        id="intmode",
    ),
    pytest.param(
        np.array([-1.0, 0.0, 3.0], dtype=np.float32),
        {},
        {},
        "tensor([-1.,  0.,  3.])",
        id="intmode_neg",
    ),
    pytest.param(
        np.array([1e-5, 1.0], dtype=np.float32),
        {},
        {},
        "tensor([1.0000e-05, 1.0000e+00])",
        id="sci_small",
    ),
    pytest.param(
        np.array([1001.5, 1.0], dtype=np.float32),
        {},
        {},
        "tensor([1.0015e+03, 1.0000e+00])",
        id="sci_ratio",
    ),
    pytest.param(
        np.array([1e20, 1.0], dtype=np.float32),
        {},
        {},
        "tensor([1.0000e+20, 1.0000e+00])",
        id="sci_big",
    ),
    pytest.param(
        np.array([2e8], dtype=np.float32),
        {},
        {},
        "tensor([2.0000e+08])",
        id="sci_big_single",
    ),
    pytest.param(
        np.array([12345.6789], dtype=np.float32),
        {},
        {},
        "tensor([12345.6787])",
        id="f32_via_double",
    ),
    pytest.param(
        np.array([np.nan, 1.5], dtype=np.float32),
        {},
        {},
        "tensor([   nan, 1.5000])",
        id="nan_fixed",
    ),
    pytest.param(
        np.array([np.nan, 1.0], dtype=np.float32),
        {},
        {},
        "tensor([nan, 1.])",
        id="nan_int",
    ),
    pytest.param(
        np.array([np.nan], dtype=np.float32),
        {},
        {},
        "tensor([nan])",
        id="nan_only",
    ),
    pytest.param(
        np.array([np.inf, -np.inf, 0.0], dtype=np.float32),
        {},
        {},
        "tensor([inf, -inf, 0.])",
        id="inf_mix",
    ),
    pytest.param(
        np.array([np.inf, 1e-7, -3.0], dtype=np.float64),
        {},
        {},
        "tensor([        inf,  1.0000e-07, -3.0000e+00], dtype=torch.float64)",
        id="inf_sci",
    ),
    pytest.param(
        np.zeros(2, dtype=np.float32),
        {},
        {},
        "tensor([0., 0.])",
        id="zeros",
    ),
    pytest.param(
        np.array([-0.0], dtype=np.float32),
        {},
        {},
        "tensor([-0.])",
        id="neg_zero",
    ),
    pytest.param(
        np.array([-0.0, 1.5], dtype=np.float32),
        {},
        {},
        "tensor([-0.0000, 1.5000])",
        id="neg_zero_fixed",
    ),
    pytest.param(
        np.array([1.5, 2.0], dtype=np.float16),
        {},
        {},
        "tensor([1.5000, 2.0000], dtype=torch.float16)",
        id="f16",
    ),
    pytest.param(
        np.array([1.0, 2.0], dtype=np.float16),
        {},
        {},
        "tensor([1., 2.], dtype=torch.float16)",
        id="f16_int",
    ),
    pytest.param(
        np.array([65504.0, 6e-8], dtype=np.float16),
        {},
        {},
        "tensor([6.5504e+04, 5.9605e-08], dtype=torch.float16)",
        id="f16_extremes",
    ),
    pytest.param(
        np.array([1e300, 1e-300], dtype=np.float64),
        {},
        {},
        "tensor([1.0000e+300, 1.0000e-300], dtype=torch.float64)",
        id="f64_extremes",
    ),
    pytest.param(
        np.array([1.0, 2.0], dtype=np.float64),
        {"requires_grad": True},
        {},
        "tensor([1., 2.], dtype=torch.float64, requires_grad=True)",
        id="f64_rg",
    ),
    pytest.param(
        np.zeros(0, dtype=np.float32),
        {},
        {},
        "tensor([])",
        id="empty_f32",
    ),
    pytest.param(
        np.zeros(0, dtype=np.float64),
        {},
        {},
        "tensor([], dtype=torch.float64)",
        id="empty_f64",
    ),
    pytest.param(
        np.zeros(0, dtype=np.int64),
        {},
        {},
        "tensor([], dtype=torch.int64)",
        id="empty_i64",
    ),
    pytest.param(
        np.zeros(0, dtype=bool),
        {},
        {},
        "tensor([], dtype=torch.bool)",
        id="empty_bool",
    ),
    pytest.param(
        np.zeros((0, 3), dtype=np.float32),
        {},
        {},
        "tensor([], size=(0, 3))",
        id="empty_2d",
    ),
    pytest.param(
        np.zeros((2, 0), dtype=np.int64),
        {},
        {},
        "tensor([], size=(2, 0), dtype=torch.int64)",
        id="empty_2d_int",
    ),
    pytest.param(
        np.zeros((0, 3), dtype=np.float32),
        {"requires_grad": True},
        {},
        "tensor([], size=(0, 3), requires_grad=True)",
        id="empty_rg",
    ),
    pytest.param(
        np.arange(30, dtype=np.float32).reshape(2, 3, 5),
        {},
        {},
        (
            "tensor([[[ 0.,  1.,  2.,  3.,  4.],\n"
            "         [ 5.,  6.,  7.,  8.,  9.],\n"
            "         [10., 11., 12., 13., 14.]],\n"
            "\n"
            "        [[15., 16., 17., 18., 19.],\n"
            "         [20., 21., 22., 23., 24.],\n"
            "         [25., 26., 27., 28., 29.]]])"
        ),
        id="three_d",
    ),
    pytest.param(
        np.arange(16, dtype=np.int64).reshape(2, 2, 2, 2),
        {},
        {},
        (
            "tensor([[[[ 0,  1],\n"
            "          [ 2,  3]],\n"
            "\n"
            "         [[ 4,  5],\n"
            "          [ 6,  7]]],\n"
            "\n"
            "\n"
            "        [[[ 8,  9],\n"
            "          [10, 11]],\n"
            "\n"
            "         [[12, 13],\n"
            "          [14, 15]]]])"
        ),
        id="four_d",
    ),
    pytest.param(
        np.full((2, 3), 0.8415, dtype=np.float32),
        {"grad_fn": "CloneBackward0"},
        {},
        (
            "tensor([[0.8415, 0.8415, 0.8415],\n"
            "        [0.8415, 0.8415, 0.8415]], grad_fn=<CloneBackward0>)"
        ),
        id="mat_gradfn",
    ),
    pytest.param(
        np.ones((2, 2), dtype=np.float32),
        {"requires_grad": True},
        {},
        ("tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)"),
        id="mat_rg",
    ),
    pytest.param(
        np.linspace(-1, 1, 15, dtype=np.float32),
        {},
        {},
        (
            "tensor([-1.0000, -0.8571, -0.7143, -0.5714, -0.4286, -0.2857, -0.1429,  0.0000,\n"
            "         0.1429,  0.2857,  0.4286,  0.5714,  0.7143,  0.8571,  1.0000])"
        ),
        id="wrap_row",
    ),
    pytest.param(
        np.linspace(-1, 1, 15, dtype=np.float32),
        {"requires_grad": True},
        {},
        (
            "tensor([-1.0000, -0.8571, -0.7143, -0.5714, -0.4286, -0.2857, -0.1429,  0.0000,\n"
            "         0.1429,  0.2857,  0.4286,  0.5714,  0.7143,  0.8571,  1.0000],\n"
            "       requires_grad=True)"
        ),
        id="wrap_row_rg",
    ),
    pytest.param(
        np.full((1, 50), 1.5, dtype=np.float32),
        {"grad_fn": "CloneBackward0"},
        {},
        (
            "tensor([[1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000,\n"
            "         1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000,\n"
            "         1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000,\n"
            "         1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000,\n"
            "         1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000,\n"
            "         1.5000, 1.5000, 1.5000, 1.5000, 1.5000]], grad_fn=<CloneBackward0>)"
        ),
        id="wrap_in_mat",
    ),
    pytest.param(
        np.arange(12, dtype=np.int32),
        {},
        {},
        "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11], dtype=torch.int32)",
        id="suffix_wrap_dtype",
    ),
    pytest.param(
        np.arange(17, dtype=np.int32),
        {},
        {},
        (
            "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16],\n"
            "       dtype=torch.int32)"
        ),
        id="suffix_boundary",
    ),
    pytest.param(
        np.arange(9, dtype=np.float64) / 8,
        {"requires_grad": True},
        {},
        (
            "tensor([0.0000, 0.1250, 0.2500, 0.3750, 0.5000, 0.6250, 0.7500, 0.8750, 1.0000],\n"
            "       dtype=torch.float64, requires_grad=True)"
        ),
        id="suffix_boundary_f64",
    ),
    pytest.param(
        np.zeros(17, dtype=np.int32),
        {},
        {},
        "tensor([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], dtype=torch.int32)",
        id="suffix_quirk_no_wrap",
    ),
    pytest.param(
        np.zeros(18, dtype=np.int32),
        {},
        {},
        (
            "tensor([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],\n"
            "       dtype=torch.int32)"
        ),
        id="suffix_quirk_wraps",
    ),
    pytest.param(
        np.arange(24, dtype=np.float64),
        {"grad_fn": "CloneBackward0"},
        {"linewidth": 40},
        (
            "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,\n"
            "         6.,  7.,  8.,  9., 10., 11.,\n"
            "        12., 13., 14., 15., 16., 17.,\n"
            "        18., 19., 20., 21., 22., 23.],\n"
            "       dtype=torch.float64,\n"
            "       grad_fn=<CloneBackward0>)"
        ),
        id="suffix_two_wraps",
    ),
    pytest.param(
        np.arange(20, dtype=np.float64).reshape(2, 10) / 3,
        {"grad_fn": "CloneBackward0"},
        {},
        (
            "tensor([[0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,\n"
            "         3.0000],\n"
            "        [3.3333, 3.6667, 4.0000, 4.3333, 4.6667, 5.0000, 5.3333, 5.6667, 6.0000,\n"
            "         6.3333]], dtype=torch.float64, grad_fn=<CloneBackward0>)"
        ),
        id="suffix_after_multiline",
    ),
    pytest.param(
        np.array([-1e-5, 1.0, 2.0], dtype=np.float64),
        {},
        {"precision": 8},
        (
            "tensor([-1.00000000e-05,  1.00000000e+00,  2.00000000e+00],\n"
            "       dtype=torch.float64)"
        ),
        id="suffix_quirk_exact_fit",
    ),
    pytest.param(
        np.arange(2000, dtype=np.float32),
        {},
        {},
        (
            "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
            "        1.9990e+03])"
        ),
        id="summarise_1d",
    ),
    pytest.param(
        np.arange(1001, dtype=np.int64),
        {},
        {},
        "tensor([   0,    1,    2,  ...,  998,  999, 1000])",
        id="summarise_int",
    ),
    pytest.param(
        np.arange(2000, dtype=np.float32).reshape(40, 50) / 7,
        {},
        {},
        (
            "tensor([[0.0000e+00, 1.4286e-01, 2.8571e-01,  ..., 6.7143e+00, 6.8571e+00,\n"
            "         7.0000e+00],\n"
            "        [7.1429e+00, 7.2857e+00, 7.4286e+00,  ..., 1.3857e+01, 1.4000e+01,\n"
            "         1.4143e+01],\n"
            "        [1.4286e+01, 1.4429e+01, 1.4571e+01,  ..., 2.1000e+01, 2.1143e+01,\n"
            "         2.1286e+01],\n"
            "        ...,\n"
            "        [2.6429e+02, 2.6443e+02, 2.6457e+02,  ..., 2.7100e+02, 2.7114e+02,\n"
            "         2.7129e+02],\n"
            "        [2.7143e+02, 2.7157e+02, 2.7171e+02,  ..., 2.7814e+02, 2.7829e+02,\n"
            "         2.7843e+02],\n"
            "        [2.7857e+02, 2.7871e+02, 2.7886e+02,  ..., 2.8529e+02, 2.8543e+02,\n"
            "         2.8557e+02]])"
        ),
        id="summarise_2d",
    ),
    pytest.param(
        np.arange(1200, dtype=np.int32).reshape(10, 10, 12),
        {},
        {},
        (
            "tensor([[[   0,    1,    2,  ...,    9,   10,   11],\n"
            "         [  12,   13,   14,  ...,   21,   22,   23],\n"
            "         [  24,   25,   26,  ...,   33,   34,   35],\n"
            "         ...,\n"
            "         [  84,   85,   86,  ...,   93,   94,   95],\n"
            "         [  96,   97,   98,  ...,  105,  106,  107],\n"
            "         [ 108,  109,  110,  ...,  117,  118,  119]],\n"
            "\n"
            "        [[ 120,  121,  122,  ...,  129,  130,  131],\n"
            "         [ 132,  133,  134,  ...,  141,  142,  143],\n"
            "         [ 144,  145,  146,  ...,  153,  154,  155],\n"
            "         ...,\n"
            "         [ 204,  205,  206,  ...,  213,  214,  215],\n"
            "         [ 216,  217,  218,  ...,  225,  226,  227],\n"
            "         [ 228,  229,  230,  ...,  237,  238,  239]],\n"
            "\n"
            "        [[ 240,  241,  242,  ...,  249,  250,  251],\n"
            "         [ 252,  253,  254,  ...,  261,  262,  263],\n"
            "         [ 264,  265,  266,  ...,  273,  274,  275],\n"
            "         ...,\n"
            "         [ 324,  325,  326,  ...,  333,  334,  335],\n"
            "         [ 336,  337,  338,  ...,  345,  346,  347],\n"
            "         [ 348,  349,  350,  ...,  357,  358,  359]],\n"
            "\n"
            "        ...,\n"
            "\n"
            "        [[ 840,  841,  842,  ...,  849,  850,  851],\n"
            "         [ 852,  853,  854,  ...,  861,  862,  863],\n"
            "         [ 864,  865,  866,  ...,  873,  874,  875],\n"
            "         ...,\n"
            "         [ 924,  925,  926,  ...,  933,  934,  935],\n"
            "         [ 936,  937,  938,  ...,  945,  946,  947],\n"
            "         [ 948,  949,  950,  ...,  957,  958,  959]],\n"
            "\n"
            "        [[ 960,  961,  962,  ...,  969,  970,  971],\n"
            "         [ 972,  973,  974,  ...,  981,  982,  983],\n"
            "         [ 984,  985,  986,  ...,  993,  994,  995],\n"
            "         ...,\n"
            "         [1044, 1045, 1046,  ..., 1053, 1054, 1055],\n"
            "         [1056, 1057, 1058,  ..., 1065, 1066, 1067],\n"
            "         [1068, 1069, 1070,  ..., 1077, 1078, 1079]],\n"
            "\n"
            "        [[1080, 1081, 1082,  ..., 1089, 1090, 1091],\n"
            "         [1092, 1093, 1094,  ..., 1101, 1102, 1103],\n"
            "         [1104, 1105, 1106,  ..., 1113, 1114, 1115],\n"
            "         ...,\n"
            "         [1164, 1165, 1166,  ..., 1173, 1174, 1175],\n"
            "         [1176, 1177, 1178,  ..., 1185, 1186, 1187],\n"
            "         [1188, 1189, 1190,  ..., 1197, 1198, 1199]]], dtype=torch.int32)"
        ),
        id="summarise_3d",
    ),
    pytest.param(
        np.concatenate([np.ones(3), np.full(1000, 1e-9), np.ones(3)]).astype(np.float32),
        {},
        {},
        "tensor([1., 1., 1.,  ..., 1., 1., 1.])",
        id="summarise_hides_tiny",
    ),
    pytest.param(
        np.arange(1004, dtype=np.float32).reshape(2, 502),
        {},
        {},
        (
            "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 4.9900e+02, 5.0000e+02,\n"
            "         5.0100e+02],\n"
            "        [5.0200e+02, 5.0300e+02, 5.0400e+02,  ..., 1.0010e+03, 1.0020e+03,\n"
            "         1.0030e+03]])"
        ),
        id="summarise_narrow",
    ),
    pytest.param(
        np.arange(1000, dtype=np.int64),
        {},
        {},
        (
            "tensor([  0,   1,   2,   3,   4,   5,   6,   7,   8,   9,  10,  11,  12,  13,\n"
            "         14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,\n"
            "         28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  40,  41,\n"
            "         42,  43,  44,  45,  46,  47,  48,  49,  50,  51,  52,  53,  54,  55,\n"
            "         56,  57,  58,  59,  60,  61,  62,  63,  64,  65,  66,  67,  68,  69,\n"
            "         70,  71,  72,  73,  74,  75,  76,  77,  78,  79,  80,  81,  82,  83,\n"
            "         84,  85,  86,  87,  88,  89,  90,  91,  92,  93,  94,  95,  96,  97,\n"
            "         98,  99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,\n"
            "        112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125,\n"
            "        126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139,\n"
            "        140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153,\n"
            "        154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167,\n"
            "        168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181,\n"
            "        182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195,\n"
            "        196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209,\n"
            "        210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223,\n"
            "        224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237,\n"
            "        238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251,\n"
            "        252, 253, 254, 255, 256, 257, 258, 259, 260, 261, 262, 263, 264, 265,\n"
            "        266, 267, 268, 269, 270, 271, 272, 273, 274, 275, 276, 277, 278, 279,\n"
            "        280, 281, 282, 283, 284, 285, 286, 287, 288, 289, 290, 291, 292, 293,\n"
            "        294, 295, 296, 297, 298, 299, 300, 301, 302, 303, 304, 305, 306, 307,\n"
            "        308, 309, 310, 311, 312, 313, 314, 315, 316, 317, 318, 319, 320, 321,\n"
            "        322, 323, 324, 325, 326, 327, 328, 329, 330, 331, 332, 333, 334, 335,\n"
            "        336, 337, 338, 339, 340, 341, 342, 343, 344, 345, 346, 347, 348, 349,\n"
            "        350, 351, 352, 353, 354, 355, 356, 357, 358, 359, 360, 361, 362, 363,\n"
            "        364, 365, 366, 367, 368, 369, 370, 371, 372, 373, 374, 375, 376, 377,\n"
            "        378, 379, 380, 381, 382, 383, 384, 385, 386, 387, 388, 389, 390, 391,\n"
            "        392, 393, 394, 395, 396, 397, 398, 399, 400, 401, 402, 403, 404, 405,\n"
            "        406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 418, 419,\n"
            "        420, 421, 422, 423, 424, 425, 426, 427, 428, 429, 430, 431, 432, 433,\n"
            "        434, 435, 436, 437, 438, 439, 440, 441, 442, 443, 444, 445, 446, 447,\n"
            "        448, 449, 450, 451, 452, 453, 454, 455, 456, 457, 458, 459, 460, 461,\n"
            "        462, 463, 464, 465, 466, 467, 468, 469, 470, 471, 472, 473, 474, 475,\n"
            "        476, 477, 478, 479, 480, 481, 482, 483, 484, 485, 486, 487, 488, 489,\n"
            "        490, 491, 492, 493, 494, 495, 496, 497, 498, 499, 500, 501, 502, 503,\n"
            "        504, 505, 506, 507, 508, 509, 510, 511, 512, 513, 514, 515, 516, 517,\n"
            "        518, 519, 520, 521, 522, 523, 524, 525, 526, 527, 528, 529, 530, 531,\n"
            "        532, 533, 534, 535, 536, 537, 538, 539, 540, 541, 542, 543, 544, 545,\n"
            "        546, 547, 548, 549, 550, 551, 552, 553, 554, 555, 556, 557, 558, 559,\n"
            "        560, 561, 562, 563, 564, 565, 566, 567, 568, 569, 570, 571, 572, 573,\n"
            "        574, 575, 576, 577, 578, 579, 580, 581, 582, 583, 584, 585, 586, 587,\n"
            "        588, 589, 590, 591, 592, 593, 594, 595, 596, 597, 598, 599, 600, 601,\n"
            "        602, 603, 604, 605, 606, 607, 608, 609, 610, 611, 612, 613, 614, 615,\n"
            "        616, 617, 618, 619, 620, 621, 622, 623, 624, 625, 626, 627, 628, 629,\n"
            "        630, 631, 632, 633, 634, 635, 636, 637, 638, 639, 640, 641, 642, 643,\n"
            "        644, 645, 646, 647, 648, 649, 650, 651, 652, 653, 654, 655, 656, 657,\n"
            "        658, 659, 660, 661, 662, 663, 664, 665, 666, 667, 668, 669, 670, 671,\n"
            "        672, 673, 674, 675, 676, 677, 678, 679, 680, 681, 682, 683, 684, 685,\n"
            "        686, 687, 688, 689, 690, 691, 692, 693, 694, 695, 696, 697, 698, 699,\n"
            "        700, 701, 702, 703, 704, 705, 706, 707, 708, 709, 710, 711, 712, 713,\n"
            "        714, 715, 716, 717, 718, 719, 720, 721, 722, 723, 724, 725, 726, 727,\n"
            "        728, 729, 730, 731, 732, 733, 734, 735, 736, 737, 738, 739, 740, 741,\n"
            "        742, 743, 744, 745, 746, 747, 748, 749, 750, 751, 752, 753, 754, 755,\n"
            "        756, 757, 758, 759, 760, 761, 762, 763, 764, 765, 766, 767, 768, 769,\n"
            "        770, 771, 772, 773, 774, 775, 776, 777, 778, 779, 780, 781, 782, 783,\n"
            "        784, 785, 786, 787, 788, 789, 790, 791, 792, 793, 794, 795, 796, 797,\n"
            "        798, 799, 800, 801, 802, 803, 804, 805, 806, 807, 808, 809, 810, 811,\n"
            "        812, 813, 814, 815, 816, 817, 818, 819, 820, 821, 822, 823, 824, 825,\n"
            "        826, 827, 828, 829, 830, 831, 832, 833, 834, 835, 836, 837, 838, 839,\n"
            "        840, 841, 842, 843, 844, 845, 846, 847, 848, 849, 850, 851, 852, 853,\n"
            "        854, 855, 856, 857, 858, 859, 860, 861, 862, 863, 864, 865, 866, 867,\n"
            "        868, 869, 870, 871, 872, 873, 874, 875, 876, 877, 878, 879, 880, 881,\n"
            "        882, 883, 884, 885, 886, 887, 888, 889, 890, 891, 892, 893, 894, 895,\n"
            "        896, 897, 898, 899, 900, 901, 902, 903, 904, 905, 906, 907, 908, 909,\n"
            "        910, 911, 912, 913, 914, 915, 916, 917, 918, 919, 920, 921, 922, 923,\n"
            "        924, 925, 926, 927, 928, 929, 930, 931, 932, 933, 934, 935, 936, 937,\n"
            "        938, 939, 940, 941, 942, 943, 944, 945, 946, 947, 948, 949, 950, 951,\n"
            "        952, 953, 954, 955, 956, 957, 958, 959, 960, 961, 962, 963, 964, 965,\n"
            "        966, 967, 968, 969, 970, 971, 972, 973, 974, 975, 976, 977, 978, 979,\n"
            "        980, 981, 982, 983, 984, 985, 986, 987, 988, 989, 990, 991, 992, 993,\n"
            "        994, 995, 996, 997, 998, 999])"
        ),
        id="not_summarised_1000",
    ),
    pytest.param(
        np.array([1.12345, 2.5], dtype=np.float32),
        {},
        {"precision": 2},
        "tensor([1.12, 2.50])",
        id="opt_precision2",
    ),
    pytest.param(
        np.array([1.6, 2.5], dtype=np.float32),
        {},
        {"precision": 0},
        "tensor([2, 2])",
        id="opt_precision0",
    ),
    pytest.param(
        np.arange(10, dtype=np.int64),
        {},
        {"threshold": 5},
        "tensor([0, 1, 2,  ..., 7, 8, 9])",
        id="opt_threshold",
    ),
    pytest.param(
        np.arange(10, dtype=np.float64) / 3,
        {},
        {"threshold": 5, "edgeitems": 1, "precision": 2},
        "tensor([0.,  ..., 3.], dtype=torch.float64)",
        id="opt_edge1",
    ),
    pytest.param(
        np.arange(10, dtype=np.float32),
        {},
        {"threshold": 3, "edgeitems": 0},
        "tensor([...], size=(10,))",
        id="opt_edge0_1d",
    ),
    pytest.param(
        np.arange(10, dtype=np.float32).reshape(2, 5),
        {},
        {"threshold": 3, "edgeitems": 0},
        "tensor([...], size=(2, 5))",
        id="opt_edge0_2d",
    ),
    pytest.param(
        np.array(3.0, dtype=np.float32),
        {},
        {"threshold": 3, "edgeitems": 0},
        "tensor(3., size=())",
        id="opt_edge0_scalar",
    ),
    pytest.param(
        np.zeros((0, 2), dtype=np.float32),
        {},
        {"edgeitems": 0},
        "tensor([], size=(0, 2))",
        id="opt_edge0_empty",
    ),
    pytest.param(
        np.arange(10, dtype=np.int64),
        {},
        {"linewidth": 20},
        ("tensor([0, 1, 2, 3,\n        4, 5, 6, 7,\n        8, 9])"),
        id="opt_linewidth",
    ),
    pytest.param(
        np.arange(4, dtype=np.int64).reshape(2, 2),
        {"requires_grad": False},
        {"linewidth": 3},
        ("tensor([[0,\n         1],\n        [2,\n         3]])"),
        id="opt_linewidth_tiny",
    ),
    pytest.param(
        np.array([0.5, 2.0], dtype=np.float32),
        {},
        {"sci_mode": True},
        "tensor([5.0000e-01, 2.0000e+00])",
        id="opt_sci_on",
    ),
    pytest.param(
        np.array([1e-5, 1.0], dtype=np.float32),
        {},
        {"sci_mode": False},
        "tensor([0.0000, 1.0000])",
        id="opt_sci_off",
    ),
    pytest.param(
        np.array([1e20, 1.0], dtype=np.float32),
        {},
        {"sci_mode": False},
        "tensor([100000002004087734272.,                     1.])",
        id="opt_sci_off_big",
    ),
    pytest.param(
        np.arange(2000, dtype=np.float32) / 3,
        {},
        {"profile": "short"},
        "tensor([0.00e+00, 3.33e-01,  ..., 6.66e+02, 6.66e+02])",
        id="opt_short",
    ),
    pytest.param(
        np.arange(1010, dtype=np.int64),
        {},
        {"profile": "full"},
        (
            "tensor([   0,    1,    2,    3,    4,    5,    6,    7,    8,    9,   10,   11,\n"
            "          12,   13,   14,   15,   16,   17,   18,   19,   20,   21,   22,   23,\n"
            "          24,   25,   26,   27,   28,   29,   30,   31,   32,   33,   34,   35,\n"
            "          36,   37,   38,   39,   40,   41,   42,   43,   44,   45,   46,   47,\n"
            "          48,   49,   50,   51,   52,   53,   54,   55,   56,   57,   58,   59,\n"
            "          60,   61,   62,   63,   64,   65,   66,   67,   68,   69,   70,   71,\n"
            "          72,   73,   74,   75,   76,   77,   78,   79,   80,   81,   82,   83,\n"
            "          84,   85,   86,   87,   88,   89,   90,   91,   92,   93,   94,   95,\n"
            "          96,   97,   98,   99,  100,  101,  102,  103,  104,  105,  106,  107,\n"
            "         108,  109,  110,  111,  112,  113,  114,  115,  116,  117,  118,  119,\n"
            "         120,  121,  122,  123,  124,  125,  126,  127,  128,  129,  130,  131,\n"
            "         132,  133,  134,  135,  136,  137,  138,  139,  140,  141,  142,  143,\n"
            "         144,  145,  146,  147,  148,  149,  150,  151,  152,  153,  154,  155,\n"
            "         156,  157,  158,  159,  160,  161,  162,  163,  164,  165,  166,  167,\n"
            "         168,  169,  170,  171,  172,  173,  174,  175,  176,  177,  178,  179,\n"
            "         180,  181,  182,  183,  184,  185,  186,  187,  188,  189,  190,  191,\n"
            "         192,  193,  194,  195,  196,  197,  198,  199,  200,  201,  202,  203,\n"
            "         204,  205,  206,  207,  208,  209,  210,  211,  212,  213,  214,  215,\n"
            "         216,  217,  218,  219,  220,  221,  222,  223,  224,  225,  226,  227,\n"
            "         228,  229,  230,  231,  232,  233,  234,  235,  236,  237,  238,  239,\n"
            "         240,  241,  242,  243,  244,  245,  246,  247,  248,  249,  250,  251,\n"
            "         252,  253,  254,  255,  256,  257,  258,  259,  260,  261,  262,  263,\n"
            "         264,  265,  266,  267,  268,  269,  270,  271,  272,  273,  274,  275,\n"
            "         276,  277,  278,  279,  280,  281,  282,  283,  284,  285,  286,  287,\n"
            "         288,  289,  290,  291,  292,  293,  294,  295,  296,  297,  298,  299,\n"
            "         300,  301,  302,  303,  304,  305,  306,  307,  308,  309,  310,  311,\n"
            "         312,  313,  314,  315,  316,  317,  318,  319,  320,  321,  322,  323,\n"
            "         324,  325,  326,  327,  328,  329,  330,  331,  332,  333,  334,  335,\n"
            "         336,  337,  338,  339,  340,  341,  342,  343,  344,  345,  346,  347,\n"
            "         348,  349,  350,  351,  352,  353,  354,  355,  356,  357,  358,  359,\n"
            "         360,  361,  362,  363,  364,  365,  366,  367,  368,  369,  370,  371,\n"
            "         372,  373,  374,  375,  376,  377,  378,  379,  380,  381,  382,  383,\n"
            "         384,  385,  386,  387,  388,  389,  390,  391,  392,  393,  394,  395,\n"
            "         396,  397,  398,  399,  400,  401,  402,  403,  404,  405,  406,  407,\n"
            "         408,  409,  410,  411,  412,  413,  414,  415,  416,  417,  418,  419,\n"
            "         420,  421,  422,  423,  424,  425,  426,  427,  428,  429,  430,  431,\n"
            "         432,  433,  434,  435,  436,  437,  438,  439,  440,  441,  442,  443,\n"
            "         444,  445,  446,  447,  448,  449,  450,  451,  452,  453,  454,  455,\n"
            "         456,  457,  458,  459,  460,  461,  462,  463,  464,  465,  466,  467,\n"
            "         468,  469,  470,  471,  472,  473,  474,  475,  476,  477,  478,  479,\n"
            "         480,  481,  482,  483,  484,  485,  486,  487,  488,  489,  490,  491,\n"
            "         492,  493,  494,  495,  496,  497,  498,  499,  500,  501,  502,  503,\n"
            "         504,  505,  506,  507,  508,  509,  510,  511,  512,  513,  514,  515,\n"
            "         516,  517,  518,  519,  520,  521,  522,  523,  524,  525,  526,  527,\n"
            "         528,  529,  530,  531,  532,  533,  534,  535,  536,  537,  538,  539,\n"
            "         540,  541,  542,  543,  544,  545,  546,  547,  548,  549,  550,  551,\n"
            "         552,  553,  554,  555,  556,  557,  558,  559,  560,  561,  562,  563,\n"
            "         564,  565,  566,  567,  568,  569,  570,  571,  572,  573,  574,  575,\n"
            "         576,  577,  578,  579,  580,  581,  582,  583,  584,  585,  586,  587,\n"
            "         588,  589,  590,  591,  592,  593,  594,  595,  596,  597,  598,  599,\n"
            "         600,  601,  602,  603,  604,  605,  606,  607,  608,  609,  610,  611,\n"
            "         612,  613,  614,  615,  616,  617,  618,  619,  620,  621,  622,  623,\n"
            "         624,  625,  626,  627,  628,  629,  630,  631,  632,  633,  634,  635,\n"
            "         636,  637,  638,  639,  640,  641,  642,  643,  644,  645,  646,  647,\n"
            "         648,  649,  650,  651,  652,  653,  654,  655,  656,  657,  658,  659,\n"
            "         660,  661,  662,  663,  664,  665,  666,  667,  668,  669,  670,  671,\n"
            "         672,  673,  674,  675,  676,  677,  678,  679,  680,  681,  682,  683,\n"
            "         684,  685,  686,  687,  688,  689,  690,  691,  692,  693,  694,  695,\n"
            "         696,  697,  698,  699,  700,  701,  702,  703,  704,  705,  706,  707,\n"
            "         708,  709,  710,  711,  712,  713,  714,  715,  716,  717,  718,  719,\n"
            "         720,  721,  722,  723,  724,  725,  726,  727,  728,  729,  730,  731,\n"
            "         732,  733,  734,  735,  736,  737,  738,  739,  740,  741,  742,  743,\n"
            "         744,  745,  746,  747,  748,  749,  750,  751,  752,  753,  754,  755,\n"
            "         756,  757,  758,  759,  760,  761,  762,  763,  764,  765,  766,  767,\n"
            "         768,  769,  770,  771,  772,  773,  774,  775,  776,  777,  778,  779,\n"
            "         780,  781,  782,  783,  784,  785,  786,  787,  788,  789,  790,  791,\n"
            "         792,  793,  794,  795,  796,  797,  798,  799,  800,  801,  802,  803,\n"
            "         804,  805,  806,  807,  808,  809,  810,  811,  812,  813,  814,  815,\n"
            "         816,  817,  818,  819,  820,  821,  822,  823,  824,  825,  826,  827,\n"
            "         828,  829,  830,  831,  832,  833,  834,  835,  836,  837,  838,  839,\n"
            "         840,  841,  842,  843,  844,  845,  846,  847,  848,  849,  850,  851,\n"
            "         852,  853,  854,  855,  856,  857,  858,  859,  860,  861,  862,  863,\n"
            "         864,  865,  866,  867,  868,  869,  870,  871,  872,  873,  874,  875,\n"
            "         876,  877,  878,  879,  880,  881,  882,  883,  884,  885,  886,  887,\n"
            "         888,  889,  890,  891,  892,  893,  894,  895,  896,  897,  898,  899,\n"
            "         900,  901,  902,  903,  904,  905,  906,  907,  908,  909,  910,  911,\n"
            "         912,  913,  914,  915,  916,  917,  918,  919,  920,  921,  922,  923,\n"
            "         924,  925,  926,  927,  928,  929,  930,  931,  932,  933,  934,  935,\n"
            "         936,  937,  938,  939,  940,  941,  942,  943,  944,  945,  946,  947,\n"
            "         948,  949,  950,  951,  952,  953,  954,  955,  956,  957,  958,  959,\n"
            "         960,  961,  962,  963,  964,  965,  966,  967,  968,  969,  970,  971,\n"
            "         972,  973,  974,  975,  976,  977,  978,  979,  980,  981,  982,  983,\n"
            "         984,  985,  986,  987,  988,  989,  990,  991,  992,  993,  994,  995,\n"
            "         996,  997,  998,  999, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007,\n"
            "        1008, 1009])"
        ),
        id="opt_full",
    ),
]


@pytest.mark.parametrize(("array", "attrs", "options", "expected"), CASES)
def test_repr_matches_torch(array, attrs, options, expected):
    set_printoptions(**options)
    assert tensor_repr(make(array, attrs)) == expected


def test_device_suffix_comes_first():
    # torch prints device='cuda:0' before any other suffix (from torch's rule;
    # the CPU-only oracle cannot print a CUDA tensor).
    t = StandIn(np.arange(3, dtype=np.int32), device="cuda:0")
    assert tensor_repr(t) == "tensor([0, 1, 2], device='cuda:0', dtype=torch.int32)"


def test_cupy_like_data_is_fetched_with_get():
    class DeviceArray:
        def get(self):
            return np.array([1.5, 2.0], dtype=np.float32)

    t = StandIn(np.zeros(2, dtype=np.float32))
    t._data = DeviceArray()
    assert tensor_repr(t) == "tensor([1.5000, 2.0000])"


def test_tensor_contents_replaces_values_only():
    t = StandIn(np.zeros(2, dtype=np.float64), requires_grad=True)
    got = tensor_repr(t, tensor_contents="[...]")
    assert got == "tensor([...], dtype=torch.float64, requires_grad=True)"


def test_default_printoptions():
    assert get_printoptions() == {
        "precision": 4,
        "threshold": 1000,
        "edgeitems": 3,
        "linewidth": 80,
        "sci_mode": None,
    }


def test_profiles_and_overrides():
    set_printoptions(profile="short")
    assert get_printoptions() == {
        "precision": 2,
        "threshold": 1000,
        "edgeitems": 2,
        "linewidth": 80,
        "sci_mode": None,
    }
    set_printoptions(profile="full", precision=6)
    options = get_printoptions()
    assert options["threshold"] == math.inf and options["precision"] == 6
    set_printoptions(profile="no such profile")
    assert get_printoptions()["precision"] == 6


def test_sci_mode_is_reset_by_every_call():
    set_printoptions(sci_mode=True)
    assert get_printoptions()["sci_mode"] is True
    set_printoptions(precision=3)
    assert get_printoptions()["sci_mode"] is None
    assert get_printoptions()["precision"] == 3


def test_round_trip_through_get_printoptions():
    set_printoptions(precision=7, linewidth=120, sci_mode=False)
    saved = get_printoptions()
    set_printoptions(profile="default")
    set_printoptions(**saved)
    assert get_printoptions() == saved


def test_public_names():
    assert _formatting.__all__ == ["tensor_repr"]
    assert sorted(_printoptions.__all__) == ["get_printoptions", "set_printoptions"]
