"""Black-box tests: what the torch.nn.functional functions torch writes in Python hand a
__torch_function__ handler: the required arguments by position, every other parameter by
keyword, in the signature's order, filled with what was given or the default. The same
assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F


class Logged(torch.Tensor):  # defining a subclass also switches refgrad's protocol on
    log = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.log.append((func.__name__, kwargs))
        return super().__torch_function__(func, types, args, kwargs or {})


class Seen:
    """A tensor-like: answers every call with what it was handed."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return func, args, kwargs


class SeenTensor(torch.Tensor):
    """A tensor that answers every call with what it was handed."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return func, args, kwargs


SIZES = {
    "kernel_size": 2,
    "output_size": 2,
    "pad": (1, 1),
    "normalized_shape": (3,),
    "num_groups": 1,
    "size": (1, 1, 2, 2),
    "norm_type": 2.0,
    "embed_dim_to_check": 4,
    "num_heads": 2,
    "add_zero_attn": False,
    "dropout_p": 0.0,
}
# each function: its required parameters, and the keywords its line hands on by default
# fmt: off
HANDED = {
    **dict.fromkeys(("adaptive_avg_pool2d", "adaptive_avg_pool3d"), ("input output_size", {})),
    **dict.fromkeys(
        (
            "adaptive_max_pool1d",
            "adaptive_max_pool1d_with_indices",
            "adaptive_max_pool2d",
            "adaptive_max_pool2d_with_indices",
            "adaptive_max_pool3d",
            "adaptive_max_pool3d_with_indices",
        ),
        ("input output_size", {"return_indices": False}),
    ),
    "affine_grid": ("theta size", {"align_corners": None}),
    **dict.fromkeys(
        ("alpha_dropout", "feature_alpha_dropout"),
        ("input", {"p": 0.5, "training": False, "inplace": False}),
    ),
    "batch_norm": (
        "input running_mean running_var",
        {"weight": None, "bias": None, "training": False, "momentum": 0.1, "eps": 1e-05},
    ),
    **dict.fromkeys(
        ("binary_cross_entropy", "multilabel_soft_margin_loss"),
        (
            "input target",
            {"weight": None, "size_average": None, "reduce": None, "reduction": "mean"},
        ),
    ),
    "binary_cross_entropy_with_logits": (
        "input target",
        {
            "weight": None,
            "size_average": None,
            "reduce": None,
            "reduction": "mean",
            "pos_weight": None,
        },
    ),
    **dict.fromkeys(("celu", "elu"), ("input", {"alpha": 1.0, "inplace": False})),
    **dict.fromkeys(
        ("cosine_embedding_loss", "margin_ranking_loss"),
        (
            "input1 input2 target",
            {"margin": 0, "size_average": None, "reduce": None, "reduction": "mean"},
        ),
    ),
    "cross_entropy": ("input target", {
        "weight": None, "size_average": None, "ignore_index": -100, "reduce": None,
        "reduction": "mean", "label_smoothing": 0.0}),
    "ctc_loss": (
        "log_probs targets input_lengths target_lengths",
        {"blank": 0, "reduction": "mean", "zero_infinity": False},
    ),
    **dict.fromkeys(
        ("dropout", "dropout1d", "dropout2d", "dropout3d"),
        ("input", {"p": 0.5, "training": True, "inplace": False}),
    ),
    "embedding": (
        "input weight",
        {
            "padding_idx": None,
            "max_norm": None,
            "norm_type": 2.0,
            "scale_grad_by_freq": False,
            "sparse": False,
        },
    ),
    "embedding_bag": (
        "input weight",
        {
            "offsets": None,
            "max_norm": None,
            "norm_type": 2,
            "scale_grad_by_freq": False,
            "mode": "mean",
            "sparse": False,
            "per_sample_weights": None,
            "include_last_offset": False,
            "padding_idx": None,
        },
    ),
    "fold": ("input output_size kernel_size", {"dilation": 1, "padding": 0, "stride": 1}),
    **dict.fromkeys(
        (
            "fractional_max_pool2d",
            "fractional_max_pool2d_with_indices",
            "fractional_max_pool3d",
            "fractional_max_pool3d_with_indices",
        ),
        (
            "input kernel_size",
            {
                "output_size": None,
                "output_ratio": None,
                "return_indices": False,
                "_random_samples": None,
            },
        ),
    ),
    "gaussian_nll_loss": ("input target var", {"full": False, "eps": 1e-06, "reduction": "mean"}),
    "glu": ("input", {"dim": -1}),
    "grid_sample": (
        "input grid",
        {"mode": "bilinear", "padding_mode": "zeros", "align_corners": None},
    ),
    "group_norm": ("input num_groups", {"weight": None, "bias": None, "eps": 1e-05}),
    "gumbel_softmax": ("logits", {"tau": 1, "hard": False, "eps": 1e-10, "dim": -1}),
    **dict.fromkeys(
        ("hardsigmoid", "hardswish", "mish", "relu", "relu6", "selu", "silu"),
        ("input", {"inplace": False}),
    ),
    "hardtanh": ("input", {"min_val": -1.0, "max_val": 1.0, "inplace": False}),
    "hinge_embedding_loss": (
        "input target",
        {"margin": 1.0, "size_average": None, "reduce": None, "reduction": "mean"},
    ),
    "huber_loss": ("input target", {"reduction": "mean", "delta": 1.0, "weight": None}),
    "instance_norm": (
        "input",
        {
            "running_mean": None,
            "running_var": None,
            "weight": None,
            "bias": None,
            "use_input_stats": True,
            "momentum": 0.1,
            "eps": 1e-05,
        },
    ),
    "interpolate": (
        "input",
        {
            "size": None,
            "scale_factor": None,
            "mode": "nearest",
            "align_corners": None,
            "recompute_scale_factor": None,
            "antialias": False,
        },
    ),
    "kl_div": (
        "input target",
        {"size_average": None, "reduce": None, "reduction": "mean", "log_target": False},
    ),
    **dict.fromkeys(
        ("l1_loss", "multilabel_margin_loss", "soft_margin_loss"),
        ("input target", {"size_average": None, "reduce": None, "reduction": "mean"}),
    ),
    "layer_norm": ("input normalized_shape", {"weight": None, "bias": None, "eps": 1e-05}),
    "leaky_relu": ("input", {"negative_slope": 0.01, "inplace": False}),
    "linear_cross_entropy": (
        "input linear_weight target",
        {
            "linear_bias": None,
            "weight": None,
            "reduction": "mean",
            "ignore_index": None,
            "label_smoothing": 0.0,
            "options": None,
        },
    ),
    "local_response_norm": ("input size", {"alpha": 0.0001, "beta": 0.75, "k": 1.0}),
    **dict.fromkeys(
        ("log_softmax", "softmax", "softmin"),
        ("input", {"dim": None, "_stacklevel": 3, "dtype": None}),
    ),
    **dict.fromkeys(
        ("lp_pool1d", "lp_pool2d", "lp_pool3d"),
        ("input norm_type kernel_size", {"stride": None, "ceil_mode": False}),
    ),
    **dict.fromkeys(
        (
            "max_pool1d",
            "max_pool1d_with_indices",
            "max_pool2d",
            "max_pool2d_with_indices",
            "max_pool3d",
            "max_pool3d_with_indices",
        ),
        (
            "input kernel_size",
            {
                "stride": None,
                "padding": 0,
                "dilation": 1,
                "ceil_mode": False,
                "return_indices": False,
            },
        ),
    ),
    **dict.fromkeys(
        ("max_unpool1d", "max_unpool2d", "max_unpool3d"),
        ("input indices kernel_size", {"stride": None, "padding": 0, "output_size": None}),
    ),
    "mse_loss": (
        "input target",
        {"size_average": None, "reduce": None, "reduction": "mean", "weight": None},
    ),
    "multi_head_attention_forward": (
        "query key value embed_dim_to_check num_heads in_proj_weight in_proj_bias bias_k bias_v "
        "add_zero_attn dropout_p out_proj_weight out_proj_bias",
        {
            "training": True,
            "key_padding_mask": None,
            "need_weights": True,
            "attn_mask": None,
            "is_causal": False,
            "use_separate_proj_weight": False,
            "q_proj_weight": None,
            "k_proj_weight": None,
            "v_proj_weight": None,
            "static_k": None,
            "static_v": None,
            "average_attn_weights": True,
        },
    ),
    "multi_margin_loss": (
        "input target",
        {
            "p": 1,
            "margin": 1.0,
            "weight": None,
            "size_average": None,
            "reduce": None,
            "reduction": "mean",
        },
    ),
    "nll_loss": ("input target", {
        "weight": None, "size_average": None, "ignore_index": -100, "reduce": None,
        "reduction": "mean"}),
    "normalize": ("input", {"p": 2.0, "dim": 1, "eps": 1e-12, "out": None}),
    "pad": ("input pad", {"mode": "constant", "value": None}),
    "poisson_nll_loss": (
        "input target",
        {
            "log_input": True,
            "full": False,
            "size_average": None,
            "eps": 1e-08,
            "reduce": None,
            "reduction": "mean",
        },
    ),
    "rms_norm": ("input normalized_shape", {"weight": None, "eps": None}),
    "rrelu": (
        "input",
        {"lower": 0.125, "upper": 0.3333333333333333, "training": False, "inplace": False},
    ),
    "smooth_l1_loss": (
        "input target",
        {"size_average": None, "reduce": None, "reduction": "mean", "beta": 1.0},
    ),
    **dict.fromkeys(("softsign", "tanhshrink"), ("input", {})),
    "threshold": ("input threshold value", {"inplace": False}),
    "triplet_margin_loss": (
        "anchor positive negative",
        {
            "margin": 1.0,
            "p": 2,
            "eps": 1e-06,
            "swap": False,
            "size_average": None,
            "reduce": None,
            "reduction": "mean",
        },
    ),
    "triplet_margin_with_distance_loss": (
        "anchor positive negative",
        {"distance_function": None, "margin": 1.0, "swap": False, "reduction": "mean"},
    ),
    "unfold": ("input kernel_size", {"dilation": 1, "padding": 0, "stride": 1}),
}
# fmt: on
# keyword-only parameters, or a line that hands them in an order of its own
NOT_IN_ORDER = {
    "linear_cross_entropy",
    "multi_head_attention_forward",
    "l1_loss",
    "triplet_margin_with_distance_loss",
}


def _required(name):
    return [SIZES.get(p, Seen()) for p in HANDED[name][0].split()]


def _check(name, answer, given):
    func, args, kwargs = answer
    assert func is getattr(F, name)
    assert len(args) == len(given) and all(a is g for a, g in zip(args, given))
    assert list(kwargs.items()) == list(HANDED[name][1].items())


@pytest.mark.parametrize("name", sorted(HANDED))
def test_required_arguments_given_by_position(name):
    given = _required(name)
    _check(name, getattr(F, name)(*given), given)


@pytest.mark.parametrize("name", sorted(HANDED))
def test_arguments_given_by_keyword_are_handed_as_the_line_hands_them(name):
    given = _required(name)
    names = HANDED[name][0].split()
    _check(name, getattr(F, name)(**dict(zip(names, given))), given)
    defaults = dict(reversed(HANDED[name][1].items()))
    _check(name, getattr(F, name)(*given, **defaults), given)


@pytest.mark.parametrize("name", sorted(set(HANDED) - NOT_IN_ORDER))
def test_every_argument_given_by_position(name):
    given = _required(name)
    _check(name, getattr(F, name)(*given, *HANDED[name][1].values()), given)


def test_a_value_given_is_handed_under_its_keyword():
    s = Seen()
    assert F.softmax(s, 1)[2] == {"dim": 1, "_stacklevel": 3, "dtype": None}
    assert F.relu(s, True)[2] == {"inplace": True}
    assert F.pad(s, (1, 2), "reflect")[2] == {"mode": "reflect", "value": None}
    assert F.mse_loss(s, s, reduction="sum")[2]["reduction"] == "sum"


def test_l1_loss_hands_no_weight_even_when_given():
    s = Seen()
    _, args, kwargs = F.l1_loss(s, s, weight=s)
    assert len(args) == 2
    assert kwargs == {"size_average": None, "reduce": None, "reduction": "mean"}


@pytest.mark.parametrize(
    "name, mode, corners",
    [
        ("upsample", "nearest", None),
        ("upsample_nearest", "nearest", None),
        ("upsample_bilinear", "bilinear", True),
    ],
)
def test_the_old_upsamples_hand_over_interpolate(name, mode, corners):
    s = Seen()
    with pytest.warns(UserWarning, match="is deprecated"):
        func, args, kwargs = getattr(F, name)(s, 4)
    assert func is F.interpolate and args == (s,)
    assert kwargs == {
        "size": 4,
        "scale_factor": None,
        "mode": mode,
        "align_corners": corners,
        "recompute_scale_factor": None,
        "antialias": False,
    }


@pytest.mark.parametrize(
    "call",
    [
        lambda x: F.max_pool2d_with_indices(x, 2),
        lambda x: F.adaptive_max_pool2d_with_indices(x, 1),
        lambda x: F.fractional_max_pool2d_with_indices(x, 2, output_size=1),
        lambda x: F.max_pool1d_with_indices(x[0], 2, return_indices=False),
    ],
)
def test_the_pools_with_indices_return_both_whatever_the_flag(call):
    values, indices = call(torch.arange(16.0).reshape(1, 4, 4))
    assert indices.dtype == torch.int64 and values.shape == indices.shape


def test_a_subclass_handler_reads_the_keywords_and_runs_the_call():
    x = torch.tensor([[1.0, 2.0], [3.0, 0.5]])
    s = x.as_subclass(Logged)
    Logged.log.clear()
    out = F.softmax(s, 1)
    loss = F.cross_entropy(s, torch.tensor([0, 1]), label_smoothing=0.1)
    assert Logged.log[0] == ("softmax", {"dim": 1, "_stacklevel": 3, "dtype": None})
    assert Logged.log[1][0] == "cross_entropy"
    assert Logged.log[1][1]["label_smoothing"] == 0.1 and Logged.log[1][1]["weight"] is None
    assert type(out) is Logged and type(loss) is Logged
    assert torch.equal(out.as_subclass(torch.Tensor), F.softmax(x, 1))


@pytest.mark.parametrize("name", ["sigmoid", "tanh"])
def test_sigmoid_and_tanh_offer_the_tensors_method(name):
    x = torch.tensor([0.5, -1.0])
    s = x.as_subclass(Logged)
    Logged.log.clear()
    out = getattr(F, name)(s)
    assert Logged.log == [(name, None)]
    assert type(out) is Logged
    func, args, kwargs = getattr(F, name)(x.as_subclass(SeenTensor))
    assert func is getattr(torch.Tensor, name) and kwargs is None


# torch's own functions written in Python: what they hand by default
TORCH_HANDED = [
    ("cdist", 2, {"p": 2.0, "compute_mode": "use_mm_for_euclid_dist_if_necessary"}),
    ("norm", 1, {"p": "fro", "dim": None, "keepdim": False, "out": None, "dtype": None}),
    ("tensordot", 2, {"dims": 2, "out": None}),
    ("split", 2, {"dim": 0}),
    ("unique", 1, {"sorted": True, "return_inverse": False, "return_counts": False, "dim": None}),
    ("unique_consecutive", 1, {"return_inverse": False, "return_counts": False, "dim": None}),
    ("lu", 1, {"pivot": True, "get_infos": False, "out": None}),
    ("pca_lowrank", 1, {"q": None, "center": True, "niter": 2}),
    ("svd_lowrank", 1, {"q": 6, "niter": 2, "M": None}),
    ("meshgrid", 2, {"indexing": None}),
    ("einsum", 2, {}),
    ("atleast_2d", 2, {}),
    ("block_diag", 2, {}),
    ("chain_matmul", 2, {}),
]
HOMES = {"pca_lowrank": "torch._lowrank", "svd_lowrank": "torch._lowrank"}


@pytest.mark.parametrize("name, count, handed", TORCH_HANDED)
def test_torchs_python_functions_hand_their_keywords(name, count, handed):
    s = Seen()
    given = ("ij->i", s) if name == "einsum" else (s, 1) if name == "split" else (s,) * count
    func, args, kwargs = getattr(torch, name)(*given)
    assert func is getattr(torch, name) and len(args) == count
    assert list(kwargs.items()) == list(handed.items())


def test_what_was_given_is_handed_in_its_place():
    s = Seen()
    assert torch.unravel_index(s, (2, 3))[1:] == ((s,), {"shape": (2, 3)})
    assert torch.norm(s, 1, 0)[2] == {
        "p": 1,
        "dim": 0,
        "keepdim": False,
        "out": None,
        "dtype": None,
    }
    assert torch.meshgrid(s, s, indexing="xy")[2] == {"indexing": "xy"}
    assert torch.chain_matmul(s, s, out=None)[2] == {}


class Refusing(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return NotImplemented


@pytest.mark.parametrize("name", ["cdist", "norm", "pca_lowrank", "einsum", "meshgrid"])
def test_torchs_python_functions_are_refused_in_pythons_words(name):
    s = torch.ones(2, 2).as_subclass(Refusing)
    given = ("ij->i", s) if name == "einsum" else (s, s) if name in ("cdist", "meshgrid") else (s,)
    with pytest.raises(TypeError) as caught:
        getattr(torch, name)(*given)
    assert str(caught.value).startswith(
        f"no implementation found for '{HOMES.get(name, 'torch.functional')}.{name}' on types "
        "that implement __torch_function__: "
    )


def test_the_functions_torch_writes_in_c_still_hand_none():
    s = torch.ones(2, 2).as_subclass(SeenTensor)
    assert torch.linalg.norm(s)[2] is None
    assert torch.add(s, 1)[2] is None
    assert F.linear(s, s)[2] is None


@pytest.mark.parametrize(
    "name, given",
    [("max_pool2d", (2,)), ("adaptive_max_pool1d", (1,)), ("fractional_max_pool2d", (2, 1))],
)
@pytest.mark.parametrize("flag", [True, 1, False])
def test_the_flag_picks_the_function_handed(name, given, flag):
    s = Seen()
    func, args, kwargs = getattr(F, name)(s, *given, return_indices=flag)
    picked = getattr(F, name + "_with_indices") if flag else getattr(F, name)
    assert func is picked and kwargs["return_indices"] is flag
    x = torch.arange(16.0).reshape(1, 4, 4).as_subclass(Logged)
    Logged.log.clear()
    out = getattr(F, name)(x, *given, return_indices=flag)
    assert Logged.log[0][0] == picked.__name__
    assert isinstance(out, tuple) == bool(flag)
