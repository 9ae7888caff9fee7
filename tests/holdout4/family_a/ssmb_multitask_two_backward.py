# cause: shared_subgraph_multiple_backward
# line: 22
# why: age_loss and gender_loss share the encoder output z and each gets its own backward, so the second hits the freed encoder graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(12, 32), nn.ReLU())
heads = nn.ModuleDict({"age": nn.Linear(32, 1), "gender": nn.Linear(32, 2)})
opt = torch.optim.Adam(list(encoder.parameters()) + list(heads.parameters()), lr=1e-3)
X = torch.randn(48, 12)
age = torch.randn(48, 1)
gender = torch.randint(0, 2, (48,))
log = {"age": [], "gender": []}
for epoch in range(3):
    for i in range(0, 48, 16):
        z = encoder(X[i:i + 16])
        age_loss = F.mse_loss(heads["age"](z), age[i:i + 16])
        gender_loss = F.cross_entropy(heads["gender"](z), gender[i:i + 16])
        opt.zero_grad()
        age_loss.backward()
        gender_loss.backward()
        opt.step()
        log["age"].append(age_loss.item())
        log["gender"].append(gender_loss.item())
    print(epoch, {k: round(v[-1], 3) for k, v in log.items()})
