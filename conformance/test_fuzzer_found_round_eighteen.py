"""Black-box tests: behaviour the differential fuzzer found in its eighteenth round.

A node whose formula refuses (unique's, geqrf's, embedding_renorm's,
_standard_gamma_grad's) refuses only when a gradient of its input is wanted:
backward(inputs=[its output]) runs it with none wanted, and it hands on nothing.
A 1-d transposed convolution of an input with no positions is refused naming the
2-d shape it runs as. An integer division into a Bool out= is refused for the cast
before a zero divisor. A backward under inference_mode makes the zeros of nextafter's
and copysign's second operand. An operand torch's op refuses (a dimension out of range,
a product's operand that is not a matrix) is refused before a written tensor, in place
or out=, whose elements share memory. The same assertions run on torch.
"""

import pytest
import torch

X = [[2.0, 1.0, 1.0], [0.5, 3.0, 3.0]]

REFUSING = {
    "unique": lambda x: torch.unique(x),
    "unique_sorted_with_counts": lambda x: torch.unique(x, return_counts=True)[0],
    "unique_dim": lambda x: torch.unique(x, dim=0),
    "unique_consecutive": lambda x: x.unique_consecutive(),
    "unique_consecutive_dim": lambda x: x.unique_consecutive(dim=1),
    "geqrf": lambda x: torch.geqrf(x)[0],
    "embedding_renorm": lambda x: torch.embedding_renorm_(x * 1, torch.tensor([0]), 1.0, 2.0),
    "standard_gamma_grad": lambda x: torch._standard_gamma_grad(x, x.detach()),
}


@pytest.mark.parametrize("name", sorted(REFUSING))
def test_a_refusing_node_asked_for_its_own_output_gives_its_gradient(name):
    x = torch.tensor(X, requires_grad=True)
    out = REFUSING[name](x)
    (out * 3).sum().backward(inputs=[out])
    assert torch.equal(out.grad, torch.full_like(out, 3.0))
    assert x.grad is None


@pytest.mark.parametrize("name", sorted(REFUSING))
def test_a_refusing_node_still_refuses_its_input_a_gradient(name):
    x = torch.tensor(X, requires_grad=True)
    out = REFUSING[name](x)
    with pytest.raises(NotImplementedError, match="^the derivative for '.*' is not "
                                                  "implemented.$"):
        out.sum().backward(inputs=[x, out])
    with pytest.raises(NotImplementedError, match="is not implemented"):
        torch.autograd.grad(out.sum(), [x])


def test_unique_consecutive_then_an_activation_backward_to_the_values():
    x = torch.tensor(X, requires_grad=True)
    values = x.unique_consecutive()
    torch.nn.functional.selu(values).sum().backward(inputs=[values], retain_graph=True)
    assert values.grad.shape == values.shape and x.grad is None
    assert torch.autograd.grad(values.sum(), [values])[0].tolist() == [1.0] * values.numel()



def _refused_as(shape):
    text = ", ".join(str(n) for n in shape)
    return (r"^Only zero batch or zero channel inputs are supported, but got input shape: "
            rf"\[{text}\]$")


@pytest.mark.parametrize("x_shape, w_shape, named", [
    ((1, 1, 0), (1, 2, 3), (1, 1, 1, 0)),  # 1-d runs as 2-d
    ((2, 0), (2, 1, 3), (1, 2, 1, 0)),  # unbatched: a batch of one first
    ((1, 2, 1, 0), (2, 1, 3, 3), (1, 2, 1, 0)),
])
def test_conv_transpose_of_no_positions_names_the_shape_it_runs_as(x_shape, w_shape, named):
    conv = getattr(torch.nn.functional, f"conv_transpose{len(w_shape) - 2}d")
    with pytest.raises(RuntimeError, match=_refused_as(named)):
        conv(torch.rand(x_shape), torch.rand(w_shape), stride=2)


CAST_REFUSED = "^result type Long can't be cast to the desired output type Bool$"
INTEGER_DIVISIONS = {
    "div_floor": lambda a, b, out: torch.div(a, b, rounding_mode="floor", out=out),
    "div_trunc": lambda a, b, out: torch.div(a, b, rounding_mode="trunc", out=out),
    "floor_divide": lambda a, b, out: torch.floor_divide(a, b, out=out),
    "remainder": lambda a, b, out: torch.remainder(a, b, out=out),
    "fmod": lambda a, b, out: torch.fmod(a, b, out=out),
}


@pytest.mark.parametrize("name", sorted(INTEGER_DIVISIONS))
@pytest.mark.parametrize("divisor", [torch.tensor([0, 1, 2]), 0], ids=["tensor", "number"])
def test_an_integer_division_into_a_bool_out_refuses_the_cast_before_a_zero(name, divisor):
    out = torch.ones(3, dtype=torch.bool)
    with pytest.raises(RuntimeError, match=CAST_REFUSED):
        INTEGER_DIVISIONS[name](torch.tensor([5, 6, 7]), divisor, out)
    assert out.tolist() == [True] * 3 and out._version == 0
    with pytest.raises(RuntimeError, match="^ZeroDivisionError$"):  # an out that takes Long
        INTEGER_DIVISIONS[name](torch.tensor([5, 6, 7]), divisor, torch.zeros(3, dtype=torch.int32))


@pytest.mark.parametrize("op", [torch.nextafter, torch.copysign], ids=["nextafter", "copysign"])
def test_a_backward_in_inference_mode_makes_the_second_operands_zeros(op):
    x = torch.tensor([[1.0, -2.0]], requires_grad=True)
    y = torch.tensor([[3.0], [-1.0]], requires_grad=True)
    out = op(x, y).sum()
    with torch.inference_mode():
        out.backward()
    assert y.grad.is_inference() and y.grad.tolist() == [[0.0], [0.0]]
    assert x.grad.is_inference() and x.grad.shape == (1, 2)


def _expanded(*shape):
    return torch.zeros(1, *shape[1:]).expand(*shape)


DIMENSION = r"^Dimension out of range \(expected to be in range of \[-\d, \d\], but got \d\)$"
BEFORE_THE_OVERLAP = {
    "baddbmm_": (lambda: _expanded(3, 2, 2).baddbmm_(torch.ones(2, 2), torch.ones(2, 2)),
                 IndexError, DIMENSION),
    "baddbmm_batch2": (lambda: _expanded(3, 2, 2).baddbmm_(torch.ones(3, 2, 2), torch.ones(2, 2)),
                       IndexError, DIMENSION),
    "addbmm_": (lambda: _expanded(2, 2).addbmm_(torch.ones(2, 2), torch.ones(2, 2)),
                IndexError, DIMENSION),
    "cumsum_": (lambda: _expanded(3, 2).cumsum_(5), IndexError, DIMENSION),
    "renorm_": (lambda: _expanded(3, 2).renorm_(2, 5, 1.0), IndexError, DIMENSION),
    "addmm_": (lambda: _expanded(2, 2).addmm_(torch.ones(2, 2, 2), torch.ones(2, 2)),
               RuntimeError, "^mat1 must be a matrix, got 3-D tensor$"),
    "addmv_": (lambda: _expanded(2).addmv_(torch.ones(2, 2), torch.ones(2, 2)),
               RuntimeError, "^vector \\+ matrix @ vector expected, got 1, 2, 2$"),
    "baddbmm_out": (lambda: torch.baddbmm(torch.zeros(3, 2, 2), torch.ones(2, 2), torch.ones(2, 2),
                                          out=_expanded(3, 2, 2)), IndexError, DIMENSION),
    "mm_out": (lambda: torch.mm(torch.ones(2, 2, 2), torch.ones(2, 2), out=_expanded(2, 2)),
               RuntimeError, "^self must be a matrix$"),
    "matmul_out": (lambda: torch.matmul(torch.ones(3, 2), torch.ones(3, 3), out=_expanded(3, 3)),
                   RuntimeError, r"^mat1 and mat2 shapes cannot be multiplied \(3x2 and 3x3\)$"),
    "cat_out": (lambda: torch.cat([torch.ones(3, 2)] * 2, 5, out=_expanded(3, 2)),
                IndexError, DIMENSION),
    "cumsum_out": (lambda: torch.cumsum(torch.ones(3, 2), 5, out=_expanded(3, 2)),
                   IndexError, DIMENSION),
    "gather_out": (lambda: torch.gather(torch.ones(3, 2), 5, torch.zeros(3, 2, dtype=torch.long),
                                        out=_expanded(3, 2)), IndexError, DIMENSION),
}


@pytest.mark.parametrize("name", sorted(BEFORE_THE_OVERLAP))
def test_an_operand_refused_before_a_written_tensor_that_shares_memory(name):
    call, kind, message = BEFORE_THE_OVERLAP[name]
    with pytest.raises(kind, match=message):
        call()


def test_a_write_that_shares_memory_with_good_operands_is_still_refused():
    with pytest.raises(RuntimeError, match="^unsupported operation: more than one element"):
        _expanded(3, 2).cumsum_(1)
    with pytest.raises(RuntimeError, match="^unsupported operation: more than one element"):
        torch.mm(torch.ones(3, 2), torch.ones(2, 2), out=_expanded(3, 2))
