"""out= into an operand of addmm, baddbmm and addbmm: input is copied into out first,
then the product is taken with the operands as that copy left them; baddbmm's small
kernel stores each element as soon as it is summed. Where torch's matrix library writes
the output while still reading it (``mkl_reads_before_it_writes``), what it leaves is that
library's own: only its clearing of the output for a ``beta`` of zero is asserted there."""

import pytest
import torch

from conformance._support import mkl_reads_before_it_writes


def _values(*shape, scale=0.37, shift=-0.9):
    count = 1
    for n in shape:
        count *= n
    flat = [((i * 7919) % 23) * scale / 7 + shift for i in range(count)]
    return torch.tensor(flat, dtype=torch.float64).reshape(shape)


def _small_loop(input, b1, b2, which, beta, alpha):
    """baddbmm's small kernel on Python lists: input copied into the operand ``which``."""
    s, x, y = input.tolist(), b1.tolist(), b2.tolist()
    out = x if which == "b1" else y
    if beta != 0:
        for n, plane in enumerate(s):
            for i, row in enumerate(plane):
                out[n][i][:] = row
    for n, plane in enumerate(out):
        for i, row in enumerate(plane):
            for j in range(len(row)):
                total = 0.0
                for k in range(len(x[n][i])):
                    total += x[n][i][k] * y[n][k][j]
                row[j] = row[j] * beta + alpha * total if beta != 0 else alpha * total
    return out


def _written_as_read(result, out, expected, cleared):
    """``result`` is ``out``, holding ``expected`` where the library reads its operands
    first, and zeros where it clears the output before one product (``cleared``: a
    ``beta`` of zero)."""
    assert result is out
    if mkl_reads_before_it_writes():
        assert result.tolist() == expected.tolist()
    elif cleared:
        assert not result.any()


@pytest.mark.parametrize("which", ["b1", "b2"])
@pytest.mark.parametrize("beta, alpha", [(1, 1), (0.5, 2), (0, 1)])
@pytest.mark.parametrize("size", [2, 5])
def test_small_baddbmm_reads_what_it_wrote(which, beta, alpha, size):
    input = _values(2, size, size, shift=0.4)
    b1, b2 = _values(2, size, size), _values(2, size, size, scale=0.21)
    expected = _small_loop(input, b1, b2, which, beta, alpha)
    out = b1 if which == "b1" else b2
    result = torch.baddbmm(input, b1, b2, beta=beta, alpha=alpha, out=out)
    assert result is out
    assert result.tolist() == expected
    assert out._version == 1


@pytest.mark.parametrize("which", [1, 2])
@pytest.mark.parametrize("beta, alpha", [(1, 1), (0.5, 2), (0, 1)])
def test_larger_baddbmm_takes_the_product_after_the_copy(which, beta, alpha):
    input = _values(2, 8, 8, shift=0.4)
    b1, b2 = _values(2, 8, 8), _values(2, 8, 8, scale=0.21)
    after = [input if beta != 0 else b1, b2] if which == 1 else [b1, input if beta else b2]
    expected = torch.baddbmm(input, *after, beta=beta, alpha=alpha)
    out = (b1, b2)[which - 1]
    _written_as_read(torch.baddbmm(input, b1, b2, beta=beta, alpha=alpha, out=out), out,
                     expected, cleared=beta == 0)


@pytest.mark.parametrize("which", [1, 2])
@pytest.mark.parametrize("beta, alpha", [(1, 1), (0.5, 2), (0, 1)])
@pytest.mark.parametrize("size", [2, 3, 8])
def test_addmm_takes_the_product_after_the_copy(which, beta, alpha, size):
    input = _values(size, size, shift=0.4)
    m1, m2 = _values(size, size), _values(size, size, scale=0.21)
    after = [input if beta != 0 else m1, m2] if which == 1 else [m1, input if beta else m2]
    expected = torch.addmm(input, *after, beta=beta, alpha=alpha)
    out = (m1, m2)[which - 1]
    _written_as_read(torch.addmm(input, m1, m2, beta=beta, alpha=alpha, out=out), out,
                     expected, cleared=beta == 0)


@pytest.mark.parametrize("which", [1, 2])
@pytest.mark.parametrize("beta, alpha", [(1, 1), (0.5, 2), (0, 1)])
def test_addbmm_adds_each_batch_into_what_the_last_wrote(which, beta, alpha):
    input = _values(3, 3, shift=0.4)
    m1, m2 = _values(3, 3, 3), _values(3, 3, 3, scale=0.21)
    x, y = m1.clone(), m2.clone()
    written = (x, y)[which - 1][1]
    if beta != 0:
        written.copy_(input)
    for n in range(3):
        written.copy_(torch.addmm(written.clone(), x[n].clone(), y[n].clone(),
                                  beta=beta if n == 0 else 1, alpha=alpha))
    out = (m1, m2)[which - 1][1]
    _written_as_read(torch.addbmm(input, m1, m2, beta=beta, alpha=alpha, out=out), out,
                     written, cleared=False)  # later batches add to the first


def test_an_out_that_shares_nothing_is_written_as_before():
    input, m1, m2 = _values(2, 3, 3, shift=0.4), _values(2, 3, 3), _values(2, 3, 3, scale=0.21)
    out = torch.empty(2, 3, 3, dtype=torch.float64)
    torch.baddbmm(input, m1, m2, beta=0.5, alpha=2, out=out)
    assert out.tolist() == torch.baddbmm(input, m1, m2, beta=0.5, alpha=2).tolist()


@pytest.mark.parametrize("upper, left, unit", [(u, s, t) for u in (True, False)
                                               for s in (True, False) for t in (True, False)])
@pytest.mark.parametrize("layout", ["rows", "columns"])
def test_solve_triangular_into_its_factor_reads_b_there(upper, left, unit, layout):
    # B is copied into out, which is A: the solver's factor is B's transpose where out
    # is row-major (the transposed equation), B where it is column-major
    B = _values(4, 4, shift=-0.4) + 3 * torch.eye(4, dtype=torch.float64)
    A = _values(4, 4, scale=0.5) + 3 * torch.eye(4, dtype=torch.float64)
    out = A if layout == "rows" else A.t().contiguous().t()
    factor = B.mT if layout == "rows" else B
    expected = torch.linalg.solve_triangular(factor, B, upper=upper, left=left,
                                             unitriangular=unit)
    plain = torch.linalg.solve_triangular(A, B, upper=upper, left=left, unitriangular=unit)
    result = torch.linalg.solve_triangular(out, B, upper=upper, left=left,
                                           unitriangular=unit, out=out)
    assert result is out
    if mkl_reads_before_it_writes():
        assert torch.allclose(result, expected, rtol=1e-12, atol=1e-14)
    assert not torch.allclose(result, plain)


def test_solve_triangular_into_b_or_a_strided_a_solves_as_given():
    B = _values(3, 3, shift=-0.4) + 3 * torch.eye(3, dtype=torch.float64)
    A = _values(3, 3, scale=0.5) + 3 * torch.eye(3, dtype=torch.float64)
    expected = torch.linalg.solve_triangular(A, B, upper=True)
    into_b = B.clone()
    torch.linalg.solve_triangular(A, into_b, upper=True, out=into_b)
    assert torch.allclose(into_b, expected, rtol=1e-12, atol=1e-14)
    wide = torch.zeros(3, 6, dtype=torch.float64)
    strided = wide[:, ::2]  # neither row- nor column-major: solved through a buffer
    strided.copy_(A)
    torch.linalg.solve_triangular(strided, B, upper=True, out=strided)
    assert torch.allclose(strided, expected, rtol=1e-12, atol=1e-14)
