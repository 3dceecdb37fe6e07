"""Black-box tests: behaviour the differential fuzzer found in its nineteenth round.

nextafter saves its tensors only for input's gradient, so an input made under
inference_mode may be given an other that requires grad. baddbmm_ writes a self whose
elements share memory (an expanded one) batch by batch, each element or batch reading
what the one before stored, where torch's own loop or one addmm_ a batch does so; an
empty contraction scaled by beta, or a batch whose own elements share memory, is
refused. Into its own operand, its loop reads the elements it has stored. narrow_copy
refuses a dim past the last one in its kernel's words, and an out= of another dtype
before it. A bool clamp between tensors, and baddbmm_ of bool self and batch1, refuse
in torch's order; pdist of two-byte floats refuses only where a kernel runs. The same
assertions run on torch.
"""

import pytest
import torch

OVERLAP = "^unsupported operation: more than one element of the written-to tensor"
DIM_PAST_THE_END = (r"^Expected dim < static_cast<int64_t>\(self_sizes.size\(\)\) to be true, "
                    r"but got false.  \(Could this error message be improved\?")


def _inference_zeros(*shape):
    with torch.inference_mode():
        return torch.zeros(*shape)


@pytest.mark.parametrize("shape", [(0, 3), (2, 3)])
def test_nextafter_of_an_inference_input_and_another_that_requires_grad(shape):
    other = torch.ones(shape[1:], requires_grad=True)
    out = torch.nextafter(_inference_zeros(*shape), other)
    assert out.grad_fn.name() == "NextafterBackward0"
    assert out.grad_fn._saved_self is None and out.grad_fn._saved_other is None
    out.sum().backward()
    assert other.grad.tolist() == [0.0] * shape[1] and other.grad._version == 1


def test_nextafter_saves_nothing_for_others_zeros():
    other = torch.tensor([[1.0], [2.0]], requires_grad=True)
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        out = torch.nextafter(torch.ones(2, 3), other)
    assert packed == []
    (grad,) = torch.autograd.grad(out.sum(), other)
    assert grad.shape == (2, 1) and grad._version == 1


def test_nextafter_still_refuses_an_inference_other_saved_for_inputs_gradient():
    with pytest.raises(RuntimeError, match="^Inference tensors cannot be saved for backward"):
        torch.nextafter(torch.ones(2, requires_grad=True), _inference_zeros(2))


def _shared(*shape, at=0, dtype=torch.float32):
    """Zeros of ``shape`` whose dimension ``at`` is a stretched one."""
    sizes = list(shape)
    sizes[at] = 1
    return torch.zeros(sizes, dtype=dtype).expand(*shape)


A = torch.arange(12.0).reshape(3, 2, 2)
BATCH_BY_BATCH = {  # name: (self, batch1, batch2, beta, alpha, every element's values)
    "batches_shared": (lambda: _shared(3, 2, 2), lambda: torch.ones(3, 2, 2), lambda: A, 0.5, 2,
                       [47.0, 54.0] * 6),
    "beta_zero": (lambda: _shared(3, 2, 2), lambda: torch.ones(3, 2, 2), lambda: A, 0, 1,
                  [18.0, 20.0] * 6),
    "rows_shared": (lambda: _shared(3, 2, 2, at=1), lambda: torch.ones(3, 2, 2), lambda: A,
                    0.5, 2, [6.0, 12.0] * 2 + [30.0, 36.0] * 2 + [54.0, 60.0] * 2),
    "columns_shared": (lambda: _shared(3, 2, 2, at=2), lambda: A, lambda: A, 0.5, 1,
                       [4.0, 4.0, 14.0, 14.0, 78.0, 78.0, 112.0, 112.0, 248.0, 248.0, 306.0,
                        306.0]),
    "large_batches": (lambda: _shared(3, 8, 8), lambda: torch.ones(3, 8, 8),
                      lambda: torch.full((3, 8, 8), 2.0), 0.5, 1, [28.0] * 192),
    "integers": (lambda: _shared(3, 2, 2, dtype=torch.long),
                 lambda: torch.ones(3, 2, 2, dtype=torch.long),
                 lambda: torch.ones(3, 2, 2, dtype=torch.long), 1, 1, [6] * 12),
    "empty_contraction_beta_zero": (lambda: _shared(3, 2, 2), lambda: torch.ones(3, 2, 0),
                                    lambda: torch.ones(3, 0, 2), 0, 1, [0.0] * 12),
}


@pytest.mark.parametrize("name", sorted(BATCH_BY_BATCH))
def test_baddbmm_into_a_self_that_shares_memory_writes_batch_by_batch(name):
    self, batch1, batch2, beta, alpha, values = BATCH_BY_BATCH[name]
    written = self()
    assert written.baddbmm_(batch1(), batch2(), beta=beta, alpha=alpha) is written
    assert written.flatten().tolist() == values and written._version == 1


@pytest.mark.parametrize("beta", [1, 2])
def test_baddbmm_into_a_shared_self_refuses_scaling_it_for_an_empty_contraction(beta):
    written = _shared(3, 2, 2)
    with pytest.raises(RuntimeError, match=OVERLAP):
        written.baddbmm_(torch.ones(3, 2, 0), torch.ones(3, 0, 2), beta=beta)
    assert written._version == 0


def test_baddbmm_into_large_batches_whose_own_elements_share_memory_is_refused():
    written = _shared(3, 8, 8, at=1)
    with pytest.raises(RuntimeError, match=OVERLAP):
        written.baddbmm_(torch.ones(3, 8, 8), torch.ones(3, 8, 8))
    with pytest.raises(RuntimeError, match=r"^Expected size for first two dimensions of batch2"):
        written.baddbmm_(torch.ones(3, 8, 8), torch.ones(3, 7, 8))


def test_baddbmm_into_a_shared_view_records_its_write():
    base = torch.zeros(1, 2, 2)
    batch1 = torch.ones(3, 2, 2, requires_grad=True)
    written = base.expand(3, 2, 2).baddbmm_(batch1, A)
    assert written.grad_fn.name() == "AsStridedBackward0"
    assert base.flatten().tolist() == [30.0, 36.0] * 2 and base._version == 1
    written.sum().backward()
    # each batch's gradient reaches the memory all three share
    assert batch1.grad.flatten().tolist() == [3.0, 15.0] * 2 + [27.0, 39.0] * 2 + [51.0, 63.0] * 2


def test_baddbmm_into_a_shared_self_whose_operands_are_itself():
    written = _shared(3, 2, 2)
    written.baddbmm_(written, written)
    assert written.flatten().tolist() == [0.0] * 12


def _strided():
    return torch.arange(1.0, 9.0).reshape(2, 4)[:, ::2] / 10


READ_AS_WRITTEN = {  # name: (the call, self's values after it, rounded)
    "both_operands": (lambda v: v.unsqueeze(0).baddbmm_(v[None], v[None]),
                      [0.26, 0.588, 0.98, 1.7662]),
    "beta_zero": (lambda v: v.unsqueeze(0).baddbmm_(v[None], v[None], beta=0),
                  [0.16, 0.258, 0.43, 0.6009]),
    "beta_and_alpha": (lambda v: v.unsqueeze(0).baddbmm_(v[None], v[None], beta=0.5, alpha=3),
                       [0.53, 1.257, 2.095, 9.7202]),
    "batch2_only": (lambda v: v.unsqueeze(0).baddbmm_(_strided()[None] + 1, v[None]),
                    [0.86, 1.54, 2.64, 4.2]),
    "batch1_transposed": (lambda v: v.unsqueeze(0).baddbmm_(v.t()[None], v[None]),
                          [0.36, 0.758, 1.1229, 1.7646]),
}


@pytest.mark.parametrize("name", sorted(READ_AS_WRITTEN))
def test_baddbmm_into_its_own_operand_reads_the_elements_it_has_stored(name):
    call, values = READ_AS_WRITTEN[name]
    v = _strided()
    call(v)
    assert [round(x, 4) for x in v.flatten().tolist()] == values and v._version == 1


def test_narrow_copy_refuses_a_dim_past_the_last_in_its_kernels_words():
    x = torch.ones(3, 2)
    for call in (lambda: x.narrow_copy(2, 0, 1), lambda: torch.narrow_copy(x, 5, 0, 1),
                 lambda: torch.narrow_copy(x, 2, 0, 1, out=torch.zeros(1))):
        with pytest.raises(RuntimeError, match=DIM_PAST_THE_END):
            call()
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range "
                                         r"of \[-2, 1\], but got -3\)$"):
        torch.narrow_copy(x, -3, 0, 1, out=torch.zeros(1))


def test_narrow_copy_refuses_an_out_of_another_dtype_before_the_dim():
    out = torch.zeros(1, dtype=torch.long)
    with pytest.raises(RuntimeError, match=r"^Expected self.dtype\(\) == output.dtype\(\)"):
        torch.narrow_copy(torch.ones(3, 2), 2, 0, 1, out=out)
    with pytest.raises(RuntimeError, match="^narrow\\(\\) cannot be applied to a 0-dim tensor.$"):
        torch.narrow_copy(torch.ones(()), 0, 0, 1, out=out)


BROADCAST = "^The size of tensor a \\(2\\) must match the size of tensor b \\(3\\) at non-singleton"
BOOL_CLAMPS = {
    "clamp": lambda x, b: torch.clamp(x, b, b),
    "clip": lambda x, b: torch.clip(x, b, b),
    "clamp_": lambda x, b: x.clamp_(b, b),
    "clamp_out": lambda x, b: torch.clamp(x, b, b, out=torch.zeros(3, 2, dtype=torch.bool)),
}


@pytest.mark.parametrize("name", sorted(BOOL_CLAMPS))
def test_a_bool_clamp_between_tensors_refuses_shapes_before_the_missing_kernel(name):
    with pytest.raises(RuntimeError, match=BROADCAST):
        BOOL_CLAMPS[name](torch.ones(3, 2, dtype=torch.bool), torch.ones(2, 3, dtype=torch.bool))
    with pytest.raises(NotImplementedError, match="^\"clamp_cpu\" not implemented for 'Bool'$"):
        torch.clamp(torch.ones(3, 2, dtype=torch.bool), *[torch.ones(3, 2, dtype=torch.bool)] * 2)


def test_baddbmm_of_a_bool_self_and_batch1_names_batch2s_dtype():
    with pytest.raises(RuntimeError, match="^Bad in-place call: input tensor dtype bool and "
                                           "output tensor dtype float should match$"):
        torch.zeros(1, 2, 2, dtype=torch.bool).baddbmm_(
            torch.zeros(1, 2, 2, dtype=torch.bool), torch.ones(1, 2, 2))
    with pytest.raises(NotImplementedError, match="^\"baddbmm\" not implemented for 'Bool'$"):
        torch.zeros(1, 2, 2, dtype=torch.bool).baddbmm_(
            torch.zeros(1, 2, 2, dtype=torch.bool), torch.zeros(1, 2, 2, dtype=torch.bool))


@pytest.mark.parametrize("dtype, name", [(torch.float16, "Half"), (torch.bfloat16, "BFloat16")])
@pytest.mark.parametrize("shape, values", [((0, 3), []), ((1, 3), []), ((1, 0), []),
                                           ((2, 0), [0.0])])
def test_pdist_of_two_byte_floats_runs_no_kernel_with_nothing_to_measure(dtype, name, shape,
                                                                         values):
    x = torch.ones(shape, dtype=dtype, requires_grad=True)
    out = torch.nn.functional.pdist(x)
    assert out.dtype == dtype and out.tolist() == values
    with pytest.raises(NotImplementedError, match=f"^\"pdist_backward\" not implemented for "
                                                  f"'{name}'$"):
        out.sum().backward()
    with pytest.raises(NotImplementedError, match=f"^\"pdist\" not implemented for '{name}'$"):
        torch.nn.functional.pdist(torch.ones(2, 3, dtype=dtype))
