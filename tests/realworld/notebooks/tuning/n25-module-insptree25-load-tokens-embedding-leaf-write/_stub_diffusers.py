"""Stand-in for diffusers.StableDiffusionPipeline (and the CLIP tokenizer / text encoder it holds), just
what utils.load_tokens touches: tokenizer.add_tokens / tokenize / convert_tokens_to_ids / len, and
text_encoder.resize_token_embeddings / text_model.embeddings.token_embedding. Small random weights
instead of runwayml/stable-diffusion-v1-5."""
import torch
import torch.nn as nn


class CLIPTokenizer:
    def __init__(self, vocab_size=64):
        self.vocab = {f"tok{i}": i for i in range(vocab_size)}

    def __len__(self):
        return len(self.vocab)

    def add_tokens(self, tokens):
        added = 0
        for t in tokens:
            if t not in self.vocab:
                self.vocab[t] = len(self.vocab)
                added += 1
        return added

    def tokenize(self, text):
        return [w for w in text.split()]

    def convert_tokens_to_ids(self, tokens):
        return [self.vocab.get(t, 0) for t in tokens]


class CLIPTextEmbeddings(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, dim)


class CLIPTextTransformer(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.embeddings = CLIPTextEmbeddings(vocab_size, dim)


class CLIPTextModel(nn.Module):
    def __init__(self, vocab_size=64, dim=16):
        super().__init__()
        self.text_model = CLIPTextTransformer(vocab_size, dim)

    def get_input_embeddings(self):
        return self.text_model.embeddings.token_embedding

    def resize_token_embeddings(self, new_num_tokens):
        old = self.get_input_embeddings()
        new = nn.Embedding(new_num_tokens, old.embedding_dim).to(old.weight.device, old.weight.dtype)
        n = min(old.num_embeddings, new_num_tokens)
        new.weight.data[:n, :] = old.weight.data[:n, :]
        self.text_model.embeddings.token_embedding = new
        return new


class StableDiffusionPipeline:
    def __init__(self, tokenizer, text_encoder):
        self.tokenizer = tokenizer
        self.text_encoder = text_encoder

    @classmethod
    def from_pretrained(cls, model_id, torch_dtype=None, **kwargs):
        torch.manual_seed(0)
        text_encoder = CLIPTextModel()
        if torch_dtype is not None:
            text_encoder = text_encoder.to(torch_dtype)
        return cls(CLIPTokenizer(), text_encoder)

    def to(self, device):
        self.text_encoder = self.text_encoder.to(device)
        return self
