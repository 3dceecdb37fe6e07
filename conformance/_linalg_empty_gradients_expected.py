"""torch 2.13's answers for conformance/test_linalg_empty_gradients.py.

For each formula at each empty shape, contiguous (``c``) or transposed (``t``):
the strides of the gradient taken with ``create_graph=True``, the strides and
version of a plain backward's ``.grad``, and the gradient's nodes four levels
down, in preorder, a dot per level.
"""

EXPECTED = {
    'svdvals-3x0-c': ((1, 1), (1, 1), 0, (
        'MmBackward0 .LinalgSvdBackward0 ..AccumulateGrad .MulBackward0 ..None '
        '..LinalgSvdBackward0 ...AccumulateGrad')),
    'svdvals-3x0-t': ((1, 1), (1, 3), 1, (
        'MmBackward0 .LinalgSvdBackward0 ..AccumulateGrad .MulBackward0 ..None '
        '..LinalgSvdBackward0 ...AccumulateGrad')),
    'svdvals-0x3-c': ((3, 1), (3, 1), 0, (
        'MmBackward0 .MulBackward0 ..LinalgSvdBackward0 ...AccumulateGrad ..None '
        '.LinalgSvdBackward0 ..AccumulateGrad')),
    'svdvals-0x3-t': ((3, 1), (1, 1), 1, (
        'MmBackward0 .MulBackward0 ..LinalgSvdBackward0 ...AccumulateGrad ..None '
        '.LinalgSvdBackward0 ..AccumulateGrad')),
    'svdvals-0x3x3-c': ((9, 3, 1), (9, 3, 1), 0, (
        'UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 '
        '....LinalgSvdBackward0 ..ViewBackward0 ...ExpandBackward0 ....MulBackward0')),
    'svdvals-0x3x3-t': ((9, 3, 1), (9, 1, 3), 1, (
        'UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 '
        '....LinalgSvdBackward0 ..ViewBackward0 ...ExpandBackward0 ....MulBackward0')),
    'svdvals-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 '
        '....LinalgSvdBackward0 ..ViewBackward0 ...ExpandBackward0 ....MulBackward0')),
    'svdvals-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 '
        '....LinalgSvdBackward0 ..ViewBackward0 ...ExpandBackward0 ....MulBackward0')),
    'svdvals-2x3x0-c': ((3, 1, 1), (3, 1, 1), 0, (
        'UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 '
        '....LinalgSvdBackward0 ..ViewBackward0 ...ExpandBackward0 ....MulBackward0')),
    'svdvals-2x3x0-t': ((3, 1, 1), (3, 1, 3), 1, (
        'UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 '
        '....LinalgSvdBackward0 ..ViewBackward0 ...ExpandBackward0 ....MulBackward0')),
    'svd_U-3x0-c': ((1, 1), (1, 1), 0, (
        'MmBackward0 .SubBackward0 ..AddBackward0 ...MmBackward0 ....LinalgSvdBackward0 '
        '....MulBackward0 ...DivBackward0 ....None ....UnsqueezeBackward0 ..MmBackward0 '
        '...LinalgSvdBackward0 ....AccumulateGrad ...MmBackward0 ....TransposeBackward0 '
        '....DivBackward0 .LinalgSvdBackward0 ..AccumulateGrad')),
    'svd_U-3x0-t': ((1, 1), (1, 3), 1, (
        'MmBackward0 .SubBackward0 ..AddBackward0 ...MmBackward0 ....LinalgSvdBackward0 '
        '....MulBackward0 ...DivBackward0 ....None ....UnsqueezeBackward0 ..MmBackward0 '
        '...LinalgSvdBackward0 ....AccumulateGrad ...MmBackward0 ....TransposeBackward0 '
        '....DivBackward0 .LinalgSvdBackward0 ..AccumulateGrad')),
    'svd_U-0x3-c': ((3, 1), (3, 1), 0, (
        'MmBackward0 .MmBackward0 ..LinalgSvdBackward0 ...AccumulateGrad ..MulBackward0 '
        '...DivBackward0 ....SubBackward0 ....CopySlices ...UnsqueezeBackward0 '
        '....LinalgSvdBackward0 .LinalgSvdBackward0 ..AccumulateGrad')),
    'svd_U-0x3-t': ((3, 1), (1, 1), 1, (
        'MmBackward0 .MmBackward0 ..LinalgSvdBackward0 ...AccumulateGrad ..MulBackward0 '
        '...DivBackward0 ....SubBackward0 ....CopySlices ...UnsqueezeBackward0 '
        '....LinalgSvdBackward0 .LinalgSvdBackward0 ..AccumulateGrad')),
    'svd_U-0x3x3-c': ((9, 3, 1), (9, 3, 1), 0, (
        'UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 '
        '....LinalgSvdBackward0 ..ViewBackward0 ...ExpandBackward0 ....UnsafeViewBackward0')),
    'svd_U-0x3x3-t': ((9, 3, 1), (9, 1, 3), 1, (
        'UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 '
        '....LinalgSvdBackward0 ..ViewBackward0 ...ExpandBackward0 ....UnsafeViewBackward0')),
    'svd_U-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 '
        '....LinalgSvdBackward0 ..ViewBackward0 ...ExpandBackward0 ....UnsafeViewBackward0')),
    'svd_U-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 '
        '....LinalgSvdBackward0 ..ViewBackward0 ...ExpandBackward0 ....UnsafeViewBackward0')),
    'svd_U-2x3x0-c': ((3, 1, 1), (3, 1, 1), 0, (
        'UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 '
        '....SubBackward0 ..ViewBackward0 ...ExpandBackward0 ....LinalgSvdBackward0')),
    'svd_U-2x3x0-t': ((3, 1, 1), (3, 1, 3), 1, (
        'UnsafeViewBackward0 .BmmBackward0 ..ViewBackward0 ...ExpandBackward0 '
        '....SubBackward0 ..ViewBackward0 ...ExpandBackward0 ....LinalgSvdBackward0')),
    'nuc-3x0-c': ((1, 1), (1, 1), 0, (
        'PermuteBackward0 .MmBackward0 ..LinalgSvdBackward0 ...PermuteBackward0 '
        '....AccumulateGrad ..MulBackward0 ...None ...LinalgSvdBackward0 ....PermuteBackward0')),
    'nuc-3x0-t': ((1, 1), (1, 3), 1, (
        'PermuteBackward0 .MmBackward0 ..LinalgSvdBackward0 ...PermuteBackward0 '
        '....AccumulateGrad ..MulBackward0 ...None ...LinalgSvdBackward0 ....PermuteBackward0')),
    'nuc-0x3-c': ((3, 1), (3, 1), 0, (
        'PermuteBackward0 .MmBackward0 ..MulBackward0 ...LinalgSvdBackward0 '
        '....PermuteBackward0 ...None ..LinalgSvdBackward0 ...PermuteBackward0 '
        '....AccumulateGrad')),
    'nuc-0x3-t': ((3, 1), (1, 1), 1, (
        'PermuteBackward0 .MmBackward0 ..MulBackward0 ...LinalgSvdBackward0 '
        '....PermuteBackward0 ...None ..LinalgSvdBackward0 ...PermuteBackward0 '
        '....AccumulateGrad')),
    'nuc-0x3x3-c': ((9, 3, 1), (9, 3, 1), 0, (
        'PermuteBackward0 .UnsafeViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....ExpandBackward0 ...ViewBackward0 ....ExpandBackward0')),
    'nuc-0x3x3-t': ((9, 3, 1), (9, 1, 3), 1, (
        'PermuteBackward0 .UnsafeViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....ExpandBackward0 ...ViewBackward0 ....ExpandBackward0')),
    'nuc-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'PermuteBackward0 .UnsafeViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....ExpandBackward0 ...ViewBackward0 ....ExpandBackward0')),
    'nuc-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'PermuteBackward0 .UnsafeViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....ExpandBackward0 ...ViewBackward0 ....ExpandBackward0')),
    'nuc-2x3x0-c': ((3, 1, 1), (3, 1, 1), 0, (
        'PermuteBackward0 .UnsafeViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....ExpandBackward0 ...ViewBackward0 ....ExpandBackward0')),
    'nuc-2x3x0-t': ((3, 1, 1), (3, 1, 3), 1, (
        'PermuteBackward0 .UnsafeViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....ExpandBackward0 ...ViewBackward0 ....ExpandBackward0')),
    'qr_R-3x0-c': ((1, 3), (1, 1), 1, (
        'TransposeBackward0 .AddBackward0 ..CatBackward0 ...LinalgSolveTriangularBackward0 '
        '....TransposeBackward0 ....MmBackward0 ...None ..MmBackward0 ...LinalgQrBackward0 '
        '....TransposeBackward0 ...None')),
    'qr_R-3x0-t': ((1, 3), (1, 3), 0, (
        'TransposeBackward0 .AddBackward0 ..CatBackward0 ...LinalgSolveTriangularBackward0 '
        '....TransposeBackward0 ....MmBackward0 ...None ..MmBackward0 ...LinalgQrBackward0 '
        '....TransposeBackward0 ...None')),
    'qr_R-0x3-c': ((3, 1), (3, 1), 0, (
        'TransposeBackward0 .LinalgSolveTriangularBackward0 ..TransposeBackward0 '
        '...LinalgQrBackward0 ....TransposeBackward0 ..MmBackward0 ...LinalgQrBackward0 '
        '....TransposeBackward0 ...CopySlices ....AddBackward0')),
    'qr_R-0x3-t': ((3, 1), (1, 1), 1, (
        'TransposeBackward0 .LinalgSolveTriangularBackward0 ..TransposeBackward0 '
        '...LinalgQrBackward0 ....TransposeBackward0 ..MmBackward0 ...LinalgQrBackward0 '
        '....TransposeBackward0 ...CopySlices ....AddBackward0')),
    'qr_R-0x3x3-c': ((9, 3, 1), (9, 3, 1), 0, (
        'TransposeBackward0 .LinalgSolveTriangularBackward0 ..TransposeBackward0 '
        '...LinalgQrBackward0 ....TransposeBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0')),
    'qr_R-0x3x3-t': ((9, 3, 1), (9, 1, 3), 1, (
        'TransposeBackward0 .LinalgSolveTriangularBackward0 ..TransposeBackward0 '
        '...LinalgQrBackward0 ....TransposeBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0')),
    'qr_R-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'TransposeBackward0 .LinalgSolveTriangularBackward0 ..TransposeBackward0 '
        '...LinalgQrBackward0 ....TransposeBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0')),
    'qr_R-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'TransposeBackward0 .LinalgSolveTriangularBackward0 ..TransposeBackward0 '
        '...LinalgQrBackward0 ....TransposeBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0')),
    'qr_R-2x3x0-c': ((3, 1, 3), (3, 1, 1), 1, (
        'TransposeBackward0 .AddBackward0 ..CatBackward0 ...LinalgSolveTriangularBackward0 '
        '....TransposeBackward0 ....UnsafeViewBackward0 ...None ..UnsafeViewBackward0 '
        '...BmmBackward0 ....ViewBackward0 ....None')),
    'qr_R-2x3x0-t': ((3, 1, 3), (3, 1, 3), 0, (
        'TransposeBackward0 .AddBackward0 ..CatBackward0 ...LinalgSolveTriangularBackward0 '
        '....TransposeBackward0 ....UnsafeViewBackward0 ...None ..UnsafeViewBackward0 '
        '...BmmBackward0 ....ViewBackward0 ....None')),
    'qr_Q-3x0-c': ((1, 3), (1, 1), 1, (
        'LinalgSolveTriangularBackward0 .TransposeBackward0 ..LinalgQrBackward0 '
        '...AccumulateGrad .AddBackward0 ..MmBackward0 ...LinalgQrBackward0 '
        '....AccumulateGrad ...CopySlices ....AddBackward0 ..None')),
    'qr_Q-3x0-t': ((1, 3), (1, 3), 0, (
        'LinalgSolveTriangularBackward0 .TransposeBackward0 ..LinalgQrBackward0 '
        '...AccumulateGrad .AddBackward0 ..MmBackward0 ...LinalgQrBackward0 '
        '....AccumulateGrad ...CopySlices ....AddBackward0 ..None')),
    'qr_Q-0x3x3-c': ((9, 1, 3), (9, 3, 1), 1, (
        'LinalgSolveTriangularBackward0 .TransposeBackward0 ..LinalgQrBackward0 '
        '...AccumulateGrad .AddBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0 ..None')),
    'qr_Q-0x3x3-t': ((9, 1, 3), (9, 1, 3), 0, (
        'LinalgSolveTriangularBackward0 .TransposeBackward0 ..LinalgQrBackward0 '
        '...AccumulateGrad .AddBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0 ..None')),
    'qr_Q-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'LinalgSolveTriangularBackward0 .TransposeBackward0 ..LinalgQrBackward0 '
        '...AccumulateGrad .AddBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0 ..None')),
    'qr_Q-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'LinalgSolveTriangularBackward0 .TransposeBackward0 ..LinalgQrBackward0 '
        '...AccumulateGrad .AddBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0 ..None')),
    'qr_Q-2x3x0-c': ((3, 1, 3), (3, 1, 1), 1, (
        'LinalgSolveTriangularBackward0 .TransposeBackward0 ..LinalgQrBackward0 '
        '...AccumulateGrad .AddBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0 ..None')),
    'qr_Q-2x3x0-t': ((3, 1, 3), (3, 1, 3), 0, (
        'LinalgSolveTriangularBackward0 .TransposeBackward0 ..LinalgQrBackward0 '
        '...AccumulateGrad .AddBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0 ..None')),
    'eigvalsh-3x0-c': ((1, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..MmBackward0 ...MulBackward0 ....LinalgEighBackward0 '
        '....None ...TransposeBackward0 ....LinalgEighBackward0 ..TBackward0 '
        '...TransposeBackward0 ....AccumulateGrad .TransposeBackward0 ..MmBackward0 '
        '...TBackward0 ....AccumulateGrad ...MmBackward0 ....MulBackward0 '
        '....TransposeBackward0')),
    'eigvalsh-3x0-t': ((1, 1), (1, 3), 1, (
        'AddBackward0 .TBackward0 ..MmBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '...TBackward0 ....MmBackward0 .TransposeBackward0 ..MmBackward0 ...TBackward0 '
        '....AccumulateGrad ...MmBackward0 ....MulBackward0 ....TransposeBackward0')),
    'eigvalsh-0x3-c': ((3, 1), (3, 1), 1, (
        'AddBackward0 .MmBackward0 ..MmBackward0 ...MulBackward0 ....LinalgEighBackward0 '
        '....None ...TransposeBackward0 ....LinalgEighBackward0 ..TBackward0 '
        '...TransposeBackward0 ....AccumulateGrad .TransposeBackward0 ..TBackward0 '
        '...MmBackward0 ....TBackward0 ....AccumulateGrad')),
    'eigvalsh-0x3-t': ((3, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..MmBackward0 ...MulBackward0 ....LinalgEighBackward0 '
        '....None ...TransposeBackward0 ....LinalgEighBackward0 ..TBackward0 '
        '...TransposeBackward0 ....AccumulateGrad .TransposeBackward0 ..MmBackward0 '
        '...TBackward0 ....AccumulateGrad ...MmBackward0 ....MulBackward0 '
        '....TransposeBackward0')),
    'eigvalsh-0x3x3-c': ((9, 3, 1), (9, 3, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....UnsafeViewBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'eigvalsh-0x3x3-t': ((9, 3, 1), (9, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....UnsafeViewBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'eigvalsh-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....UnsafeViewBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'eigvalsh-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....UnsafeViewBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'eigvalsh-2x3x0-c': ((3, 1, 1), (3, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....UnsafeViewBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'eigvalsh-2x3x0-t': ((3, 1, 1), (3, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....UnsafeViewBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'eigh_V-3x0-c': ((1, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..MmBackward0 ...LinalgEighBackward0 ....AddBackward0 '
        '...MmBackward0 ....DivBackward0 ....TransposeBackward0 ..TBackward0 '
        '...TransposeBackward0 ....AccumulateGrad .TransposeBackward0 ..MmBackward0 '
        '...TBackward0 ....AccumulateGrad ...MmBackward0 ....LinalgEighBackward0 '
        '....MmBackward0')),
    'eigh_V-3x0-t': ((1, 1), (1, 3), 1, (
        'AddBackward0 .TBackward0 ..MmBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '...TBackward0 ....MmBackward0 .TransposeBackward0 ..MmBackward0 ...TBackward0 '
        '....AccumulateGrad ...MmBackward0 ....LinalgEighBackward0 ....MmBackward0')),
    'eigh_V-0x3-c': ((3, 1), (3, 1), 1, (
        'AddBackward0 .MmBackward0 ..MmBackward0 ...LinalgEighBackward0 ....AddBackward0 '
        '...MmBackward0 ....DivBackward0 ....TransposeBackward0 ..TBackward0 '
        '...TransposeBackward0 ....AccumulateGrad .TransposeBackward0 ..TBackward0 '
        '...MmBackward0 ....TBackward0 ....AccumulateGrad')),
    'eigh_V-0x3-t': ((3, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..MmBackward0 ...LinalgEighBackward0 ....AddBackward0 '
        '...MmBackward0 ....DivBackward0 ....TransposeBackward0 ..TBackward0 '
        '...TransposeBackward0 ....AccumulateGrad .TransposeBackward0 ..MmBackward0 '
        '...TBackward0 ....AccumulateGrad ...MmBackward0 ....LinalgEighBackward0 '
        '....MmBackward0')),
    'eigh_V-0x3x3-c': ((9, 3, 1), (9, 3, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....UnsafeViewBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'eigh_V-0x3x3-t': ((9, 3, 1), (9, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....UnsafeViewBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'eigh_V-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....UnsafeViewBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'eigh_V-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....UnsafeViewBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'eigh_V-2x3x0-c': ((3, 1, 1), (3, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....UnsafeViewBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'eigh_V-2x3x0-t': ((3, 1, 1), (3, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....UnsafeViewBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'lstsq-3x0-c': ((1, 3), (1, 1), 1, (
        'TransposeBackward0 .AddBackward0 ..SubBackward0 ...AddBackward0 ....NegBackward0 '
        '....MmBackward0 ...MmBackward0 ....MmBackward0 ....MmBackward0 ..MmBackward0 '
        '...MmBackward0 ....TransposeBackward0 ....LinalgPinvBackward0 ...SubBackward0 '
        '....None ....MmBackward0')),
    'lstsq-3x0-t': ((1, 3), (1, 3), 0, (
        'TransposeBackward0 .AddBackward0 ..SubBackward0 ...AddBackward0 ....NegBackward0 '
        '....MmBackward0 ...MmBackward0 ....MmBackward0 ....MmBackward0 ..MmBackward0 '
        '...MmBackward0 ....TransposeBackward0 ....LinalgPinvBackward0 ...SubBackward0 '
        '....None ....MmBackward0')),
    'lstsq-0x3-c': ((1, 1), (3, 1), 1, (
        'TransposeBackward0 .SubBackward0 ..AddBackward0 ...AddBackward0 ....NegBackward0 '
        '....MmBackward0 ...MmBackward0 ....TransposeBackward0 ....MmBackward0 ..MmBackward0 '
        '...MmBackward0 ....MmBackward0 ....LinalgPinvBackward0 ...TransposeBackward0 '
        '....AccumulateGrad')),
    'lstsq-0x3-t': ((1, 1), (1, 1), 0, (
        'TransposeBackward0 .SubBackward0 ..AddBackward0 ...AddBackward0 ....NegBackward0 '
        '....MmBackward0 ...MmBackward0 ....TransposeBackward0 ....MmBackward0 ..MmBackward0 '
        '...MmBackward0 ....MmBackward0 ....LinalgPinvBackward0 ...TransposeBackward0 '
        '....AccumulateGrad')),
    'lstsq-0x3x3-c': ((9, 1, 3), (9, 3, 1), 1, (
        'TransposeBackward0 .AddBackward0 ..SubBackward0 ...AddBackward0 ....NegBackward0 '
        '....UnsafeViewBackward0 ...UnsafeViewBackward0 ....BmmBackward0 '
        '..UnsafeViewBackward0 ...BmmBackward0 ....ViewBackward0 ....ViewBackward0')),
    'lstsq-0x3x3-t': ((9, 1, 3), (9, 1, 3), 0, (
        'TransposeBackward0 .AddBackward0 ..SubBackward0 ...AddBackward0 ....NegBackward0 '
        '....UnsafeViewBackward0 ...UnsafeViewBackward0 ....BmmBackward0 '
        '..UnsafeViewBackward0 ...BmmBackward0 ....ViewBackward0 ....ViewBackward0')),
    'lstsq-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'TransposeBackward0 .AddBackward0 ..SubBackward0 ...AddBackward0 ....NegBackward0 '
        '....UnsafeViewBackward0 ...UnsafeViewBackward0 ....BmmBackward0 '
        '..UnsafeViewBackward0 ...BmmBackward0 ....ViewBackward0 ....ViewBackward0')),
    'lstsq-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'TransposeBackward0 .AddBackward0 ..SubBackward0 ...AddBackward0 ....NegBackward0 '
        '....UnsafeViewBackward0 ...UnsafeViewBackward0 ....BmmBackward0 '
        '..UnsafeViewBackward0 ...BmmBackward0 ....ViewBackward0 ....ViewBackward0')),
    'lstsq-2x3x0-c': ((3, 1, 3), (3, 1, 1), 1, (
        'TransposeBackward0 .AddBackward0 ..SubBackward0 ...AddBackward0 ....NegBackward0 '
        '....UnsafeViewBackward0 ...UnsafeViewBackward0 ....BmmBackward0 '
        '..UnsafeViewBackward0 ...BmmBackward0 ....ViewBackward0 ....ViewBackward0')),
    'lstsq-2x3x0-t': ((3, 1, 3), (3, 1, 3), 0, (
        'TransposeBackward0 .AddBackward0 ..SubBackward0 ...AddBackward0 ....NegBackward0 '
        '....UnsafeViewBackward0 ...UnsafeViewBackward0 ....BmmBackward0 '
        '..UnsafeViewBackward0 ...BmmBackward0 ....ViewBackward0 ....ViewBackward0')),
    'pinv-3x0-c': ((1, 1), (1, 1), 0, (
        'SubBackward0 .AddBackward0 ..AddBackward0 ...NegBackward0 ....TransposeBackward0 '
        '...MmBackward0 ....MmBackward0 ....TransposeBackward0 ..MmBackward0 '
        '...TransposeBackward0 ....LinalgPinvBackward0 ...MmBackward0 ....LinalgPinvBackward0'
        ' ....None .MmBackward0 ..MmBackward0 ...MmBackward0 ....TransposeBackward0 '
        '....MmBackward0 ...LinalgPinvBackward0 ....AccumulateGrad ..AccumulateGrad')),
    'pinv-3x0-t': ((1, 1), (1, 3), 1, (
        'SubBackward0 .AddBackward0 ..AddBackward0 ...NegBackward0 ....TransposeBackward0 '
        '...MmBackward0 ....MmBackward0 ....TransposeBackward0 ..MmBackward0 '
        '...TransposeBackward0 ....LinalgPinvBackward0 ...MmBackward0 ....LinalgPinvBackward0'
        ' ....None .MmBackward0 ..MmBackward0 ...MmBackward0 ....TransposeBackward0 '
        '....MmBackward0 ...LinalgPinvBackward0 ....AccumulateGrad ..AccumulateGrad')),
    'pinv-0x3-c': ((3, 1), (3, 1), 0, (
        'AddBackward0 .SubBackward0 ..AddBackward0 ...NegBackward0 ....TransposeBackward0 '
        '...MmBackward0 ....MmBackward0 ....TransposeBackward0 ..MmBackward0 ...MmBackward0 '
        '....AccumulateGrad ....LinalgPinvBackward0 ...MmBackward0 ....MmBackward0 '
        '....TransposeBackward0 .MmBackward0 ..MmBackward0 ...TransposeBackward0 '
        '....LinalgPinvBackward0 ...LinalgPinvBackward0 ....AccumulateGrad ..SubBackward0 '
        '...None ...MmBackward0 ....MmBackward0 ....AccumulateGrad')),
    'pinv-0x3-t': ((3, 1), (1, 1), 1, (
        'AddBackward0 .SubBackward0 ..AddBackward0 ...NegBackward0 ....TransposeBackward0 '
        '...MmBackward0 ....MmBackward0 ....TransposeBackward0 ..MmBackward0 ...MmBackward0 '
        '....AccumulateGrad ....LinalgPinvBackward0 ...MmBackward0 ....MmBackward0 '
        '....TransposeBackward0 .MmBackward0 ..MmBackward0 ...TransposeBackward0 '
        '....LinalgPinvBackward0 ...LinalgPinvBackward0 ....AccumulateGrad ..SubBackward0 '
        '...None ...MmBackward0 ....MmBackward0 ....AccumulateGrad')),
    'pinv-0x3x3-c': ((9, 3, 1), (9, 3, 1), 0, (
        'AddBackward0 .SubBackward0 ..AddBackward0 ...NegBackward0 ....TransposeBackward0 '
        '...UnsafeViewBackward0 ....BmmBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0 .UnsafeViewBackward0 ..BmmBackward0 '
        '...ViewBackward0 ....ExpandBackward0 ...ViewBackward0 ....ExpandBackward0')),
    'pinv-0x3x3-t': ((9, 3, 1), (9, 1, 3), 1, (
        'AddBackward0 .SubBackward0 ..AddBackward0 ...NegBackward0 ....TransposeBackward0 '
        '...UnsafeViewBackward0 ....BmmBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0 .UnsafeViewBackward0 ..BmmBackward0 '
        '...ViewBackward0 ....ExpandBackward0 ...ViewBackward0 ....ExpandBackward0')),
    'pinv-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .SubBackward0 ..AddBackward0 ...NegBackward0 ....TransposeBackward0 '
        '...UnsafeViewBackward0 ....BmmBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0 .UnsafeViewBackward0 ..BmmBackward0 '
        '...ViewBackward0 ....ExpandBackward0 ...ViewBackward0 ....ExpandBackward0')),
    'pinv-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .SubBackward0 ..AddBackward0 ...NegBackward0 ....TransposeBackward0 '
        '...UnsafeViewBackward0 ....BmmBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0 .UnsafeViewBackward0 ..BmmBackward0 '
        '...ViewBackward0 ....ExpandBackward0 ...ViewBackward0 ....ExpandBackward0')),
    'pinv-2x3x0-c': ((3, 1, 1), (3, 1, 1), 0, (
        'SubBackward0 .AddBackward0 ..AddBackward0 ...NegBackward0 ....TransposeBackward0 '
        '...UnsafeViewBackward0 ....BmmBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0 .UnsafeViewBackward0 ..BmmBackward0 '
        '...ViewBackward0 ....ExpandBackward0 ...ViewBackward0 ....ExpandBackward0')),
    'pinv-2x3x0-t': ((3, 1, 1), (3, 1, 3), 1, (
        'SubBackward0 .AddBackward0 ..AddBackward0 ...NegBackward0 ....TransposeBackward0 '
        '...UnsafeViewBackward0 ....BmmBackward0 ..UnsafeViewBackward0 ...BmmBackward0 '
        '....ViewBackward0 ....ViewBackward0 .UnsafeViewBackward0 ..BmmBackward0 '
        '...ViewBackward0 ....ExpandBackward0 ...ViewBackward0 ....ExpandBackward0')),
    'slogdet-3x0-c': ((1, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..LinalgSolveExBackward0 ...TransposeBackward0 '
        '....AddBackward0 ...None ..TBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '.TransposeBackward0 ..MmBackward0 ...TBackward0 ....AccumulateGrad '
        '...LinalgSolveExBackward0 ....TransposeBackward0 ....None')),
    'slogdet-3x0-t': ((1, 1), (1, 3), 1, (
        'AddBackward0 .TBackward0 ..MmBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '...TBackward0 ....LinalgSolveExBackward0 .TransposeBackward0 ..MmBackward0 '
        '...TBackward0 ....AccumulateGrad ...LinalgSolveExBackward0 ....TransposeBackward0 '
        '....None')),
    'slogdet-0x3-c': ((3, 1), (3, 1), 1, (
        'AddBackward0 .MmBackward0 ..LinalgSolveExBackward0 ...TransposeBackward0 '
        '....AddBackward0 ...None ..TBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '.TransposeBackward0 ..TBackward0 ...MmBackward0 ....TBackward0 ....AccumulateGrad')),
    'slogdet-0x3-t': ((3, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..LinalgSolveExBackward0 ...TransposeBackward0 '
        '....AddBackward0 ...None ..TBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '.TransposeBackward0 ..MmBackward0 ...TBackward0 ....AccumulateGrad '
        '...LinalgSolveExBackward0 ....TransposeBackward0 ....None')),
    'slogdet-0x3x3-c': ((9, 3, 1), (9, 3, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....LinalgSolveExBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ViewBackward0')),
    'slogdet-0x3x3-t': ((9, 3, 1), (9, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....LinalgSolveExBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ViewBackward0')),
    'slogdet-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....LinalgSolveExBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ViewBackward0')),
    'slogdet-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....LinalgSolveExBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ViewBackward0')),
    'slogdet-2x3x0-c': ((3, 1, 1), (3, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ReshapeAliasBackward0 '
        '....LinalgSolveExBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ReshapeAliasBackward0')),
    'slogdet-2x3x0-t': ((3, 1, 1), (3, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ReshapeAliasBackward0 '
        '....LinalgSolveExBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ReshapeAliasBackward0')),
    'det-3x0-c': ((1, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..LinalgSolveExBackward0 ...TransposeBackward0 '
        '....AddBackward0 ...TransposeBackward0 ....DiagEmbedBackward0 ..TBackward0 '
        '...TransposeBackward0 ....AccumulateGrad .TransposeBackward0 ..MmBackward0 '
        '...TBackward0 ....AccumulateGrad ...LinalgSolveExBackward0 ....TransposeBackward0 '
        '....TransposeBackward0')),
    'det-3x0-t': ((1, 1), (1, 3), 1, (
        'AddBackward0 .TBackward0 ..MmBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '...TBackward0 ....LinalgSolveExBackward0 .TransposeBackward0 ..MmBackward0 '
        '...TBackward0 ....AccumulateGrad ...LinalgSolveExBackward0 ....TransposeBackward0 '
        '....TransposeBackward0')),
    'det-0x3-c': ((3, 1), (3, 1), 1, (
        'AddBackward0 .MmBackward0 ..None ..TBackward0 ...TransposeBackward0 '
        '....AccumulateGrad .TransposeBackward0 ..TBackward0 ...MmBackward0 ....None '
        '....AccumulateGrad')),
    'det-0x3-t': ((3, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..None ..TBackward0 ...TransposeBackward0 '
        '....AccumulateGrad .TransposeBackward0 ..MmBackward0 ...TBackward0 '
        '....AccumulateGrad ...None')),
    'det-0x3x3-c': ((9, 3, 1), (9, 3, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...None ...TransposeBackward0 '
        '....ViewBackward0 .TransposeBackward0 ..ViewBackward0 ...BmmBackward0 '
        '....TransposeBackward0 ....None')),
    'det-0x3x3-t': ((9, 3, 1), (9, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...None ...TransposeBackward0 '
        '....ViewBackward0 .TransposeBackward0 ..ViewBackward0 ...BmmBackward0 '
        '....TransposeBackward0 ....None')),
    'det-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...None ...TransposeBackward0 '
        '....ViewBackward0 .TransposeBackward0 ..ViewBackward0 ...BmmBackward0 '
        '....TransposeBackward0 ....None')),
    'det-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...None ...TransposeBackward0 '
        '....ViewBackward0 .TransposeBackward0 ..ViewBackward0 ...BmmBackward0 '
        '....TransposeBackward0 ....None')),
    'det-2x3x0-c': ((3, 1, 1), (3, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ReshapeAliasBackward0 '
        '....LinalgSolveExBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ReshapeAliasBackward0')),
    'det-2x3x0-t': ((3, 1, 1), (3, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ReshapeAliasBackward0 '
        '....LinalgSolveExBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ReshapeAliasBackward0')),
    'cholesky-3x0-c': ((1, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..LinalgSolveTriangularBackward0 '
        '...LinalgCholeskyExBackward0 ....AddBackward0 ...LinalgSolveTriangularBackward0 '
        '....TransposeBackward0 ....MulBackward1 ..TBackward0 ...TransposeBackward0 '
        '....AccumulateGrad .TransposeBackward0 ..MmBackward0 ...TBackward0 '
        '....AccumulateGrad ...LinalgSolveTriangularBackward0 ....LinalgCholeskyExBackward0 '
        '....LinalgSolveTriangularBackward0')),
    'cholesky-3x0-t': ((1, 1), (1, 3), 1, (
        'AddBackward0 .TBackward0 ..MmBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '...TBackward0 ....LinalgSolveTriangularBackward0 .TransposeBackward0 ..MmBackward0 '
        '...TBackward0 ....AccumulateGrad ...LinalgSolveTriangularBackward0 '
        '....LinalgCholeskyExBackward0 ....LinalgSolveTriangularBackward0')),
    'cholesky-0x3-c': ((3, 1), (3, 1), 1, (
        'AddBackward0 .MmBackward0 ..LinalgSolveTriangularBackward0 '
        '...LinalgCholeskyExBackward0 ....AddBackward0 ...LinalgSolveTriangularBackward0 '
        '....TransposeBackward0 ....MulBackward1 ..TBackward0 ...TransposeBackward0 '
        '....AccumulateGrad .TransposeBackward0 ..TBackward0 ...MmBackward0 ....TBackward0 '
        '....AccumulateGrad')),
    'cholesky-0x3-t': ((3, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..LinalgSolveTriangularBackward0 '
        '...LinalgCholeskyExBackward0 ....AddBackward0 ...LinalgSolveTriangularBackward0 '
        '....TransposeBackward0 ....MulBackward1 ..TBackward0 ...TransposeBackward0 '
        '....AccumulateGrad .TransposeBackward0 ..MmBackward0 ...TBackward0 '
        '....AccumulateGrad ...LinalgSolveTriangularBackward0 ....LinalgCholeskyExBackward0 '
        '....LinalgSolveTriangularBackward0')),
    'cholesky-0x3x3-c': ((9, 3, 1), (9, 3, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....LinalgSolveTriangularBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ViewBackward0')),
    'cholesky-0x3x3-t': ((9, 3, 1), (9, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....LinalgSolveTriangularBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ViewBackward0')),
    'cholesky-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....LinalgSolveTriangularBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ViewBackward0')),
    'cholesky-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 '
        '....LinalgSolveTriangularBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ViewBackward0')),
    'cholesky-2x3x0-c': ((3, 1, 1), (3, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ReshapeAliasBackward0 '
        '....LinalgSolveTriangularBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ReshapeAliasBackward0')),
    'cholesky-2x3x0-t': ((3, 1, 1), (3, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ReshapeAliasBackward0 '
        '....LinalgSolveTriangularBackward0 ...TransposeBackward0 ....ViewBackward0 '
        '.TransposeBackward0 ..ViewBackward0 ...BmmBackward0 ....TransposeBackward0 '
        '....ReshapeAliasBackward0')),
    'inv-3x0-c': ((1, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..NegBackward0 ...MmBackward0 ....TransposeBackward0 '
        '....MmBackward0 ..TBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '.TransposeBackward0 ..MmBackward0 ...TBackward0 ....AccumulateGrad ...NegBackward0 '
        '....MmBackward0')),
    'inv-3x0-t': ((1, 1), (1, 3), 1, (
        'AddBackward0 .TBackward0 ..MmBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '...TBackward0 ....NegBackward0 .TransposeBackward0 ..MmBackward0 ...TBackward0 '
        '....AccumulateGrad ...NegBackward0 ....MmBackward0')),
    'inv-0x3-c': ((3, 1), (3, 1), 1, (
        'AddBackward0 .MmBackward0 ..NegBackward0 ...MmBackward0 ....TransposeBackward0 '
        '....MmBackward0 ..TBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '.TransposeBackward0 ..TBackward0 ...MmBackward0 ....TBackward0 ....AccumulateGrad')),
    'inv-0x3-t': ((3, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..NegBackward0 ...MmBackward0 ....TransposeBackward0 '
        '....MmBackward0 ..TBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '.TransposeBackward0 ..MmBackward0 ...TBackward0 ....AccumulateGrad ...NegBackward0 '
        '....MmBackward0')),
    'inv-0x3x3-c': ((9, 3, 1), (9, 3, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'inv-0x3x3-t': ((9, 3, 1), (9, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'inv-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'inv-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'inv-2x3x0-c': ((3, 1, 1), (3, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'inv-2x3x0-t': ((3, 1, 1), (3, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'solve_A-3x0-c': ((1, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..NegBackward0 ...MmBackward0 ....LinalgSolveExBackward0 '
        '....TransposeBackward0 ..TBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '.TransposeBackward0 ..MmBackward0 ...TBackward0 ....AccumulateGrad ...NegBackward0 '
        '....MmBackward0')),
    'solve_A-3x0-t': ((1, 1), (1, 3), 1, (
        'AddBackward0 .TBackward0 ..MmBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '...TBackward0 ....NegBackward0 .TransposeBackward0 ..MmBackward0 ...TBackward0 '
        '....AccumulateGrad ...NegBackward0 ....MmBackward0')),
    'solve_A-0x3-c': ((3, 1), (3, 1), 1, (
        'AddBackward0 .MmBackward0 ..NegBackward0 ...MmBackward0 ....LinalgSolveExBackward0 '
        '....TransposeBackward0 ..TBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '.TransposeBackward0 ..TBackward0 ...MmBackward0 ....TBackward0 ....AccumulateGrad')),
    'solve_A-0x3-t': ((3, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..NegBackward0 ...MmBackward0 ....LinalgSolveExBackward0 '
        '....TransposeBackward0 ..TBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '.TransposeBackward0 ..MmBackward0 ...TBackward0 ....AccumulateGrad ...NegBackward0 '
        '....MmBackward0')),
    'solve_A-0x3x3-c': ((9, 3, 1), (9, 3, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'solve_A-0x3x3-t': ((9, 3, 1), (9, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'solve_A-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'solve_A-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'solve_A-2x3x0-c': ((3, 1, 1), (3, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'solve_A-2x3x0-t': ((3, 1, 1), (3, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'solve_ex_A-3x0-c': ((1, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..NegBackward0 ...MmBackward0 ....LinalgSolveExBackward0 '
        '....TransposeBackward0 ..TBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '.TransposeBackward0 ..MmBackward0 ...TBackward0 ....AccumulateGrad ...NegBackward0 '
        '....MmBackward0')),
    'solve_ex_A-3x0-t': ((1, 1), (1, 3), 1, (
        'AddBackward0 .TBackward0 ..MmBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '...TBackward0 ....NegBackward0 .TransposeBackward0 ..MmBackward0 ...TBackward0 '
        '....AccumulateGrad ...NegBackward0 ....MmBackward0')),
    'solve_ex_A-0x3-c': ((3, 1), (3, 1), 1, (
        'AddBackward0 .MmBackward0 ..NegBackward0 ...MmBackward0 ....LinalgSolveExBackward0 '
        '....TransposeBackward0 ..TBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '.TransposeBackward0 ..TBackward0 ...MmBackward0 ....TBackward0 ....AccumulateGrad')),
    'solve_ex_A-0x3-t': ((3, 1), (1, 1), 1, (
        'AddBackward0 .MmBackward0 ..NegBackward0 ...MmBackward0 ....LinalgSolveExBackward0 '
        '....TransposeBackward0 ..TBackward0 ...TransposeBackward0 ....AccumulateGrad '
        '.TransposeBackward0 ..MmBackward0 ...TBackward0 ....AccumulateGrad ...NegBackward0 '
        '....MmBackward0')),
    'solve_ex_A-0x3x3-c': ((9, 3, 1), (9, 3, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'solve_ex_A-0x3x3-t': ((9, 3, 1), (9, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'solve_ex_A-2x0x0-c': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'solve_ex_A-2x0x0-t': ((1, 1, 1), (1, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'solve_ex_A-2x3x0-c': ((3, 1, 1), (3, 1, 1), 0, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
    'solve_ex_A-2x3x0-t': ((3, 1, 1), (3, 1, 3), 1, (
        'AddBackward0 .ViewBackward0 ..BmmBackward0 ...ViewBackward0 ....NegBackward0 '
        '...TransposeBackward0 ....ViewBackward0 .TransposeBackward0 ..ViewBackward0 '
        '...BmmBackward0 ....TransposeBackward0 ....ViewBackward0')),
}
