# %%
import torch
import torch.nn.functional as F
from sentence_transformers import SentenceTransformer
torch.manual_seed(0)

model = SentenceTransformer('all-MiniLM-L6-v2')
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
# %%
sentences1 = ['A man is eating food.', 'A man is riding a horse.', 'A woman is playing violin.', 'Two men pushed carts through the woods.']
sentences2 = ['A man is eating a piece of bread.', 'A man is riding a white horse on an enclosed ground.', 'A monkey is playing drums.', 'A man is riding a white horse.']
labels = torch.tensor([0.9, 0.95, 0.1, 0.2])
# %%
# tokenize once; the embeddings themselves are computed with the model's forward in the training step
features1 = model.tokenize(sentences1)
features2 = model.tokenize(sentences2)
print(features1['input_ids'].shape, features2['input_ids'].shape)
# %%
model.train()
for epoch in range(3):
    embeddings1 = model(dict(features1))['sentence_embedding']
    embeddings2 = model(dict(features2))['sentence_embedding']
    cos_scores = F.cosine_similarity(embeddings1, embeddings2)
    loss = F.mse_loss(cos_scores, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
