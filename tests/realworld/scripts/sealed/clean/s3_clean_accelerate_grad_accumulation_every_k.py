# source: https://huggingface.co/docs/accelerate/usage_guides/gradient_accumulation
# style: tutorial
# expert: intentional gradient accumulation: the loss is divided by gradient_accumulation_steps, backward every batch, and optimizer.step()/scheduler.step()/optimizer.zero_grad() every k batches
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.9)
loss_function = nn.CrossEntropyLoss()
training_dataloader = [(torch.randn(4, 10), torch.randint(0, 2, (4,))) for _ in range(12)]
device = "cpu"
gradient_accumulation_steps = 4

model.train()
for index, batch in enumerate(training_dataloader):
    inputs, targets = batch
    inputs = inputs.to(device)
    targets = targets.to(device)
    outputs = model(inputs)
    loss = loss_function(outputs, targets)
    loss = loss / gradient_accumulation_steps
    loss.backward()
    if (index + 1) % gradient_accumulation_steps == 0:
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        print(f"step {(index + 1) // gradient_accumulation_steps}: last micro-batch loss {loss.item() * gradient_accumulation_steps:.4f}")
