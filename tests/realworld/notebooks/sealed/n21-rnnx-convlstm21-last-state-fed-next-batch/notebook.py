# source: variant of https://github.com/ndrplz/ConvLSTM_pytorch/issues/21
# scenario: rnn_across_cells
# cause: recurrent_state_not_detached
# root: cell 2 line 3
# order: 0 1 2 2
# expert: feed the next batch a hidden state that is detached from the previous batch's graph (the thread's initial hidden state is detached "because it's how I get it"), e.g. hidden = [(h.detach(), c.detach()) for h, c in last_state_list]
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)

class ConvLSTMCell(nn.Module):
    def __init__(self, input_dim, hidden_dim, kernel_size, bias):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.conv = nn.Conv2d(input_dim + hidden_dim, 4 * hidden_dim, kernel_size,
                              padding=kernel_size[0] // 2, bias=bias)

    def forward(self, input_tensor, cur_state):
        h_cur, c_cur = cur_state
        combined_conv = self.conv(torch.cat([input_tensor, h_cur], dim=1))
        cc_i, cc_f, cc_o, cc_g = torch.split(combined_conv, self.hidden_dim, dim=1)
        i, f, o, g = torch.sigmoid(cc_i), torch.sigmoid(cc_f), torch.sigmoid(cc_o), torch.tanh(cc_g)
        c_next = f * c_cur + i * g
        h_next = o * torch.tanh(c_next)
        return h_next, c_next

    def init_hidden(self, batch_size, image_size):
        height, width = image_size
        return (torch.zeros(batch_size, self.hidden_dim, height, width),
                torch.zeros(batch_size, self.hidden_dim, height, width))

class ConvLSTM(nn.Module):
    def __init__(self, input_dim, hidden_dim, kernel_size, num_layers, batch_first=True):
        super().__init__()
        self.num_layers, self.batch_first = num_layers, batch_first
        cell_list = []
        for i in range(num_layers):
            cur_input_dim = input_dim if i == 0 else hidden_dim
            cell_list.append(ConvLSTMCell(cur_input_dim, hidden_dim, kernel_size, True))
        self.cell_list = nn.ModuleList(cell_list)

    def forward(self, input_tensor, hidden_state=None):
        b, seq_len, _, h, w = input_tensor.size()
        if hidden_state is None:
            hidden_state = [cell.init_hidden(b, (h, w)) for cell in self.cell_list]
        # (edit from the issue: a given hidden_state is used instead of raising NotImplementedError)
        layer_output_list, last_state_list = [], []
        cur_layer_input = input_tensor
        for layer_idx in range(self.num_layers):
            h, c = hidden_state[layer_idx]
            output_inner = []
            for t in range(seq_len):
                h, c = self.cell_list[layer_idx](cur_layer_input[:, t], [h, c])
                output_inner.append(h)
            cur_layer_input = torch.stack(output_inner, dim=1)
            layer_output_list.append(cur_layer_input)
            last_state_list.append([h, c])
        return layer_output_list[-1:], last_state_list[-1:]
# %%
model = ConvLSTM(input_dim=3, hidden_dim=6, kernel_size=(3, 3), num_layers=1, batch_first=True)
head = nn.Conv2d(6, 1, 1)
optimizer = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=1e-3)
hidden = None

def next_batch():
    # x.shape: [B, T, C, W, H], consecutive chunks of the same videos
    return torch.randn(2, 3, 3, 8, 8), torch.randn(2, 1, 8, 8)
# %%
x, y = next_batch()
layer_output_list, last_state_list = model(x, hidden)
hidden = last_state_list
pred = head(layer_output_list[0][:, -1])
loss = ((pred - y) ** 2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
