"""Writes the demo notebooks (run it after editing a scenario below).

Five seed scenarios, each: the story, `%load_ext nb_autograd`, the failing cell (tagged
raises-exception so headless runs go on), then the fixed cell, which must run clean.
One more notebook walks through the other autograd errors, a section each.
"""
from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).parent

SCENARIOS = {
    "01_feature_extractor_before_loop": dict(
        cause="computed_before_loop",
        title="A feature extractor run before the inner loop",
        story="""A trainer adds one line before its inner loop: it runs a feature extractor on the first
image of the batch and keeps the result in `self.prev_ft`. The inner loop calls `backward()` once per
image. The first call works; the second fails with *Trying to backward through the graph a second time*,
although the code seems to call `backward()` only once per graph.

(From a user's note: 在 `train` 里只是加了几层卷积和操作, 为什么突然报错?)""",
        bad='''import torch
torch.manual_seed(0)


class Trainer:
    def __init__(self):
        self.feature_extractor = torch.nn.Linear(6, 4)
        self.model = torch.nn.Linear(4, 2)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def compute_loss(self, s, y):
        return torch.nn.functional.mse_loss(s, y)

    def train(self, loader):
        for j, (images, label) in enumerate(loader, 1):
            self.optimizer.zero_grad()
            # pre-handle something
            self.prev_ft = self.feature_extractor(images[0])
            for i in range(1, len(images)):
                s = self.model(self.feature_extractor(images[i]) - self.prev_ft)
                loss = self.compute_loss(s, label[i])
                loss.backward()
            self.optimizer.step()


loader = [(torch.randn(4, 6), torch.randn(4, 2)) for _ in range(2)]
trainer = Trainer()
trainer.train(loader)
''',
        after="""The extractor's output is computed once, with gradient tracking, and every inner
iteration's loss goes through it. The first `backward()` frees that shared part of the graph. Nothing
needs gradients through `prev_ft` here, so the fix computes it under `torch.no_grad()`.""",
    ),
    "02_stored_intermediate_temp_append": dict(
        cause="tensor_reused_across_iterations",
        title="An intermediate result stored for the next iteration",
        story="""The loop keeps the hidden activation `h` of every step in a list, and from the second
step on adds `temp[0].mean()` to the output. The second `loss.backward()` fails: `temp[0]` still belongs
to step 0's graph, which step 0's backward already freed.

(用户笔记: 把第一个 batch 的中间结果 h 保存下来, 用于下一次的 forward 计算, 就会报这个错。)""",
        bad='''import torch
torch.manual_seed(0)
a = torch.tensor([1.0, 2.0, 3.0])
t = torch.tensor([1.0])
fc1 = torch.nn.Linear(3, 5)
fc2 = torch.nn.Linear(5, 1)
loss_func = torch.nn.MSELoss()
sgd = torch.optim.SGD(list(fc1.parameters()) + list(fc2.parameters()), lr=0.01)
temp = []
for i in range(10):
    h = fc1(a)
    out = fc2(h)
    temp.append(h)  # keep the intermediate result for later steps
    if i != 0:
        out = out + temp[0].mean()
    loss = loss_func(out, t)
    sgd.zero_grad()
    loss.backward()
    sgd.step()
    print(round(loss.item(), 6))
''',
        after="""Storing `h.detach()` keeps the value without its graph: later steps use the number, and no
gradient flows back into step 0 (which almost always is what you want).""",
    ),
    "03_two_backward_calls_sharing_y": dict(
        cause="shared_subgraph_multiple_backward",
        title="Two losses that share `y`, each with its own backward",
        story="""`x` is a leaf, `y = x ** 2` is not. Two results, `m` and `n`, are computed from `y`.
`m.backward()` works; `n.backward()` then fails, because the first backward freed what `y`'s node saved.

(用户笔记: m.backward() 之后, 计算图被破坏了, n.backward() 就报错。)""",
        bad='''import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
z = y * 3
m = z.sum()
n = (y * 4).mean()
m.backward()
n.backward()
''',
        after="""Both results depend on `y`. Adding them and calling `backward()` once gives exactly the
same gradient in `x.grad` as two passes would, and needs the graph only once.""",
    ),
    "04_calling_backward_twice": dict(
        cause="double_backward",
        title="Calling backward twice on the same loss",
        story="""The simplest case: the same `computed_loss` is backpropagated twice. The error message
suggests `retain_graph=True`, which makes the error go away, but it also doubles the gradients and keeps
the whole graph in memory. Usually the second call is simply a leftover.""",
        bad='''import torch
torch.manual_seed(0)
in_dim, out_dim = (5, 2)
inputs = torch.randn(in_dim)
target = torch.tensor([1.0, 2.0])
model = torch.nn.Linear(in_dim, out_dim, bias=True)
out = model(inputs)
loss = torch.nn.CrossEntropyLoss()
computed_loss = loss(out, target)
computed_loss.backward()
computed_loss.backward()
for p in model.parameters():
    print(p.grad)
''',
        after="""Removing the repeated call leaves the gradients of one pass, which is what the optimizer
step expects.""",
    ),
    "05_accumulated_loss_in_loop": dict(
        cause="accumulated_loss_backward_in_loop",
        title="A multi-part loss accumulated in a loop, with backward inside it",
        story="""A model with several outputs adds one loss per output, and calls `backward()` inside the
loop. From the second iteration on, `loss` still contains the first part's graph, which the first
backward freed. Adding `retain_graph=True` hides the error and grows memory every step (OOM later).

(用户笔记: 网上的办法是加 retain_graph=True, 但随着训练进行会出现 OOM。)""",
        bad='''import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 12)
criterion = torch.nn.MSELoss()
images = torch.randn(4, 8)
target_var = torch.randn(4, 3)
output = model(images).chunk(4, dim=1)
loss = 0
for j in range(len(output)):
    loss += criterion(output[j], target_var)
    loss.backward()
''',
        after="""Sum the parts first and call `backward()` once, after the loop: the gradient is the same
sum, and the graph is traversed once.""",
    ),
}

FIXED = {
    "01_feature_extractor_before_loop": ("self.prev_ft = self.feature_extractor(images[0])",
                                         "with torch.no_grad():\n                self.prev_ft = self.feature_extractor(images[0])"),
    "02_stored_intermediate_temp_append": ("temp.append(h)", "temp.append(h.detach())"),
    "03_two_backward_calls_sharing_y": ("m.backward()\nn.backward()", "(m + n).backward()"),
    "04_calling_backward_twice": ("computed_loss.backward()\ncomputed_loss.backward()", "computed_loss.backward()"),
    "05_accumulated_loss_in_loop": ("    loss.backward()\n", "loss.backward()\n"),
}


OTHER_ERRORS = dict(
    name="06_other_autograd_errors",
    intro='# Beyond the second backward: the other autograd errors\n\nEach section below raises one autograd error. With the extension loaded, the normal traceback is followed by a plain-words explanation naming the exact line, and ranked fixes (`%gradfix` puts the first one in a new cell). Switch to Chinese with `%nb_autograd lang zh`.',
    setup='%load_ext nb_autograd\nimport torch\ntorch.manual_seed(0)',
    # (prose, code, the cause the code raises; None: runs clean without a GPU)
    sections=[
        ('## 1. A saved tensor modified in place\n`y += ...`, `x.mul_()`, `x[0] = ...`, `nn.ReLU(inplace=True)` or an `optimizer.step()` between the forward and the backward change a tensor autograd saved. The explanation names the operation, its line and the version numbers from the message; the fix is the out-of-place form, or a reordering for optimizer steps (as in GAN loops).',
         'w = torch.randn(5, requires_grad=True)\ny = w.tanh()\ny.mul_(2)\ny.sum().backward()',
         'inplace_modified_saved_tensor'),
        ('## 2. `element 0 of tensors does not require grad`\nThe graph was cut on the way to the loss: here by `torch.no_grad()`. Also recognised: `.detach()`, `.item()`/`.numpy()` round trips, `torch.tensor(loss)`, frozen parameters, a forgotten `requires_grad=True`.',
         'model = torch.nn.Linear(4, 1)\nx, y = torch.randn(8, 4), torch.randn(8, 1)\nwith torch.no_grad():\n    pred = model(x)\nloss = torch.nn.functional.mse_loss(pred, y)\nloss.backward()',
         'no_grad_fn'),
        ("## 3. `grad can be implicitly created only for scalar outputs`\nA per-element loss (`reduction='none'`) is backpropagated. The fix reduces it with `.mean()` (matching the default reduction) or passes `gradient=`.",
         'criterion = torch.nn.MSELoss(reduction="none")\nloss = criterion(model(torch.randn(8, 4)), torch.randn(8, 1))\nloss.backward()',
         'non_scalar_backward'),
        ('## 4. A leaf that requires grad used in an in-place operation\nA manual update outside `torch.no_grad()`. The fix wraps the update lines in `with torch.no_grad():`.',
         'w = torch.zeros(3, requires_grad=True)\nx, y = torch.randn(10, 3), torch.randn(10)\nfor step in range(3):\n    loss = ((x @ w - y) ** 2).mean()\n    loss.backward()\n    w -= 0.1 * w.grad\n    w.grad = None',
         'leaf_inplace'),
        ("## 5. `Can't call numpy() on Tensor that requires grad`\nThe fix converts a detached CPU copy: `.detach().cpu().numpy()`.",
         'history = []\nfor epoch in range(3):\n    loss = model(torch.randn(8, 4)).pow(2).mean()\n    loss.backward()\n    history.append(loss.numpy())',
         'numpy_on_grad_tensor'),
        ('## 6. `Expected all tensors to be on the same device`\nThis needs a GPU: for example a model moved with `model.to("cuda")` while its input stays on the CPU, or `x.to(device)` written as a statement (Tensor.to is not in place, so the result is thrown away). nb_autograd reads both devices (and the argument) from the message, names the tensor left behind, and proposes `x = x.to(device)` or `model(x.to(device))` at the right line.\n\nThe cell below runs anywhere: on a machine with CUDA it raises the error and shows the explanation; on a CPU-only machine everything stays on the CPU and it runs clean.',
         'device = "cuda" if torch.cuda.is_available() else "cpu"\nmodel = torch.nn.Linear(4, 2).to(device)\nx = torch.randn(3, 4)\nx.to(device)\nout = model(x)',
         None),
    ],
)


def fixed_code(name: str) -> str:
    old, new = FIXED[name]
    bad = SCENARIOS[name]["bad"]
    assert old in bad, name
    return bad.replace(old, new, 1)


def notebook(name: str) -> nbformat.NotebookNode:
    s = SCENARIOS[name]
    cells = [
        new_markdown_cell(f"# {s['title']}\n\n{s['story']}"),
        new_code_cell("%load_ext nb_autograd"),
        new_markdown_cell("## The failing cell\n\nRun it: the normal traceback prints first, then nb_autograd's explanation."),
        new_code_cell(s["bad"].rstrip("\n"), metadata={"tags": ["raises-exception"], "nb_autograd": {"cause": s["cause"]}}),
        new_markdown_cell(f"## The fix\n\n{s['after']}\n\n`%gradfix` puts the first proposed fix in a new cell "
                          "below; here is the fixed cell, which runs clean."),
        new_code_cell(fixed_code(name).rstrip("\n"), metadata={"nb_autograd": {"fixed": True}}),
    ]
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                            "language": "python"}})
    return nb


def other_errors_notebook() -> nbformat.NotebookNode:
    """One section per family-B error; each failing cell is tagged with the cause it raises."""
    o = OTHER_ERRORS
    cells = [new_markdown_cell(o["intro"]), new_code_cell(o["setup"])]
    for prose, code, cause in o["sections"]:
        meta = {"tags": ["raises-exception"], "nb_autograd": {"cause": cause}} if cause else {}
        cells += [new_markdown_cell(prose), new_code_cell(code, metadata=meta)]
    return new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                              "language": "python"}})


def write(nb: nbformat.NotebookNode, name: str) -> None:
    for i, cell in enumerate(nb.cells):  # stable ids, so a rebuild changes only what changed
        cell.id = f"cell-{i}"
    nbformat.write(nb, HERE / f"{name}.ipynb")
    print("wrote", name)


def main() -> None:
    for name in SCENARIOS:
        write(notebook(name), name)
    write(other_errors_notebook(), OTHER_ERRORS["name"])


if __name__ == "__main__":
    main()
