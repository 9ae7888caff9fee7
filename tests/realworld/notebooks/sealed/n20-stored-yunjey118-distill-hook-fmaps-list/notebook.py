# source: https://github.com/yunjey/pytorch-tutorial/issues/118 (the reporter's hook-based distillation: register_forward_hook on a middle layer of the teacher and of the student, feature maps collected in tfmaps_list / sfmaps_list and fed to StudentLoss; small conv teacher/student and random images instead of the reporter's networks, CPU instead of .cuda(), the [0] indexing of the 0.3-era loss dropped)
# scenario: stored_activations
# cause: tensor_reused_across_iterations
# root: cell 0 line 26
# expert: The forward hooks append every batch's feature maps to the module-level lists and nothing empties them, so at the second batch StudentLoss loops over the first batch's student maps too, whose graph was freed by the first backward; empty the lists at the start of every iteration (tfmaps_list.clear(); sfmaps_list.clear()) so the loss only sees the current batch's maps.
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

class SmallNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 3, padding=1)
        self.conv2 = nn.Conv2d(width, width, 3, padding=1)
        self.fc = nn.Linear(width, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        return self.fc(x.mean((2, 3)))

teacher = SmallNet(16)
student = SmallNet(8)

tfmaps_list = []
sfmaps_list = []
def teacher_hook(module, input, output):
    tfmaps_list.append(output)
def student_hook(module, input, output):
    sfmaps_list.append(output)
teacher.conv2.register_forward_hook(teacher_hook)
student.conv2.register_forward_hook(student_hook)
# %%
class StudentLoss(nn.Module):
    def __init__(self):
        super(StudentLoss, self).__init__()

    def forward(self, tfmaps_list, sfmaps_list, open_conv):
        tfmaps_list_new = []
        ## get specific feature maps
        for idl in range(0, len(sfmaps_list)):
            sfmaps = sfmaps_list[idl]
            tfmaps = tfmaps_list[idl]
            tfmaps_new = torch.Tensor(sfmaps.shape[0], sfmaps.shape[1],
                                      sfmaps.shape[2], sfmaps.shape[3]).zero_()
            for idx in range(0, sfmaps.shape[0]):
                for idy in range(0, sfmaps.shape[1]):
                    tfmaps_new[idx][idy] = tfmaps[idx][open_conv[2][idy]]
            tfmaps_list_new.append(tfmaps_new.detach())

        fmaps_losses = None
        for idl in range(0, len(sfmaps_list)):
            sfmaps = sfmaps_list[idl]
            tfmaps = tfmaps_list_new[idl]
            fmaps_loss = F.mse_loss(sfmaps.view(sfmaps.shape[0], -1), tfmaps.view(tfmaps.shape[0], -1))
            if fmaps_losses is None:
                fmaps_losses = fmaps_loss
            else:
                fmaps_losses = fmaps_losses + fmaps_loss
        return fmaps_losses
# %%
open_conv = [None, None, [0, 2, 4, 6, 8, 10, 12, 14]]  # teacher channels kept for the student
criterion = StudentLoss()
optimizer = torch.optim.SGD(student.parameters(), lr=0.01, momentum=0.9)
images = torch.randn(3, 4, 3, 8, 8)
# %%
for step in range(3):
    inputs = images[step]
    teacher(inputs)
    student(inputs)
    loss = criterion(tfmaps_list, sfmaps_list, open_conv)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
