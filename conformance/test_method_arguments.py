"""Black-box tests: tensor methods given arguments they do not take are refused in torch's
words. Each call is written out directly, as a user writes it, since torch's text for its
plain C methods depends on being called so. The same assertions run on torch.
"""

import torch

from conformance._support import raises


def _x():
    return torch.ones(2, 2)


def test_an_elementwise_method_takes_nothing():
    x = _x()
    with raises(TypeError, "TensorBase.abs() takes no arguments (1 given)"):
        x.abs(1)
    with raises(TypeError, "TensorBase.sin() takes no arguments (5 given)"):
        x.sin(1, 2, 3, 4, 5)
    with raises(TypeError, "TensorBase.exp() takes no keyword arguments"):
        x.exp(dim=0)
    with raises(TypeError, "TensorBase.tanh() takes no keyword arguments"):
        x.tanh(1, other=2)  # the keyword is refused first


def test_an_alias_is_refused_in_its_own_name():
    x = _x()
    with raises(TypeError, "TensorBase.absolute() takes no arguments (1 given)"):
        x.absolute("a")
    with raises(TypeError, "TensorBase.arccos() takes no keyword arguments"):
        x.arccos(zz=1)
    with raises(TypeError, "TensorBase.negative() takes no arguments (2 given)"):
        x.negative(1, 2)


def test_a_method_about_the_tensor_takes_nothing():
    x = _x()
    with raises(TypeError, "TensorBase.dim() takes no arguments (1 given)"):
        x.dim(0)
    with raises(TypeError, "TensorBase.numel() takes no keyword arguments"):
        x.numel(dim=0)
    with raises(TypeError, "TensorBase.storage_offset() takes no arguments (1 given)"):
        x.storage_offset(0)
    with raises(TypeError, "TensorBase.t() takes no arguments (2 given)"):
        x.t(0, 1)
    with raises(TypeError, "TensorBase.detach() takes no keyword arguments"):
        x.detach(zz=1)
    with raises(TypeError, "TensorBase.det() takes no arguments (1 given)"):
        x.det(1)


def test_the_calls_that_fit_still_run():
    w = torch.tensor([0.5, 1.0], requires_grad=True)
    y = w.sin().exp().log().cos().reciprocal().abs()
    y.sum().backward()
    assert y.grad_fn is not None and w.grad.shape == (2,)
    assert w.dim() == 1 and w.numel() == 2 and w.t().shape == (2,)
    assert torch.Tensor.sin(w).shape == (2,)


def test_a_method_of_one_signature_reads_it_first():
    x = _x()
    with raises(TypeError, "expand_as(): argument 'other' (position 1) must be Tensor, not str"):
        x.expand_as("a")
    with raises(TypeError, "type_as(): argument 'other' must be Tensor, not str"):
        x.type_as(other="a")
    with raises(TypeError, 'view_as() missing 1 required positional arguments: "other"'):
        x.view_as(zz=1)
    with raises(TypeError, "reshape_as() takes 1 positional argument but 5 were given"):
        x.reshape_as(1, 2, 3, 4, 5)
    with raises(TypeError, "is_set_to(): argument 'tensor' (position 1) must be Tensor, not str"):
        x.is_set_to("a")


def test_missing_arguments_are_counted_before_a_wrong_keyword():
    x = _x()
    with raises(TypeError, 'index_copy() missing 3 required positional argument: "dim", '
                           '"index", "source"'):
        x.index_copy(other="a")
    with raises(TypeError, "index_add(): argument 'dim' must be int, not str"):
        x.index_add(dim="a")
    with raises(TypeError, 'unfold() missing 3 required positional argument: "dimension", '
                           '"size", "step"'):
        x.unfold(zz=1)
    with raises(TypeError, "narrow_copy() takes 3 positional arguments but 5 were given"):
        x.narrow_copy(1, 2, 3, 4, 5)


def test_a_method_with_defaults_counts_without_the_tensor():
    x = _x()
    with raises(TypeError, "diag() takes from 0 to 1 positional arguments but 5 were given"):
        x.diag(1, 2, 3, 4, 5)
    with raises(TypeError, "diag_embed(): argument 'offset' (position 1) must be int, not str"):
        x.diag_embed("a")
    with raises(TypeError, "diagflat(): argument 'offset' (position 1) must be int, not str"):
        x.diagflat("a")
    with raises(TypeError, "logit(): argument 'eps' (position 1) must be float, not str"):
        x.logit("a")
    with raises(TypeError, "pinverse() takes from 0 to 1 positional arguments but 5 were given"):
        x.pinverse(1, 2, 3, 4, 5)
    assert x.diag().shape == (2,) and x.diag_embed().shape == (2, 2, 2)
    assert x.unfold(0, 1, 1).shape == (2, 2, 1) and x.logit(0.25).shape == (2, 2)


def test_a_comparison_shows_a_keyword_as_given():
    x = _x()
    with raises(TypeError, "eq() received an invalid combination of arguments - got "
                           "(other=str, ), but expected one of:\n"
                           " * (Tensor other)\n"
                           "      didn't match because some of the arguments have invalid "
                           "types: (!other=str!, )\n"
                           " * (Number other)\n"
                           "      didn't match because some of the arguments have invalid "
                           "types: (!other=str!, )\n"):
        x.eq(other="a")
    with raises(TypeError, "lt() received an invalid combination of arguments - got "
                           "(dim=str, ), but expected one of:\n"
                           " * (Tensor other)\n"
                           "      didn't match because some of the keywords were incorrect: "
                           "dim\n"
                           " * (Number other)\n"
                           "      didn't match because some of the keywords were incorrect: "
                           "dim\n"):
        x.lt(dim="a")
    with raises(TypeError, "ge() received an invalid combination of arguments - got (int, "
                           "int), but expected one of:\n * (Tensor other)\n"
                           " * (Number other)\n"):
        x.ge(1, 2)
    assert x.ne(other=1).tolist() == [[False, False], [False, False]]
    assert x.gt(0).all() and x.le(x).all()


def test_a_method_of_two_forms_is_read_against_both():
    x = _x()
    with raises(TypeError, 'nonzero() missing 1 required positional arguments: "as_tuple"'):
        x.nonzero(zz=1)
    with raises(TypeError, "round() takes from 1 to 0 positional arguments but 1 were given"):
        x.round(1)
    with raises(TypeError, "cov() takes 0 positional arguments but 1 was given"):
        x.cov(1)
    with raises(TypeError, "qr(): argument 'some' (position 1) must be bool, not str"):
        x.qr("a")
    with raises(TypeError, "copysign() received an invalid combination of arguments - got "
                           "(zz=int, ), but expected one of:\n"
                           " * (Tensor other)\n"
                           "      didn't match because some of the keywords were incorrect: "
                           "zz\n"
                           " * (Number other)\n"
                           "      didn't match because some of the keywords were incorrect: "
                           "zz\n"):
        x.copysign(zz=1)
    with raises(TypeError, "divide() received an invalid combination of arguments - got "
                           "(str), but expected one of:\n"
                           " * (Tensor other)\n"
                           "      didn't match because some of the arguments have invalid "
                           "types: (!str!)\n"
                           " * (Tensor other, *, str rounding_mode)\n"
                           " * (Number other)\n"
                           "      didn't match because some of the arguments have invalid "
                           "types: (!str!)\n"
                           " * (Number other, *, str rounding_mode)\n"):
        x.divide("a")
    assert x.divide(2, rounding_mode="floor").tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert x.round(decimals=1).shape == (2, 2) and x.nonzero(as_tuple=True)[0].shape == (4,)


def test_a_method_torch_writes_in_python_is_refused_by_python():
    x = _x()
    with raises(TypeError, "Tensor.norm() got an unexpected keyword argument 'zz'"):
        x.norm(zz=1)
    with raises(TypeError, "Tensor.unique() takes from 1 to 5 positional arguments but 6 "
                           "were given"):
        x.unique(1, 2, 3, 4, 5)
    with raises(TypeError, "Tensor.resize_as() got an unexpected keyword argument 'other'"):
        x.resize_as(other=x)
    with raises(TypeError, "Tensor.unflatten() missing 1 required positional argument: "
                           "'sizes'"):
        x.unflatten("a")
    with raises(TypeError, "Tensor.lu() takes from 1 to 3 positional arguments but 6 were "
                           "given"):
        x.lu(1, 2, 3, 4, 5)
    with raises(TypeError, "_lu_with_info(): argument 'pivot' must be bool, not str"):
        x.lu("a")
    with raises(TypeError, "unique_dim(): argument 'dim' (position 2) must be int, not str"):
        x.unique(dim="a")
    assert x.unflatten(1, (2, 1)).shape == (2, 2, 1) and x.norm().item() == 2.0


def test_a_split_method_lists_its_two_forms():
    x = _x()
    with raises(TypeError, "hsplit() received an invalid combination of arguments - got "
                           "(zz=int, ), but expected one of:\n"
                           " * (int sections)\n"
                           "      didn't match because some of the keywords were incorrect: "
                           "zz\n"
                           " * (tuple of ints indices)\n"
                           "      didn't match because some of the keywords were incorrect: "
                           "zz\n"):
        x.hsplit(zz=1)
    with raises(TypeError, "tensor_split() received an invalid combination of arguments - got "
                           "(int, int, int, int, int), but expected one of:\n"
                           " * (tuple of ints indices, int dim = 0)\n"
                           " * (Tensor tensor_indices_or_sections, int dim = 0)\n"
                           " * (int sections, int dim = 0)\n"):
        x.tensor_split(1, 2, 3, 4, 5)
    assert [t.shape for t in x.hsplit(1, 1)] == [(2, 1), (2, 0), (2, 1)]
    assert [t.shape for t in x.vsplit(2)] == [(1, 2), (1, 2)]


def test_a_new_tensor_method_counts_its_size_before_a_keyword():
    x = _x()
    with raises(TypeError, 'new_zeros() missing 1 required positional arguments: "size"'):
        x.new_zeros(zz=1)
    with raises(TypeError, "new_ones() got an unexpected keyword argument 'zz'"):
        x.new_ones(2, zz=1)
    with raises(TypeError, "new_empty() got an unexpected keyword argument 'other'"):
        x.new_empty(size=(2,), other="a")
    assert x.new_zeros(3).shape == (3,)


def test_size_and_stride_tell_a_dim_by_name_from_one_by_position():
    x = torch.ones(2, 3)
    with raises(TypeError, "size(): argument 'dim' must be int, not str"):
        x.size(dim="a")
    with raises(TypeError, "size(): argument 'dim' (position 1) must be int, not str"):
        x.size("a")
    with raises(TypeError, "stride() takes from 0 to 1 positional arguments but 2 were given"):
        x.stride(0, 1)
    with raises(TypeError, "stride(): argument 'dim' must be int, not bool"):
        x.stride(dim=True)
    with raises(TypeError, "size() got an unexpected keyword argument 'zz'"):
        x.size(zz=1)
    assert x.size() == (2, 3) and x.size(-1) == 3 and x.size(dim=0) == 2
    assert x.stride() == (3, 1) and x.stride(0) == 3 and x.stride(dim=1) == 1


def test_new_full_and_new_tensor_read_one_parameter_at_a_time():
    x = _x()
    with raises(TypeError, "new_full(): argument 'size' (position 1) must be tuple of ints, "
                           "not str"):
        x.new_full("a")
    with raises(TypeError, 'new_full() missing 2 required positional argument: "size", '
                           '"fill_value"'):
        x.new_full(zz=1)
    with raises(TypeError, "new_full() takes 2 positional arguments but 5 were given"):
        x.new_full(1, 2, 3, 4, 5)
    with raises(TypeError, "new_full() got multiple values for argument 'size'"):
        x.new_full((2,), 1, size=(3,))
    with raises(TypeError, 'new_tensor() missing 1 required positional arguments: "data"'):
        x.new_tensor(other="a")
    with raises(TypeError, "new_tensor() takes 1 positional argument but 2 were given"):
        x.new_tensor(1, 2)
    with raises(TypeError, "new_tensor() got an unexpected keyword argument 'zz'"):
        x.new_tensor([1], zz=3)
    assert x.new_full(size=(2,), fill_value=3.0).tolist() == [3.0, 3.0]
    assert x.new_tensor(data=[1, 2]).dtype == torch.float32


def test_one_signature_shown_names_the_keywords_it_does_not_take():
    x = _x()
    with raises(TypeError, "addmm() received an invalid combination of arguments - got "
                           "unrecognized keyword arguments: zz"):
        x.addmm(zz=1)
    with raises(TypeError, "addcdiv() received an invalid combination of arguments - got "
                           "unrecognized keyword arguments: zz, value"):
        x.addcdiv(x, x, value=x, zz=1)
    with raises(TypeError, "addcdiv() received an invalid combination of arguments - got "
                           "unrecognized keyword arguments: zz"):
        torch.addcdiv(x, zz=1)


def test_one_signature_shown_marks_the_wrong_types_when_the_count_fits():
    x, b = _x(), torch.ones(1, 2, 2)
    with raises(TypeError, "addbmm() received an invalid combination of arguments - got "
                           "(Tensor, !int!, !int!, !int!, !int!), but expected (Tensor batch1, "
                           "Tensor batch2, *, Number beta = 1, Number alpha = 1)"):
        x.addbmm(b, 2, 3, 4, 5)
    with raises(TypeError, "addcdiv() received an invalid combination of arguments - got "
                           "(int, int, int, int, int), but expected (Tensor tensor1, Tensor "
                           "tensor2, *, Number value = 1)"):
        x.addcdiv(1, 2, 3, 4, 5)  # five given, four pieces: nothing marked


def test_expand_is_read_as_given_once_it_fails():
    x = _x()
    with raises(TypeError, 'expand() missing 1 required positional arguments: "size"'):
        x.expand(zz=1)
    assert x.expand(3, 2, 2).shape == (3, 2, 2) and x.expand((2, 2)).shape == (2, 2)


def test_bernoulli_is_refused_before_it_draws():
    x = _x()
    with raises(TypeError, "bernoulli() received an invalid combination of arguments - got "
                           "(int, int, int, int, int), but expected one of:\n"
                           " * (*, torch.Generator generator = None)\n"
                           " * (float p, *, torch.Generator generator = None)\n"):
        x.bernoulli(1, 2, 3, 4, 5)
    assert x.bernoulli(p=0.0).sum().item() == 0.0 and x.bernoulli().sum().item() == 4.0


def test_type_has_a_hidden_form():
    x = _x()
    with raises(TypeError, "type() got an unexpected keyword argument 'zz'"):
        x.type(zz=1)
    with raises(TypeError, "type() received an invalid combination of arguments - got (int, "
                           "int, int, int, int), but expected (object dtype = None, bool "
                           "non_blocking = False, *, torch.memory_format memory_format = None)"):
        x.type(1, 2, 3, 4, 5)
    assert x.type() == "torch.FloatTensor" and x.type(torch.float64).dtype == torch.float64
