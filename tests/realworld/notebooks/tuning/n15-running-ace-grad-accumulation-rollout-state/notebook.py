# source: https://github.com/ai2cm/ace/issues/544 (Optimization.accumulate_loss of fme/core/optimization.py and the predict_generator / _accumulate_loss rollout of fme/ace/stepper/single_module.py before the state was detached between steps, reduced to a Conv1d step with a mean-conserving corrector on random data; no AMP, checkpointing or ensemble dimension)
# scenario: running_total
# cause: tensor_reused_across_iterations
# root: cell 2 line 28
# expert: with gradient accumulation each step's loss is backpropagated as soon as it is added to the running total, but the rollout feeds the previous step's output (still attached to the graph that backward just freed) into the next step, so the second step's backward runs into the freed graph. Detach the state between steps when gradient accumulation is on (Optimization.detach_if_using_gradient_accumulation, called after yielding each step).
# %%
import contextlib
import torch
import torch.nn as nn
torch.manual_seed(0)
N_SAMPLES, N_CHANNELS, N_X = 4, 3, 16
# %%
class Optimization:
    """fme.core.optimization.Optimization without AMP, checkpointing and schedulers"""

    def __init__(self, optimizer: torch.optim.Optimizer, use_gradient_accumulation: bool = False,
                 max_grad_norm: float | None = None):
        self.optimizer = optimizer
        self._accumulated_loss = torch.tensor(0.0)
        self._use_gradient_accumulation = use_gradient_accumulation
        self._max_grad_norm = max_grad_norm

    def set_mode(self, modules: nn.ModuleList):
        for m in modules:
            m.train()

    def detach_if_using_gradient_accumulation(self, state):
        if self._use_gradient_accumulation:
            return {k: v.detach() for k, v in state.items()}
        return dict(state)

    def accumulate_loss(self, loss: torch.Tensor):
        self._accumulated_loss += loss
        if self._use_gradient_accumulation:
            self._backward(loss)

    def get_accumulated_loss(self) -> torch.Tensor:
        return self._accumulated_loss

    def _backward(self, loss: torch.Tensor):
        loss.backward()

    def step_weights(self):
        if not self._use_gradient_accumulation:
            self._backward(self._accumulated_loss)
        if self._max_grad_norm is not None:
            torch.nn.utils.clip_grad_norm_(
                [p for group in self.optimizer.param_groups for p in group["params"]], self._max_grad_norm)
        self.optimizer.step()
        self.optimizer.zero_grad()
        self._accumulated_loss = torch.tensor(0.0)
# %%
class SingleModuleStep(nn.Module):
    """one forward step: a network on the prognostic state plus forcing, then a corrector
    that conserves the global mean of each channel (step_with_adjustments)"""

    def __init__(self):
        super().__init__()
        self.module = nn.Conv1d(2 * N_CHANNELS, N_CHANNELS, 3, padding=1)

    def step(self, state, forcing):
        x = torch.cat([state["x"], forcing], dim=1)
        pre = state["x"] + self.module(x)
        post = pre - (pre.mean(dim=-1, keepdim=True) - state["x"].mean(dim=-1, keepdim=True))
        return {"x": post}, {"x": post - pre}  # output, corrections


class TrainStepper:
    def __init__(self, step: SingleModuleStep, corrector_regularization_weight: float = 0.1):
        self._step = step
        self.modules = nn.ModuleList([step])
        self.reg_weight = corrector_regularization_weight
        self.loss_obj = nn.MSELoss()

    def predict_generator(self, initial_condition, forcing, n_forward_steps, optimizer):
        state = initial_condition
        for step in range(n_forward_steps):
            output, corrections = self._step.step(state, forcing[:, step])
            yield output, corrections
            state = output

    def _accumulate_loss(self, data, optimization, n_forward_steps, n_loss_steps):
        output_generator = self.predict_generator(
            {"x": data["x"][:, 0]}, data["forcing"], n_forward_steps, optimization)
        output_list = []
        output_iterator = iter(output_generator)
        for step in range(n_forward_steps):
            optimize_step = step < n_loss_steps
            grad_context = contextlib.nullcontext() if optimize_step else torch.no_grad()
            with grad_context:
                gen_step, corrections = next(output_iterator)
                output_list.append(gen_step)
                step_total_loss = self.loss_obj(gen_step["x"], data["x"][:, step + 1])
                reg_loss = None
                if self.reg_weight > 0:
                    reg_loss = self.reg_weight * corrections["x"].pow(2).mean()
            if optimize_step:
                if reg_loss is not None:
                    step_total_loss = step_total_loss + reg_loss
                optimization.accumulate_loss(step_total_loss)
        return output_list

    def train_on_batch(self, data, optimization, n_forward_steps=2):
        metrics = {}
        optimization.set_mode(self.modules)
        output_list = self._accumulate_loss(data, optimization, n_forward_steps, n_loss_steps=n_forward_steps)
        metrics["loss"] = optimization.get_accumulated_loss().detach()
        optimization.step_weights()
        return metrics
# %%
step = SingleModuleStep()
stepper = TrainStepper(step, corrector_regularization_weight=0.1)
optimizer = torch.optim.AdamW(stepper.modules.parameters(), lr=1e-3)
optimization = Optimization(optimizer, use_gradient_accumulation=True, max_grad_norm=1.0)

# random stand-ins for two training windows of the reanalysis (initial condition + 2 steps)
batches = [{"x": torch.randn(N_SAMPLES, 3, N_CHANNELS, N_X), "forcing": torch.randn(N_SAMPLES, 2, N_CHANNELS, N_X)}
           for _ in range(2)]
# %%
for i, batch in enumerate(batches):
    metrics = stepper.train_on_batch(batch, optimization)
    print(i, float(metrics["loss"]))
