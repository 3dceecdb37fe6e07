"""Black-box tests: a write whose input lies partly in the memory written is refused, before
anything is computed; the very same memory, and pairs torch does not compare, are allowed.
The same assertions run on torch.
"""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._overlaps import SHARED_INPUT, allowed, refused_and_untouched, row
from conformance._support import raises

INTERNAL = ("unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.")


def _square():
    return torch.arange(1.0, 10.0).reshape(3, 3)


def _ones(n):
    return torch.ones(n)


# (name, make the tensor, write into the window ``w`` reading the window ``i``)
IN_PLACE = [
    ("add_", row, lambda w, i: w.add_(i)),
    ("sub_ alpha", row, lambda w, i: w.sub_(i, alpha=2)),
    ("mul_", row, lambda w, i: w.mul_(i)),
    ("div_", row, lambda w, i: w.div_(i)),
    ("pow_", row, lambda w, i: w.pow_(i)),
    ("atan2_", row, lambda w, i: w.atan2_(i)),
    ("hypot_", row, lambda w, i: w.hypot_(i)),
    ("fmod_", row, lambda w, i: w.fmod_(i)),
    ("remainder_", row, lambda w, i: w.remainder_(i)),
    ("xlogy_", row, lambda w, i: w.xlogy_(i)),
    ("lt_", row, lambda w, i: w.lt_(i)),
    ("eq_", row, lambda w, i: w.eq_(i)),
    ("addcmul_ tensor1", row, lambda w, i: w.addcmul_(i, _ones(6))),
    ("addcmul_ tensor2", row, lambda w, i: w.addcmul_(_ones(6), i, value=2)),
    ("addcdiv_", row, lambda w, i: w.addcdiv_(_ones(6), i)),
    ("lerp_ end", row, lambda w, i: w.lerp_(i, 0.5)),
    ("lerp_ weight", row, lambda w, i: w.lerp_(_ones(6), i)),
    ("clamp_ min", row, lambda w, i: w.clamp_(min=i)),
    ("clamp_min_", row, lambda w, i: w.clamp_min_(i)),
    ("copy_", row, lambda w, i: w.copy_(i)),
    ("item assignment", row, lambda w, i: w.__setitem__(slice(None), i)),
    ("torch.clamp_", row, lambda w, i: torch.clamp_(w, max=i)),
    ("addr_", lambda: torch.arange(1.0, 11.0),
     lambda w, i: w[:9].view(3, 3).addr_(i[:3], _ones(3))),
    ("bernoulli_", lambda: torch.full((7,), 0.5), lambda w, i: w.bernoulli_(i)),
]
# Indexed writes compare their source only, and refuse the very same memory too.
INDEXED = [
    ("index_put_", lambda w, i: w.index_put_((torch.arange(6),), i)),
    ("torch.index_put_", lambda w, i: torch.index_put_(w, (torch.arange(6),), i, True)),
    ("item assignment by index", lambda w, i: w.__setitem__(torch.arange(6), i)),
    ("put_", lambda w, i: w.put_(torch.arange(6), i)),
    ("scatter_", lambda w, i: w.scatter_(0, torch.arange(6), i)),
    ("scatter_ src=", lambda w, i: w.scatter_(0, torch.arange(6), src=i)),
    ("scatter_add_", lambda w, i: w.scatter_add_(0, torch.arange(6), i)),
    ("scatter_reduce_", lambda w, i: w.scatter_reduce_(0, torch.arange(6), i, "sum")),
    ("index_copy_", lambda w, i: w.index_copy_(0, torch.arange(6), i)),
    ("index_add_", lambda w, i: w.index_add_(0, torch.arange(6), i)),
]


@pytest.mark.parametrize("name, make, write", IN_PLACE, ids=[c[0] for c in IN_PLACE])
def test_an_input_shifted_by_one_is_refused_in_place(name, make, write):
    refused_and_untouched(make, write, lambda x: x[1:], lambda x: x[:-1])


# addr_'s vectors lie inside the matrix it writes whatever the window, and a bool out
# cannot be a float input.
SAME_IN_PLACE = [c for c in IN_PLACE if c[0] != "addr_"]


@pytest.mark.parametrize("name, make, write", SAME_IN_PLACE, ids=[c[0] for c in SAME_IN_PLACE])
def test_the_very_same_memory_is_allowed_in_place(name, make, write):
    allowed(make, write, lambda x: x[:-1], lambda x: x[:-1])


@pytest.mark.parametrize("name, write", INDEXED, ids=[c[0] for c in INDEXED])
def test_indexed_writes_refuse_any_overlap_of_their_source(name, write):
    refused_and_untouched(row, write, lambda x: x[1:], lambda x: x[:-1])
    refused_and_untouched(row, write, lambda x: x[:-1], lambda x: x[:-1])


@pytest.mark.parametrize("write", [
    lambda c: c.mul_(c.t()),  # the same range, other strides
    lambda c: c.t().add_(c),
    lambda c: c.add_(c[0]),  # a row inside c, read by every row
    lambda c: c.add_(c[1, 1]),  # one element, 0-d
    lambda c: c[:2].add_(c.view(9)[2:8].view(2, 3)),
    lambda c: c.view(1, 9).add_(c.view(9)),  # one range, strides (9, 1) and (1,)
])
def test_partial_overlaps_of_dense_tensors(write):
    c = _square()
    with raises(RuntimeError, SHARED_INPUT):
        write(c)
    assert c.tolist() == _square().tolist()
    assert c._version == 0


def test_a_bigger_dtype_over_half_its_own_bytes_overlaps_partly():
    a = torch.arange(4, dtype=torch.float64)
    with raises(RuntimeError, SHARED_INPUT):
        a.add_(a.view(torch.float32)[:4])
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]


@pytest.mark.parametrize("write, expected", [
    (lambda a: a.add_(a), [0, 2, 4, 6, 8, 10]),
    (lambda a: a.mul_(a.detach()), [0, 1, 4, 9, 16, 25]),
    (lambda a: a.sub_(a.view(2, 3).view(6)), [0] * 6),
    (lambda a: a[:3].add_(a[3:]), [3, 5, 7, 3, 4, 5]),  # disjoint
    (lambda a: a[:3].add_(a[3]), [3, 4, 5, 3, 4, 5]),
    (lambda a: a[::2].mul_(a[1::2]), [0, 1, 6, 3, 20, 5]),  # neither dense: not compared
    (lambda a: a.add_(a[:1].expand(6)), [0, 1, 2, 3, 4, 5]),  # stretched: not compared
    (lambda a: a[:3].copy_(a[4].expand(3)), [4, 4, 4, 3, 4, 5]),
    (lambda a: a.__setitem__(slice(0, 3), a[4]), [4, 4, 4, 3, 4, 5]),  # a fill
    (lambda a: a.view(3, 2).__setitem__(slice(None), a[:2]), [0, 1, 0, 1, 0, 1]),
    (lambda a: a[2:2].add_(a[2]), [0, 1, 2, 3, 4, 5]),  # no elements
])
def test_writes_torch_does_not_refuse(write, expected):
    a = torch.arange(6.0)
    write(a)
    assert a.tolist() == expected


def test_a_float_tensor_may_take_its_own_bits_as_ints():
    a = torch.tensor([0.0, 1.0])
    a.add_(a.view(torch.int32))  # the same range and strides
    assert a.tolist() == [0.0, 1065353216.0]


@pytest.mark.parametrize("write", [
    lambda a: a.masked_fill_(a > 0, a[1]),  # the value is not compared, the mask would be
    lambda a: a.index_fill_(0, torch.tensor([0, 2]), a[1]),
    lambda a: a.fill_(a[3]),
    lambda a: a[1:].masked_scatter_(torch.ones(5, dtype=torch.bool), a[:-1]),
    lambda a: a[2:].view(2, 2).addmm_(a[:4].view(2, 2), torch.ones(2, 2)),
    lambda a: torch.sum(a[:-1].view(5, 1), 1, out=a[1:]),
    lambda a: torch.mv(torch.ones(5, 5), a[:-1], out=a[1:]),
    lambda a: torch.addmv(torch.ones(3), torch.ones(3, 3), a[:3], out=a[1:4]),  # a factor
])
def test_ops_that_compare_no_input(write):
    a = torch.arange(6.0)
    write(a)  # whatever the values, no refusal
    assert a._version > 0


def test_a_mask_inside_the_bool_tensor_written_is_compared():
    a = torch.ones(7, dtype=torch.bool)
    with raises(RuntimeError, SHARED_INPUT):
        a[1:].masked_fill_(a[:-1], False)
    assert a.all()


@pytest.mark.parametrize("write", [
    lambda w, i: w.scatter_(0, i, 5),
    lambda w, i: w.scatter_add_(0, i, torch.ones(6, dtype=torch.long)),
    lambda w, i: w.index_put_((i,), torch.tensor(3)),
    lambda w, i: w.__setitem__(i, 3),
    lambda w, i: w.index_add_(0, i, torch.ones(6, dtype=torch.long)),
    lambda w, i: w.index_fill_(0, i, 3),
    lambda w, i: w.put_(i, torch.ones(6, dtype=torch.long)),
])
def test_indexed_writes_refuse_any_overlap_of_their_index(write):
    for w_of in (lambda x: x[1:], lambda x: x[:-1]):
        a = torch.zeros(7, dtype=torch.long)
        with raises(RuntimeError, SHARED_INPUT):
            write(w_of(a), a[:-1])
        assert a.tolist() == [0] * 7
        assert a._version == 0


def test_the_leaf_check_comes_first():
    a = torch.arange(6.0, requires_grad=True)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an "
                              "in-place operation."):
        a.add_(a[0])
    with raises(RuntimeError, "a view of a leaf Variable that requires grad is being used in "
                              "an in-place operation."):
        a[1:].add_(a[:-1])
    with torch.no_grad():
        with raises(RuntimeError, SHARED_INPUT):
            a[1:].add_(a[:-1])
    assert a.tolist() == [0, 1, 2, 3, 4, 5]


def test_recorded_write_refused_keeps_its_history():
    x = torch.arange(6.0, requires_grad=True)
    y = x * 2
    node = y.grad_fn
    with raises(RuntimeError, SHARED_INPUT):
        y[1:].add_(y[:-1])
    assert y.grad_fn is node
    assert y._version == 0
    y.sum().backward()
    assert x.grad.tolist() == [2.0] * 6


def test_the_written_tensors_own_sharing_comes_first():
    base = torch.zeros(3)
    with raises(RuntimeError, INTERNAL):
        base[:1].expand(3).add_(base)


def test_overlap_comes_before_shape_and_dtype_errors():
    a = torch.arange(6.0)
    with raises(RuntimeError, SHARED_INPUT):
        a[:2].add_(a[1:4])  # shapes that do not broadcast either
    with raises(RuntimeError, SHARED_INPUT):
        a.view(torch.int64)[1:].add_(a[:-1])  # a float result into long, too
    assert a.tolist() == [0, 1, 2, 3, 4, 5]


def test_functional_in_place_forms_of_one_tensor_are_never_refused():
    a = torch.arange(-3.0, 3.0)
    torch.relu_(a[1:])
    F.hardtanh_(a[:-1])
    F.relu_(a)
    assert a.tolist() == [0, 0, 0, 0, 1, 2]


def test_the_rule_on_random_windows():
    rng = np.random.default_rng(0)
    for _ in range(50):
        start_w, start_i, n = (int(v) for v in rng.integers(0, 4, 3))
        a = torch.arange(10.0)
        w, i = a[start_w:start_w + n + 1], a[start_i:start_i + n + 1]
        if start_w == start_i or abs(start_w - start_i) > n:  # the same, or apart
            w.add_(i)
            continue
        with raises(RuntimeError, SHARED_INPUT):
            w.add_(i)
        assert a.tolist() == list(range(10))

