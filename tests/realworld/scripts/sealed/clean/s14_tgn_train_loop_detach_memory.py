# source: https://github.com/twitter-research/tgn/blob/master/train_self_supervised.py (the training loop with its tgn.memory.detach_memory() after every optimizer step, "so we don't backpropagate to the start of time"; Memory of modules/memory.py, LastMessageAggregator, IdentityMessageFunction, GRUMemoryUpdater, TimeEncode, MergeLayer and TGN.compute_temporal_embeddings with memory_update_at_start=True and the identity embedding, on a random interaction stream of 10 nodes)
# style: gnn
# expert: Correct: the node memory and the raw messages stored for the next batch are built with autograd on (the memory updater has to be trained through get_updated_memory at the start of the next batch), but after each loss.backward()/optimizer.step() Memory.detach_memory() detaches the memory parameter in place and replaces every stored message by its detached copy, so the next batch's graph starts from constants and never reaches a freed graph or stale weights.
from collections import defaultdict

import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
np.random.seed(0)


# ---- modules/memory.py --------------------------------------------------------
class Memory(nn.Module):

  def __init__(self, n_nodes, memory_dimension, input_dimension, message_dimension=None,
               device="cpu", combination_method='sum'):
    super(Memory, self).__init__()
    self.n_nodes = n_nodes
    self.memory_dimension = memory_dimension
    self.input_dimension = input_dimension
    self.message_dimension = message_dimension
    self.device = device

    self.combination_method = combination_method

    self.__init_memory__()

  def __init_memory__(self):
    """
    Initializes the memory to all zeros. It should be called at the start of each epoch.
    """
    # Treat memory as parameter so that it is saved and loaded together with the model
    self.memory = nn.Parameter(torch.zeros((self.n_nodes, self.memory_dimension)).to(self.device),
                               requires_grad=False)
    self.last_update = nn.Parameter(torch.zeros(self.n_nodes).to(self.device),
                                    requires_grad=False)

    self.messages = defaultdict(list)

  def store_raw_messages(self, nodes, node_id_to_messages):
    for node in nodes:
      self.messages[node].extend(node_id_to_messages[node])

  def get_memory(self, node_idxs):
    return self.memory[node_idxs, :]

  def set_memory(self, node_idxs, values):
    self.memory[node_idxs, :] = values

  def get_last_update(self, node_idxs):
    return self.last_update[node_idxs]

  def detach_memory(self):
    self.memory.detach_()

    # Detach all stored messages
    for k, v in self.messages.items():
      new_node_messages = []
      for message in v:
        new_node_messages.append((message[0].detach(), message[1]))

      self.messages[k] = new_node_messages

  def clear_messages(self, nodes):
    for node in nodes:
      self.messages[node] = []


# ---- modules/message_aggregator.py, message_function.py, memory_updater.py -----
class LastMessageAggregator(nn.Module):
  def aggregate(self, node_ids, messages):
    """Only keep the last message for each node"""
    unique_node_ids = np.unique(node_ids)
    unique_messages = []
    unique_timestamps = []

    to_update_node_ids = []

    for node_id in unique_node_ids:
        if len(messages[node_id]) > 0:
            to_update_node_ids.append(node_id)
            unique_messages.append(messages[node_id][-1][0])
            unique_timestamps.append(messages[node_id][-1][1])

    unique_messages = torch.stack(unique_messages) if len(to_update_node_ids) > 0 else []
    unique_timestamps = torch.stack(unique_timestamps) if len(to_update_node_ids) > 0 else []

    return to_update_node_ids, unique_messages, unique_timestamps


class IdentityMessageFunction(nn.Module):
  def compute_message(self, raw_messages):
    return raw_messages


class GRUMemoryUpdater(nn.Module):
  def __init__(self, memory, message_dimension, memory_dimension, device):
    super(GRUMemoryUpdater, self).__init__()
    self.memory = memory
    self.message_dimension = message_dimension
    self.device = device
    self.memory_updater = nn.GRUCell(input_size=message_dimension,
                                     hidden_size=memory_dimension)

  def update_memory(self, unique_node_ids, unique_messages, timestamps):
    if len(unique_node_ids) <= 0:
      return

    assert (self.memory.get_last_update(unique_node_ids) <= timestamps).all().item(), "Trying to " \
                                                                                     "update memory to time in the past"

    memory = self.memory.get_memory(unique_node_ids)
    self.memory.last_update[unique_node_ids] = timestamps

    updated_memory = self.memory_updater(unique_messages, memory)

    self.memory.set_memory(unique_node_ids, updated_memory)

  def get_updated_memory(self, unique_node_ids, unique_messages, timestamps):
    if len(unique_node_ids) <= 0:
      return self.memory.memory.data.clone(), self.memory.last_update.data.clone()

    assert (self.memory.get_last_update(unique_node_ids) <= timestamps).all().item(), "Trying to " \
                                                                                     "update memory to time in the past"

    updated_memory = self.memory.memory.data.clone()
    updated_memory[unique_node_ids] = self.memory_updater(unique_messages, updated_memory[unique_node_ids])

    updated_last_update = self.memory.last_update.data.clone()
    updated_last_update[unique_node_ids] = timestamps

    return updated_memory, updated_last_update


# ---- model/time_encoding.py, utils/utils.py -------------------------------------
class TimeEncode(torch.nn.Module):
  # Time Encoding proposed by TGAT
  def __init__(self, dimension):
    super(TimeEncode, self).__init__()

    self.dimension = dimension
    self.w = torch.nn.Linear(1, dimension)

    self.w.weight = torch.nn.Parameter((torch.from_numpy(1 / 10 ** np.linspace(0, 9, dimension)))
                                       .float().reshape(dimension, -1))
    self.w.bias = torch.nn.Parameter(torch.zeros(dimension).float())

  def forward(self, t):
    # t has shape [batch_size, seq_len]
    t = t.unsqueeze(dim=2)
    output = torch.cos(self.w(t))
    return output


class MergeLayer(torch.nn.Module):
  def __init__(self, dim1, dim2, dim3, dim4):
    super().__init__()
    self.fc1 = torch.nn.Linear(dim1 + dim2, dim3)
    self.fc2 = torch.nn.Linear(dim3, dim4)
    self.act = torch.nn.ReLU()

    torch.nn.init.xavier_normal_(self.fc1.weight)
    torch.nn.init.xavier_normal_(self.fc2.weight)

  def forward(self, x1, x2):
    x = torch.cat([x1, x2], dim=1)
    h = self.act(self.fc1(x))
    return self.fc2(h)


# ---- model/tgn.py (identity embedding, memory_update_at_start=True) -------------
class TGN(torch.nn.Module):
  def __init__(self, node_features, edge_features, device, memory_dimension=8):
    super(TGN, self).__init__()
    self.device = device
    self.node_raw_features = torch.from_numpy(node_features.astype(np.float32)).to(device)
    self.edge_raw_features = torch.from_numpy(edge_features.astype(np.float32)).to(device)
    self.n_node_features = self.node_raw_features.shape[1]
    self.n_nodes = self.node_raw_features.shape[0]
    self.n_edge_features = self.edge_raw_features.shape[1]
    self.time_encoder = TimeEncode(dimension=self.n_node_features)
    self.memory_dimension = memory_dimension
    self.memory_update_at_start = True
    raw_message_dimension = 2 * self.memory_dimension + self.n_edge_features + \
                            self.time_encoder.dimension
    message_dimension = raw_message_dimension
    self.memory = Memory(n_nodes=self.n_nodes,
                         memory_dimension=self.memory_dimension,
                         input_dimension=message_dimension,
                         message_dimension=message_dimension,
                         device=device)
    self.message_aggregator = LastMessageAggregator()
    self.message_function = IdentityMessageFunction()
    self.memory_updater = GRUMemoryUpdater(memory=self.memory,
                                           message_dimension=message_dimension,
                                           memory_dimension=self.memory_dimension,
                                           device=device)
    self.affinity_score = MergeLayer(self.memory_dimension, self.memory_dimension,
                                     self.memory_dimension, 1)

  def compute_temporal_embeddings(self, source_nodes, destination_nodes, negative_nodes, edge_times,
                                  edge_idxs):
    n_samples = len(source_nodes)
    nodes = np.concatenate([source_nodes, destination_nodes, negative_nodes])
    positives = np.concatenate([source_nodes, destination_nodes])

    # Update memory for all nodes with messages stored in previous batches
    memory, last_update = self.get_updated_memory(list(range(self.n_nodes)),
                                                  self.memory.messages)

    # Identity embedding module: the (updated) memory is the node embedding
    node_embedding = memory[nodes, :]

    source_node_embedding = node_embedding[:n_samples]
    destination_node_embedding = node_embedding[n_samples: 2 * n_samples]
    negative_node_embedding = node_embedding[2 * n_samples:]

    # Persist the updates to the memory only for sources and destinations (since now we have
    # new messages for them)
    self.update_memory(positives, self.memory.messages)

    # Remove messages for the positives since we have already updated the memory using them
    self.memory.clear_messages(positives)

    unique_sources, source_id_to_messages = self.get_raw_messages(source_nodes,
                                                                  destination_nodes,
                                                                  edge_times, edge_idxs)
    unique_destinations, destination_id_to_messages = self.get_raw_messages(destination_nodes,
                                                                            source_nodes,
                                                                            edge_times, edge_idxs)
    self.memory.store_raw_messages(unique_sources, source_id_to_messages)
    self.memory.store_raw_messages(unique_destinations, destination_id_to_messages)

    return source_node_embedding, destination_node_embedding, negative_node_embedding

  def compute_edge_probabilities(self, source_nodes, destination_nodes, negative_nodes, edge_times,
                                 edge_idxs):
    n_samples = len(source_nodes)
    source_node_embedding, destination_node_embedding, negative_node_embedding = self.compute_temporal_embeddings(
      source_nodes, destination_nodes, negative_nodes, edge_times, edge_idxs)

    score = self.affinity_score(torch.cat([source_node_embedding, source_node_embedding], dim=0),
                                torch.cat([destination_node_embedding,
                                           negative_node_embedding])).squeeze(dim=0)
    pos_score = score[:n_samples]
    neg_score = score[n_samples:]

    return pos_score.sigmoid(), neg_score.sigmoid()

  def update_memory(self, nodes, messages):
    # Aggregate messages for the same nodes
    unique_nodes, unique_messages, unique_timestamps = \
      self.message_aggregator.aggregate(
        nodes,
        messages)

    if len(unique_nodes) > 0:
      unique_messages = self.message_function.compute_message(unique_messages)

    # Update the memory with the aggregated messages
    self.memory_updater.update_memory(unique_nodes, unique_messages,
                                      timestamps=unique_timestamps)

  def get_updated_memory(self, nodes, messages):
    # Aggregate messages for the same nodes
    unique_nodes, unique_messages, unique_timestamps = \
      self.message_aggregator.aggregate(
        nodes,
        messages)

    if len(unique_nodes) > 0:
      unique_messages = self.message_function.compute_message(unique_messages)

    updated_memory, updated_last_update = self.memory_updater.get_updated_memory(unique_nodes,
                                                                                 unique_messages,
                                                                                 timestamps=unique_timestamps)

    return updated_memory, updated_last_update

  def get_raw_messages(self, source_nodes, destination_nodes, edge_times, edge_idxs):
    edge_times = torch.from_numpy(edge_times).float().to(self.device)
    edge_features = self.edge_raw_features[edge_idxs]

    source_memory = self.memory.get_memory(source_nodes)
    destination_memory = self.memory.get_memory(destination_nodes)

    source_time_delta = edge_times - self.memory.last_update[source_nodes]
    source_time_delta_encoding = self.time_encoder(source_time_delta.unsqueeze(dim=1)).view(len(
      source_nodes), -1)

    source_message = torch.cat([source_memory, destination_memory, edge_features,
                                source_time_delta_encoding],
                               dim=1)
    messages = defaultdict(list)
    unique_sources = np.unique(source_nodes)

    for i in range(len(source_nodes)):
      messages[source_nodes[i]].append((source_message[i], edge_times[i]))

    return unique_sources, messages


# ---- train_self_supervised.py ---------------------------------------------------
n_nodes, n_edges, BATCH_SIZE, NUM_EPOCH = 10, 40, 8, 2
node_features = np.zeros((n_nodes, 4))
edge_features = np.random.randn(n_edges, 4)
sources = np.random.randint(0, n_nodes // 2, n_edges)
destinations = np.random.randint(n_nodes // 2, n_nodes, n_edges)
timestamps = np.sort(np.random.rand(n_edges) * 100)
edge_idxs = np.arange(n_edges)

device = torch.device('cpu')
tgn = TGN(node_features, edge_features, device, memory_dimension=8)
criterion = torch.nn.BCELoss()
optimizer = torch.optim.Adam(tgn.parameters(), lr=1e-3)
num_batch = n_edges // BATCH_SIZE
backprop_every = 1

for epoch in range(NUM_EPOCH):
  # Reinitialize memory of the model at the start of each epoch
  tgn.memory.__init_memory__()
  m_loss = []

  for k in range(0, num_batch, backprop_every):
    loss = 0
    optimizer.zero_grad()

    # Custom loop to allow to perform backpropagation only every a certain number of batches
    for j in range(backprop_every):
      batch_idx = k + j

      start_idx = batch_idx * BATCH_SIZE
      end_idx = min(n_edges, start_idx + BATCH_SIZE)
      sources_batch, destinations_batch = sources[start_idx:end_idx], \
                                          destinations[start_idx:end_idx]
      edge_idxs_batch = edge_idxs[start_idx: end_idx]
      timestamps_batch = timestamps[start_idx:end_idx]

      size = len(sources_batch)
      negatives_batch = np.random.randint(n_nodes // 2, n_nodes, size)

      with torch.no_grad():
        pos_label = torch.ones(size, dtype=torch.float, device=device)
        neg_label = torch.zeros(size, dtype=torch.float, device=device)

      tgn = tgn.train()
      pos_prob, neg_prob = tgn.compute_edge_probabilities(sources_batch, destinations_batch, negatives_batch,
                                                          timestamps_batch, edge_idxs_batch)

      loss += criterion(pos_prob.squeeze(), pos_label) + criterion(neg_prob.squeeze(), neg_label)

    loss /= backprop_every

    loss.backward()
    optimizer.step()
    m_loss.append(loss.item())

    # Detach memory after 'args.backprop_every' number of batches so we don't backpropagate to
    # the start of time
    tgn.memory.detach_memory()

  print('epoch', epoch, 'mean loss %.4f' % np.mean(m_loss))
