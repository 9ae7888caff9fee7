# source: variant of https://github.com/huggingface/transformers/issues/3720 (a tiny GPT-2-style model whose generate() is decorated with @torch.no_grad() like GenerationMixin.generate; policy-gradient fine-tuning on the scores it returns, as the author wanted)
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 1 line 15
# expert: generate() runs under @torch.no_grad() (it is meant for inference), so the per-step scores it returns carry no graph and the REINFORCE loss built from them cannot be backpropagated. The thread's answer is not to train through generate() but to write the sampling loop yourself with gradients on, tracing the log-probabilities of the sampled tokens (generate_and_trace_log_probs), and build the loss from those.
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
# %%
for step in range(3):
    outputs = model.generate(prompt, max_length=8, do_sample=True, output_scores=True, return_dict_in_generate=True)
    generated = outputs.sequences[:, prompt.shape[1]:]
    step_log_probs = torch.stack(outputs.scores, dim=1).log_softmax(-1)
    log_probs = step_log_probs.gather(-1, generated.unsqueeze(-1)).squeeze(-1).sum(-1)

    rewards = reward_fn(outputs.sequences)
    baseline = rewards.mean()
    loss = -((rewards - baseline) * log_probs).mean()

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: reward {rewards.mean().item():.3f}")
