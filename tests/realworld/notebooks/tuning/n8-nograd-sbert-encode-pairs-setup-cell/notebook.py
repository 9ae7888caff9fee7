# source: variant of https://github.com/huggingface/sentence-transformers/issues/274
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 2 line 2
# expert: model.encode() always runs the model under torch.no_grad() (and in eval mode), so the embeddings made once in the setup cell carry no graph and the cosine loss in the training cell has nothing to backpropagate into; as the maintainer answered, tokenize the sentences and call the model's forward (model(features)['sentence_embedding']) inside the training step instead of encode()
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
# sentence embeddings, computed once
embeddings1 = model.encode(sentences1, convert_to_tensor=True)
embeddings2 = model.encode(sentences2, convert_to_tensor=True)
print(embeddings1.shape, embeddings2.shape)
# %%
model.train()
for epoch in range(3):
    cos_scores = F.cosine_similarity(embeddings1, embeddings2)
    loss = F.mse_loss(cos_scores, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
