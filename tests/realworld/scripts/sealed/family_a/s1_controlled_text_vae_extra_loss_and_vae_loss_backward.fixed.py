# source: https://github.com/GBLin5566/toward-controlled-generation-of-text-pytorch/issues/7
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
vocab, emb_dim, h_dim, z_dim, c_dim, seq_len = 20, 8, 16, 4, 2, 6


class RNN_VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.word_emb = nn.Embedding(vocab, emb_dim)
        self.encoder = nn.GRU(emb_dim, h_dim, batch_first=True)
        self.q_mu, self.q_logvar = nn.Linear(h_dim, z_dim), nn.Linear(h_dim, z_dim)
        self.decoder = nn.GRU(emb_dim + z_dim + c_dim, z_dim + c_dim, batch_first=True)
        self.decoder_fc = nn.Linear(z_dim + c_dim, vocab)
        self.discriminator = nn.Sequential(nn.Linear(vocab, 16), nn.ReLU(), nn.Linear(16, c_dim))

    def forward_encoder(self, inputs):
        _, h = self.encoder(self.word_emb(inputs))
        h = h.squeeze(0)
        return self.q_mu(h), self.q_logvar(h)

    def sample_z(self, mu, logvar):
        return mu + torch.exp(logvar / 2) * torch.randn_like(mu)

    def forward_decoder(self, inputs, z, c):
        init_h = torch.cat([z, c], dim=1)
        emb = self.word_emb(inputs)
        x = torch.cat([emb, init_h.unsqueeze(1).expand(-1, inputs.size(1), -1)], 2)
        out, _ = self.decoder(x, init_h.unsqueeze(0))
        return self.decoder_fc(out)


model = RNN_VAE()
trainer_vae = torch.optim.Adam(model.parameters(), lr=1e-3)
for it in range(3):
    inputs = torch.randint(0, vocab, (4, seq_len))
    labels = torch.randint(0, c_dim, (4,))
    c = F.one_hot(labels, c_dim).float()
    mu, logvar = model.forward_encoder(inputs)
    z = model.sample_z(mu, logvar)
    logits = model.forward_decoder(inputs, z, c)
    recon_loss = F.cross_entropy(logits.reshape(-1, vocab), inputs.reshape(-1))
    kl_loss = torch.mean(0.5 * torch.sum(torch.exp(logvar) + mu ** 2 - 1 - logvar, 1))
    vae_loss = recon_loss + 0.1 * kl_loss
    # extra loss: generated soft sentence should keep attribute c
    soft_words = F.softmax(logits, dim=-1).mean(1)
    extra_loss = F.cross_entropy(model.discriminator(soft_words), labels)
    trainer_vae.zero_grad()
    (vae_loss + 0.1 * extra_loss).backward()
    trainer_vae.step()
    print(it, vae_loss.item(), extra_loss.item())
