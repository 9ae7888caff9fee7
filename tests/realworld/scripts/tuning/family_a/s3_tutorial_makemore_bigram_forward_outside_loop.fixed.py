# source: https://github.com/karpathy/nn-zero-to-hero/issues/31
# style: tutorial
# cause: computed_before_loop
# line: 33
# expert: put the forward pass (xenc @ W, softmax, loss) inside the gradient-descent loop so every iteration builds a fresh graph from the updated W; only the one-hot encoding of the inputs may stay outside
import torch
import torch.nn.functional as F

words = ['emma', 'olivia', 'ava', 'isabella', 'sophia']
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0

# create the training set of bigrams (x,y)
xs, ys = [], []
for w in words[:1]:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()

# randomly initialize 27 neurons' weights. each neuron receives 27 inputs
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)

xenc = F.one_hot(xs, num_classes=27).float()

for k in range(10):
    # Forward Pass
    logits = (xenc @ W)
    counts = logits.exp()
    prob = counts / counts.sum(1, keepdims=True)
    loss = -prob[torch.arange(num), ys].log().mean()
    print(loss.item())
    # Backward Pass
    W.grad = None
    loss.backward()
    # update the weights
    W.data += -0.1 * W.grad
