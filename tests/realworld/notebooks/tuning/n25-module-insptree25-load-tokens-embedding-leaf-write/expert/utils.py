"""
Copyright 2023 Google LLC

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    https://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
"""
# utils.py of google/inspiration_tree, cut down to load_tokens (save_rev_samples and the CLIP helpers
# are left out); diffusers / matplotlib are the case's stand-ins.

import os
import torch
from _stub_diffusers import StableDiffusionPipeline  # stands in for diffusers
import numpy as np
import mpl_stub as plt  # stands in for matplotlib.pyplot
import glob


def load_tokens(pipe, data, device):
    """
    Adds the new learned tokens into the predefined dictionary of pipe.
    """
    with torch.no_grad():
        added_tokens = []
        for t_ in data.keys():
            added_tokens.append(t_)
        num_added_tokens = pipe.tokenizer.add_tokens(added_tokens)
        pipe.text_encoder.resize_token_embeddings(len(pipe.tokenizer))
        for token_ in data.keys():
            ref_token = pipe.tokenizer.tokenize(token_)
            ref_indx = pipe.tokenizer.convert_tokens_to_ids(ref_token)[0]
            embd_cur = data[token_].to(device).to(dtype=torch.float16)
            pipe.text_encoder.text_model.embeddings.token_embedding.weight[ref_indx] = embd_cur
