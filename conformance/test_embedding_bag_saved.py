"""embedding_bag saves what torch's node saves (the indices, the offsets, the three tensors of
bookkeeping its kernel returns, and the table only for the per-sample weights' gradient),
and a dispatch mode sees torch's calls of its kernel and of its two gradients. The expected
values are torch 2.13's."""

import pytest
import torch

from conformance._mode_support import call_recorder

F = torch.nn.functional
INDICES, OFFSETS = torch.tensor([1, 2, 4, 5, 4, 3]), torch.tensor([0, 3])


def _table():
    return torch.arange(30.0).reshape(10, 3).requires_grad_()


def saved(mode, weights=None):
    """What the node saves, in the order a pack hook sees it, and its saved attributes."""
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(
            lambda t: packed.append([list(t.shape), str(t.dtype)]) or t, lambda t: t):
        out = F.embedding_bag(INDICES, _table(), OFFSETS, mode=mode, per_sample_weights=weights)
    node = out.grad_fn
    attributes = {}
    for name in ("indices", "offsets", "result1", "result2", "result3", "weight",
                 "per_sample_weights", "weight_sym_argsize_0", "sparse", "mode"):
        value = getattr(node, "_saved_" + name)
        attributes[name] = value.tolist() if isinstance(value, torch.Tensor) else value
    return packed, attributes


def calls(mode, include_last_offset=False, weights=None):
    w = _table()
    offsets = torch.tensor([0, 3, 6]) if include_last_offset else OFFSETS
    mode_ = call_recorder()()
    with mode_:
        out = F.embedding_bag(INDICES, w, offsets, mode=mode, per_sample_weights=weights,
                              include_last_offset=include_last_offset)
        (out * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    return [c for c in mode_.calls if "embedding_bag" in c[0]], w.grad.tolist()


def _weights(requires_grad=True):
    return torch.linspace(0.1, 0.6, 6, requires_grad=requires_grad)


SAVED_CASES = {"sum": ("sum",), "mean": ("mean",), "max": ("max",),
               "weighted": ("sum", _weights()), "fixed_weights": ("sum", _weights(False))}
CALL_CASES = {"sum": ("sum",), "mean": ("mean",), "max": ("max",), "last": ("mean", True),
              "weighted": ("sum", False, _weights())}


@pytest.mark.parametrize("case", SAVED_CASES)
def test_the_node_saves_what_torchs_saves(case):
    assert saved(*SAVED_CASES[case]) == SAVED[case]


@pytest.mark.parametrize("case", CALL_CASES)
def test_a_mode_sees_torchs_kernel_calls(case):
    assert calls(*CALL_CASES[case]) == CALLS[case]


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_the_table_written_in_place_before_the_backward_is_no_error(mode):
    w = _table()
    out = F.embedding_bag(INDICES, w, OFFSETS, mode=mode)
    with torch.no_grad():
        w.mul_(2)
    out.sum().backward()
    assert w.grad.sum().item() == {"sum": 18.0, "mean": 6.0, "max": 6.0}[mode]


def test_the_table_is_saved_for_the_per_sample_weights_gradient():
    w, weights = _table(), _weights()
    out = F.embedding_bag(INDICES, w, OFFSETS, mode="sum", per_sample_weights=weights)
    with torch.no_grad():
        w.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.sum().backward()


def test_torch_embedding_bag_gives_the_bookkeeping_without_gradients():
    out, offset2bag, bag_size, max_indices = torch.embedding_bag(
        _table(), INDICES, torch.tensor([0, 3, 3]), False, 2)
    assert out.grad_fn.name() == "EmbeddingBagBackward0"
    assert [t.requires_grad for t in (offset2bag, bag_size, max_indices)] == [False] * 3
    assert bag_size.tolist() == [3, 0, 3] and max_indices.tolist() == [[4] * 3, [0] * 3, [5] * 3]


SAVED = {'fixed_weights': ([[[6], 'torch.int64'],
                    [[2], 'torch.int64'],
                    [[6], 'torch.float32'],
                    [[0], 'torch.int64'],
                    [[2], 'torch.int64'],
                    [[2], 'torch.int64']],
                   {'indices': [1, 2, 4, 5, 4, 3],
                    'mode': 0,
                    'offsets': [0, 3],
                    'per_sample_weights': [0.10000000149011612,
                                           0.20000000298023224,
                                           0.30000001192092896,
                                           0.40000003576278687,
                                           0.5,
                                           0.6000000238418579],
                    'result1': [],
                    'result2': [0, 0],
                    'result3': [0, 0],
                    'sparse': False,
                    'weight': None,
                    'weight_sym_argsize_0': 10}),
 'max': ([[[6], 'torch.int64'],
          [[2], 'torch.int64'],
          [[6], 'torch.int64'],
          [[2], 'torch.int64'],
          [[2, 3], 'torch.int64']],
         {'indices': [1, 2, 4, 5, 4, 3],
          'mode': 2,
          'offsets': [0, 3],
          'per_sample_weights': None,
          'result1': [0, 0, 0, 1, 1, 1],
          'result2': [3, 3],
          'result3': [[4, 4, 4], [5, 5, 5]],
          'sparse': False,
          'weight': None,
          'weight_sym_argsize_0': 10}),
 'mean': ([[[6], 'torch.int64'],
           [[2], 'torch.int64'],
           [[6], 'torch.int64'],
           [[2], 'torch.int64'],
           [[2], 'torch.int64']],
          {'indices': [1, 2, 4, 5, 4, 3],
           'mode': 1,
           'offsets': [0, 3],
           'per_sample_weights': None,
           'result1': [0, 0, 0, 1, 1, 1],
           'result2': [3, 3],
           'result3': [3, 3],
           'sparse': False,
           'weight': None,
           'weight_sym_argsize_0': 10}),
 'sum': ([[[6], 'torch.int64'],
          [[2], 'torch.int64'],
          [[0], 'torch.int64'],
          [[2], 'torch.int64'],
          [[2], 'torch.int64']],
         {'indices': [1, 2, 4, 5, 4, 3],
          'mode': 0,
          'offsets': [0, 3],
          'per_sample_weights': None,
          'result1': [],
          'result2': [0, 0],
          'result3': [0, 0],
          'sparse': False,
          'weight': None,
          'weight_sym_argsize_0': 10}),
 'weighted': ([[[6], 'torch.int64'],
               [[2], 'torch.int64'],
               [[6], 'torch.float32'],
               [[10, 3], 'torch.float32'],
               [[0], 'torch.int64'],
               [[2], 'torch.int64'],
               [[2], 'torch.int64']],
              {'indices': [1, 2, 4, 5, 4, 3],
               'mode': 0,
               'offsets': [0, 3],
               'per_sample_weights': [0.10000000149011612,
                                      0.20000000298023224,
                                      0.30000001192092896,
                                      0.40000003576278687,
                                      0.5,
                                      0.6000000238418579],
               'result1': [],
               'result2': [0, 0],
               'result3': [0, 0],
               'sparse': False,
               'weight': [[0.0, 1.0, 2.0],
                          [3.0, 4.0, 5.0],
                          [6.0, 7.0, 8.0],
                          [9.0, 10.0, 11.0],
                          [12.0, 13.0, 14.0],
                          [15.0, 16.0, 17.0],
                          [18.0, 19.0, 20.0],
                          [21.0, 22.0, 23.0],
                          [24.0, 25.0, 26.0],
                          [27.0, 28.0, 29.0]],
               'weight_sym_argsize_0': 10})}
CALLS = {'last': ([('aten._embedding_bag.default',
            [[10, 3], [6], [3], False, 1, False, None, True],
            []),
           ('aten._embedding_bag_backward.default',
            [[2, 3], [6], [3], [6], [2], [2], 10, False, 1, False, None],
            [])],
          [[0.0, 0.0, 0.0],
           [0.3333333432674408, 0.6666666865348816, 1.0],
           [0.3333333432674408, 0.6666666865348816, 1.0],
           [0.3333333432674408, 0.6666666865348816, 1.0],
           [0.6666666865348816, 1.3333333730697632, 2.0],
           [0.3333333432674408, 0.6666666865348816, 1.0],
           [0.0, 0.0, 0.0],
           [0.0, 0.0, 0.0],
           [0.0, 0.0, 0.0],
           [0.0, 0.0, 0.0]]),
 'max': ([('aten._embedding_bag.default', [[10, 3], [6], [2], False, 2, False, None], []),
          ('aten._embedding_bag_backward.default',
           [[2, 3], [6], [2], [6], [2], [2, 3], 10, False, 2, False, None],
           [])],
         [[0.0, 0.0, 0.0],
          [0.0, 0.0, 0.0],
          [0.0, 0.0, 0.0],
          [0.0, 0.0, 0.0],
          [1.0, 2.0, 3.0],
          [1.0, 2.0, 3.0],
          [0.0, 0.0, 0.0],
          [0.0, 0.0, 0.0],
          [0.0, 0.0, 0.0],
          [0.0, 0.0, 0.0]]),
 'mean': ([('aten._embedding_bag.default', [[10, 3], [6], [2], False, 1, False, None], []),
           ('aten._embedding_bag_backward.default',
            [[2, 3], [6], [2], [6], [2], [2], 10, False, 1, False, None],
            [])],
          [[0.0, 0.0, 0.0],
           [0.3333333432674408, 0.6666666865348816, 1.0],
           [0.3333333432674408, 0.6666666865348816, 1.0],
           [0.3333333432674408, 0.6666666865348816, 1.0],
           [0.6666666865348816, 1.3333333730697632, 2.0],
           [0.3333333432674408, 0.6666666865348816, 1.0],
           [0.0, 0.0, 0.0],
           [0.0, 0.0, 0.0],
           [0.0, 0.0, 0.0],
           [0.0, 0.0, 0.0]]),
 'sum': ([('aten._embedding_bag.default', [[10, 3], [6], [2], False, 0, False, None], []),
          ('aten._embedding_bag_backward.default',
           [[2, 3], [6], [2], [0], [2], [2], 10, False, 0, False, None],
           [])],
         [[0.0, 0.0, 0.0],
          [1.0, 2.0, 3.0],
          [1.0, 2.0, 3.0],
          [1.0, 2.0, 3.0],
          [2.0, 4.0, 6.0],
          [1.0, 2.0, 3.0],
          [0.0, 0.0, 0.0],
          [0.0, 0.0, 0.0],
          [0.0, 0.0, 0.0],
          [0.0, 0.0, 0.0]]),
 'weighted': ([('aten._embedding_bag.default', [[10, 3], [6], [2], False, 0, False, [6]], []),
               ('aten._embedding_bag_per_sample_weights_backward.default',
                [[2, 3], [10, 3], [6], [2], [0], 0],
                []),
               ('aten._embedding_bag_backward.default',
                [[2, 3], [6], [2], [0], [2], [2], 10, False, 0, False, [6]],
                [])],
              [[0.0, 0.0, 0.0],
               [0.10000000149011612, 0.20000000298023224, 0.30000001192092896],
               [0.20000000298023224, 0.4000000059604645, 0.6000000238418579],
               [0.6000000238418579, 1.2000000476837158, 1.8000000715255737],
               [0.800000011920929, 1.600000023841858, 2.4000000953674316],
               [0.40000003576278687, 0.8000000715255737, 1.2000000476837158],
               [0.0, 0.0, 0.0],
               [0.0, 0.0, 0.0],
               [0.0, 0.0, 0.0],
               [0.0, 0.0, 0.0]])}
