"""Black-box tests of corners the differential fuzzer found: a 0-d input's gradient
through index_select, prelu of a 0-d input, and more. The same assertions run on torch.
"""

import torch

from conformance._support import raises


def test_index_select_of_a_0d_input_adds_its_gradient_with_index_add():
    x = torch.tensor(0.7, requires_grad=True)
    x.index_select(0, torch.tensor([0])).sum().backward()
    assert x.grad.tolist() == 1.0 and x.grad._version == 1
    y = x.index_select(0, torch.tensor([0]))
    (g,) = torch.autograd.grad(y, x, torch.tensor(3.0, requires_grad=True), create_graph=True)
    assert type(g.grad_fn).__name__ == "IndexAddBackward0" and g._version == 1
    assert [type(n).__name__ if n else None for n, _ in g.grad_fn.next_functions] == [
        None, "AccumulateGrad"]


def test_prelu_reshapes_its_weight_to_the_inputs_dimensions():
    x = torch.tensor(-0.7, requires_grad=True)
    w = torch.tensor([0.25], requires_grad=True)
    y = torch.nn.functional.prelu(x, w)
    assert y.shape == () and abs(y.item() + 0.175) < 1e-6
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == [
        "AccumulateGrad", "ViewBackward0"]
    gx, gw = torch.autograd.grad(y, (x, w))
    assert gx.shape == () and gw.shape == (1,)
    x = torch.tensor([-0.7, 2.0])
    w = torch.tensor(0.25, requires_grad=True)
    y = torch.nn.functional.prelu(x, w)
    assert type(y.grad_fn.next_functions[1][0]).__name__ == "ViewBackward0"
    y.sum().backward()
    assert w.grad.shape == () and abs(w.grad.item() + 0.7) < 1e-6


def test_in_place_view_ops_keep_an_empty_tensors_strides():
    x = torch.zeros(0, 3)
    x.t_()
    assert x.shape == (3, 0) and x.stride() == (1, 3)
    x = torch.zeros(0, 3)
    x.transpose_(0, 1)
    assert x.stride() == (1, 3)
    x = torch.zeros(0, 3)
    x.unsqueeze_(0)
    assert x.stride() == (0, 3, 1)
    x = torch.zeros(0, 1, 3)
    x.squeeze_(1)
    assert x.stride() == (3, 1)


def test_a_1d_convolution_is_laid_out_as_its_weight():
    F = torch.nn.functional
    w = torch.rand(2, 1, 3).transpose(1, 2).requires_grad_()  # channels-last as 2-d
    x = torch.rand(2, 3, 4).requires_grad_()
    y = F.conv1d(x, w)
    assert y.stride() == (8, 1, 2)
    gx, gw = torch.autograd.grad(y, (x, w), torch.ones_like(y))
    assert gx.stride() == (12, 1, 3) and gw.stride() == (3, 1, 3)
    assert F.conv1d(x[0], w).stride() == (1, 2)
    # the input's own layout plays no part
    permuted = x.transpose(1, 2).contiguous().transpose(1, 2)
    assert F.conv1d(permuted, torch.rand(2, 3, 1)).stride() == (8, 4, 1)
    v = torch.rand(2, 3, dtype=torch.float64).t().unsqueeze(0)
    assert F.conv1d(v, v[..., :1], padding=1).stride() == (4, 1, 1)


def test_indices_into_a_dimension_of_size_0_are_refused_in_torchs_words():
    words = "index is out of bounds for dimension with size 0"
    with raises(IndexError, words):
        torch.zeros(0, 3)[[0, -1]]
    with raises(IndexError, words):
        torch.zeros(2, 0)[:, [1]]
    with raises(IndexError, words):
        torch.zeros(3, 0)[[5], [0]]  # before the 5 is checked
    with raises(IndexError, words):
        torch.zeros(0, 3).index_put_((torch.tensor([0]),), torch.tensor([1.0, 2.0]))
    assert torch.zeros(0, 3)[torch.tensor([], dtype=torch.long)].shape == (0, 3)


def test_indices_that_pick_nothing_are_not_checked():
    assert torch.zeros(3, 0)[[5]].shape == (1, 0)
    assert torch.zeros(2, 3, 0)[[5], [0]].shape == (1, 0)
    x = torch.zeros(3, 0)
    x.index_put_((torch.tensor([5]),), torch.tensor(1.0), accumulate=True)
    x[[7]] = 2.0
    assert x.shape == (3, 0) and x._version == 2
    leaf = torch.zeros(3, 0, requires_grad=True)
    leaf[[5]].sum().backward()
    assert leaf.grad.shape == (3, 0)
    with raises(IndexError, "index 5 is out of bounds for dimension 0 with size 3"):
        torch.zeros(3, 2)[[5]]


def test_index_put_checks_the_count_and_the_shapes_before_the_dtype():
    with raises(IndexError, "too many indices for tensor of dimension 0 (got 1)"):
        torch.tensor(0.7).index_put((torch.tensor([0]),), torch.tensor(2.0))
    with raises(IndexError, "too many indices for tensor of dimension 1 (got 2)"):
        torch.zeros(3).index_put_((torch.tensor([0]), torch.tensor([0])), torch.tensor([1]))
    with raises(RuntimeError, "shape mismatch: value tensor of shape [2] cannot be broadcast "
                              "to indexing result of shape [1]"):
        torch.zeros(3).index_put_((torch.tensor([0]),), torch.tensor([1, 2]))
    with raises(RuntimeError, "Index put requires the source and destination dtypes match, "
                              "got Float for the destination and Long for the source."):
        torch.zeros(3).index_put_((torch.tensor([0]),), torch.tensor([1]))


def test_reflection_and_replication_pads_refuse_bool():
    F = torch.nn.functional
    flags = torch.tensor([[True, False, True]])
    for mode, kernel in (("reflect", "reflection_pad1d"), ("replicate", "replication_pad1d")):
        with raises(NotImplementedError, f"\"{kernel}\" not implemented for 'Bool'"):
            F.pad(flags, (1, 1), mode=mode)
    with raises(NotImplementedError, "\"replication_pad2d\" not implemented for 'Bool'"):
        F.pad(torch.zeros(0, 1, 2, 2, dtype=torch.bool), (1, 1, 1, 1), mode="replicate")
    assert F.pad(flags, (1, 1), mode="circular").tolist() == [[True, True, False, True, True]]
    assert F.pad(flags, (1, 1)).tolist() == [[False, True, False, True, False]]


def test_batch_norm_checks_the_channels_before_the_dtype():
    F = torch.nn.functional
    with raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but "
                            "got 1)"):
        F.batch_norm(torch.tensor([True, False, True]), None, None, training=True)
    with raises(NotImplementedError, "\"batch_norm\" not implemented for 'Long'"):
        F.batch_norm(torch.tensor([[1, 2, 3], [4, 5, 6]]), None, None, training=True)
    words = ("mean(): could not infer output dtype. Input dtype must be either a floating point "
             "or complex dtype. Got: Long")
    with raises(RuntimeError, words):  # neither row-major nor channels-last, in training
        F.batch_norm(torch.arange(3).expand(2, 3), None, None, training=True)
    with raises(NotImplementedError, "\"batch_norm\" not implemented for 'Long'"):
        F.batch_norm(torch.arange(3).expand(2, 3), torch.zeros(3), torch.ones(3), training=False)


def test_soft_margin_loss_negates_first_and_checks_the_target_with_grad_mode_on():
    F = torch.nn.functional
    with raises(RuntimeError, "Negation, the `-` operator, on a bool tensor is not supported. "
                              "If you are trying to invert a mask, use the `~` or "
                              "`logical_not()` operator instead."):
        F.soft_margin_loss(torch.tensor([True]), torch.rand(2, 3))
    target = torch.rand(3, requires_grad=True)
    with torch.no_grad():
        assert not F.soft_margin_loss(torch.rand(3), target).requires_grad
    with raises(RuntimeError, "The function 'soft_margin_loss' is not differentiable with "
                              "respect to argument 'target'. This input cannot have "
                              "requires_grad True."):
        F.soft_margin_loss(torch.rand(3), target)


def test_products_check_dtypes_and_the_inputs_expansion_in_torchs_order():
    with raises(RuntimeError, "dot : expected both vectors to have same dtype, but found Long "
                              "and Float"):
        torch.vdot(torch.tensor([1, 2]), torch.rand(6))
    with raises(RuntimeError, "self and mat2 must have the same dtype, but got Double and "
                              "Float"):
        torch.addmm(torch.tensor(2.0, dtype=torch.float64), torch.tensor(2.0), torch.rand(0, 3))
    with raises(RuntimeError, "expand(CPUBoolType{[2, 2, 2]}, size=[2, 2]): the number of sizes "
                              "provided (2) must be greater or equal to the number of "
                              "dimensions in the tensor (3)"):
        flags = torch.zeros(2, 2, dtype=torch.bool)
        torch.addmm(torch.zeros(2, 2, 2, dtype=torch.bool), flags, flags)
    with raises(RuntimeError, "The expanded size of the tensor (1) must match the existing size "
                              "(2) at non-singleton dimension 1.  Target sizes: [1, 1, 3].  "
                              "Tensor sizes: [1, 2, 3]"):
        torch.baddbmm(torch.rand(1, 2, 3), torch.rand(1, 1, 1, 1, 2), torch.rand(1, 3, 3))
    with raises(RuntimeError, "Input dtypes must be the same, got: input double, batch1: float, "
                              "batch2: float"):
        torch.baddbmm(torch.rand(1, 2, 3).double(), torch.rand(2, 2), torch.rand(1, 2, 3))
    with raises(IndexError, "Dimension specified as 0 but tensor has no dimensions"):
        torch.baddbmm(torch.rand(1, 2, 3), torch.tensor(1.0), torch.rand(2, 2, 2))


def test_index_put_refuses_a_leaf_before_its_own_checks():
    leaf = "a leaf Variable that requires grad is being used in an in-place operation."
    with raises(RuntimeError, leaf):
        torch.tensor(0.5, requires_grad=True).index_put_((torch.tensor([0]),), torch.tensor(1.0))
    with raises(RuntimeError, leaf):
        torch.rand(3, requires_grad=True).index_put_((torch.tensor([0]),), torch.tensor(1))


def test_a_quarter_turn_of_an_empty_tensor_has_torchs_strides():
    x = torch.zeros(0, 3, requires_grad=True)
    assert x.rot90().stride() == (1, 3) and x.rot90(3).stride() == (1, 3)
    assert torch.zeros(2, 0, 3).rot90(1, (0, 2)).stride() == (1, 3, 3)


def test_max_pool1d_of_an_unbatched_input_starts_at_version_1_without_grad():
    F = torch.nn.functional
    a = torch.rand(1, 3)
    assert F.max_pool1d(a, 2)._version == 1 and F.max_pool1d(a.unsqueeze(0), 2)._version == 0
    b = torch.rand(1, 3, requires_grad=True)
    assert F.max_pool1d(b, 2)._version == 0
    with torch.no_grad():
        assert F.max_pool1d(b, 2)._version == 1
    assert F.max_pool1d(a, 2, return_indices=True)[0]._version == 0


def test_pdist_makes_its_input_contiguous_in_the_graph():
    x = torch.rand(4, 3).t().requires_grad_()
    y = torch.nn.functional.pdist(x)
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["CloneBackward0"]
    assert y.grad_fn._saved_self.stride() == (4, 1)
    x = torch.rand(3, 4, requires_grad=True)
    assert type(torch.pdist(x).grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"


def test_layer_norm_refuses_an_empty_normalized_shape_and_mv_a_0d_matrix():
    words = ("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
             "one element, but got normalized_shape = []")
    with raises(RuntimeError, words):
        torch.nn.functional.layer_norm(torch.tensor(0.7), ())
    with raises(RuntimeError, words):
        torch.nn.functional.layer_norm(torch.rand(3), (), weight=torch.rand(2))
    with raises(IndexError, "Dimension specified as 0 but tensor has no dimensions"):
        torch.tensor(2.0).mv(torch.tensor([2.0]))
    with raises(RuntimeError, "vector + matrix @ vector expected, got 1, 1, 1"):
        torch.mv(torch.rand(3), torch.rand(3))


def test_a_0d_input_of_a_selecting_reduction_gets_its_gradient_scattered():
    for pick in (lambda x: x.max(0)[0], lambda x: x.mode(-1)[0], lambda x: x.kthvalue(1)[0],
                 lambda x: x.median(0)[0], lambda x: x.min(0, keepdim=True)[0]):
        x = torch.tensor(0.7, requires_grad=True)
        pick(x).sum().backward()
        assert x.grad.tolist() == 1.0 and x.grad._version == 2
    x = torch.tensor(0.7, requires_grad=True)
    (g,) = torch.autograd.grad(x.max(0)[0], x, torch.tensor(1.0, requires_grad=True),
                               create_graph=True)
    assert type(g.grad_fn).__name__ == "ScatterBackward0" and g._version == 2


def test_a_power_0_or_1_of_an_inference_tensor_is_written_once():
    with torch.inference_mode():
        a = torch.rand(2, 3)
    assert a.pow(0)._version == 1 and (a ** 1)._version == 1 and a.pow(2)._version == 0
    assert torch.arange(3).pow(1)._version == 0  # a normal tensor's result counts nothing


def test_writes_refuse_a_leaf_before_the_kernels_dtype_checks():
    leaf = "a leaf Variable that requires grad is being used in an in-place operation."
    x = torch.rand(2, 3, dtype=torch.float64, requires_grad=True)
    with raises(RuntimeError, leaf):
        x[[0]] = torch.rand(3)
    with raises(RuntimeError, leaf):
        x[x > 0] = torch.rand(())
    with raises(RuntimeError, leaf):
        x.put_(torch.tensor([0]), torch.tensor([9.0]), accumulate=True)
    y = torch.rand(3, dtype=torch.float64)
    with raises(RuntimeError, "put_(): self and source expected to have the same dtype, but got "
                              "self.dtype = Double and source.dtype = Float"):
        y.put_(torch.tensor([0]), torch.tensor([9.0]))


def test_dist_refuses_bools_before_comparing_shapes():
    with raises(RuntimeError, "Subtraction, the `-` operator, with a bool tensor is not "
                              "supported. If you are trying to invert a mask, use the `~` or "
                              "`logical_not()` operator instead."):
        torch.dist(torch.tensor([True, False, True]), torch.rand(2))
    with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at "
                              "non-singleton dimension 0"):
        torch.dist(torch.arange(3), torch.rand(2))


def test_trace_refuses_bool_before_reading_the_shape():
    for flags in (torch.tensor([True, False]), torch.tensor([[True, False]])):
        with raises(NotImplementedError, "\"trace\" not implemented for 'Bool'"):
            flags.trace()
    with raises(RuntimeError, "trace: expected a matrix, but got tensor with dim 1"):
        torch.arange(3).trace()


def test_embedding_reads_a_weight_that_requires_grad_before_its_checks():
    F = torch.nn.functional
    with raises(IndexError, "Dimension specified as 0 but tensor has no dimensions"):
        F.embedding(torch.tensor([0, 1]), torch.tensor(0.5, requires_grad=True))
    with raises(RuntimeError, "'weight' must be 2-D"):
        F.embedding(torch.tensor([0, 1]), torch.tensor(0.5))
    with torch.no_grad(), raises(RuntimeError, "'weight' must be 2-D"):
        F.embedding(torch.tensor([0, 1]), torch.tensor(0.5, requires_grad=True))


def test_the_exponents_gradient_logs_the_base_in_the_results_dtype():
    import math

    v = torch.tensor([0.3, 0.7, 1.9], requires_grad=True)
    base = v.detach().half()  # float16 ** float32 is float32: the log is taken in float32
    (base ** v).sum().backward()
    expected = [b ** e * math.log(b) for b, e in zip(base.tolist(), v.tolist())]
    torch.testing.assert_close(v.grad, torch.tensor(expected))
    w = torch.tensor([0.3, 0.7, 1.9], dtype=torch.float64, requires_grad=True)
    (torch.tensor([1.3, 2.7, 0.9]) ** w).sum().backward()  # the base's log in float64
    bases = torch.tensor([1.3, 2.7, 0.9]).double().tolist()
    torch.testing.assert_close(w.grad, torch.tensor(
        [b ** e * math.log(b) for b, e in zip(bases, w.tolist())], dtype=torch.float64),
        rtol=1e-12, atol=0)


def test_indexed_writes_check_shapes_before_refusing_an_overlapping_input():
    from conformance._support import refuses_call

    shared = ("unsupported operation: some elements of the input tensor and the written-to "
              "tensor refer to a single memory location. Please clone() the tensor before "
              "performing the operation.")
    x = torch.rand(3, 2, requires_grad=True)
    v = torch.xlogy(x, x)
    with raises(RuntimeError, "source tensor shape must match self tensor shape, excluding "
                              "the specified dimension. Got self.shape = [3, 2] source.shape "
                              "= [1]"):
        v.index_add_(0, torch.tensor([0]), v.diagonal()[:1])
    for call, kind, message in (
        ("x.index_add_(0, torch.tensor([0, 1]), x[:1])", RuntimeError,
         "index_add_(): Number of indices (2) should be equal to source.size(dim): (1), for "
         "dim: 0"),
        ("x.index_reduce_(0, torch.tensor([0]), x[:1], 'bad')", RuntimeError,
         "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got bad."),
        ("x.scatter_(0, torch.tensor([[0, 1, 2]]), x.diagonal()[:1])", RuntimeError,
         "Index tensor must have the same number of dimensions as src tensor"),
        ("x.scatter_add_(0, torch.tensor([[0.0]]), x[:1])", RuntimeError,
         "scatter(): Expected dtype int32/int64 for index"),
        ("x.scatter_reduce_(0, torch.tensor([[0, 0, 0]]), x[:1], 'sum')", RuntimeError,
         "Expected index [1, 3] to be no larger than self [2, 2] apart from dimension 0 and "
         "to be no larger size than src [1, 2]"),
        ("x.put_(torch.tensor([0, 1]), x[0, :1])", IndexError,
         "put_(): Expected source and index to have the same number of elements, but got "
         "source.numel() = 1, index.numel() = 2"),
        # index values are read only after the overlap refusal, and index_copy_ compares first
        ("x.index_add_(0, torch.tensor([7]), x[:1])", RuntimeError, shared),
        ("x.scatter_(0, torch.tensor([[5, 5]]), x[:1])", RuntimeError, shared),
        ("x.index_copy_(0, torch.tensor([0]), x[0])", RuntimeError, shared),
    ):
        refuses_call(call, kind, message)
    i = torch.zeros(3, 2, dtype=torch.long)
    with raises(RuntimeError, "Index tensor must have the same number of dimensions as self "
                              "tensor"):
        i.scatter_(0, i[0], 1)  # the index overlapping the written tensor


def test_an_empty_bmm_reads_no_dtype_so_bool_einsums_of_empty_operands_give_zeros():
    flags = torch.ones(0, dtype=torch.bool)
    r = torch.einsum("i,i->", flags, flags)
    assert r.dtype == torch.bool and r.shape == () and r.tolist() is False
    r = torch.einsum("ij,jk->ik", torch.ones(2, 0, dtype=torch.bool),
                     torch.ones(0, 3, dtype=torch.bool))
    assert r.dtype == torch.bool and r.tolist() == [[False] * 3] * 2 and r.stride() == (3, 1)
    r = torch.einsum("...i,...i->...", torch.ones(2, 0, dtype=torch.bool),
                     torch.ones(2, 0, dtype=torch.bool))
    assert r.dtype == torch.bool and r.tolist() == [False, False]
    for first, second in ((torch.bool, torch.float32), (torch.float32, torch.bool),
                          (torch.int64, torch.int32)):
        r = torch.bmm(torch.ones(1, 1, 0, dtype=first), torch.ones(1, 0, 1, dtype=second))
        assert r.dtype == second and r.tolist() == [[[0]]]
    r = torch.bmm(torch.ones(1, 0, 2, dtype=torch.bool), torch.ones(1, 2, 1, dtype=torch.bool))
    assert r.shape == (1, 0, 1) and r.dtype == torch.bool
    a = torch.ones(1, 2, 0, requires_grad=True)
    b = torch.ones(1, 0, 3, dtype=torch.float64, requires_grad=True)
    r = a.bmm(b)
    assert r.dtype == torch.float64 and type(r.grad_fn).__name__ == "BmmBackward0"
    r.sum().backward()
    assert a.grad.dtype == torch.float32 and b.grad.dtype == torch.float64
    with raises(NotImplementedError, "\"bmm\" not implemented for 'Bool'"):
        torch.einsum("i,i->", torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.bool))
    with raises(RuntimeError, "expected scalar type Float but found Double"):
        torch.bmm(torch.ones(1, 1, 1), torch.ones(1, 1, 1, dtype=torch.float64))


def test_a_bool_convolution_is_refused_for_its_kernel_before_the_weights_dtype():
    F = torch.nn.functional
    for conv, n, kernel in ((F.conv1d, 1, "slow_conv2d_cpu"), (F.conv2d, 2, "slow_conv2d_cpu"),
                            (F.conv3d, 3, "compute_columns3d")):
        flags = torch.ones(1, 1, *(4,) * n, dtype=torch.bool)
        for dtype in (torch.bool, torch.float32, torch.int64):
            weight = torch.ones(1, 1, *(2,) * n, dtype=dtype)
            with raises(NotImplementedError, f"\"{kernel}\" not implemented for 'Bool'"):
                conv(flags, weight)
            with raises(NotImplementedError, "\"slow_conv_dilated<>\" not implemented for "
                                             "'Bool'"):
                conv(flags, weight, dilation=2)
        with raises(RuntimeError, "expected scalar type Float but found Bool"):
            conv(flags.float(), torch.ones(1, 1, *(2,) * n, dtype=torch.bool))
    flags = torch.ones(1, 1, 4, 4, 4, dtype=torch.bool)
    for options, kernel in (({}, "slow_conv3d_cpu"), ({"stride": 2}, "compute_columns3d"),
                            ({"padding": 1}, "compute_columns3d")):
        with raises(NotImplementedError, f"\"{kernel}\" not implemented for 'Bool'"):
            F.conv3d(flags, torch.ones(1, 1, 1, 1, 1), **options)


def test_gather_of_an_empty_index_checks_only_the_dimension():
    r = torch.gather(torch.tensor(2), -1, torch.zeros(0, 3, dtype=torch.long))
    assert r.shape == (0, 3) and r.dtype == torch.int64 and r.stride() == (3, 1)
    for index in (torch.zeros(0, dtype=torch.long), torch.zeros(0, 5, 4, dtype=torch.long),
                  torch.zeros(5, 0, dtype=torch.long), torch.zeros(0)):
        r = torch.ones(2, 2).gather(0, index)
        assert r.shape == index.shape and r.dtype == torch.float32
    with raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but "
                            "got 1)"):
        torch.gather(torch.tensor(2), 1, torch.zeros(0, 3, dtype=torch.long))
    with raises(RuntimeError, "Index tensor must have the same number of dimensions as input "
                              "tensor"):
        torch.gather(torch.tensor(2), 0, torch.zeros(2, 3, dtype=torch.long))
    x = torch.tensor(2.0, requires_grad=True)
    r = torch.gather(x, 0, torch.zeros(0, 3, dtype=torch.long))
    assert type(r.grad_fn).__name__ == "GatherBackward0"
    r.sum().backward()
    assert x.grad.shape == () and x.grad.item() == 0.0


def test_data_ptr_takes_no_arguments_in_torchs_words():
    x = torch.ones(2)
    with raises(TypeError, "TensorBase.data_ptr() takes no arguments (1 given)"):
        x.data_ptr(1)
    with raises(TypeError, "TensorBase.data_ptr() takes no keyword arguments"):
        x.data_ptr(a=1)
    assert x.data_ptr() == x.untyped_storage().data_ptr() and torch.ones(0).data_ptr() == 0


def test_unfold_and_fold_of_inference_tensors_count_their_kernels_writes():
    F = torch.nn.functional
    with torch.inference_mode():
        batched, single = torch.ones(1, 1, 4, 4), torch.ones(1, 4, 4)
        columns, one_columns = torch.ones(1, 4, 9), torch.ones(4, 9)
    for r, version in ((F.unfold(batched, 2), 1), (F.unfold(single, 2), 2),
                       (F.unfold(batched, 2, padding=1, dilation=2), 1),
                       (F.fold(columns, (4, 4), 2), 1), (F.fold(one_columns, (4, 4), 2), 2)):
        assert r._version == version and not r.is_inference()
    assert F.unfold(torch.ones(1, 1, 4, 4), 2)._version == 0
    with torch.inference_mode():
        assert F.unfold(batched, 2).is_inference()


def test_kron_of_an_inference_tensor_and_one_that_requires_grad_refuses_to_save_it():
    with torch.inference_mode():
        a, v = torch.ones(2, 2), torch.ones(2)
    message = ("Inference tensors cannot be saved for backward. Please do not use Tensors "
               "created in inference mode in computation tracked by autograd. To work around "
               "this, you can make a clone to get a normal tensor and use it in autograd, or use "
               "`torch.no_grad()` instead of `torch.inference_mode()`.")
    for first, second in ((a, torch.ones(2, 2, requires_grad=True)),
                          (torch.ones(2, 2, requires_grad=True), a),
                          (v, torch.ones(2, requires_grad=True))):
        with raises(RuntimeError, message):
            torch.kron(first, second)
    r = torch.kron(a, torch.ones(2, 2))
    assert r.shape == (4, 4) and r._version == 0 and not r.is_inference()
    with torch.no_grad():
        assert torch.kron(a, torch.ones(2, 2, requires_grad=True)).grad_fn is None
