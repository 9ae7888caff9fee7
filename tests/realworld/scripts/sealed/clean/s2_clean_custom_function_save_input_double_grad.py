# source: https://github.com/pytorch/pytorch/issues/18619
# style: custom_function
# expert: correct program: the custom Function saves only its input, so the first derivative can be taken with create_graph=True and again without it
import torch

torch.manual_seed(0)


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x ** 2
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        x, _ = ctx.saved_tensors
        return grad_output * 2 * x


double = Double.apply

x = torch.tensor(2).double().requires_grad_()

print(
    'gradcheck',
    torch.autograd.gradcheck(double, x),
    torch.autograd.gradgradcheck(double, x),
)

y = double(x)
torch.autograd.grad(y, x, create_graph=True)
torch.autograd.grad(y, x)
print('double() ok')
