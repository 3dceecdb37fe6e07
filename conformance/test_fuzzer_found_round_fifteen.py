"""Black-box tests: behaviour the differential fuzzer found in its fifteenth round.

Two tensors over the same bytes are the same memory to the overlap test when all
their strides agree, whatever their shapes; embedding_bag's kernel checks come
after its node's saves, so an inference tensor is refused first, and they name
bool per-sample weights CPUBoolType; an in-place write reads an input of its own
dtype after writing it even where another input has another dtype; index_fill_
and index_copy_ view the written tensor's own storage, and out of place a new,
empty one. The same assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F

SHARED = "unsupported operation: some elements of the input tensor and the written-to tensor"
INFERENCE = "Inference tensors cannot be saved for backward"


def test_a_transpose_with_the_same_strides_is_refused_for_its_shape():
    v = torch.rand(2, 1).t()
    assert v.stride() == v.t().stride() == (1, 1)
    with pytest.raises(RuntimeError, match=r"output with shape \[1, 2\] doesn't match the "
                                           r"broadcast shape \[2, 2\]"):
        v.copy_(v.t())
    assert v._version == 0


def test_strides_of_a_dimension_of_one_element_still_count():
    x = torch.rand(1, 2)
    with pytest.raises(RuntimeError, match=SHARED):
        x.copy_(x.view(2, 1))  # strides (2, 1) and (1, 1): a partial overlap
    with pytest.raises(RuntimeError, match=SHARED):
        x.add_(x.as_strided((1, 2), (5, 1)))
    x.add_(x.as_strided((1, 2), (2, 1)))  # the very strides: the same memory
    assert x._version == 1


def _bags(weight, per_sample_weights, offsets=None, indices=None):
    return F.embedding_bag(torch.tensor([0, 1]) if indices is None else indices, weight,
                           torch.tensor([0]) if offsets is None else offsets,
                           per_sample_weights=per_sample_weights, mode="sum")


@pytest.mark.parametrize("case", ["dtype", "weight_dtype_kept", "indices", "offsets", "range"])
def test_embedding_bag_refuses_a_kept_inference_tensor_before_its_kernel_checks(case):
    with torch.inference_mode():
        table, table64 = torch.rand(2, 3), torch.rand(2, 3, dtype=torch.float64)
    w32 = torch.rand(2, requires_grad=True)
    w64 = torch.rand(2, dtype=torch.float64, requires_grad=True)
    call = {
        "dtype": lambda: _bags(table, w64),
        "weight_dtype_kept": lambda: _bags(torch.rand(2, 3, requires_grad=True),
                                           table64.reshape(-1)[:2]),
        "indices": lambda: _bags(table, w64, indices=torch.tensor([0.0, 1.0])),
        "offsets": lambda: _bags(table, w32, offsets=torch.tensor([1])),
        "range": lambda: _bags(table, w32, indices=torch.tensor([0, 5])),
    }[case]
    with pytest.raises(RuntimeError, match=INFERENCE):
        call()


def test_embedding_bag_checks_its_kernel_where_nothing_is_kept():
    with torch.inference_mode():
        table = torch.rand(2, 3)
    with pytest.raises(RuntimeError, match="to have the same type as tensor for argument #1 "
                                           "'per_sample_weights'"):
        _bags(table, torch.rand(2, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="padding_idx must be within the number of "
                                           "embeddings"):  # checked before the node
        F.embedding_bag(torch.tensor([0, 1]), table, torch.tensor([0]), mode="sum",
                        per_sample_weights=torch.rand(2, requires_grad=True), padding_idx=5)


def test_embedding_bag_names_bool_per_sample_weights_as_cpp_does():
    with pytest.raises(RuntimeError, match="but type torch.DoubleTensor does not equal "
                                           "CPUBoolType \\(while checking"):
        _bags(torch.rand(2, 3, dtype=torch.float64), torch.ones(2, dtype=torch.bool))


def _column(dtype):
    x = torch.arange(1.0, 7.0, dtype=dtype).reshape(3, 2)
    return x, x[:, :1]


def test_an_input_of_the_written_dtype_is_read_after_the_write_beside_another_dtype():
    x, v = _column(torch.float64)
    v.t()[0].addcmul_(v[0], torch.ones(3, dtype=torch.float32))
    assert x[:, 0].tolist() == [2.0, 5.0, 7.0]  # the first element, read once written
    x, v = _column(torch.float32)
    v.t()[0].addcmul_(v[0], torch.tensor(2.0, dtype=torch.float64))  # 0-d: float32 stays
    assert x[:, 0].tolist() == [3.0, 9.0, 11.0]
    x, v = _column(torch.float16)
    v.t()[0].addcmul_(v[0], torch.tensor(3.0))
    assert x[:, 0].tolist() == [4.0, 15.0, 17.0]


def test_a_wider_common_dtype_reads_every_input_first():
    x, v = _column(torch.float32)
    v.t()[0].addcmul_(v[0], torch.ones(3, dtype=torch.float64))
    assert x[:, 0].tolist() == [2.0, 4.0, 6.0]
    x, v = _column(torch.float16)
    v.t()[0].addcmul_(v[0], torch.ones(3))
    assert x[:, 0].tolist() == [2.0, 4.0, 6.0]


def test_addr_reads_its_column_after_writing_it_beside_a_row_of_another_dtype():
    m = torch.tensor([[0.5, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=torch.float64)
    m.addr_(m[:, 0], torch.tensor([1.0, 2.0, 0.5]))
    assert m.tolist() == [[1.0, 4.0, 3.5], [8.0, 21.0, 10.0]]


INDEXED = {
    "fill": lambda t, i: t.index_fill_(0, i, 1.0),
    "fill_tensor": lambda t, i: t.index_fill_(0, i, torch.tensor(1.0)),
    "copy": lambda t, i: t.index_copy_(0, i, torch.ones(1, *t.shape[1:])),
}


@pytest.mark.parametrize("name", sorted(INDEXED))
def test_an_empty_view_of_a_longer_storage_reads_the_index_in_place(name):
    prefix = "index_copy_\\(\\): " if name == "copy" else ""
    for t in (torch.zeros(8)[:0], torch.zeros(4, 6)[:, ::2][:0]):
        with pytest.raises(IndexError, match=f"^{prefix}index 0 is out of bounds for "
                                             "dimension 0 with size 0$"):
            INDEXED[name](t, torch.tensor([0]))


def test_an_empty_view_along_another_dimension_reads_the_index():
    with pytest.raises(IndexError, match="index 0 is out of bounds for dimension 1 with size 0"):
        torch.zeros(4, 6)[:, :0].index_fill_(1, torch.tensor([0]), 1.0)
    t = torch.zeros(4, 6)[:, ::2][:0]  # the kernel's view has no elements: no index is read
    assert t.index_fill_(1, torch.tensor([9]), 1.0).shape == (0, 3)


def test_out_of_place_the_view_is_of_a_new_empty_storage():
    t = torch.zeros(4, 6)[:, ::2][:0]
    with pytest.raises(RuntimeError, match=r"setStorage: sizes \[1, 3\], strides \[0, 2\], "
                                           r"storage offset 0, .* for storage of size 0$"):
        t.index_fill(0, torch.tensor([0]), 1.0)
    with pytest.raises(RuntimeError, match=r"setStorage: sizes \[1, 3\], strides \[0, 1\], "
                                           r"storage offset 0, .* for storage of size 0$"):
        t.index_copy(0, torch.tensor([0]), torch.ones(1, 3))
    with pytest.raises(RuntimeError, match=r"sizes \[1\], strides \[0\], storage offset 0,"):
        torch.zeros(8)[3:3].index_fill(0, torch.tensor([0]), 1.0)
