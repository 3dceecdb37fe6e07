"""Rows the saved-values sweep did not reach: the views' copies, ctc_loss with tensor
lengths, normal, cholesky, _index_put_impl_, _pack_padded_sequence and the recurrent
layers, and what their nodes keep in torch (tensors by shape and dtype)."""

import torch

from conformance._saved_values_five_twice import F, _leaf, _quiet, _spd

CASES = {  # name: (call of a (3, 4) leaf, (node, what it keeps))
    "permute_copy": (
        lambda a: torch.permute_copy(a, (1, 0)),
        ("PermuteBackward0_copy",
         {"dims": (1, 0)})),
    "expand_copy": (
        lambda a: torch.expand_copy(a[:, :1], (-1, 4)),
        ("ExpandBackward0_copy",
         {"self_sym_sizes": (3, 1)})),
    "diagonal_copy": (
        lambda a: torch.diagonal_copy(a, 1, 0, 1),
        ("DiagonalBackward0_copy",
         {"dim1": 0, "dim2": 1, "offset": 1, "self_sym_sizes": (3, 4)})),
    "select_copy": (
        lambda a: torch.select_copy(a, 1, -1),
        ("SelectBackward0_copy",
         {"dim": 1, "index": 18446744073709551615, "self_sym_sizes": (3, 4)})),
    "slice_copy": (
        lambda a: torch.slice_copy(a, 1, 1, 3, 1),
        ("SliceBackward0_copy",
         {"dim": 1, "end": 3, "self_sym_sizes": (3, 4), "start": 1, "step": 1})),
    "split_with_sizes_copy": (
        lambda a: torch.split_with_sizes_copy(a, [1, 3], 1)[1],
        ("SplitWithSizesBackward0_copy",
         {"dim": 1, "self_sym_sizes": (3, 4), "split_sizes": (1, 3)})),
    "squeeze_copy": (
        lambda a: torch.squeeze_copy(a.unsqueeze(1), [1]),
        ("SqueezeBackward2_copy",
         {"dim": (1,), "self_sym_sizes": (3, 1, 4)})),
    "unfold_copy": (
        lambda a: torch.unfold_copy(a, 1, 2, 1),
        ("UnfoldBackward0_copy",
         {"dimension": 1, "self_sym_sizes": (3, 4), "size": 2, "step": 1})),
    "as_strided_copy": (
        lambda a: torch.as_strided_copy(a, (2, 2), (1, 2), 1),
        ("AsStridedBackward0_copy",
         {"size": (2, 2), "storage_offset": 1, "stride": (1, 2)})),
    "ctc_loss with tensor lengths": (
        lambda a: torch._ctc_loss(
        _leaf(6, 2, 4).log_softmax(2), torch.tensor([[1, 2, 1], [2, 3, 3]]), torch.tensor([6, 5]),
        torch.tensor([3, 2]))[0],
        ("CtcLossBackward1",
         {"blank": 0,
          "input_lengths": ((2,), "int64"),
          "log_probs": ((6, 2, 4), "float64"),
          "result0": ((2,), "float64"),
          "result1": ((2, 6, 7), "float64"),
          "target_lengths": ((2,), "int64"),
          "targets": ((2, 3), "int64"),
          "zero_infinity": False})),
    "ctc_loss with lists": (
        lambda a: F.ctc_loss(
        _leaf(6, 2, 4).log_softmax(2), torch.tensor([[1, 2, 1], [2, 3, 3]]), [6, 5], [3, 2],
        reduction="none"),
        ("CtcLossBackward0",
         {"blank": 0,
          "input_lengths": (6, 5),
          "log_probs": ((6, 2, 4), "float64"),
          "result0": ((2,), "float64"),
          "result1": ((2, 6, 7), "float64"),
          "target_lengths": (3, 2),
          "targets": ((2, 3), "int64"),
          "zero_infinity": False})),
    "normal of two tensors": (
        lambda a: torch.normal(a, _leaf(3, 4, seed=1)),
        ("NormalBackward3",
         {"mean_sym_sizes": (3, 4), "std_sym_sizes": (3, 4)})),
    "normal of a mean": (
        lambda a: torch.normal(a, 2.0),
        ("NormalBackward1",
         {"mean_sym_sizes": (3, 4)})),
    "normal of a std": (
        lambda a: torch.normal(1.0, a),
        ("NormalBackward2",
         {"std_sym_sizes": (3, 4)})),
    "normal_": (
        lambda a: (a * 1).normal_(),
        ("NormalBackward0",
         {})),
    "cholesky": (
        lambda a: _quiet(torch.cholesky, _spd(), True),
        ("CholeskyBackward0",
         {"result": ((3, 3), "float64"), "upper": True})),
    "linalg.cholesky_ex": (
        lambda a: torch.linalg.cholesky_ex(_spd())[0],
        ("LinalgCholeskyExBackward0",
         {"L": ((3, 3), "float64"), "upper": False})),
    "cholesky_inverse": (
        lambda a: torch.cholesky_inverse(_spd()),
        ("CholeskyInverseBackward0",
         {"result": ((3, 3), "float64"), "self": ((3, 3), "float64"), "upper": False})),
    "_index_put_impl_": (
        lambda a: torch._index_put_impl_(
        a.flatten() * 1, (torch.tensor([0, 2]),), _leaf(2, seed=1), True, False),
        ("IndexPutImplBackward0",
         {"accumulate": True, "indices": ((2,),)})),
    "_pack_padded_sequence": (
        lambda a: torch._pack_padded_sequence(
        _leaf(2, 4, 3), torch.tensor([4, 2]), True)[0],
        ("PackPaddedSequenceBackward0",
         {"batch_first": True, "input_sym_sizes": (2, 4, 3), "result1": ((4,), "int64")})),
    "rnn_tanh_cell": (
        lambda a: torch.rnn_tanh_cell(a[:2, :3], _leaf(2, 4, seed=1),
                                                   _leaf(4, 3, seed=2), _leaf(4, 4, seed=3)),
        ("TanhBackward0",
         {"result": ((2, 4), "float64")})),
    "lstm": (
        lambda a: torch.nn.LSTM(3, 4).double()(_leaf(5, 2, 3))[0],
        ("StackBackward0",
         {"dim": 0})),
}
