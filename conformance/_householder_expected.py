"""What torch 2.13 gives for linalg.householder_product's gradients, for each case of
conformance/test_householder_product.py: the graphs of the input's and of tau's gradients
taken with create_graph (each node once, in preorder, names without ``Backward0``), their
strides, the sums of the gradients and of the second derivatives, and the strides and
versions of fresh leaves' ``.grad``.
"""

EXPECTED = {
    "square": (
        ("Tril CopySlices CopySlices CopySlices SqueezeBackward1 Unsqueeze Sub SqueezeBackward1 "
         "Mul Neg Unsqueeze Slice AccumulateGrad Mm Transpose Slice Slice CopySlices Tril "
         "AccumulateGrad Slice Sub Mm LinalgHouseholderProduct Transpose Add Mul Mul Mul Mul "
         "Unsqueeze Slice Div SubBackward1 Mul SumBackward1 Mul Slice Slice Mm Transpose "
         "SqueezeBackward1 Mul Mm Slice SqueezeBackward1 Unsqueeze Sub SqueezeBackward1 Mul Neg "
         "Unsqueeze Slice Mm Transpose Slice Slice Slice Sub Sub Mul Mul Unsqueeze Slice Slice "
         "Mm Transpose Mul Mm Mul Unsqueeze Transpose SqueezeBackward1 Mul Mm Slice "
         "SqueezeBackward1 Unsqueeze Sub SqueezeBackward1 Mul Neg Unsqueeze Slice Mm Transpose "
         "Slice Slice Slice Sub Sub Mul Mul Unsqueeze Slice Slice Mm Transpose Mul Mm Mul "
         "Unsqueeze Transpose SqueezeBackward1 Mul Mm Slice"),
        ("CopySlices CopySlices CopySlices SqueezeBackward1 SqueezeBackward1 Neg Mm Slice Mm "
         "Transpose Slice Slice CopySlices Tril AccumulateGrad Slice Sub Mm "
         "LinalgHouseholderProduct AccumulateGrad Transpose Add Mul Mul Mul Mul Unsqueeze Slice "
         "Div SubBackward1 Mul SumBackward1 Mul Slice Slice Mm Transpose SqueezeBackward1 "
         "SqueezeBackward1 Neg Mm Slice Mm Transpose Slice Slice Slice Sub Sub Mul Mul Unsqueeze "
         "Slice Slice Mm Transpose Mul Mm Mul Unsqueeze Slice Transpose SqueezeBackward1 "
         "SqueezeBackward1 Neg Mm Slice Mm Transpose Slice Slice Slice Sub Sub Mul Mul Unsqueeze "
         "Slice Slice Mm Transpose Mul Mm Mul Unsqueeze Slice Transpose"),
        (3, 1), (1,), (-0.0191296855, -5.1255381534, 1.3277577237, 9.7438674794),
        ((3, 1), 4, (1,), 3)),
    "tall": (
        ("Tril CopySlices CopySlices CopySlices SqueezeBackward1 Unsqueeze Sub SqueezeBackward1 "
         "Mul Neg Unsqueeze Slice AccumulateGrad Mm Transpose Slice Slice CopySlices Tril "
         "AccumulateGrad Slice Sub Mm LinalgHouseholderProduct Transpose Add Mul Mul Mul Mul "
         "Unsqueeze Slice Div SubBackward1 Mul SumBackward1 Mul Slice Slice Mm Transpose "
         "SqueezeBackward1 Mul Mm Slice SqueezeBackward1 Unsqueeze Sub SqueezeBackward1 Mul Neg "
         "Unsqueeze Slice Mm Transpose Slice Slice Slice Sub Sub Mul Mul Unsqueeze Slice Slice "
         "Mm Transpose Mul Mm Mul Unsqueeze Transpose SqueezeBackward1 Mul Mm Slice "
         "SqueezeBackward1 Unsqueeze Sub SqueezeBackward1 Mul Neg Unsqueeze Slice Mm Transpose "
         "Slice Slice Slice Sub Sub Mul Mul Unsqueeze Slice Slice Mm Transpose Mul Mm Mul "
         "Unsqueeze Transpose SqueezeBackward1 Mul Mm Slice"),
        ("CopySlices CopySlices CopySlices SqueezeBackward1 SqueezeBackward1 Neg Mm Slice Mm "
         "Transpose Slice Slice CopySlices Tril AccumulateGrad Slice Sub Mm "
         "LinalgHouseholderProduct AccumulateGrad Transpose Add Mul Mul Mul Mul Unsqueeze Slice "
         "Div SubBackward1 Mul SumBackward1 Mul Slice Slice Mm Transpose SqueezeBackward1 "
         "SqueezeBackward1 Neg Mm Slice Mm Transpose Slice Slice Slice Sub Sub Mul Mul Unsqueeze "
         "Slice Slice Mm Transpose Mul Mm Mul Unsqueeze Slice Transpose SqueezeBackward1 "
         "SqueezeBackward1 Neg Mm Slice Mm Transpose Slice Slice Slice Sub Sub Mul Mul Unsqueeze "
         "Slice Slice Mm Transpose Mul Mm Mul Unsqueeze Slice Transpose"),
        (3, 1), (1,), (-0.1400372532, -4.9984856962, 1.273689452, 9.9112459223),
        ((3, 1), 4, (1,), 3)),
    "fewer": (
        ("Tril CopySlices CopySlices SqueezeBackward1 Unsqueeze Sub SqueezeBackward1 Mul Neg "
         "Unsqueeze Slice AccumulateGrad Mm Transpose Slice Slice CopySlices Tril AccumulateGrad "
         "Slice Sub Mm LinalgHouseholderProduct Transpose Add Mul Mul Mul Mul Unsqueeze Slice "
         "Div SubBackward1 Mul SumBackward1 Mul Slice Slice Mm Transpose SqueezeBackward1 Mul Mm "
         "Slice SqueezeBackward1 Unsqueeze Sub SqueezeBackward1 Mul Neg Unsqueeze Slice Mm "
         "Transpose Slice Slice Slice Sub Sub Mul Mul Unsqueeze Slice Slice Mm Transpose Mul Mm "
         "Mul Unsqueeze Transpose SqueezeBackward1 Mul Mm Slice"),
        ("CopySlices CopySlices SqueezeBackward1 SqueezeBackward1 Neg Mm Slice Mm Transpose "
         "Slice Slice CopySlices Tril AccumulateGrad Slice Sub Mm LinalgHouseholderProduct "
         "AccumulateGrad Transpose Add Mul Mul Mul Mul Unsqueeze Slice Div SubBackward1 Mul "
         "SumBackward1 Mul Slice Slice Mm Transpose SqueezeBackward1 SqueezeBackward1 Neg Mm "
         "Slice Mm Transpose Slice Slice Slice Sub Sub Mul Mul Unsqueeze Slice Slice Mm "
         "Transpose Mul Mm Mul Unsqueeze Slice Transpose"),
        (3, 1), (1,), (-0.0431992391, -3.9468439814, 1.5544048498, 8.2972662098),
        ((3, 1), 3, (1,), 2)),
    "batched": (
        ("Tril CopySlices CopySlices SqueezeBackward1 Unsqueeze Sub SqueezeBackward1 Mul Neg "
         "Unsqueeze Slice AccumulateGrad UnsafeView Bmm ReshapeAlias Expand Transpose Slice "
         "Slice CopySlices Tril AccumulateGrad View Expand Slice Sub UnsafeView Bmm ReshapeAlias "
         "Expand LinalgHouseholderProduct View Expand Transpose Add Mul Mul Mul Mul Unsqueeze "
         "Slice Div SubBackward1 Mul SumBackward1 Mul Slice Slice UnsafeView Bmm ReshapeAlias "
         "Expand Transpose View Expand SqueezeBackward1 Mul UnsafeView Bmm View Expand Slice "
         "ReshapeAlias Expand SqueezeBackward1 Unsqueeze Sub SqueezeBackward1 Mul Neg Unsqueeze "
         "Slice UnsafeView Bmm ReshapeAlias Expand Transpose Slice Slice ReshapeAlias Expand "
         "Slice Sub Sub Mul Mul Unsqueeze Slice Slice UnsafeView Bmm ReshapeAlias Expand "
         "Transpose View Expand Mul UnsafeView Bmm View Expand View Expand Mul Unsqueeze "
         "Transpose SqueezeBackward1 Mul UnsafeView Bmm ReshapeAlias Expand Slice ReshapeAlias "
         "Expand"),
        ("CopySlices CopySlices SqueezeBackward1 SqueezeBackward1 Neg UnsafeView Bmm View Expand "
         "Slice UnsafeView Bmm ReshapeAlias Expand Transpose Slice Slice CopySlices Tril "
         "AccumulateGrad View Expand Slice Sub UnsafeView Bmm ReshapeAlias Expand "
         "LinalgHouseholderProduct AccumulateGrad View Expand Transpose Add Mul Mul Mul Mul "
         "Unsqueeze Slice Div SubBackward1 Mul SumBackward1 Mul Slice Slice UnsafeView Bmm "
         "ReshapeAlias Expand Transpose View Expand ReshapeAlias Expand SqueezeBackward1 "
         "SqueezeBackward1 Neg UnsafeView Bmm ReshapeAlias Expand Slice UnsafeView Bmm "
         "ReshapeAlias Expand Transpose Slice Slice ReshapeAlias Expand Slice Sub Sub Mul Mul "
         "Unsqueeze Slice Slice UnsafeView Bmm ReshapeAlias Expand Transpose View Expand Mul "
         "UnsafeView Bmm View Expand View Expand Mul Unsqueeze Slice Transpose ReshapeAlias "
         "Expand"),
        (6, 2, 1), (2, 1), (-0.2371991056, -6.5985208096, 0.7054593296, 11.3737863717),
        ((6, 2, 1), 3, (2, 1), 2)),
}
