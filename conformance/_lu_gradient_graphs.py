"""What torch 2.13 gives for the LU and cholesky_inverse gradients taken with create_graph.

For each case of conformance/test_lu_gradient_graphs.py: the gradient's graph in
preorder (node names without ``Backward0``), the number of dimensions of each value
packed under saved_tensors_hooks while the loss and its gradient are made, the
gradient's strides, the sums of the gradient and of the second derivative (plain
and weighted), and the strides and version of a fresh leaf's ``.grad``.
"""

EXPECTED = {
    "lu_factor": (
        "Add Mm Mm LinalgSolveTriangular Transpose LuUnpack LinalgLuFactorEx Add Mm "
        "AccumulateGrad Transpose LinalgSolveTriangular Transpose Add Tril Mm Transpose Triu Mm "
        "Transpose T Transpose T Mm T",
        "2221222222222222", (3, 1),
        (4.9486605825, 2.0033821924, 9.2115742219, 4.3552796713), (3, 1), 1),
    "lu_factor_by_columns": (
        "Add T Mm Transpose AccumulateGrad T Mm LinalgSolveTriangular Transpose LuUnpack "
        "LinalgLuFactorEx Add Mm LinalgSolveTriangular Transpose Add Tril Mm Transpose Slice "
        "Add Mul Mul Triu Mm Slice Transpose Transpose Mm T",
        "222122222222222222222", (1, 3),
        (15.5592190731, 5.6989912779, 34.3357524293, 61.161130329), (1, 3), 0),
    "lu_solve_by_columns": (
        "Add Add Mul LinalgLuSolve LinalgLuFactorEx Add Mm AccumulateGrad Transpose Mul "
        "MulBackward1 Pow LinalgLuSolve Mul T Mm T Mm LinalgSolveTriangular Transpose LuUnpack "
        "LinalgSolveTriangular Transpose Add Tril Mm Transpose Slice Add Tril "
        "LinalgSolveTriangular Transpose LuUnpack Neg Mm Mm Mm Transpose Triu "
        "LinalgSolveTriangular Transpose Mm Transpose Triu Mm Slice Transpose Transpose Mm T",
        "222121222221222222222222222222222222", (1, 3),
        (0.7012198088, 0.4052725075, 1.6754204914, 8.6417521691), (1, 3), 2),
    "lu_factor_batched": (
        "Add View Bmm View UnsafeView Bmm ReshapeAlias Expand LinalgSolveTriangular Transpose "
        "LuUnpack LinalgLuFactorEx Add UnsafeView Bmm View Expand AccumulateGrad ReshapeAlias "
        "Expand Transpose LinalgSolveTriangular Transpose Add Tril UnsafeView Bmm ReshapeAlias "
        "Expand Transpose Triu UnsafeView Bmm ReshapeAlias Expand Transpose Transpose Transpose "
        "View Bmm Transpose",
        "3332333333333333", (9, 3, 1),
        (7.17616347, 3.2496297268, 17.3495107797, 9.6755860975), (9, 3, 1), 0),
    "lu_factor_ex": (
        "Add Mm Mm LinalgSolveTriangular Transpose LuUnpack LinalgLuFactorEx Add Mm "
        "AccumulateGrad Transpose LinalgSolveTriangular Transpose Add Tril Mm Transpose Triu Mm "
        "Transpose T Transpose T Mm T",
        "2221222222222222", (3, 1),
        (4.9486605825, 2.0033821924, 9.2115742219, 4.3552796713), (3, 1), 1),
    "lu_factor_squared": (
        "Add Mm Mm LinalgSolveTriangular Transpose LuUnpack LinalgLuFactorEx Add Mm "
        "AccumulateGrad Transpose LinalgSolveTriangular Transpose Add Tril Mm Transpose Slice "
        "Add Mul Mul Triu Mm Slice Transpose T Transpose T Mm T",
        "222122222222222222222", (3, 1),
        (16.6985569798, 7.378633322, 45.6471234258, 57.8957844476), (3, 1), 1),
    "lu_factor_wide": (
        "Mul Mm LinalgSolveTriangular Transpose LuUnpack LinalgLuFactorEx Add Mul "
        "AccumulateGrad Cat Add LinalgSolveTriangular Transpose Slice Tril Sub Mm Transpose "
        "Slice Add Mul Mul Mm Triu Slice Transpose Triu Slice Slice",
        "212222222222222", (4, 1),
        (12.8844224539, 1.0200539641, -15.4613988672, 29.9182620076), (4, 1), 0),
    "lu_factor_tall": (
        "Mul Mm LinalgSolveTriangular Transpose LuUnpack LinalgLuFactorEx Add Mul "
        "AccumulateGrad Cat Add LinalgSolveTriangular Transpose Slice Triu Sub Mm Slice Add Mul "
        "Mul Transpose Mm Transpose Tril Slice Tril Slice Slice",
        "212222222222222", (3, 1),
        (8.7163661427, 9.9099007339, -18.5720056738, 87.5864134029), (3, 1), 0),
    "lu": (
        "Add Mm Mm LinalgSolveTriangular Transpose LinalgLu Add Mm AccumulateGrad Transpose "
        "LinalgSolveTriangular Transpose Add Tril Mm Transpose Triu Mm Transpose T Transpose T "
        "Mm T",
        "222222222222222222", (3, 1),
        (4.9486605825, 2.0033821924, 9.2115742219, 4.3552796713), (3, 1), 1),
    "lu_L": (
        "Add Mm Mm LinalgSolveTriangular Transpose LinalgLu Add Mm AccumulateGrad Transpose "
        "LinalgSolveTriangular Transpose Tril Mm Transpose T Transpose T Mm T",
        "2222222222222222", (3, 1),
        (0.7681486852, 0.3737082462, 1.5460115539, 1.6317647664), (3, 1), 1),
    "lu_U": (
        "Add Mm Mm LinalgSolveTriangular Transpose LinalgLu Add Mm AccumulateGrad Transpose "
        "LinalgSolveTriangular Transpose Triu Mm Transpose T Transpose T Mm T",
        "2222222222222222", (3, 1),
        (4.1805118972, 1.6296739462, 7.6655626681, 2.7235149048), (3, 1), 1),
    "lu_batched": (
        "Add View Bmm View UnsafeView Bmm ReshapeAlias Expand LinalgSolveTriangular Transpose "
        "LinalgLu Add UnsafeView Bmm View Expand AccumulateGrad ReshapeAlias Expand Transpose "
        "LinalgSolveTriangular Transpose Add Tril UnsafeView Bmm ReshapeAlias Expand Transpose "
        "Triu UnsafeView Bmm ReshapeAlias Expand Transpose Transpose Transpose View Bmm "
        "Transpose",
        "333333333333333333", (9, 3, 1),
        (7.17616347, 3.2496297268, 17.3495107797, 9.6755860975), (9, 3, 1), 0),
    "lu_squared": (
        "Add Mm Mm LinalgSolveTriangular Transpose LinalgLu Add Mm AccumulateGrad Transpose "
        "LinalgSolveTriangular Transpose Add Tril Mm Transpose Add Mul Mul Triu Mm Add Mul Mul "
        "Transpose T Transpose T Mm T",
        "22222222222222222222222222", (3, 1),
        (16.6985569798, 7.378633322, 45.6471234258, 57.8957844476), (3, 1), 1),
    "lu_wide": (
        "Mul Mm LinalgSolveTriangular Transpose LinalgLu Add Mul AccumulateGrad Cat Add "
        "LinalgSolveTriangular Transpose Slice Tril Sub Mm Transpose Add Mul Mul Mm Triu Add "
        "Mul Mul Transpose Triu Slice Slice",
        "22222222222222222222", (4, 1),
        (12.8844224539, 1.0200539641, -15.4613988672, 29.9182620076), (4, 1), 0),
    "lu_wide_L": (
        "Mul Mm Cat LinalgSolveTriangular Transpose LinalgLu Add Mul AccumulateGrad "
        "LinalgSolveTriangular Transpose Slice Tril Mm Transpose Add Mul Mul",
        "22222222222222", (4, 1),
        (-0.7308481131, 0.3823894551, 2.395978034, 10.7852167676), (4, 1), 0),
    "lu_wide_U": (
        "Mul Mm LinalgSolveTriangular Transpose LinalgLu Add Mul AccumulateGrad Cat Add "
        "LinalgSolveTriangular Transpose Slice Tril Neg Mm Triu Add Mul Mul Transpose Triu "
        "Slice Slice",
        "22222222222222", (4, 1),
        (13.615270567, 0.637664509, -17.8573769012, 19.1330452399), (4, 1), 0),
    "lu_tall": (
        "Mul Mm LinalgSolveTriangular Transpose LinalgLu Add Mul AccumulateGrad Cat Add "
        "LinalgSolveTriangular Transpose Slice Triu Sub Mm Add Mul Mul Transpose Mm Transpose "
        "Tril Add Mul Mul Tril Slice Slice",
        "22222222222222222222", (3, 1),
        (8.7163661427, 9.9099007339, -18.5720056738, 87.5864134029), (3, 1), 0),
    "lu_tall_L": (
        "Mul Mm LinalgSolveTriangular Transpose LinalgLu Add Mul AccumulateGrad Cat Add "
        "LinalgSolveTriangular Transpose Slice Triu Neg Mm Transpose Tril Add Mul Mul Tril "
        "Slice Slice",
        "22222222222222", (3, 1),
        (3.7113494129, 4.8671231543, 12.1299062843, 59.3203795785), (3, 1), 0),
    "lu_tall_U": (
        "Mul Mm Cat LinalgSolveTriangular Transpose LinalgLu Add Mul AccumulateGrad "
        "LinalgSolveTriangular Transpose Slice Triu Mm Add Mul Mul Transpose",
        "22222222222222", (3, 1),
        (5.0050167298, 5.0427775796, -30.701911958, 28.2660338244), (3, 1), 0),
    "lu_unpack": (
        "Add Tril Add Mul LuUnpack AccumulateGrad Mul Triu Add Mul Mul",
        "22222222", (3, 1),
        (3.3430909969, 1.511751953, 8.065508089, 12.1480448164), (3, 1), 0),
    "lu_unpack_L": (
        "Tril Add Mul LuUnpack AccumulateGrad Mul",
        "2222", (3, 1),
        (1.1186911086, 0.5677328112, 3.2481600888, 6.3496575169), (3, 1), 0),
    "lu_unpack_U": (
        "Triu Add Mul LuUnpack AccumulateGrad Mul",
        "2222", (3, 1),
        (2.2243998883, 0.9440191418, 4.8173480002, 5.7983872995), (3, 1), 0),
    "lu_unpack_wide": (
        "Cat Add Tril Add Mul LuUnpack AccumulateGrad Mul Triu Slice Add Mul Mul Slice",
        "22222222", (4, 1),
        (2.8111981647, 1.0795822321, 6.3739559031, 13.6615514485), (4, 1), 0),
    "lu_unpack_wide_L": (
        "Cat Tril Add Mul LuUnpack AccumulateGrad Mul",
        "2222", (4, 1),
        (1.2446742366, 0.0065813292, -1.6205478331, 1.0448284942), (4, 1), 0),
    "lu_unpack_wide_U": (
        "Triu Add Mul LuUnpack AccumulateGrad Mul",
        "2222", (4, 1),
        (1.5665239281, 1.0730009028, 7.9945037362, 12.6167229542), (4, 1), 0),
    "lu_unpack_tall": (
        "Cat Add Tril Slice Add Mul LuUnpack AccumulateGrad Mul Triu Add Mul Mul Slice",
        "22222222", (3, 1),
        (2.8111981647, 1.0795822321, 6.3739559031, 13.6615514485), (3, 1), 0),
    "lu_unpack_tall_L": (
        "Tril Add Mul LuUnpack AccumulateGrad Mul",
        "2222", (3, 1),
        (0.5867982764, 0.1355630903, 1.5566079028, 7.863164149), (3, 1), 0),
    "lu_unpack_tall_U": (
        "Cat Triu Add Mul LuUnpack AccumulateGrad Mul",
        "2222", (3, 1),
        (2.2243998883, 0.9440191418, 4.8173480002, 5.7983872995), (3, 1), 0),
    "lu_solve_LU": (
        "Add Mm Mm LinalgSolveTriangular Transpose LuUnpack LinalgLuFactorEx Add Mm "
        "AccumulateGrad Transpose LinalgSolveTriangular Transpose Add Tril Mm Transpose Slice "
        "Add Tril LinalgSolveTriangular Transpose LuUnpack Mm LinalgSolveTriangular Transpose "
        "Neg Mm Mul MulBackward1 Pow LinalgLuSolve Transpose Transpose Triu Triu Mm Slice "
        "Transpose T Transpose T Mm T",
        "2221212222222222222222222222222", (3, 1),
        (-1.1345018991, -0.5543340073, 0.5720468367, -2.2655691644), (3, 1), 1),
    "lu_solve_B": (
        "LinalgLuSolve Mul MulBackward1 Pow LinalgLuSolve AccumulateGrad",
        "212222212", (1, 3),
        (0.4185728894, 0.2241437359, 0.0691714423, 0.7971236058), (2, 1), 1),
    "lu_solve": (
        "Add Add Mul LinalgLuSolve LinalgLuFactorEx Add Mm AccumulateGrad Transpose Mul "
        "MulBackward1 Pow LinalgLuSolve Mul Mm Mm LinalgSolveTriangular Transpose LuUnpack "
        "LinalgSolveTriangular Transpose Add Tril Mm Transpose Slice Add Tril "
        "LinalgSolveTriangular Transpose LuUnpack Mm LinalgSolveTriangular Transpose Neg Mm "
        "Transpose Transpose Triu Triu Mm Slice Transpose T Transpose T Mm T",
        "2221212222212222222222222222222222", (1, 3),
        (0.7012198088, 0.1379163172, -1.2667025183, -0.1228347553), (3, 1), 1),
    "lu_solve_adjoint": (
        "Add Add Mul LinalgLuSolve LinalgLuFactorEx Add Mm AccumulateGrad Transpose Mul "
        "MulBackward1 Pow LinalgLuSolve Mul Mm Mm LinalgSolveTriangular Transpose LuUnpack "
        "LinalgSolveTriangular Transpose Add Tril Mm Transpose Slice Add Tril "
        "LinalgSolveTriangular Transpose LuUnpack Neg Mm Mm Mm Transpose Triu "
        "LinalgSolveTriangular Transpose Mm Transpose Triu Mm Slice Transpose T Transpose T Mm "
        "T",
        "222121222221222222222222222222222222", (1, 3),
        (0.7012198088, 0.1379163172, -1.2667025183, -0.1228347553), (3, 1), 1),
    "lu_solve_right": (
        "Add Add Mul LinalgLuSolve LinalgLuFactorEx Add Mm AccumulateGrad Transpose Mul "
        "MulBackward1 Pow LinalgLuSolve Mul Mm Mm LinalgSolveTriangular Transpose LuUnpack "
        "LinalgSolveTriangular Transpose Add Tril Mm Transpose Slice Add Tril "
        "LinalgSolveTriangular Transpose LuUnpack Neg Mm Mm Mm Transpose Triu "
        "LinalgSolveTriangular Transpose Mm Transpose Triu Mm Slice Transpose T Transpose T Mm "
        "T",
        "222121222221222222222222222222222222", (3, 1),
        (2.0205367935, 0.9330710819, -0.8927658242, 8.409665703), (3, 1), 2),
    "lu_solve_right_adjoint": (
        "Add Add Mul LinalgLuSolve LinalgLuFactorEx Add Mm AccumulateGrad Transpose Mul "
        "MulBackward1 Pow LinalgLuSolve Mul Mm Mm LinalgSolveTriangular Transpose LuUnpack "
        "LinalgSolveTriangular Transpose Add Tril Mm Transpose Slice Add Tril "
        "LinalgSolveTriangular Transpose LuUnpack Mm LinalgSolveTriangular Transpose Neg Mm "
        "Transpose Transpose Triu Triu Mm Slice Transpose T Transpose T Mm T",
        "2221212222212222222222222222222222", (3, 1),
        (2.0205367935, 0.9330710819, -0.8927658242, 8.409665703), (3, 1), 2),
    "lu_solve_batched": (
        "Add Add Mul LinalgLuSolve LinalgLuFactorEx Add UnsafeView Bmm View Expand "
        "AccumulateGrad ReshapeAlias Expand Transpose Mul MulBackward1 Pow LinalgLuSolve Mul "
        "View Bmm View UnsafeView Bmm ReshapeAlias Expand LinalgSolveTriangular Transpose "
        "LuUnpack LinalgSolveTriangular Transpose Add Tril UnsafeView Bmm ReshapeAlias Expand "
        "Transpose View Expand Slice Add Tril LinalgSolveTriangular Transpose LuUnpack "
        "UnsafeView Bmm ReshapeAlias Expand LinalgSolveTriangular Transpose Neg UnsafeView Bmm "
        "ReshapeAlias Expand View Expand Transpose ReshapeAlias Expand Transpose Triu Triu "
        "UnsafeView Bmm View Expand Slice ReshapeAlias Expand Transpose Transpose Transpose "
        "View Bmm Transpose",
        "3332323333323333333333333333333333", (9, 1, 3),
        (1.8501688945, 0.3773305169, -0.08822927, 0.7586580792), (9, 3, 1), 1),
    "lu_solve_broadcast_B": (
        "Add Add Mul View SumBackward1 LinalgLuSolve LinalgLuFactorEx Add Mm AccumulateGrad "
        "Transpose Mul MulBackward1 Pow LinalgLuSolve Expand Mul Mm Mm LinalgSolveTriangular "
        "Transpose LuUnpack LinalgSolveTriangular Transpose Add Tril Mm Transpose Slice View "
        "SumBackward1 Add Tril LinalgSolveTriangular Transpose LuUnpack UnsafeView Mm "
        "UnsafeView Clone LinalgSolveTriangular Transpose Neg UnsafeView Bmm ReshapeAlias "
        "Expand View Expand Transpose Transpose Triu Triu Mm Slice Transpose T Transpose T Mm T",
        "2221213333213332322232222222222222", (3, 1),
        (1.4024396176, 0.2758326344, -2.5334050365, -0.2456695107), (3, 1), 2),
    "lu_solve_broadcast_LU": (
        "Add Add SelectBackward Mul View SumBackward1 LinalgLuSolve LinalgLuFactorEx Add "
        "UnsafeView Bmm View Expand AccumulateGrad ReshapeAlias Expand Transpose Mul "
        "MulBackward1 Pow LinalgLuSolve Mul Select View Bmm View UnsafeView Bmm ReshapeAlias "
        "Expand LinalgSolveTriangular Transpose LuUnpack LinalgSolveTriangular Transpose Add "
        "Tril UnsafeView Bmm ReshapeAlias Expand Transpose View Expand Slice Add Tril "
        "LinalgSolveTriangular Transpose LuUnpack UnsafeView Bmm ReshapeAlias Expand "
        "LinalgSolveTriangular Transpose Neg UnsafeView Bmm ReshapeAlias Expand View Expand "
        "Transpose ReshapeAlias Expand Transpose Triu Triu UnsafeView Bmm View Expand Slice "
        "ReshapeAlias Expand Transpose Transpose Transpose View Bmm Transpose",
        "3332323333323333333333333333333333", (9, 3, 1),
        (3.6145754649, 1.5187239602, 9.6021360234, 6.4458111428), (9, 3, 1), 2),
    "lu_batched_wide": (
        "Mul UnsafeView Bmm ReshapeAlias Expand LinalgSolveTriangular Transpose LinalgLu Add "
        "Mul AccumulateGrad Cat Add LinalgSolveTriangular Transpose Slice Tril Sub UnsafeView "
        "Bmm ReshapeAlias Expand Transpose View Expand Add Mul Mul UnsafeView Bmm View Expand "
        "Triu Add Mul Mul ReshapeAlias Expand Transpose Triu Slice Slice",
        "33333333333333333333", (12, 4, 1),
        (32.4711106434, -0.7869845211, -39.8997652571, 70.5016168484), (12, 4, 1), 0),
    "lu_batched_tall_L": (
        "Mul UnsafeView Bmm ReshapeAlias Expand LinalgSolveTriangular Transpose LinalgLu Add "
        "Mul AccumulateGrad Cat Add LinalgSolveTriangular Transpose Slice Triu Neg UnsafeView "
        "Bmm ReshapeAlias Expand Transpose View Expand Tril Add Mul Mul Tril Slice Slice",
        "33333333333333", (12, 3, 1),
        (3.7109387977, 3.9325824157, 24.8227128792, 67.60382899), (12, 3, 1), 0),
    "cholesky_inverse": (
        "Add Mm LinalgSolveTriangular LinalgCholeskyEx Add Mm AccumulateGrad Transpose "
        "LinalgSolveTriangular Transpose MulBackward1 Add Tril Mm Transpose Neg Mm Mm "
        "CholeskyInverse Mm Add Mul MulBackward1 Pow Transpose Transpose Tril T Transpose T Mm "
        "T",
        "222222222222222222222222", (3, 1),
        (-0.2787911806, -0.0878251029, 0.0066302784, -0.4174577127), (3, 1), 1),
    "cholesky_inverse_upper": (
        "Add Mm LinalgSolveTriangular Transpose LinalgCholeskyEx Add Mm AccumulateGrad "
        "Transpose LinalgSolveTriangular Transpose MulBackward1 Add Tril Mm Transpose Transpose "
        "Neg Mm Mm CholeskyInverse Mm Add Mul MulBackward1 Pow Transpose Transpose Tril T "
        "Transpose T Mm T",
        "222222222222222222222222", (3, 1),
        (-0.2787911806, -0.0878251029, 0.0066302784, -0.4174577127), (3, 1), 1),
    "cholesky_inverse_leaf": (
        "Tril Neg Mm Mm CholeskyInverse Add Tril AccumulateGrad Mm Add Mul MulBackward1 Pow "
        "Transpose",
        "22222222222", (3, 1),
        (-23.4829684107, 5.0074923666, -47.9897380441, 82.7106763206), (3, 1), 0),
}
