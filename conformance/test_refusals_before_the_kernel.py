"""Which refusal a call meets first: saving an inference tensor, an empty kernel, probabilities."""

import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

CANNOT_SAVE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`."
)
ONEDNN = ("could not create a primitive descriptor for the convolution forward propagation "
          "primitive. Run workload with environment variable ONEDNN_VERBOSE=all to get "
          "additional diagnostic information.")
KERNEL = "kernel size should be greater than zero, but got"
D = torch.float64


def _inference(values, dtype=None):
    with torch.inference_mode():
        return torch.tensor(values, dtype=dtype) + 0


SAVED_FIRST = [
    # a kernel's dtype refusal, its delta check, its weight's size: all after the save
    lambda i, fi, f: F.huber_loss(i, f),
    lambda i, fi, f: F.huber_loss(f, i),
    lambda i, fi, f: F.huber_loss(fi, f, delta=0.0),
    lambda i, fi, f: F.huber_loss(f, fi, delta=-1.0),
    lambda i, fi, f: F.binary_cross_entropy_with_logits(i, f),
    lambda i, fi, f: F.binary_cross_entropy_with_logits(f, i),
    lambda i, fi, f: F.binary_cross_entropy_with_logits(f, f.detach(), pos_weight=i),
    lambda i, fi, f: F.binary_cross_entropy_with_logits(f, fi, weight=torch.ones(5)),
    lambda i, fi, f: F.binary_cross_entropy(f.sigmoid(), i),
    lambda i, fi, f: F.binary_cross_entropy(f.sigmoid() * 3, fi),
]


@pytest.mark.parametrize("call", SAVED_FIRST)
def test_a_recorded_loss_refuses_an_inference_tensor_before_its_kernel_checks(call):
    i, f = _inference([[1, 0, 1], [2, 3, 4]]), torch.rand(2, 3, requires_grad=True)
    fi = _inference([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    with raises(RuntimeError, CANNOT_SAVE):
        call(i, fi, f)


def test_unrecorded_the_kernel_refuses_in_its_own_words():
    i, f = _inference([1, 0, 1]), torch.tensor([1.5, -2.0, 0.0], requires_grad=True)
    with torch.no_grad(), raises(RuntimeError, "result type Float can't be cast to the "
                                 "desired output type Long"):
        F.huber_loss(i, f)
    with raises(RuntimeError, "huber_loss does not support non-positive values for delta."):
        F.huber_loss(i.float(), f.detach(), delta=0.0)  # nothing requires grad
    assert F.huber_loss(i.float(), f).grad_fn.name() == "HuberLossBackward0"


def test_checks_before_the_node_stay_first():
    i, f = _inference([1.0, 0.0]), torch.tensor([0.2, 0.7], requires_grad=True)
    weight = torch.ones(2, requires_grad=True)
    with raises(RuntimeError, "The function 'binary_cross_entropy' is not differentiable with "
                "respect to argument 'weight'. This input cannot have requires_grad True."):
        F.binary_cross_entropy(f, i, weight=weight)
    with raises(ValueError, "bogus is not a valid value for reduction"):
        F.huber_loss(f, i, reduction="bogus")
    long_target = torch.ones(2).long()
    with raises(RuntimeError, "The function 'binary_cross_entropy' is not differentiable with "
                "respect to argument 'weight'. This input cannot have requires_grad True."):
        F.binary_cross_entropy(f.detach(), long_target, weight=weight)
    with pytest.raises(RuntimeError, match="Attempting to broadcast a dimension of length 3"):
        F.binary_cross_entropy(f.detach(), long_target, weight=torch.ones(3))


@pytest.mark.parametrize(("p", "y", "which"), [
    ([0.2, 0.7], [1.5, 0.2], "target"), ([0.2, 0.7], [-0.5, 0.2], "target"),
    ([0.2, 0.7], [float("nan"), 0.2], "target"), ([0.5, 0.5], [float("inf"), 0.5], "target"),
    ([3.0, 0.5], [0.5, 1.5], "input"), ([0.5, 3.0], [1.5, 0.5], "target"),
    ([float("nan"), 0.5], [0.5, 0.5], "input"), ([0.6, 2.1], [1.5, 0.2], "target"),
])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
def test_binary_cross_entropy_refuses_the_first_improbable_element(p, y, which, dtype):
    input = torch.tensor(p, dtype=dtype, requires_grad=True)
    with raises(RuntimeError, f"all elements of {which} should be between 0 and 1"):
        F.binary_cross_entropy(input, torch.tensor(y, dtype=dtype), reduction="none")


def test_binary_cross_entropy_of_probabilities_still_computes():
    input = torch.tensor([0.2, 0.7], requires_grad=True)
    loss = F.binary_cross_entropy(input, torch.tensor([1.0, 0.0]))
    assert loss.item() == pytest.approx(-(torch.tensor(0.2).log() + torch.tensor(0.3).log())
                                        .item() / 2, rel=1e-6)
    assert loss.grad_fn.name() == "BinaryCrossEntropyBackward0"


EMPTY_KERNELS = [
    (lambda: F.conv2d(torch.rand(1, 1, 3, 3, dtype=D), torch.zeros(1, 1, 0, 2, dtype=D)),
     f"{KERNEL} kernel_height: 0 kernel_width: 2"),
    (lambda: F.conv2d(torch.rand(1, 1, 3, 3, dtype=D), torch.zeros(1, 1, 1, 0, dtype=D),
                      stride=2, padding=1),
     f"{KERNEL} kernel_height: 1 kernel_width: 0"),
    (lambda: F.conv1d(torch.rand(1, 1, 3, dtype=D), torch.zeros(1, 1, 0, dtype=D)),
     f"{KERNEL} kernel_height: 1 kernel_width: 0"),
    (lambda: F.conv3d(torch.rand(1, 1, 3, 3, 3, dtype=D), torch.zeros(1, 1, 1, 1, 0, dtype=D)),
     f"{KERNEL}: 1 x 1 x 0 (TxHxW)"),
    (lambda: F.conv2d(torch.rand(1, 1, 3, 3, dtype=D), torch.zeros(1, 1, 0, 2, dtype=D),
                      dilation=2),
     f"{KERNEL} [0, 2]"),
    (lambda: F.conv2d(torch.rand(1, 1, 3, 3, dtype=D), torch.zeros(1, 1, 0, 2, dtype=D),
                      dilation=(1, 0)),
     f"{KERNEL} [0, 2]"),
    (lambda: F.conv1d(torch.rand(1, 1, 3, dtype=D), torch.zeros(1, 1, 0, dtype=D), dilation=0),
     f"{KERNEL} [1, 0]"),
    (lambda: F.conv3d(torch.rand(1, 1, 3, 3, 3, dtype=D), torch.zeros(1, 1, 0, 2, 1, dtype=D),
                      dilation=2),
     f"{KERNEL} [0, 2, 1]"),
    (lambda: F.conv2d(torch.rand(1, 2, 3, 3, dtype=D), torch.zeros(2, 1, 0, 2, dtype=D),
                      groups=2),
     f"{KERNEL} kernel_height: 0 kernel_width: 2"),
    # before the kernel's dtype checks
    (lambda: F.conv2d(torch.ones(1, 1, 3, 3, dtype=torch.bool),
                      torch.zeros(1, 1, 0, 2, dtype=torch.bool)),
     f"{KERNEL} kernel_height: 0 kernel_width: 2"),
    (lambda: F.conv2d(torch.ones(1, 1, 3, 3, dtype=D), torch.zeros(1, 1, 0, 2).long()),
     f"{KERNEL} kernel_height: 0 kernel_width: 2"),
    (lambda: F.conv2d(torch.rand(1, 1, 3, 3, dtype=D, requires_grad=True),
                      torch.zeros(1, 1, 0, 2, dtype=D)),
     f"{KERNEL} kernel_height: 0 kernel_width: 2"),
    # oneDNN's turn: after the dtypes and a zero dilation
    (lambda: F.conv2d(torch.rand(16, 1, 3, 3), torch.zeros(1, 1, 0, 2), stride=2), ONEDNN),
    (lambda: F.conv1d(torch.rand(16, 1, 3), torch.zeros(1, 1, 0), stride=2), ONEDNN),
    (lambda: F.conv2d(torch.rand(16, 1, 3, 3), torch.zeros(1, 1, 0, 2), stride=2, dilation=0),
     "non-positive dilation is not supported"),
    (lambda: F.conv2d(torch.rand(16, 1, 3, 3), torch.zeros(1, 1, 0, 2, dtype=D), stride=2),
     "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same "
     "or input should be a MKLDNN tensor and weight is a dense tensor"),
    # the transposed ones, before dilation, output padding and the empty weight
    (lambda: F.conv_transpose2d(torch.rand(1, 1, 3, 3, dtype=D), torch.zeros(1, 1, 0, 2, dtype=D),
                                dilation=(0, 1)),
     f"{KERNEL} kernel_height: 0 kernel_width: 2"),
    (lambda: F.conv_transpose2d(torch.rand(1, 1, 3, 3, dtype=D), torch.zeros(1, 1, 0, 2, dtype=D),
                                output_padding=1),
     f"{KERNEL} kernel_height: 0 kernel_width: 2"),
    (lambda: F.conv_transpose1d(torch.rand(1, 1, 3, dtype=D), torch.zeros(1, 1, 0, dtype=D)),
     f"{KERNEL} kernel_height: 1 kernel_width: 0"),
    (lambda: F.conv_transpose3d(torch.rand(1, 1, 3, 3, 3, dtype=D),
                                torch.zeros(1, 1, 0, 2, 1, dtype=D)),
     "non-empty 5D (n_output_plane x n_input_plane x kernel_depth x kernel_height x "
     "kernel_width) tensor expected for weight, but got: [1, 1, 0, 2, 1]"),
]


@pytest.mark.parametrize(("call", "message"), EMPTY_KERNELS)
def test_a_kernel_with_no_positions_is_refused_in_the_chosen_kernels_words(call, message):
    with raises(RuntimeError, message):
        call()


def test_same_padding_of_an_empty_kernel_reaches_the_kernel_check():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the uneven padding's warning
        with raises(RuntimeError, f"{KERNEL} kernel_height: 1 kernel_width: 0"):
            F.conv1d(torch.rand(1, 1, 3, dtype=D), torch.zeros(1, 1, 0, dtype=D),
                     padding="same")


def test_an_empty_input_passes_the_kernel_check():
    out = F.conv2d(torch.rand(2, 0, 3, 3, dtype=D), torch.zeros(1, 0, 0, 2, dtype=D))
    assert (tuple(out.shape), out.stride()) == ((2, 0, 4, 2), (8, 8, 2, 1))


@pytest.mark.parametrize("call", [
    lambda: torch.lerp(torch.tensor([True, False, True]), torch.ones(2, 6).bool(),
                       torch.ones(2, 6).bool()),
    lambda: torch.lerp(torch.tensor([True, False, True]), torch.ones(2, 6).bool(), 0.5),
    lambda: torch.lerp(torch.ones(3).long(), torch.ones(2, 6).long(), 0.5),
    lambda: torch.ones(3).bool().lerp_(torch.ones(2, 6).bool(), 0.5),
    lambda: torch.lerp(torch.ones(3), torch.ones(3), torch.ones(2, 6)),
    lambda: torch.ldexp(torch.ones(3), torch.ones(2, 6).bool()),
])
def test_lerp_and_ldexp_refuse_shapes_before_the_dtype_kernel(call):
    with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (6) at "
                "non-singleton dimension 1"):
        call()


def test_lerp_still_refuses_a_dtype_without_a_kernel_and_a_mismatch_first():
    with raises(NotImplementedError, "\"lerp_kernel_scalar\" not implemented for 'Bool'"):
        torch.lerp(torch.tensor([True]), torch.ones(2, 6).bool(), 0.5)
    with raises(RuntimeError, "expected dtype float for `end` but got dtype double"):
        torch.lerp(torch.ones(3), torch.ones(2, 6).double(), 0.5)


@pytest.mark.parametrize(("target", "kwargs", "kind", "message"), [
    (torch.tensor(0.3), {}, IndexError, "Dimension specified as 1 but tensor has no dimensions"),
    (torch.tensor(0.3), {"label_smoothing": 0.1}, IndexError,
     "Dimension specified as 1 but tensor has no dimensions"),
    (torch.tensor(1), {}, RuntimeError,
     "Expected floating point type for target with class probabilities, got Long"),
    (torch.tensor(0.3), {"ignore_index": 0}, RuntimeError,
     "ignore_index is not supported for floating point target"),
])
@pytest.mark.parametrize("grad", [False, True])
def test_cross_entropy_of_a_0d_input_with_a_probability_target(target, kwargs, kind, message,
                                                               grad):
    with raises(kind, message):
        F.cross_entropy(torch.tensor(0.5, requires_grad=grad), target, **kwargs)


def test_cross_entropy_refuses_an_integer_probability_target_before_ignore_index():
    with raises(RuntimeError, "Expected floating point type for target with class "
                "probabilities, got Long"):
        F.cross_entropy(torch.rand(2, 3), torch.ones(2, 3).long(), ignore_index=0)


def test_ldexp_of_a_bool_exponent_that_broadcasts_has_no_kernel():
    with raises(NotImplementedError, "\"ldexp_cpu_exp\" not implemented for 'Bool'"):
        torch.ldexp(torch.ones(2, 1), torch.tensor([True, False, True]))
