"""A tiny offline stand-in for sentence_transformers.SentenceTransformer: same call surface
(tokenize, forward returning a features dict with 'sentence_embedding', encode). As in the real
library, encode() puts the model in eval mode and runs the forward pass under torch.no_grad(), so
the embeddings it returns carry no graph."""
import numpy as np
import torch
import torch.nn as nn


class Transformer(nn.Module):
    def __init__(self, vocab_size=512, dim=16, max_seq_length=16):
        super().__init__()
        self.vocab_size, self.max_seq_length = vocab_size, max_seq_length
        self.embeddings = nn.Embedding(vocab_size, dim)
        self.layer = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))

    def tokenize(self, texts):
        ids = [[sum(map(ord, w)) % self.vocab_size for w in t.lower().split()][:self.max_seq_length] for t in texts]
        n = max(len(i) for i in ids)
        input_ids = torch.tensor([i + [0] * (n - len(i)) for i in ids])
        attention_mask = torch.tensor([[1] * len(i) + [0] * (n - len(i)) for i in ids])
        return {'input_ids': input_ids, 'attention_mask': attention_mask}

    def forward(self, features):
        features['token_embeddings'] = self.layer(self.embeddings(features['input_ids']))
        return features


class Pooling(nn.Module):
    def forward(self, features):
        mask = features['attention_mask'].unsqueeze(-1).float()
        features['sentence_embedding'] = (features['token_embeddings'] * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return features


class SentenceTransformer(nn.Sequential):
    def __init__(self, model_name_or_path=None):
        torch.manual_seed(0)
        super().__init__(Transformer(), Pooling())

    def tokenize(self, texts):
        return self[0].tokenize(texts)

    def encode(self, sentences, batch_size=32, output_value='sentence_embedding',
               convert_to_numpy=True, convert_to_tensor=False):
        self.eval()
        if convert_to_tensor:
            convert_to_numpy = False
        all_embeddings = []
        for start_index in range(0, len(sentences), batch_size):
            sentences_batch = sentences[start_index:start_index + batch_size]
            features = self.tokenize(sentences_batch)
            with torch.no_grad():
                out_features = self.forward(features)
                embeddings = out_features[output_value].detach()
                all_embeddings.extend(embeddings)
        if convert_to_tensor:
            all_embeddings = torch.stack(all_embeddings)
        elif convert_to_numpy:
            all_embeddings = np.asarray([emb.numpy() for emb in all_embeddings])
        return all_embeddings
