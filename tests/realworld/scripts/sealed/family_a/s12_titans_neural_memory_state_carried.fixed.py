# source: variant of https://github.com/lucidrains/titans-pytorch/issues/34 (NeuralMemory inside a decoder layer, NeuralMemState passed from one training step to the next; NeuralMemory reduced to a linear memory updated by its surprise gradient)
# style: nlp
# cause: tensor_reused_across_iterations
# line: 166
# expert: The NeuralMemState returned by NeuralMemory holds the memory weights after the test-time updates, computed from this step's keys/values and so attached to its graph; passing it to the next training step makes that step's loss backpropagate into the previous step's freed graph. The maintainer added mem_state_detach (titans_pytorch 0.4.5, commit "add a function for detaching the neural mem state", with a test doing exactly this loop): detach the state before reusing it.
from collections import namedtuple

import torch
from torch import nn, is_tensor
import torch.nn.functional as F
from torch.nn import Linear, Module
from torch.utils._pytree import tree_map

torch.manual_seed(0)

LinearNoBias = lambda *a, **k: Linear(*a, bias=False, **k)

# neural mem state related

NeuralMemState = namedtuple('NeuralMemState', [
    'seq_index',
    'weights',
    'cache_store_segment',
    'states',
    'updates',
])


def mem_state_detach(
    state: NeuralMemState
):
    assert isinstance(state, NeuralMemState)
    state = tree_map(lambda t: t.detach() if is_tensor(t) else t, tuple(state))
    return NeuralMemState(*state)


def exists(v):
    return v is not None


class NeuralMemory(Module):
    """Linear associative memory M, written at test time by a momentum step on the surprise ||k M - v||^2."""
    def __init__(self, dim, chunk_size=4, momentum=True):
        super().__init__()
        self.dim = dim
        self.chunk_size = chunk_size
        self.to_queries = LinearNoBias(dim, dim)
        self.to_keys = LinearNoBias(dim, dim)
        self.to_values = LinearNoBias(dim, dim)
        self.to_adaptive_step = Linear(dim, 1)
        self.to_momentum = Linear(dim, 1)
        self.to_decay_factor = Linear(dim, 1)
        self.memory_weights = nn.Parameter(torch.randn(dim, dim) * 0.02)
        self.momentum = momentum

    def init_weights(self, batch):
        return self.memory_weights.unsqueeze(0).expand(batch, -1, -1)

    def store_memories(self, seq, weights, past_state=None):
        batch, seq_len, _ = seq.shape
        updates = []
        surprise_momentum = past_state if exists(past_state) else torch.zeros_like(weights)
        for start in range(0, seq_len, self.chunk_size):
            chunk = seq[:, start:start + self.chunk_size]
            keys = F.normalize(self.to_keys(chunk), dim=-1)
            values = self.to_values(chunk)
            adaptive_lr = self.to_adaptive_step(chunk).sigmoid().mean(dim=1, keepdim=True)
            decay = self.to_decay_factor(chunk).sigmoid().mean(dim=1, keepdim=True)
            # gradient of the associative loss ||keys @ W - values||^2 wrt W (the "surprise")
            pred = keys @ weights
            grad = 2 * keys.transpose(1, 2) @ (pred - values) / chunk.shape[1]
            if self.momentum:
                eta = self.to_momentum(chunk).sigmoid().mean(dim=1, keepdim=True)
                surprise_momentum = eta * surprise_momentum - adaptive_lr * grad
            else:
                surprise_momentum = -adaptive_lr * grad
            weights = (1. - decay) * weights + surprise_momentum
            updates.append(weights)
        return weights, surprise_momentum, torch.stack(updates, dim=1)

    def retrieve_memories(self, seq, weights):
        queries = F.normalize(self.to_queries(seq), dim=-1)
        return queries @ weights

    def forward(self, seq, store_seq=None, state: NeuralMemState | None = None, detach_mem_state=False):
        batch, seq_len = seq.shape[:2]
        store_seq = seq if store_seq is None else store_seq

        # handle previous state init
        if not exists(state):
            state = (0, None, None, None, None)

        seq_index, weights, cache_store_seq, past_state, updates = state

        if not exists(weights):
            weights = self.init_weights(batch)

        # write this segment into the memory, then retrieve from the updated memory
        next_weights, next_past_state, updates = self.store_memories(store_seq, weights, past_state)
        retrieved = self.retrieve_memories(seq, next_weights)

        next_neural_mem_state = NeuralMemState(
            seq_index + seq_len,
            next_weights,
            None,
            next_past_state,
            updates
        )

        if detach_mem_state:
            next_neural_mem_state = mem_state_detach(next_neural_mem_state)

        return retrieved, next_neural_mem_state


class TitanDecoderLayer(nn.Module):
    """Decoder layer with sliding-window self attention and a neural memory used as a gate (MAG) or a layer (MAL)."""
    def __init__(self, hidden_size, num_heads, gated: bool, segment_size: int):
        super().__init__()
        self.gated = gated
        self.hidden_size = hidden_size
        self.chunk_size = segment_size
        self.self_attn = nn.MultiheadAttention(hidden_size, num_heads, batch_first=True)
        self.memory = NeuralMemory(dim=hidden_size, chunk_size=self.chunk_size)
        self.input_layernorm = nn.LayerNorm(hidden_size)
        self.post_attention_layernorm = nn.LayerNorm(hidden_size)
        self.mlp = nn.Sequential(nn.Linear(hidden_size, 4 * hidden_size), nn.GELU(), nn.Linear(4 * hidden_size, hidden_size))

    def forward(self, hidden_states, mem_state=None):
        residual = hidden_states
        hidden_states = self.input_layernorm(hidden_states)
        n = hidden_states.shape[1]
        causal = torch.ones(n, n, dtype=torch.bool).triu(1) | torch.ones(n, n, dtype=torch.bool).tril(-self.chunk_size)
        retrieved, next_mem_state = self.memory(hidden_states, state=mem_state)
        if self.gated:
            attn_out, _ = self.self_attn(hidden_states, hidden_states, hidden_states, attn_mask=causal)
            hidden_states = attn_out * retrieved.sigmoid()
        else:
            hidden_states = hidden_states + retrieved
            hidden_states, _ = self.self_attn(hidden_states, hidden_states, hidden_states, attn_mask=causal)
        hidden_states = residual + hidden_states
        hidden_states = hidden_states + self.mlp(self.post_attention_layernorm(hidden_states))
        return hidden_states, next_mem_state


class TitanModel(nn.Module):
    def __init__(self, vocab_size=64, hidden_size=32, num_heads=4, segment_size=4):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.layer = TitanDecoderLayer(hidden_size, num_heads, gated=True, segment_size=segment_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size)

    def forward(self, input_ids, mem_state=None):
        hidden, mem_state = self.layer(self.embed_tokens(input_ids), mem_state=mem_state)
        return self.lm_head(hidden), mem_state


model = TitanModel()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

# a long document fed segment by segment, memory carried across segments
tokens = torch.randint(0, 64, (2, 4 * 16 + 1))
mem_state = None
for step in range(4):
    seg = tokens[:, step * 16:(step + 1) * 16 + 1]
    logits, mem_state = model(seg[:, :-1], mem_state=mem_state)
    mem_state = mem_state_detach(mem_state)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), seg[:, 1:].reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print('step', step, 'loss', round(loss.item(), 4), 'mem seq_index', mem_state.seq_index)
