# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributions as dist
from types import SimpleNamespace

torch.manual_seed(0)
# %%
class TinyGPT2LMHeadModel(nn.Module):
    def __init__(self, vocab_size=16, n_embd=32, n_positions=16):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(n_positions, n_embd)
        self.h = nn.TransformerEncoderLayer(n_embd, 4, 64, dropout=0.0, batch_first=True)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, input_ids):
        T = input_ids.shape[1]
        x = self.wte(input_ids) + self.wpe(torch.arange(T))
        mask = torch.triu(torch.full((T, T), float('-inf')), diagonal=1)
        return SimpleNamespace(logits=self.lm_head(self.h(x, src_mask=mask)))

    @torch.no_grad()
    def generate(self, input_ids, max_length=8, do_sample=True, top_k=0, output_scores=False,
                 return_dict_in_generate=False):
        scores = []
        while input_ids.shape[1] < max_length:
            next_token_logits = self(input_ids).logits[:, -1, :]
            if top_k > 0:
                kth = torch.topk(next_token_logits, top_k)[0][..., -1, None]
                next_token_logits = next_token_logits.masked_fill(next_token_logits < kth, float('-inf'))
            scores.append(next_token_logits)
            probs = F.softmax(next_token_logits, dim=-1)
            next_tokens = torch.multinomial(probs, num_samples=1) if do_sample else probs.argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_tokens], dim=-1)
        if return_dict_in_generate:
            return SimpleNamespace(sequences=input_ids, scores=tuple(scores) if output_scores else None)
        return input_ids


model = TinyGPT2LMHeadModel()
# %%
TARGET_TOKEN = 5


def reward_fn(sequences):
    # reward: how often the continuation uses TARGET_TOKEN
    return (sequences[:, 1:] == TARGET_TOKEN).float().mean(dim=1)


optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
batch_size = 6
prompt = torch.full((batch_size, 1), 1, dtype=torch.long)


def generate_and_trace_log_probs(model, batch_size=32, max_len=100, top_k=0):
    # sampling loop outside generate(): gradients stay on, log-probs of the sampled tokens are traced
    initial_pool = torch.full(size=(batch_size, 1), fill_value=1, dtype=torch.long,
                              device=next(model.parameters()).device)
    past_tokens = initial_pool
    log_probs = []
    for i in range(max_len - 1):
        logits = model(past_tokens).logits[:, -1, :]
        if top_k > 0:
            kth = torch.topk(logits, top_k)[0][..., -1, None]
            logits = logits.masked_fill(logits < kth, float('-inf'))
        m = dist.Categorical(logits=logits)
        current_tokens = m.sample()
        log_probs.append(m.log_prob(current_tokens))
        past_tokens = torch.cat([past_tokens, current_tokens.unsqueeze(-1)], dim=-1)
    return past_tokens, torch.stack(log_probs, dim=1)
# %%
for step in range(3):
    sequences, token_log_probs = generate_and_trace_log_probs(model, batch_size=batch_size, max_len=8)
    log_probs = token_log_probs.sum(-1)

    rewards = reward_fn(sequences)
    baseline = rewards.mean()
    loss = -((rewards - baseline) * log_probs).mean()

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: reward {rewards.mean().item():.3f}")
