"""A convolution module keeps F.pad's widths for its padding in
_reversed_padding_repeated_twice: each dimension's two widths, the last dimension first, a
tuple for numbers, a list for 'same' and 'valid'; forward pads by them for a padding_mode
other than zeros. The same assertions run on torch."""

import pytest
import torch
import torch.nn.functional as F

nn = torch.nn

_CASES = [
    (nn.Conv1d, (2, 3, 3), {}, (0, 0)),
    (nn.Conv1d, (2, 3, 3), {"padding": 2}, (2, 2)),
    (nn.Conv1d, (2, 3, 4), {"padding": "same"}, [1, 2]),
    (nn.Conv1d, (2, 3, 4), {"padding": "same", "dilation": 3}, [4, 5]),
    (nn.Conv1d, (2, 3, 3), {"padding": "valid"}, [0, 0]),
    (nn.Conv1d, (2, 3, 3), {"padding": 1, "padding_mode": "reflect"}, (1, 1)),
    (nn.Conv2d, (2, 3, 3), {"padding": (1, 2)}, (2, 2, 1, 1)),
    (nn.Conv2d, (2, 3, (3, 4)), {"padding": "same"}, [1, 2, 1, 1]),
    (nn.Conv2d, (2, 3, (3, 4)), {"padding": "same", "dilation": (2, 3)}, [4, 5, 2, 2]),
    (nn.Conv2d, (2, 3, 3), {"padding": "valid"}, [0, 0, 0, 0]),
    (nn.Conv2d, (2, 3, 3), {"padding": (1, 2), "padding_mode": "circular"}, (2, 2, 1, 1)),
    (nn.Conv3d, (2, 3, (2, 3, 4)), {"padding": "same"}, [1, 2, 1, 1, 0, 1]),
    (nn.Conv3d, (2, 3, 3), {"padding": (0, 1, 2), "padding_mode": "replicate"},
     (2, 2, 1, 1, 0, 0)),
    (nn.ConvTranspose1d, (2, 3, 3), {"padding": 1}, (1, 1)),
    (nn.ConvTranspose2d, (2, 3, 3), {"padding": (1, 2)}, (2, 2, 1, 1)),
    (nn.ConvTranspose3d, (2, 3, 3), {}, (0, 0, 0, 0, 0, 0)),
]


@pytest.mark.parametrize("cls, args, options, widths", _CASES,
                         ids=[f"{c.__name__}-{o}" for c, _, o, _ in _CASES])
def test_the_widths_kept(cls, args, options, widths):
    conv = cls(*args, **options)
    kept = conv._reversed_padding_repeated_twice
    assert type(kept) is type(widths) and kept == widths
    assert "_reversed_padding_repeated_twice" in vars(conv)
    assert "_reversed_padding_repeated_twice" not in conv.state_dict()


def test_the_attributes_come_in_torchs_order():
    for conv in (nn.Conv2d(2, 3, 3), nn.ConvTranspose2d(2, 3, 3)):
        names = [n for n in vars(conv) if not n.startswith("_")]
        assert names == ["training", "in_channels", "out_channels", "kernel_size", "stride",
                         "padding", "dilation", "transposed", "output_padding", "groups",
                         "padding_mode"]
        assert list(vars(conv)).index("_reversed_padding_repeated_twice") > list(
            vars(conv)).index("padding_mode")


def test_forward_pads_by_the_widths_kept():
    torch.manual_seed(0)
    conv = nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect")
    x = torch.randn(1, 2, 5, 6)
    expected = F.conv2d(F.pad(x, (1, 1, 1, 1), mode="reflect"), conv.weight, conv.bias)
    torch.testing.assert_close(conv(x), expected)
    conv._reversed_padding_repeated_twice = (2, 0, 1, 1)
    expected = F.conv2d(F.pad(x, (2, 0, 1, 1), mode="reflect"), conv.weight, conv.bias)
    torch.testing.assert_close(conv(x), expected)
    conv.padding = (3, 3)  # the widths were kept when the module was made
    assert conv(x).shape == (1, 3, 5, 6)


def test_copies_keep_the_widths():
    import copy
    import pickle

    conv = nn.Conv2d(2, 3, 3, padding=(1, 2))
    assert copy.deepcopy(conv)._reversed_padding_repeated_twice == (2, 2, 1, 1)
    assert pickle.loads(pickle.dumps(conv))._reversed_padding_repeated_twice == (2, 2, 1, 1)
