# source: https://github.com/YutaroOgawa/pytorch_advanced/issues/160 (the 転置畳み込みの例 (transposed-convolution example) of 5_gan_generation/5-1_2_DCGAN.ipynb: an input cell, then the 通常の畳み込み (ordinary convolution) cell that writes the kernel values into m.weight by indexing; the input values and the print-outs as reconstructed from the traceback in the issue)
# scenario: inplace_setup
# cause: leaf_inplace
# root: cell 1 line 3
# expert: m.weight is an nn.Parameter, a leaf that requires grad, so the indexed assignment m.weight[0, 0, 0, 0] = 1 is an in-place op on (a view of) it; as answered in the thread and adopted by the author, write the kernel values through .data: m.weight.data[0, 0, 0, 0] = 1 and so on
# %%
import torch
import torch.nn as nn

torch.manual_seed(0)

# 転置畳み込みの例
input = torch.tensor([[[[1., 1.], [2., 2.]]]])
print("入力データ")
print(input)
# %%
print("通常の畳み込み")
m = nn.Conv2d(1, 1, 2, stride=1, bias=False)
m.weight[0, 0, 0, 0] = 1
m.weight[0, 0, 0, 1] = 2
m.weight[0, 0, 1, 0] = 3
m.weight[0, 0, 1, 1] = 4
print(m.weight)
output = m(torch.tensor([[[[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]]]]))
print(output)
