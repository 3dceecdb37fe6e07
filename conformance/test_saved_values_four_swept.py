"""Rows the saved-values sweep did not reach: what each node keeps, compared with torch's
(tensors by their shapes, numbers as the node gives them)."""

import pytest
import torch


def _leaf(*shape, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return torch.rand(*shape, generator=gen, dtype=torch.float64).requires_grad_()


def _kept(out):
    node, kept = out.grad_fn, {}
    for name in dir(node):
        if name.startswith("_saved_"):
            value = getattr(node, name)
            kept[name[7:]] = tuple(value.shape) if isinstance(value, torch.Tensor) else value
    return node.name(), kept


_A, _S = (3, 4), (4, 4)
CASES = {
    "index_copy": (lambda a, s: a.index_copy(1, torch.tensor([0, 2]), _leaf(3, 2, seed=1)),
                   ("IndexCopyBackward0", {"dim": 1, "index": (2,), "source": (3, 2),
                                           "source_dim": 2})),
    "narrow_copy": (lambda a, s: torch.narrow_copy(a, 1, 1, 2), (
        "NarrowCopyBackward0", {"dim": 1, "length": 2, "self_sym_sizes": (3, 4), "start": 1})),
    "norm of a number": (lambda a, s: torch.norm(a, 3), (
        "LinalgVectorNormBackward0", {"dim": None, "keepdim": False, "ord": 3, "result": (),
                                      "self": (3, 4)})),
    "norm of a dimension": (lambda a, s: torch.norm(a, 2.5, dim=1, keepdim=True), (
        "LinalgVectorNormBackward0", {"dim": (1,), "keepdim": True, "ord": 2.5,
                                      "result": (3, 1), "self": (3, 4)})),
    "polygamma_": (lambda a, s: (a * 1).polygamma_(2), ("PolygammaBackward1", {
        "n": 2, "self": (3, 4)})),
    "squeeze_": (lambda a, s: (a.unsqueeze(0) * 1).squeeze_(0), (
        "SqueezeBackward4", {"dim": 0, "self_sym_sizes": (1, 3, 4)})),
    "as_strided_": (lambda a, s: (a * 1).as_strided_((2, 2), (1, 2), 1), (
        "AsStridedBackward1", {"size": (2, 2), "storage_offset": 1, "stride": (1, 2)})),
    "lu_unpack": (lambda a, s: torch.lu_unpack(*torch.linalg.lu_factor(s))[1], (
        "LuUnpackBackward0", {"LU_data_sym_argsize_minus_1": 4,
                              "LU_data_sym_argsize_minus_2": 4})),
    "ormqr": (lambda a, s: torch.ormqr(*torch.geqrf(s), _leaf(4, 2, seed=2), left=True,
                                       transpose=True),
              ("OrmqrBackward0", {"input2": (4,), "input3": (4, 2), "left": True,
                                  "result": (4, 2), "self": (4, 4), "transpose": True})),
    "unsafe_split_with_sizes": (lambda a, s: torch.unsafe_split_with_sizes(a, [1, 3], 1)[1], (
        "UnsafeSplitWithSizesBackward0", {"dim": 1, "self_sym_sizes": (3, 4),
                                          "split_sizes": (1, 3)})),
    "slice_inverse": (lambda a, s: torch.ops.aten.slice_inverse(a[:, 1:3], a, 1, 1, 3, 1), (
        "SliceInverseBackward0", {"dim": 1, "end": 3, "start": 1, "step": 1})),
    "_safe_softmax": (lambda a, s: torch.ops.aten._safe_softmax(a, 1), (
        "SafeSoftmaxBackward0", {"dim": 1, "result": (3, 4)})),
    "rrelu_": (lambda a, s: torch.rrelu_(a * 1, 0.1, 0.3, training=False), (
        "RreluWithNoiseBackward1", {"lower": 0.1, "noise": (3, 4), "result": (3, 4),
                                    "training": False, "upper": 0.3})),
    "kthvalue": (lambda a, s: a.kthvalue(2, 1)[0], ("KthvalueBackward0", {
        "dim": 1, "indices": (3,), "keepdim": False, "self_sym_sizes": (3, 4)})),
    # a negative int kept as torch's node shows it: unsigned
    "roll": (lambda a, s: a.roll([1, -1], [0, 1]), ("RollBackward0", {
        "dims": (0, 1), "shifts": (1, 2 ** 64 - 1)})),
    "tril": (lambda a, s: s.tril(-1), ("TrilBackward0", {"diagonal": 2 ** 64 - 1})),
    "cross": (lambda a, s: torch.linalg.cross(_leaf(2, 3), _leaf(2, 3, seed=1)), (
        "LinalgCrossBackward0", {"dim": 2 ** 64 - 1, "other": (2, 3), "self": (2, 3)})),
    "dist": (lambda a, s: torch.dist(a, _leaf(3, 4, seed=1), 3), ("DistBackward0", {
        "other": (3, 4), "p": 3, "result": (), "self": (3, 4)})),
    "masked_scatter": (lambda a, s: a.masked_scatter(a.detach() > 0.5, _leaf(12, seed=3)), (
        "MaskedScatterBackward0", {"mask": (3, 4), "source_sym_sizes": (12,)})),
    "renorm": (lambda a, s: a.renorm(2, 0, 1.0), ("RenormBackward0", {
        "dim": 0, "maxnorm": 1.0, "p": 2, "self": (3, 4)})),
    "unfold": (lambda a, s: a.unfold(1, 2, 1), ("UnfoldBackward0", {
        "dimension": 1, "self_sym_sizes": (3, 4), "size": 2, "step": 1})),
    "lerp": (lambda a, s: torch.lerp(a, _leaf(3, 4, seed=1), 0.3), ("LerpBackward0", {
        "weight": 0.3})),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_node_keeps_what_torchs_keeps(name):
    call, expected = CASES[name]
    a, s = _leaf(*_A), _leaf(*_S, seed=4)
    kept = _kept(call(a, s))
    assert kept == expected
    assert all(type(kept[1][k]) is type(v) for k, v in expected[1].items())
