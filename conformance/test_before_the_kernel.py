"""torch's autograd layer reads the operands' history and packs what the node keeps before
the kernel checks shapes and dtypes: a failing op has packed its inputs, and a stale view
is refused before a shape mismatch. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises

NO_GRAD = (
    "A view was created in no_grad mode and its base or another view of its base has been "
    "modified inplace with grad mode enabled. Given that this use case is ambiguous and "
    "error-prone, it is forbidden. You can clarify your code by moving both the view and the "
    "inplace either both inside the no_grad block (if you don't want the inplace to be "
    "tracked) or both outside (if you want the inplace to be tracked)."
)
MISMATCH = ("The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
            "dimension 1")


def _packed(f):
    shapes = []

    def pack(x):
        shapes.append(list(x.shape))
        return x

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda x: x):
        with pytest.raises(RuntimeError) as caught:
            f()
    return shapes, str(caught.value)


A = torch.ones(2, 3, requires_grad=True)
B = torch.ones(4, requires_grad=True)


@pytest.mark.parametrize("f", [
    lambda: A * B, lambda: A / B, lambda: A ** B, lambda: (A * 1).mul_(B),
])
def test_a_failing_op_has_packed_its_inputs(f):
    assert _packed(f) == ([[4], [2, 3]], MISMATCH)


def test_only_the_inputs_a_wanted_gradient_needs_are_packed():
    assert _packed(lambda: torch.where(A > 0, A, B)) == ([[2, 3]], MISMATCH)
    assert _packed(lambda: A * torch.ones(4))[0] == [[4]]  # other, for self's gradient
    assert _packed(lambda: torch.ones(2, 3) * B)[0] == [[2, 3]]
    with torch.no_grad():
        assert _packed(lambda: A * B)[0] == []


def test_mm_packs_before_refusing_shapes_and_dtypes():
    m = torch.ones(2, 2, requires_grad=True)
    assert _packed(lambda: A @ m) == (
        [[2, 2], [2, 3]], "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x2)")
    assert _packed(lambda: A.mm(torch.ones(2, 2)))[0] == [[2, 2]]
    d = torch.ones(3, 2, dtype=torch.float64, requires_grad=True)
    assert _packed(lambda: A.mm(d)) == (
        [[3, 2], [2, 3]], "expected m1 and m2 to have the same dtype, but got: float != double")


def test_a_stale_view_is_refused_before_a_shape_mismatch():
    a = torch.ones(3, 2, requires_grad=True)
    with torch.no_grad():
        v = a[::2]
        v.zero_()
    shapes, message = _packed(lambda: v * torch.ones(3, 2, requires_grad=True))
    assert (shapes, message) == ([], NO_GRAD)
    written = NO_GRAD.replace("its base or another view of its base has been", "is being")
    with raises(RuntimeError, written):  # a write through it: the direct words
        v.mul_(torch.ones(3, 2))
    with torch.no_grad():  # nothing records: the shapes are what is wrong
        with raises(RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) "
                                  "at non-singleton dimension 0"):
            v * torch.ones(3, 2)


@pytest.mark.parametrize("source", [lambda e: e, lambda e: e[:]])
def test_copying_an_expanded_tensor_onto_itself_only_bumps_its_version(source):
    e = torch.tensor([1.5]).expand(2, 1)
    assert e.copy_(source(e)) is e and e._version == 1 and e.tolist() == [[1.5], [1.5]]
    with torch.no_grad():
        y = torch.ones(2, requires_grad=True) * 1
    v = y[:1].expand(2)
    assert v.copy_(source(v)) is v and v._version == 1
    with raises(RuntimeError, "unsupported operation: more than one element of the written-to "
                              "tensor refers to a single memory location. Please clone() the "
                              "tensor before performing the operation."):
        e.copy_(torch.zeros(2, 1))  # another source is refused


SHARED_INPUT = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer "
    "to a single memory location. Please clone() the tensor before performing the operation.")
INTERNAL = ("unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.")


@pytest.mark.parametrize("write, shapes, message", [
    (lambda y: y[1:].mul_(y[:3]), [[3], [3]], SHARED_INPUT),
    (lambda y: y[1:].div_(y[:3]), [[3], [3]], SHARED_INPUT),
    (lambda y: y[1:].pow_(y[:3]), [[3], [3]], SHARED_INPUT),
    (lambda y: y[1:].addcmul_(y[:3], y[:3]), [[3], [3]], SHARED_INPUT),
    (lambda y: y.index_add_(0, torch.tensor([0]), y[:1]), [[1], [1]], SHARED_INPUT),
    (lambda y: y.expand(2, 4).mul_(y), [[4], [2, 4]], INTERNAL),
    (lambda y: y[1:].copy_(y[:3]), [], SHARED_INPUT),  # copy_ keeps nothing
])
def test_an_in_place_op_refused_for_shared_memory_has_packed_first(write, shapes, message):
    y = torch.arange(4.0, requires_grad=True) * 1
    node = y.grad_fn
    assert _packed(lambda: write(y)) == (shapes, message)
    assert y._version == 0
    assert y.grad_fn is node
    with torch.no_grad():
        assert _packed(lambda: write(torch.arange(4.0))) == ([], message)


@pytest.mark.parametrize("f, shapes", [
    (lambda: torch.mv(A, B), [[2, 3], [4]]),
    (lambda: A @ B, [[2, 3], [4]]),
    (lambda: torch.dot(B, A[0]), [[4], [3]]),
    (lambda: torch.bmm(A[None], A[None]), [[1, 2, 3], [1, 2, 3]]),
    (lambda: A.gather(1, torch.tensor([[5]])), [[1, 1], [2, 3]]),
])
def test_products_and_gather_pack_before_their_checks_refuse(f, shapes):
    assert _packed(f)[0] == shapes


def test_index_select_packs_its_index_before_refusing_it():
    shapes = []
    with torch.autograd.graph.saved_tensors_hooks(lambda x: shapes.append(x.shape) or x,
                                                  lambda x: x):
        with raises(IndexError, "index out of range in self"):
            A.index_select(0, torch.tensor([5]))
    assert shapes == [torch.Size([1])]


def _stale():
    a = torch.ones(3, 2, requires_grad=True) * 1
    with torch.no_grad():
        v = a[::2]
    a.mul_(2)
    return v


@pytest.mark.parametrize("f", [
    lambda v: torch.mv(v, torch.ones(5)),
    lambda v: torch.dot(v[0], torch.ones(5)),
    lambda v: torch.bmm(v[None], torch.ones(1, 5, 1)),
    lambda v: v.index_select(0, torch.tensor([9])),
    lambda v: v.gather(1, torch.tensor([[9]])),
    lambda v: torch.cat([v, torch.ones(5)]),
    lambda v: v * torch.ones(5),
    lambda v: torch.where(v > 0, v, torch.ones(5)),
])
def test_a_stale_view_is_refused_before_an_operand_check(f):
    with pytest.raises(RuntimeError) as caught:
        f(_stale())
    assert str(caught.value) == NO_GRAD
    assert caught.value.__context__ is None


def _refused_by_hook(error, f):
    def pack(x):
        raise error

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda x: x):
        with pytest.raises(type(error)) as caught:
            f()
    return caught.value


@pytest.mark.parametrize("kind", [ValueError, RuntimeError, TypeError])
@pytest.mark.parametrize("f", [
    lambda: torch.mul(A, B), lambda: torch.div(A, B), lambda: torch.where(A > 0, A, B),
    lambda: torch.mv(A, B),
    lambda: A.index_select(0, torch.tensor([5])),
])
def test_a_pack_hooks_error_surfaces_as_raised_before_the_kernels(kind, f):
    error = kind("pack says no")
    caught = _refused_by_hook(error, f)
    assert caught is error
    assert caught.__context__ is None  # no kernel error was being handled
