# source: https://github.com/pytorch/pytorch/issues/9391 (the first example, a = tensor([1,2,3.]); b = a.sigmoid(); b[1] = 2; b.sum().backward(), run as three notebook cells)
# scenario: inplace_setup
# cause: inplace_modified_saved_tensor
# root: cell 1 line 2
# expert: sigmoid saves its output for the backward pass, so assigning b[1] = 2 in place bumps the version of the very tensor SigmoidBackward needs (the second example in the issue works only because exp/add/div do not save that output); as explained in the thread, do not modify a saved output in place: modify a copy (b = b.clone(); b[1] = 2) or build the result out of place
# %%
import torch
a = torch.tensor([1, 2, 3.], requires_grad=True)
b = a.sigmoid()
b
# %%
# overwrite the middle entry
b[1] = 2
b
# %%
b.sum().backward()
a.grad
