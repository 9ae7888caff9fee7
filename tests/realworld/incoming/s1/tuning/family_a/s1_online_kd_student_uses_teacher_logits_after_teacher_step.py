# source: variant of https://github.com/chxy95/Deep-Mutual-Learning/issues/5
# style: distillation
# cause: shared_subgraph_multiple_backward
# line: 33
# expert: the teacher is trained in the same step and its loss.backward() frees teacher_out's graph, which the student's distillation term then reaches; detach the teacher output used as the soft target (teacher_out = teacher_out.detach()), as suggested in the thread
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
T = 4.0


def distillation_loss(student_logits, teacher_logits, T):
    return F.kl_div(F.log_softmax(student_logits / T, dim=1), F.softmax(teacher_logits / T, dim=1), reduction='batchmean') * T * T


teacher = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 5))
student = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 5))
opt_t = torch.optim.SGD(teacher.parameters(), lr=0.05, momentum=0.9)
opt_s = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)
train_loader = [(torch.randn(8, 12), torch.randint(0, 5, (8,))) for _ in range(3)]

for epoch in range(2):
    for x, y in train_loader:
        teacher_out = teacher(x)
        loss_t = F.cross_entropy(teacher_out, y)
        opt_t.zero_grad()
        loss_t.backward()
        opt_t.step()

        student_out = student(x)
        loss_s = F.cross_entropy(student_out, y) + 0.5 * distillation_loss(student_out, teacher_out, T)
        opt_s.zero_grad()
        loss_s.backward()
        opt_s.step()
    print(epoch, loss_t.item(), loss_s.item())
