# %%
import math
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)

BATCH_SIZE = 8
LEARNING_RATE = 0.001
WEIGHT_DECAY = 0.1
TRAIN_VALIDATION_SPLIT = 0.85
TEACHER_FORCE = False
MELODY_EPOCH_DELAY = 0

HIDDEN_SIZE = 24
HIDDEN_SIZE2 = 8
MAX_CHORD_LENGTH = 6
CHORD_PREDICTION_LENGTH = 9
MELODY_DISCRETIZATION_LENGTH = 8
CHORD_DISCRETIZATION_LENGTH = 1
NOTES_PER_CHORD = MELODY_DISCRETIZATION_LENGTH // CHORD_DISCRETIZATION_LENGTH
MELODY_PREDICTION_LENGTH = 1 + 2 * 7
NUMBER_OF_KEYS = 12
NUMBER_OF_MODES = 7


class Lofi2LofiDataset(Dataset):
    """random stand-in for the processed Spotify songs"""
    def __init__(self, n):
        g = torch.Generator().manual_seed(0)
        self.num_chords = torch.randint(3, MAX_CHORD_LENGTH, (n,), generator=g)
        self.chords = torch.randint(1, 8, (n, MAX_CHORD_LENGTH), generator=g)
        self.melody_notes = torch.randint(0, MELODY_PREDICTION_LENGTH, (n, MAX_CHORD_LENGTH * NOTES_PER_CHORD), generator=g)
        self.tempo = torch.rand(n, generator=g)
        self.key = torch.randint(0, NUMBER_OF_KEYS, (n,), generator=g)
        self.mode = torch.randint(0, NUMBER_OF_MODES, (n,), generator=g)
        self.valence = torch.rand(n, generator=g)
        self.energy = torch.rand(n, generator=g)

    def __len__(self):
        return len(self.num_chords)

    def __getitem__(self, i):
        return {"num_chords": self.num_chords[i], "chords": self.chords[i], "melody_notes": self.melody_notes[i],
                "tempo": self.tempo[i], "key": self.key[i], "mode": self.mode[i],
                "valence": self.valence[i], "energy": self.energy[i]}


dataset = Lofi2LofiDataset(40)
# %%
class Encoder(nn.Module):
    def __init__(self):
        super(Encoder, self).__init__()
        self.chord_embeddings = nn.Embedding(num_embeddings=CHORD_PREDICTION_LENGTH, embedding_dim=HIDDEN_SIZE)
        self.melody_embeddings = nn.Embedding(num_embeddings=MELODY_PREDICTION_LENGTH, embedding_dim=HIDDEN_SIZE)
        self.key_embedding = nn.Embedding(num_embeddings=NUMBER_OF_KEYS, embedding_dim=HIDDEN_SIZE2)
        self.mode_embedding = nn.Embedding(num_embeddings=NUMBER_OF_MODES, embedding_dim=HIDDEN_SIZE2)
        self.scalars = nn.Linear(in_features=3, out_features=HIDDEN_SIZE2)
        self.downsample = nn.Linear(in_features=2 * HIDDEN_SIZE + 3 * HIDDEN_SIZE2, out_features=HIDDEN_SIZE)

    def forward(self, chords, melodies, tempo, key, mode, valence, energy):
        h = torch.cat([self.chord_embeddings(chords).mean(1), self.melody_embeddings(melodies).mean(1),
                       self.key_embedding(key), self.mode_embedding(mode),
                       self.scalars(torch.stack([tempo, valence, energy], dim=1))], dim=1)
        return torch.tanh(self.downsample(h))


class Decoder(nn.Module):
    def __init__(self):
        super(Decoder, self).__init__()
        self.chord_step = nn.Linear(HIDDEN_SIZE + MAX_CHORD_LENGTH, HIDDEN_SIZE)
        self.chord_prediction = nn.Linear(HIDDEN_SIZE, CHORD_PREDICTION_LENGTH)
        self.melody_prediction = nn.Linear(HIDDEN_SIZE, NOTES_PER_CHORD * MELODY_PREDICTION_LENGTH)
        self.tempo = nn.Linear(HIDDEN_SIZE, 1)
        self.key = nn.Linear(HIDDEN_SIZE, NUMBER_OF_KEYS)
        self.mode = nn.Linear(HIDDEN_SIZE, NUMBER_OF_MODES)
        self.valence = nn.Linear(HIDDEN_SIZE, 1)
        self.energy = nn.Linear(HIDDEN_SIZE, 1)

    def forward(self, z, num_chords):
        num_chords = int(num_chords)
        steps = torch.eye(MAX_CHORD_LENGTH)[:num_chords].expand(z.shape[0], -1, -1)
        h = torch.tanh(self.chord_step(torch.cat([z.unsqueeze(1).expand(-1, num_chords, -1), steps], dim=2)))
        chord_outputs = self.chord_prediction(h)
        melody_outputs = self.melody_prediction(h).reshape(z.shape[0], num_chords * NOTES_PER_CHORD, MELODY_PREDICTION_LENGTH)
        return chord_outputs, melody_outputs, self.tempo(z), self.key(z), self.mode(z), self.valence(z), self.energy(z)


class Lofi2LofiModel(nn.Module):
    def __init__(self):
        super(Lofi2LofiModel, self).__init__()
        self.encoder = Encoder()
        self.decoder = Decoder()
        self.mean_linear = nn.Linear(in_features=HIDDEN_SIZE, out_features=HIDDEN_SIZE)
        self.variance_linear = nn.Linear(in_features=HIDDEN_SIZE, out_features=HIDDEN_SIZE)

    def forward(self, gt_chords, gt_melodies, gt_tempo, gt_key, gt_mode, gt_valence, gt_energy, batch_num_chords,
                num_chords, sampling_rate_chords=0, sampling_rate_melodies=0):
        h = self.encoder(gt_chords, gt_melodies, gt_tempo, gt_key, gt_mode, gt_valence, gt_energy)
        mu = self.mean_linear(h)
        log_var = self.variance_linear(h)
        z = self.sample(mu, log_var)
        kl = 0.5 * torch.mean(mu ** 2 + log_var.exp() - log_var - 1, dim=[0, 1])
        chord_outputs, melody_outputs, tempo, key, mode, valence, energy = self.decoder(z, num_chords)
        return chord_outputs, melody_outputs, tempo, key, mode, valence, energy, kl

    def sample(self, mu, logvar):
        if self.training:
            return mu + torch.randn_like(mu) * (logvar / 2).exp()
        else:
            return mu


model = Lofi2LofiModel()
# %%
name = "lofi2lofi"
device = "cpu"
train_size = int(TRAIN_VALIDATION_SPLIT * len(dataset))
val_size = len(dataset) - train_size
train_dataset, val_dataset = torch.utils.data.random_split(dataset, [train_size, val_size],
                                                           generator=torch.Generator().manual_seed(0))
train_dataloader = DataLoader(train_dataset, batch_size=BATCH_SIZE, shuffle=True, generator=torch.Generator().manual_seed(0))
val_dataloader = DataLoader(val_dataset, batch_size=BATCH_SIZE, shuffle=False)

ce_loss = nn.CrossEntropyLoss(reduction='none')
l1_loss = nn.L1Loss(reduction='mean')
optimizer = torch.optim.AdamW(model.parameters(), lr=LEARNING_RATE, weight_decay=WEIGHT_DECAY)

epochs = []
train_losses_chords, train_losses_melodies, train_losses_kl, train_accs_chords, train_accs_melodies = [], [], [], [], []
val_losses_chords, val_losses_melodies, val_losses_kl, val_accs_chords, val_accs_melodies = [], [], [], [], []


# losses for one batch of data
def compute_loss(data):
    num_chords = data["num_chords"]
    max_num_chords = num_chords.max()
    max_num_notes = max_num_chords * NOTES_PER_CHORD

    chords_gt = data["chords"].to(device)[:, :max_num_chords]
    notes_gt = data["melody_notes"].to(device)[:, :max_num_notes]
    tempo_gt = data["tempo"].to(device)
    key_gt = data["key"].to(device)
    mode_gt = data["mode"].to(device)
    valence_gt = data["valence"].to(device)
    energy_gt = data["energy"].to(device)

    pred_chords, pred_notes, pred_tempo, pred_key, pred_mode, pred_valence, pred_energy, kl = \
        model(chords_gt, notes_gt, tempo_gt, key_gt, mode_gt, valence_gt, energy_gt, num_chords, max_num_chords,
              sampling_rate_chords, sampling_rate_melodies)

    # compute a boolean mask to select entries up to a specific index
    def compute_mask(max_length, curr_length):
        arange = torch.arange(max_length, device=device).repeat((chords_gt.shape[0], 1)).permute(0, 1)
        lengths_stacked = curr_length.repeat((max_length, 1)).permute(1, 0)
        return arange <= lengths_stacked

    num_chords = num_chords.to(device)
    loss_chords = ce_loss(pred_chords.permute(0, 2, 1), chords_gt)
    mask_chord = compute_mask(max_num_chords, num_chords)
    loss_chords = torch.masked_select(loss_chords, mask_chord).mean()

    num_notes = num_chords * NOTES_PER_CHORD
    loss_melody_notes = ce_loss(pred_notes.permute(0, 2, 1), notes_gt)
    mask_melody = compute_mask(max_num_notes, num_notes)
    loss_melody = torch.masked_select(loss_melody_notes, mask_melody).mean()

    if epoch < MELODY_EPOCH_DELAY:
        loss_melody = 0

    loss_kl = kl
    loss_tempo = l1_loss(pred_tempo[:, 0], tempo_gt) / 5
    loss_key = ce_loss(pred_key, key_gt).mean() / 30
    loss_mode = ce_loss(pred_mode, mode_gt).mean() / 10
    loss_valence = l1_loss(pred_valence[:, 0], valence_gt) / 5
    loss_energy = l1_loss(pred_energy[:, 0], energy_gt) / 5
    loss_total = loss_chords + loss_kl + loss_melody + loss_tempo + loss_key + loss_mode + loss_energy + loss_valence

    tp_chords = torch.masked_select(pred_chords.argmax(dim=2) == chords_gt, mask_chord).tolist()
    tp_melodies = torch.masked_select(pred_notes.argmax(dim=2) == notes_gt, mask_melody).tolist()

    return loss_total, loss_chords, loss_kl, loss_melody, loss_tempo, loss_key, loss_mode, loss_valence, loss_energy, tp_chords, tp_melodies


print(f"Starting training: {name}")
epoch = 0
# %%
epochs.append(epoch)

print(f"== Epoch {epoch} ==")
ep_train_losses_chords, ep_train_losses_melodies, ep_train_losses_kl, ep_train_tp_chords, ep_train_tp_melodies = [], [], [], [], []
ep_val_losses_chords, ep_val_losses_melodies, ep_val_losses_kl, ep_val_tp_chords, ep_val_tp_melodies = [], [], [], [], []

sampling_rate_chords = 0
sampling_rate_melodies = 0

# TRAINING
model.train()
for batch, data in enumerate(train_dataloader):
    loss, loss_chords, kl_loss, loss_melody, \
    loss_tempo, loss_key, loss_mode, loss_valence, loss_energy, \
    batch_tp_chords, batch_tp_melodies = compute_loss(data)

    ep_train_losses_chords.append(loss_chords.item())
    ep_train_losses_melodies.append(float(loss_melody))
    ep_train_losses_kl.append(kl_loss.item())
    ep_train_tp_chords.extend(batch_tp_chords)
    ep_train_tp_melodies.extend(batch_tp_melodies)

    optimizer.zero_grad()
    loss.backward()

    optimizer.step()
    loss = loss.item()
    print(f"\tBatch {batch}:\tLoss {loss:.3f} (C: {loss_chords:.3f} + KL: {kl_loss:.3f} + M: {loss_melody:.3f})")

# VALIDATION
model.eval()
for batch, data in enumerate(val_dataloader):
    with torch.no_grad():
        loss, loss_chords, kl_loss, loss_melody, \
        loss_tempo, loss_key, loss_mode, loss_valence, loss_energy, \
        batch_tp_chords, batch_tp_melodies = compute_loss(data)

        ep_val_losses_chords.append(loss_chords)
        ep_val_losses_melodies.append(loss_melody)
        ep_val_losses_kl.append(kl_loss)
        ep_val_tp_chords.extend(batch_tp_chords)
        ep_val_tp_melodies.extend(batch_tp_melodies)

epoch += 1

ep_train_loss_chord = sum(ep_train_losses_chords) / len(ep_train_losses_chords)
ep_train_loss_melody = sum(ep_train_losses_melodies) / len(ep_train_losses_melodies)
ep_train_loss_kl = sum(ep_train_losses_kl) / len(ep_train_losses_kl)
ep_train_chord_acc = (sum(ep_train_tp_chords) / len(ep_train_tp_chords)) * 100
ep_train_melody_acc = (sum(ep_train_tp_melodies) / len(ep_train_tp_melodies)) * 100

ep_val_loss_chord = sum(ep_val_losses_chords) / len(ep_val_losses_chords)
ep_val_loss_melody = sum(ep_val_losses_melodies) / len(ep_val_losses_melodies)
ep_val_loss_kl = sum(ep_val_losses_kl) / len(ep_val_losses_kl)
ep_val_chord_acc = (sum(ep_val_tp_chords) / len(ep_val_tp_chords)) * 100
ep_val_melody_acc = (sum(ep_val_tp_melodies) / len(ep_val_tp_melodies)) * 100

print(f"Epoch chord loss: {ep_train_loss_chord:.3f}, melody loss: {ep_train_loss_melody:.3f}, KL: {ep_train_loss_kl:.3f}, "
      f"chord accuracy: {ep_train_chord_acc:.3f}, melody accuracy: {ep_train_melody_acc:.3f}")
print(f"VALIDATION: epoch chord loss: {ep_val_loss_chord:.3f}, melody loss: {ep_val_loss_melody:.3f}, KL: {ep_val_loss_kl:.3f}, "
      f"chord accuracy: {ep_val_chord_acc:.3f}, melody accuracy: {ep_val_melody_acc:.3f}")

train_losses_chords.append(ep_train_loss_chord)
train_losses_melodies.append(ep_train_loss_melody)
train_losses_kl.append(ep_train_loss_kl)
train_accs_chords.append(ep_train_chord_acc)
train_accs_melodies.append(ep_train_melody_acc)

val_losses_chords.append(ep_val_loss_chord)
val_losses_melodies.append(ep_val_loss_melody)
val_losses_kl.append(ep_val_loss_kl)
val_accs_chords.append(ep_val_chord_acc)
val_accs_melodies.append(ep_val_melody_acc)
# %%
# axs[0, 0].plot(epochs, train_losses_chords, ...) and the other panels: matplotlib turns each list into a numpy array
curves = {}
for title, train_curve, val_curve in [("Chords loss", train_losses_chords, val_losses_chords),
                                      ("Chords accuracy", train_accs_chords, val_accs_chords),
                                      ("Melody loss", train_losses_melodies, val_losses_melodies),
                                      ("Melody accuracy", train_accs_melodies, val_accs_melodies)]:
    curves[title] = (np.asarray(epochs), np.asarray(train_curve, dtype=float), np.asarray(val_curve, dtype=float))
    print(title, curves[title][1].round(3), curves[title][2].round(3))
