"""one_hot is torch's composite, taken step by step where a dispatch mode and a profile see
it (aminmax, two items, zeros, unsqueeze, scatter_), its result at torch's version; and the
events inside aminmax's kernel. The expected calls and trees are torch 2.13's."""

import pytest
import torch
from torch.autograd.profiler import profile

from conformance._mode_support import call_recorder
from conformance._support import event_tree as tree

F = torch.nn.functional


def one_hot_calls(*args):
    """The calls a mode sees inside one_hot, and the result (its version) or the error."""
    mode = call_recorder()()
    try:
        with mode:
            out = F.one_hot(*args)
    except RuntimeError as error:
        return mode.calls, str(error)
    return mode.calls, (out.tolist(), out._version, out.stride())


def one_hot_profiled():
    i = torch.tensor([[1, 0], [2, 2]])
    with profile(record_shapes=True) as prof:
        F.one_hot(i), F.one_hot(i, 4), F.one_hot(torch.tensor([], dtype=torch.int64), 2)
    return tree(prof.function_events)


def aminmax_profiled():
    x = torch.tensor([[1.0, 5.0, 2.0], [3.0, 0.0, 4.0]])
    s, xt, xs = torch.tensor(2.0), x.t(), x[:, ::2]
    with profile(record_shapes=True) as prof:
        torch.aminmax(x), torch.aminmax(x, keepdim=True), torch.aminmax(x, dim=1)
        torch.aminmax(xt, dim=0), x.aminmax(dim=-1, keepdim=True), torch.aminmax(xt)
        torch.aminmax(xs), torch.aminmax(s), torch.aminmax(s, dim=0)
        torch.aminmax(s, dim=0, keepdim=True), torch.aminmax(torch.zeros(2, 0), dim=0)
    return tree(prof.function_events)


CASES = {
    "given": (torch.tensor([[1, 0]]), 5),
    "inferred": (torch.tensor([2, 0]),),
    "empty": (torch.tensor([], dtype=torch.int64), 3),
    "empty_inferred": (torch.tensor([], dtype=torch.int64),),
    "negative": (torch.tensor([-1, 2]), 3),
    "too_large": (torch.tensor([1, 3]), 3),
    "transposed": (torch.tensor([[0, 1], [2, 3]]).t(), -1),
}


@pytest.mark.parametrize("case", CASES)
def test_a_mode_sees_one_hot_step_by_step(case):
    assert one_hot_calls(*CASES[case]) == CALLS[case]


def test_one_hot_comes_back_written_twice_without_a_mode():
    assert F.one_hot(torch.tensor([1, 0]))._version == 2
    assert F.one_hot(torch.tensor([1, 0]), 3).tolist() == [[0, 1, 0], [1, 0, 0]]
    assert F.one_hot(torch.tensor([], dtype=torch.int64), 2)._version == 0


def test_a_profile_shows_one_hot_step_by_step():
    assert one_hot_profiled() == ONE_HOT_TREE


def test_a_profile_shows_the_events_inside_aminmax():
    assert aminmax_profiled() == AMINMAX_TREE


CALLS = {'empty': ([('aten.empty.memory_format',
             [[0, 3]],
             [('device', torch.device(type='cpu')),
              ('dtype', torch.int64),
              ('layout', torch.strided)])],
           ([], 0, (3, 1))),
 'empty_inferred': ([], 'Can not infer total number of classes from empty tensor.'),
 'given': ([('aten.aminmax.default', [[1, 2]], []),
            ('aten._local_scalar_dense.default', [[]], []),
            ('aten._local_scalar_dense.default', [[]], []),
            ('aten.zeros.default',
             [[1, 2, 5]],
             [('device', torch.device(type='cpu')),
              ('dtype', torch.int64),
              ('layout', torch.strided)]),
            ('aten.unsqueeze.default', [[1, 2], -1], []),
            ('aten.scatter_.value', [[1, 2, 5], -1, [1, 2, 1], 1], [])],
           ([[[0, 1, 0, 0, 0], [1, 0, 0, 0, 0]]], 1, (10, 5, 1))),
 'inferred': ([('aten.aminmax.default', [[2]], []),
               ('aten._local_scalar_dense.default', [[]], []),
               ('aten._local_scalar_dense.default', [[]], []),
               ('aten.zeros.default',
                [[2, 3]],
                [('device', torch.device(type='cpu')),
                 ('dtype', torch.int64),
                 ('layout', torch.strided)]),
               ('aten.unsqueeze.default', [[2], -1], []),
               ('aten.scatter_.value', [[2, 3], -1, [2, 1], 1], [])],
              ([[0, 0, 1], [1, 0, 0]], 1, (3, 1))),
 'negative': ([('aten.aminmax.default', [[2]], []),
               ('aten._local_scalar_dense.default', [[]], [])],
              'Class values must be non-negative.'),
 'too_large': ([('aten.aminmax.default', [[2]], []),
                ('aten._local_scalar_dense.default', [[]], []),
                ('aten._local_scalar_dense.default', [[]], [])],
               'Class values must be smaller than num_classes.'),
 'transposed': ([('aten.aminmax.default', [[2, 2]], []),
                 ('aten._local_scalar_dense.default', [[]], []),
                 ('aten._local_scalar_dense.default', [[]], []),
                 ('aten.zeros.default',
                  [[2, 2, 4]],
                  [('device', torch.device(type='cpu')),
                   ('dtype', torch.int64),
                   ('layout', torch.strided)]),
                 ('aten.unsqueeze.default', [[2, 2], -1], []),
                 ('aten.scatter_.value', [[2, 2, 4], -1, [2, 2, 1], 1], [])],
                ([[[1, 0, 0, 0], [0, 0, 1, 0]], [[0, 1, 0, 0], [0, 0, 0, 1]]], 1, (8, 4, 1)))}
ONE_HOT_TREE = [(0, 'aten::one_hot', [[2, 2], []]),
 (1, 'aten::aminmax', [[2, 2], [], []]),
 (2, 'aten::fill_', [[], []]),
 (2, 'aten::fill_', [[], []]),
 (1, 'aten::item', [[]]),
 (2, 'aten::_local_scalar_dense', [[]]),
 (1, 'aten::item', [[]]),
 (2, 'aten::_local_scalar_dense', [[]]),
 (1, 'aten::zeros', [[], [], [], [], []]),
 (2, 'aten::empty', [[], [], [], [], [], []]),
 (2, 'aten::zero_', [[2, 2, 3]]),
 (1, 'aten::unsqueeze', [[2, 2], []]),
 (2, 'aten::as_strided', [[2, 2], [], [], []]),
 (1, 'aten::scatter_', [[2, 2, 3], [], [2, 2, 1], []]),
 (2, 'aten::to', [[2, 2, 1], [], [], [], []]),
 (0, 'aten::one_hot', [[2, 2], []]),
 (1, 'aten::aminmax', [[2, 2], [], []]),
 (2, 'aten::fill_', [[], []]),
 (2, 'aten::fill_', [[], []]),
 (1, 'aten::item', [[]]),
 (2, 'aten::_local_scalar_dense', [[]]),
 (1, 'aten::item', [[]]),
 (2, 'aten::_local_scalar_dense', [[]]),
 (1, 'aten::zeros', [[], [], [], [], []]),
 (2, 'aten::empty', [[], [], [], [], [], []]),
 (2, 'aten::zero_', [[2, 2, 4]]),
 (1, 'aten::unsqueeze', [[2, 2], []]),
 (2, 'aten::as_strided', [[2, 2], [], [], []]),
 (1, 'aten::scatter_', [[2, 2, 4], [], [2, 2, 1], []]),
 (2, 'aten::to', [[2, 2, 1], [], [], [], []]),
 (0, 'aten::empty', [[], [], [], [], [], []]),
 (0, 'aten::to', [[0], [], [], [], [], []]),
 (0, 'aten::lift_fresh', [[0]]),
 (0, 'aten::detach_', [[0]]),
 (1, 'detach_', [[0]]),
 (0, 'aten::one_hot', [[0], []]),
 (1, 'aten::empty', [[], [], [], [], [], []])]
AMINMAX_TREE = [(0, 'aten::aminmax', [[2, 3], [], []]),
 (1, 'aten::fill_', [[], []]),
 (1, 'aten::fill_', [[], []]),
 (0, 'aten::aminmax', [[2, 3], [], []]),
 (1, 'aten::fill_', [[1, 1], []]),
 (1, 'aten::fill_', [[1, 1], []]),
 (0, 'aten::aminmax', [[2, 3], [], []]),
 (1, 'aten::unsqueeze_', [[2], []]),
 (2, 'aten::as_strided_', [[2], [], [], []]),
 (1, 'aten::unsqueeze_', [[2], []]),
 (2, 'aten::as_strided_', [[2], [], [], []]),
 (1, 'aten::squeeze_', [[2, 1], []]),
 (2, 'aten::as_strided_', [[2, 1], [], [], []]),
 (1, 'aten::squeeze_', [[2, 1], []]),
 (2, 'aten::as_strided_', [[2, 1], [], [], []]),
 (0, 'aten::aminmax', [[3, 2], [], []]),
 (1, 'aten::unsqueeze_', [[2], []]),
 (2, 'aten::as_strided_', [[2], [], [], []]),
 (1, 'aten::unsqueeze_', [[2], []]),
 (2, 'aten::as_strided_', [[2], [], [], []]),
 (1, 'aten::squeeze_', [[1, 2], []]),
 (2, 'aten::as_strided_', [[1, 2], [], [], []]),
 (1, 'aten::squeeze_', [[1, 2], []]),
 (2, 'aten::as_strided_', [[1, 2], [], [], []]),
 (0, 'aten::aminmax', [[2, 3], [], []]),
 (0, 'aten::aminmax', [[3, 2], [], []]),
 (1, 'aten::contiguous', [[3, 2], []]),
 (2, 'aten::clone', [[3, 2], []]),
 (3, 'aten::empty_like', [[3, 2], [], [], [], [], []]),
 (4, 'aten::empty', [[], [], [], [], [], []]),
 (3, 'aten::copy_', [[3, 2], [3, 2], []]),
 (1, 'aten::fill_', [[], []]),
 (1, 'aten::fill_', [[], []]),
 (0, 'aten::aminmax', [[2, 2], [], []]),
 (1, 'aten::contiguous', [[2, 2], []]),
 (2, 'aten::clone', [[2, 2], []]),
 (3, 'aten::empty_like', [[2, 2], [], [], [], [], []]),
 (4, 'aten::empty', [[], [], [], [], [], []]),
 (3, 'aten::copy_', [[2, 2], [2, 2], []]),
 (1, 'aten::fill_', [[], []]),
 (1, 'aten::fill_', [[], []]),
 (0, 'aten::aminmax', [[], [], []]),
 (1, 'aten::fill_', [[], []]),
 (1, 'aten::fill_', [[], []]),
 (0, 'aten::aminmax', [[], [], []]),
 (1, 'aten::resize_', [[], [], []]),
 (1, 'aten::resize_', [[], [], []]),
 (1, 'aten::fill_', [[], []]),
 (2, 'aten::copy_', [[], [], []]),
 (1, 'aten::fill_', [[], []]),
 (2, 'aten::copy_', [[], [], []]),
 (0, 'aten::aminmax', [[], [], []]),
 (1, 'aten::resize_', [[], [], []]),
 (1, 'aten::resize_', [[], [], []]),
 (1, 'aten::fill_', [[], []]),
 (2, 'aten::copy_', [[], [], []]),
 (1, 'aten::fill_', [[], []]),
 (2, 'aten::copy_', [[], [], []]),
 (0, 'aten::zeros', [[], [], [], [], []]),
 (1, 'aten::empty', [[], [], [], [], [], []]),
 (1, 'aten::zero_', [[2, 0]]),
 (2, 'aten::fill_', [[2, 0], []]),
 (0, 'aten::aminmax', [[2, 0], [], []]),
 (1, 'aten::unsqueeze_', [[0], []]),
 (2, 'aten::as_strided_', [[0], [], [], []]),
 (1, 'aten::unsqueeze_', [[0], []]),
 (2, 'aten::as_strided_', [[0], [], [], []]),
 (1, 'aten::squeeze_', [[1, 0], []]),
 (2, 'aten::as_strided_', [[1, 0], [], [], []]),
 (1, 'aten::squeeze_', [[1, 0], []]),
 (2, 'aten::as_strided_', [[1, 0], [], [], []])]
