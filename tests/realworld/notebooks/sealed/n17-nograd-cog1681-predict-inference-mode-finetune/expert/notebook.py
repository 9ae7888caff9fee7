# %%
import torch
import torch.nn as nn
from cog_stub import BasePredictor, Input  # stands in for `from cog import BasePredictor, Input`
torch.manual_seed(0)
# %%
class Predictor(BasePredictor):
    def setup(self):
        """Load the model into memory to make running multiple predictions efficient"""
        self.model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-2)

    def predict(self, xs: list = Input(description="x values"), ys: list = Input(description="y values"),
                steps: int = Input(default=20), query: float = Input(default=0.5)) -> float:
        """Fit the model to the given points, then predict at `query`"""
        x = torch.tensor(xs).unsqueeze(1)
        y = torch.tensor(ys).unsqueeze(1)
        for _ in range(steps):
            self.optimizer.zero_grad()
            loss = nn.functional.mse_loss(self.model(x), y)
            loss.backward()
            self.optimizer.step()
        return self.model(torch.tensor([[query]])).item()
# %%
predictor = Predictor()
predictor.setup()
# %%
xs = [i / 10 for i in range(10)]
ys = [v ** 2 for v in xs]
print(predictor.predict(xs=xs, ys=ys, steps=20, query=0.5))
