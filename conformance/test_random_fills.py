"""random_, exponential_, bernoulli and normal: torch's numbers, nodes and refusals."""

import math
import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises
from conformance.test_random_streams import doubles, mt19937_words


def test_random_takes_the_word_modulo_the_dtypes_reach():
    words = mt19937_words(2, 200)
    wide = [(high << 32 | low) for high, low in zip(words[0::2], words[1::2])]
    expected = {torch.int32: [w % 2**31 for w in words[:100]],
                torch.uint8: [w % 256 for w in words[:100]],
                torch.bool: [bool(w & 1) for w in words[:100]],
                torch.float32: [float(w % (2**24 + 1)) for w in words[:100]],
                torch.int64: [w % 2**63 for w in wide[:100]],
                torch.float64: [float(w % (2**53 + 1)) for w in wide[:100]]}
    for dtype, numbers in expected.items():
        torch.manual_seed(2)
        assert torch.empty(100, dtype=dtype).random_().tolist() == numbers, dtype


def test_random_with_bounds_draws_as_randint_does():
    words = mt19937_words(3, 100)
    torch.manual_seed(3)
    assert torch.empty(50, dtype=torch.int64).random_(3, 10).tolist() == [
        3 + w % 7 for w in words[:50]]
    torch.manual_seed(3)
    assert torch.empty(50, dtype=torch.int16).random_(to=9).tolist() == [
        w % 9 for w in words[:50]]
    torch.manual_seed(3)
    assert torch.empty(50, dtype=torch.float16).random_(-3, None).tolist() == [
        -3 + w % (2**11 + 4) for w in words[:50]]
    torch.manual_seed(3)
    wide = [(high << 32 | low) for high, low in zip(words[0::2], words[1::2])]
    assert torch.empty(50, dtype=torch.int64).random_(-2**63, None).tolist() == [
        w - 2**64 if w >= 2**63 else w for w in wide]


def test_exponential_is_computed_in_double():
    u = doubles(mt19937_words(4, 200))
    torch.manual_seed(4)
    drawn = torch.empty(100, dtype=torch.float64).exponential_(1.5).tolist()
    assert drawn == [(-1 / 1.5) * math.log1p(-x) for x in u]
    torch.manual_seed(4)
    singles = torch.empty(100).exponential_(1.5).numpy()
    assert np.array_equal(singles, np.array(drawn, dtype=np.float32))


def test_bernoulli_compares_a_uniform_double_with_p():
    u = doubles(mt19937_words(5, 400))
    for dtype in (torch.float32, torch.int64, torch.bool):
        torch.manual_seed(5)
        drawn = torch.empty(200, dtype=dtype).bernoulli_(0.3).tolist()
        assert drawn == [type(drawn[0])(x < 0.3) for x in u], dtype


@pytest.mark.parametrize("call, node", [
    (lambda t: t.random_(), "RandomBackward2"), (lambda t: t.random_(4), "RandomBackward1"),
    (lambda t: t.random_(2, 4), "RandomBackward0"),
    (lambda t: t.random_(2, None), "RandomBackward0"),
    (lambda t: t.exponential_(), "ExponentialBackward0"),
    (lambda t: t.bernoulli_(0.4), "BernoulliBackward2")])
def test_the_nodes_and_their_zero_gradient(call, node):
    x = torch.ones(3, requires_grad=True)
    y = call(x.clone())
    assert type(y.grad_fn).__name__ == node
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("call, kind, message", [
    (lambda: torch.empty(3).exponential_(-1.5), RuntimeError,
     "exponential_ expects lambda > 0.0, but found lambda=-1.5"),
    (lambda: torch.empty(3, dtype=torch.int64).exponential_(), RuntimeError,
     "Exponential distribution is a continuous probability distribution. dtype must be a "
     "floating point but you specified Long"),
    (lambda: torch.empty(3).bernoulli_(1.5), RuntimeError,
     "bernoulli_ expects p to be in [0, 1], but got p=1.5"),
    (lambda: torch.empty(3, dtype=torch.int32).random_(2**31, None), RuntimeError,
     "from is out of bounds for int"),
    (lambda: torch.empty(3, dtype=torch.float32).random_(2**24, None), RuntimeError,
     "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to "
     "dtype, but got from=16777216 > to_inc=16777216"),
    (lambda: torch.empty(3, dtype=torch.int32).random_(0), RuntimeError,
     "random_ expects 'from' to be less than 'to', but got from=0 >= to=0"),
    (lambda: torch.empty(3, dtype=torch.int32).random_(2**31 + 1), RuntimeError,
     "to - 1 is out of bounds for int"),
    (lambda: torch.empty(3, dtype=torch.int64).random_(2**63, None), ValueError,
     "Overflow when unpacking long long"),
    (lambda: torch.empty(3, dtype=torch.int32).random_(1.5), TypeError,
     "random_() received an invalid combination of arguments - got (float), but expected one "
     "of:\n * (*, torch.Generator generator = None)\n * (int from, int to, *, torch.Generator "
     "generator = None)\n * (int to, *, torch.Generator generator = None)\n")])
def test_refusals_leave_the_generator_alone(call, kind, message):
    state = torch.get_rng_state()
    with raises(kind, message):
        call()
    assert torch.equal(torch.get_rng_state(), state)


def test_a_from_too_far_down_for_a_float_warns():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.empty(3).random_(-2**25, None)
    assert [str(w.message)[:38] for w in caught] == ["from is out of bounds [-(2^24), 2^24]."]


def test_bernoulli_draws_uniform_numbers_of_the_probabilities_dtype():
    words = mt19937_words(6, 20 + 40)
    torch.manual_seed(6)
    p = torch.rand(20)
    assert torch.bernoulli(p).tolist() == [
        float((w % 2**24) / 2**24 < q) for w, q in zip(words[20:40], p.tolist())]
    torch.manual_seed(6)
    p = torch.rand(10, dtype=torch.float64)
    u = doubles(words)[10:20]
    assert torch.bernoulli(p).tolist() == [float(x < q) for x, q in zip(u, p.tolist())]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.bool])
def test_bernoulli_out_takes_the_same_draws_in_any_dtype(dtype):
    torch.manual_seed(3)
    p = torch.rand(12)
    expected = torch.bernoulli(p, generator=torch.Generator().manual_seed(5)).tolist()
    out = torch.empty(4, dtype=dtype)  # another shape: given the input's, without a warning
    version = out._version
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = torch.bernoulli(p, generator=torch.Generator().manual_seed(5), out=out)
    assert result is out and out.dtype == dtype and out.shape == (12,)
    assert [float(v) for v in out.tolist()] == expected and out._version == version + 1


def test_bernoulli_out_refusals():
    p = torch.full((3,), 0.5)
    message = ("bernoulli(): functions with out=... arguments don't support automatic "
               "differentiation, but one of the arguments requires grad.")
    with raises(RuntimeError, message):
        torch.bernoulli(p.clone().requires_grad_(), out=torch.empty(3))
    with raises(RuntimeError, message):
        torch.bernoulli(p, out=torch.empty(3, requires_grad=True))
    with torch.no_grad():
        assert not torch.bernoulli(p.clone().requires_grad_(), out=torch.empty(3)).requires_grad
    forms = ("but expected one of:\n * (Tensor input, *, torch.Generator generator = None, "
             "Tensor out = None)\n * (Tensor input, float p, *, torch.Generator generator = "
             "None)\n")
    for call, got in ((lambda: torch.bernoulli(p, 0.5, out=torch.empty(3)),
                       "(Tensor, float, out=Tensor)"),
                      (lambda: torch.bernoulli(p, p=0.5, out=torch.empty(3)),
                       "(Tensor, out=Tensor, p=float)")):
        with raises(TypeError, f"bernoulli() received an invalid combination of arguments - "
                               f"got {got}, {forms}"):
            call()


def test_normal_scales_and_shifts_standard_normal_numbers():
    torch.manual_seed(8)
    z = torch.randn(5, dtype=torch.float64)
    mean = torch.tensor([0.5, -1.0, 2.0, 0.0, 3.0], dtype=torch.float64)
    std = torch.tensor([1.5, 0.25, 2.0, 1.0, 0.1], dtype=torch.float64)
    torch.manual_seed(8)
    assert torch.equal(torch.normal(mean, std), z * std + mean)
    torch.manual_seed(8)
    assert torch.equal(torch.normal(mean, 0.5), z * 0.5 + mean)
    torch.manual_seed(8)
    assert torch.equal(torch.normal(1.0, std), z * std + 1.0)
    torch.manual_seed(8)
    made = torch.normal(1.0, 0.5, (5,), dtype=torch.float64)
    assert torch.equal(made, z * 0.5 + 1.0) and made.grad_fn is None


@pytest.mark.parametrize("call, node, sizes", [
    (lambda m, s: torch.normal(m, s), "NormalBackward3", ("mean", "std")),
    (lambda m, s: torch.normal(m, 2.0), "NormalBackward1", ("mean",)),
    (lambda m, s: torch.normal(1.0, s), "NormalBackward2", ("std",)),
    (lambda m, s: torch.bernoulli(torch.sigmoid(m)), "BernoulliBackward0", ())])
def test_draws_out_of_place_record_zero_gradients(call, node, sizes):
    mean = torch.zeros(2, 1, requires_grad=True)
    std = torch.ones(3, requires_grad=True)
    out = call(mean, std)
    assert type(out.grad_fn).__name__ == node
    for name in sizes:
        assert getattr(out.grad_fn, f"_saved_{name}_sym_sizes") == {
            "mean": (2, 1), "std": (3,)}[name]
    out.sum().backward()
    for leaf in (mean, std):
        assert leaf.grad is None or not leaf.grad.any()


@pytest.mark.parametrize("call, kind, message", [
    (lambda: torch.bernoulli(torch.tensor([1.5])), RuntimeError,
     "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be "
     "improved?  If so, please report an enhancement request to PyTorch.)"),
    (lambda: torch.bernoulli(torch.zeros(3), 1.5), RuntimeError,
     "bernoulli_ expects p to be in [0, 1], but got p=1.5"),
    (lambda: torch.bernoulli(torch.tensor([1, 0])), NotImplementedError,
     "\"bernoulli_tensor_cpu_p_\" not implemented for 'Long'"),
    (lambda: torch.normal(torch.zeros(3), -torch.ones(3)), RuntimeError,
     "normal expects all elements of std >= 0.0"),
    (lambda: torch.normal(torch.zeros(3), -1.0), RuntimeError,
     "normal expects std >= 0.0, but found std -1"),
    (lambda: torch.normal(torch.zeros(3, dtype=torch.int64), 1.0), NotImplementedError,
     "\"normal_kernel_cpu\" not implemented for 'Long'"),
    (lambda: torch.normal(torch.zeros(3), torch.ones(2)), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
     "dimension 0")])
def test_draws_out_of_place_refuse_as_torch_does(call, kind, message):
    state = torch.get_rng_state()
    with raises(kind, message):
        call()
    assert torch.equal(torch.get_rng_state(), state)


def test_normal_with_two_numbers_needs_a_size():
    with pytest.raises(TypeError, match=r"\Anormal\(\) received an invalid combination of "
                       r"arguments - got \(float, float\), but expected one of:\n"):
        torch.normal(0.0, 1.0)


def test_bernoulli_with_a_number_draws_doubles_and_has_no_derivative():
    u = doubles(mt19937_words(7, 12))
    x = torch.zeros(6, dtype=torch.int64)
    torch.manual_seed(7)
    assert torch.bernoulli(x, 0.4).tolist() == [int(v < 0.4) for v in u]
    a = torch.ones(2, requires_grad=True)
    out = torch.bernoulli(a, 0.5)
    assert out.grad_fn.name() == "torch::autograd::NotImplemented"
    with raises(RuntimeError, "derivative for aten::bernoulli is not implemented"):
        out.sum().backward()


def test_bernoulli_into_a_tensor_follows_its_memory_order():
    words = mt19937_words(9, 40)
    p = torch.tensor([0.2, 0.5, 0.9, 0.4])
    torch.manual_seed(9)
    drawn = torch.zeros(4, 3).t().bernoulli_(p)  # memory order: down the columns
    u = [(w % 2**24) / 2**24 for w in words]
    expected = [[float(u[3 * j + i] < q) for j, q in enumerate(p.tolist())] for i in range(3)]
    assert drawn.tolist() == expected
    x, q = torch.zeros(2, 4, requires_grad=True), torch.full((4,), 0.5, requires_grad=True)
    out = x.clone().bernoulli_(q)
    assert type(out.grad_fn).__name__ == "BernoulliBackward1"
    out.sum().backward()
    assert not x.grad.any() and not q.grad.any()
    with raises(RuntimeError, "The expanded size of the tensor (3) must match the existing size "
                "(2) at non-singleton dimension 0.  Target sizes: [3].  Tensor sizes: [2]"):
        torch.zeros(3).bernoulli_(torch.tensor([0.5, 0.2]))


def test_bernoulli_into_a_tensor_has_a_tangent_only_from_self():
    import torch.autograd.forward_ad as fw

    with fw.dual_level():
        p = fw.make_dual(torch.full((3,), 0.5, dtype=torch.float64),
                         torch.ones(3, dtype=torch.float64))
        assert fw.unpack_dual(torch.zeros(3, dtype=torch.float64).bernoulli_(p)).tangent is None
        x = fw.make_dual(torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64))
        tangent = fw.unpack_dual(x.clone().bernoulli_(p)).tangent
        assert tangent.tolist() == [0.0, 0.0, 0.0]


def test_bernoulli_out_keeps_a_view_on_its_base():
    base = torch.zeros(6)
    torch.bernoulli(torch.ones(3), out=base[:4])
    assert base.tolist() == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    base = torch.zeros(6)
    tail = base[4:]  # grown past the end of its storage: the base moves with it
    torch.bernoulli(torch.ones(3), out=tail)
    assert base.tolist() == [0.0, 0.0, 0.0, 0.0, 1.0, 1.0] and tail.tolist() == [1.0] * 3


def test_the_bernoulli_method_takes_no_out_and_a_tensor_is_read_as_p():
    forms = ("but expected one of:\n * (*, torch.Generator generator = None)\n"
             " * (float p, *, torch.Generator generator = None)\n")
    with raises(TypeError, "bernoulli() received an invalid combination of arguments - got "
                           f"(out=Tensor, ), {forms}"):
        torch.full((3,), 0.5).bernoulli(out=torch.empty(3))
    torch.manual_seed(0)
    drawn = torch.bernoulli(torch.full((4,), 0.5), torch.tensor(0.5))
    after = torch.rand(1)
    torch.manual_seed(0)
    assert torch.equal(drawn, torch.full((4,), 0.5).bernoulli(0.5))
    assert torch.equal(after, torch.rand(1))  # drawn once


def test_normal_out_in_each_form():
    torch.manual_seed(0)
    expected = torch.normal(0.0, 1.0, (3,))
    torch.manual_seed(0)
    out = torch.zeros(2)
    assert torch.normal(0.0, 1.0, (3,), out=out) is out
    assert torch.equal(out, expected) and out._version == 1
    mean, std = torch.zeros(3), torch.ones(3)
    for args in ((mean, std), (mean, 1.0), (0.0, std)):
        torch.manual_seed(0)
        expected = torch.normal(*args)
        torch.manual_seed(0)
        out = torch.zeros(3)
        torch.normal(*args, out=out)
        assert torch.equal(out, expected) and out._version == 1
    with raises(RuntimeError, "normal(): functions with out=... arguments don't support "
                              "automatic differentiation, but one of the arguments requires "
                              "grad."):
        torch.normal(mean.clone().requires_grad_(), std, out=torch.zeros(3))
    with raises(RuntimeError, "aten::normal(): functions with out=... arguments don't support "
                              "automatic differentiation, but one of the arguments requires "
                              "grad."):
        torch.normal(0.0, 1.0, (3,), out=torch.zeros(3, requires_grad=True))
    with raises(RuntimeError, "dtype Float does not match dtype of out parameter (Double)"):
        torch.normal(0.0, 1.0, (3,), out=torch.zeros(3, dtype=torch.float64),
                     dtype=torch.float32)
    with raises(NotImplementedError, "\"normal_kernel_cpu\" not implemented for 'Long'"):
        torch.normal(0.0, 1.0, (3,), out=torch.zeros(3, dtype=torch.int64))


def test_a_tensor_p_not_read_as_a_float_is_refused_before_drawing():
    forms = ("but expected one of:\n * (*, torch.Generator generator = None)\n"
             " * (float p, *, torch.Generator generator = None)\n")
    for p, got in ((torch.tensor([0.3]), "Tensor"),
                   (torch.tensor(0.3, requires_grad=True), "Tensor")):
        torch.manual_seed(0)
        with raises(TypeError, "bernoulli() received an invalid combination of arguments - got "
                               f"({got}), {forms}"):
            torch.ones(3).bernoulli(p)
        after = torch.rand(1)
        torch.manual_seed(0)
        assert torch.equal(after, torch.rand(1))


def test_normal_out_with_a_number_std_keeps_outs_shape():
    mean = torch.zeros(3)
    torch.manual_seed(0)
    out = torch.normal(mean, 1.0, out=torch.zeros(2, 3))
    torch.manual_seed(0)
    assert out.shape == (2, 3) and torch.equal(out, torch.empty(2, 3).normal_())
    torch.manual_seed(0)
    with raises(RuntimeError, "The size of tensor a (5) must match the size of tensor b (2) at "
                              "non-singleton dimension 0"):
        torch.normal(torch.zeros(5), 1.0, out=torch.zeros(2))
    after = torch.rand(1)
    torch.manual_seed(0)
    assert torch.equal(after, torch.rand(1))  # refused before drawing


@pytest.mark.parametrize("std", [1.0, torch.ones(3)])
def test_normal_out_draws_in_outs_dtype(std):
    torch.manual_seed(0)
    out = torch.normal(torch.zeros(3), std, out=torch.zeros(3, dtype=torch.float64))
    torch.manual_seed(0)
    assert out.dtype == torch.float64 and out._version == 1
    assert torch.equal(out, torch.empty(3, dtype=torch.float64).normal_())
    with raises(NotImplementedError, "\"normal_kernel_cpu\" not implemented for 'Long'"):
        torch.normal(torch.zeros(3), std, out=torch.zeros(3, dtype=torch.int64))
