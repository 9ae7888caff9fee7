# source: variant of https://github.com/yunjey/pytorch-tutorial/issues/118 (hook-based feature distillation as in the issue, but the teacher's middle-layer maps are kept in a dict by name and computed once for a fixed batch in their own cell, as one does when the teacher is expensive; the teacher is not frozen; small conv nets and random images)
# scenario: stored_activations
# cause: computed_before_loop
# root: cell 1 line 4
# expert: The teacher's feature maps are stored by the hook with their graph (the teacher's parameters still require grad) and computed once in the caching cell; every distillation step's MSE backpropagates into that cached teacher graph, which the first step freed; store them detached in the hook (teacher_feats[name] = output.detach()) or freeze the teacher / cache them under torch.no_grad().
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

def make_net(width):
    return nn.Sequential(
        nn.Conv2d(3, width, 3, padding=1), nn.ReLU(),
        nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(width, 10))

teacher = make_net(16)
student = make_net(16)
# %%
teacher_feats, student_feats = {}, {}
def save_to(store, name):
    def hook(module, input, output):
        store[name] = output
    return hook

teacher[2].register_forward_hook(save_to(teacher_feats, 'conv2'))
student[2].register_forward_hook(save_to(student_feats, 'conv2'))
# %%
images = torch.randn(8, 3, 12, 12)
labels = torch.randint(0, 10, (8,))
teacher_logits = teacher(images)
print({k: v.shape for k, v in teacher_feats.items()})
# %%
optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
for step in range(4):
    optimizer.zero_grad()
    logits = student(images)
    loss = F.cross_entropy(logits, labels) + F.mse_loss(student_feats['conv2'], teacher_feats['conv2'])
    loss.backward()
    optimizer.step()
    print(step, loss.item())
