"""White-box tests of the _saved_* attributes of op nodes (NOTE [No __getattr__ on nodes])."""

import numpy as np
import pytest

import refgrad
from refgrad._ops.op_nodes import OpNode, node_class
from refgrad._ops.table import OPS

DIFFERENTIABLE = [op for op in OPS.values() if op.backward is not None]


@pytest.mark.parametrize("op", DIFFERENTIABLE, ids=lambda op: op.name)
def test_no_node_class_routes_reads_through_getattr(op):
    cls = node_class(op)
    # Either hook makes CPython leave every attribute read of the class unspecialized.
    assert not hasattr(cls, "__getattr__")
    assert cls.__getattribute__ is object.__getattribute__


def _recorded_nodes():
    a = refgrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = refgrad.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    outputs = [a * b, a + b * 2, (a @ b).sum(), a.sum(dim=0), a.pow(3), a[0], a.expand(3, 2, 2),
               refgrad.add(a, b, alpha=2), a.clamp(min=1.5), a.mean(), a.transpose(0, 1)]
    return [out.grad_fn for out in outputs]


@pytest.mark.parametrize("node", _recorded_nodes(), ids=lambda node: node.name())
def test_every_saved_name_in_dir_reads(node):
    names = [n for n in dir(node) if n.startswith(("_saved_", "_raw_saved_"))]
    assert names, "a recorded node shows what it keeps"
    for name in names:
        getattr(node, name)  # each name dir() lists answers, without AttributeError


@pytest.mark.parametrize("node", _recorded_nodes(), ids=lambda node: node.name())
def test_every_kept_parameter_is_shown(node):
    hidden = set(node.op.hides)
    for key, value in node._params.items():
        if key not in hidden:
            shown = getattr(node, f"_saved_{key}")
            assert shown == value if not isinstance(value, np.ndarray) else shown is value


def test_a_name_the_node_does_not_have_is_torchs_attribute_error():
    node = (refgrad.tensor([1.0], requires_grad=True) * 2).grad_fn
    message = "'MulBackward0' object has no attribute '_saved_nope'"
    with pytest.raises(AttributeError, match=message):
        node._saved_nope
    with pytest.raises(AttributeError):
        node._raw_saved_alpha  # only saved values have a raw form


def test_op_node_itself_defines_no_getattr():
    assert "__getattr__" not in vars(OpNode)


# Kept parameters that hold no integer: flags and names.
_NOT_INTEGERS = {"keepdim", "sparse_grad", "include_self", "accumulate", "reduce",
                 "rounding_mode", "src_dtype", "left", "upper", "full_matrices", "mode",
                 "approximate", "scale_grad_by_freq", "sparse", "unitriangular", "transpose",
                 "adjoint", "pivot",
                 "training", "ceil_mode", "count_include_pad",
                 "transposed", "is_result",
                 "align_corners", "scales", "scales_d", "scales_h", "scales_w",
                 "is_causal", "dropout_p", "train", "zero_infinity", "reverse", "has_biases",
                 "bidirectional", "initial", "lengths", "offsets"}


def test_every_kept_parameter_is_either_a_scalar_or_shown_unsigned():
    from refgrad._ops.saved_attributes import SCALAR_PARAMETERS, _formula_parameters

    unknown = {}
    for op in OPS.values():
        if op.backward is None:
            continue
        saved = {name for name, _ in op.saves}
        for name in (*op.keeps, *_formula_parameters(op)):
            if name in op.hides or name in op.inputs or name in saved:
                continue
            looks_integer = name.startswith(("dim", "self_sym", "input_", "batch", "mat",
                                              "source", "mean_sym", "std_sym")) or name in {
                "start", "end", "step", "index", "offset", "diagonal", "shifts", "k", "length", "n",
                "repeats", "size", "stride", "storage_offset", "split_size", "split_sizes",
                "S_sym_argsize_minus_1", "reduction", "ignore_index", "pad", "padding",
                "padding_idx", "weight_sym_argsize_0", "normalized_shape",
                "LU_data_sym_argsize_minus_1", "LU_data_sym_argsize_minus_2",
                "N", "C", "HxW", "group", "kernel_size", "divisor_override",
                "dilation", "groups", "output_padding", "bias_sym_sizes_opt", "output_size",
                "upscale_factor", "downscale_factor",
                "grad_output_sym_argsize_minus_1", "grad_output_sym_argsize_minus_2",
                "grad_output_sym_argsize_minus_3", "interpolation_mode", "padding_mode",
                "expand1", "expand2", "expand3", "sumdim", "blank", "target_lengths",
                "hidden_size", "num_layers", "axis"}
            if not looks_integer and name not in SCALAR_PARAMETERS | _NOT_INTEGERS:
                unknown.setdefault(name, op.node)
    # A new parameter must be placed: a Scalar (shown signed) or an integer (shown unsigned).
    assert unknown == {}


def test_a_kept_negative_integer_reads_back_unsigned_and_the_backward_still_uses_it():
    x = refgrad.ones(2, 3, requires_grad=True)
    y = x.sum(-1)
    assert y.grad_fn._saved_dim == (2**64 - 1,) and y.grad_fn._params["dim"] == (-1,)
    y.sum().backward()
    assert x.grad.tolist() == [[1.0] * 3] * 2
    assert x.pow(-2).grad_fn._saved_exponent == -2
