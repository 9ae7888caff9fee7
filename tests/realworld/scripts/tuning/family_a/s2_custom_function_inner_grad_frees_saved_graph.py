# source: https://github.com/pytorch/pytorch/issues/65536
# style: custom_function
# cause: double_backward
# line: 17
# expert: do not keep a graph built in forward inside ctx; save only the input and rebuild y = x**2 under torch.enable_grad() inside backward (as in the maintainers' custom-Function example), so each backward differentiates a fresh inner graph
import torch as th

th.manual_seed(0)


class Dummy(th.autograd.Function):
    """Implicit-layer style Function: forward is identity, backward differentiates an inner graph."""

    @staticmethod
    def forward(ctx, x):
        with th.enable_grad():
            y = x ** 2
        ctx.save_for_backward(y, x)
        return x

    @staticmethod
    def backward(ctx, g):
        y, x = ctx.saved_tensors
        grad_x = th.autograd.grad(y, x, g, retain_graph=False,
                                  create_graph=False, only_inputs=True,
                                  allow_unused=False)
        return grad_x


t = th.rand(5, requires_grad=True)
loss = Dummy.apply(t).sum()
loss.backward(retain_graph=True)
loss.backward(retain_graph=False)
print(t.grad)
