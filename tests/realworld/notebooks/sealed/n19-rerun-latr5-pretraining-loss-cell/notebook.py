# source: https://github.com/uakarsh/latr/issues/5
# scenario: rerun
# order: 0 1 2 3 4 5 5
# cause: double_backward
# root: cell 4 line 3
# expert: In examples/LaTr_PreTraining.ipynb the forward pass (extracted_feat_from_t5 = pre_training_model(...)) is its own block and the next block only builds the loss and calls loss.backward(); running that loss block a second time, as the maintainer asks about, backpropagates again through the forward graph the first run already freed. Recompute the forward pass in the block that does the backward (or re-run the forward block first) so every backward gets a fresh graph.
# %%
## Adding the path / imports (the notebook clones the repo and imports from src/latr)
import numpy as np
import torch
import torch.nn as nn

PAD_TOKEN_BOX = [0, 0, 0, 0]
max_seq_len = 16
batch_size = 2
t5_model = "t5-tiny"

# # Setting up the device for GPU usage
from torch import cuda
device = 'cuda' if cuda.is_available() else 'cpu'
torch.manual_seed(0)
# %%
## modeling.py (LaTr_for_pretraining); a tiny T5 stand-in replaces T5ForConditionalGeneration.from_pretrained

class T5Block(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.layer_norm = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, 2, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))

    def forward(self, hidden_states):
        h = self.layer_norm(hidden_states)
        hidden_states = hidden_states + self.attn(h, h, h, need_weights=False)[0]
        hidden_states = hidden_states + self.ff(hidden_states)
        return (hidden_states,)   # T5Block returns a tuple

class T5Stack(nn.Module):
    def __init__(self, shared, d_model, n_layers):
        super().__init__()
        self.embed_tokens = shared
        self.block = nn.ModuleList([T5Block(d_model) for _ in range(n_layers)])
        self.final_layer_norm = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(0.1)

class T5ForConditionalGeneration(nn.Module):
    def __init__(self, vocab_size, d_model, n_layers=2):
        super().__init__()
        self.shared = nn.Embedding(vocab_size, d_model)
        self.encoder = T5Stack(self.shared, d_model, n_layers)
        self.decoder = T5Stack(self.shared, d_model, n_layers)

    @classmethod
    def from_pretrained(cls, name, vocab_size=64, d_model=16):
        return cls(vocab_size, d_model)


class LaTr_for_pretraining(nn.Module):
    def __init__(self, config, classify = False):

      super(LaTr_for_pretraining, self).__init__()
      self.vocab_size = config['vocab_size']

      model = T5ForConditionalGeneration.from_pretrained(config['t5_model'], config['vocab_size'], config['hidden_state'])
      dummy_encoder = list(nn.Sequential(*list(model.encoder.children())[1:]).children())   ## Removing the Embedding layer
      dummy_decoder = list(nn.Sequential(*list(model.decoder.children())[1:]).children())   ## Removing the Embedding Layer

      ## Using the T5 Encoder

      self.list_encoder = nn.Sequential(*list(dummy_encoder[0]))
      self.residue_encoder = nn.Sequential(*list(dummy_encoder[1:]))
      self.list_decoder = nn.Sequential(*list(dummy_decoder[0]))
      self.residue_decoder = nn.Sequential(*list(dummy_decoder[1:]))

      ## We use the embeddings of T5 for encoding the tokenized words
      self.language_emb = nn.Embedding.from_pretrained(model.shared.weight)

      self.top_left_x = nn.Embedding(config['max_2d_position_embeddings'], config['hidden_state'])
      self.bottom_right_x = nn.Embedding(config['max_2d_position_embeddings'], config['hidden_state'])
      self.top_left_y = nn.Embedding(config['max_2d_position_embeddings'], config['hidden_state'])
      self.bottom_right_y = nn.Embedding(config['max_2d_position_embeddings'], config['hidden_state'])
      self.width_emb = nn.Embedding(config['max_2d_position_embeddings'], config['hidden_state'])
      self.height_emb = nn.Embedding(config['max_2d_position_embeddings'], config['hidden_state'])

      self.classify = classify
      self.classification_layer = nn.Linear(config['hidden_state'], config['classes'])

    def forward(self, tokens, coordinates, predict_proba = False, predict_class = False):

        batch_size = len(tokens)
        embeded_feature = self.language_emb(tokens)

        top_left_x_feat =     self.top_left_x(coordinates[:,:, 0])
        top_left_y_feat =     self.top_left_y(coordinates[:,:, 1])
        bottom_right_x_feat = self.bottom_right_x(coordinates[:,:, 2])
        bottom_right_y_feat = self.bottom_right_y(coordinates[:,:, 3])
        width_feat =          self.width_emb(coordinates[:,:, 4])
        height_feat =         self.height_emb(coordinates[:,:, 5])

        total_feat = embeded_feature + top_left_x_feat + top_left_y_feat + bottom_right_x_feat + bottom_right_y_feat + width_feat + height_feat

        ## Extracting the feature

        for layer in self.list_encoder:
          total_feat = layer(total_feat)[0]
        total_feat = self.residue_encoder(total_feat)

        for layer in self.list_decoder:
          total_feat = layer(total_feat)[0]
        total_feat = self.residue_decoder(total_feat)

        if  self.classify :
          total_feat = self.classification_layer(total_feat)

        if predict_proba:
          return total_feat.softmax(axis = -1)

        if predict_class:
          return total_feat.argmax(axis = -1)

        return total_feat
# %%
## One batch of the DataLoader: random OCR tokens and their (x0, y0, x1, y1, w, h) boxes instead of the IDL sample

tokenized_words = torch.randint(1, 64, (batch_size, max_seq_len))
masked_tokenized_words = tokenized_words.clone()
masked_tokenized_words[torch.rand(batch_size, max_seq_len) < 0.15] = 0
xy = torch.randint(0, 500, (batch_size, max_seq_len, 2))
wh = torch.randint(1, 500, (batch_size, max_seq_len, 2))
masked_boxes = torch.cat([xy, xy + wh, wh], dim=-1)

masked_boxes = masked_boxes.to(device)
masked_tokenized_words = masked_tokenized_words.to(device)
tokenized_words = tokenized_words.to(device)
# %%
## Defining the Config file, for the model used for pre-training

config = {
    't5_model': 't5-tiny',
    'vocab_size': 64,
    'hidden_state': 16,
    'max_2d_position_embeddings': 1001,
    'classes': 64
}
pre_training_model = LaTr_for_pretraining(config, classify = True).to(device)
# %%
## Extracting the predictions from the model

extracted_feat_from_t5 = pre_training_model(masked_tokenized_words, masked_boxes)
# %%
## Initializing, the loss and optimizer

criterion = nn.CrossEntropyLoss().to(device)
optimizer = torch.optim.AdamW(pre_training_model.parameters(), lr= 5e-5)

## Calculating the loss and back propagating
optimizer.zero_grad()
loss = criterion(extracted_feat_from_t5.transpose(1,2), tokenized_words.long())
loss.backward()
optimizer.step()
print(loss)
