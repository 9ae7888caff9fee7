# source: https://nimblephysics.org/docs/backprop-through-physics.html
# style: physics
# expert: correct program: every optimisation iteration rebuilds the rollout from the fixed initial position and the leaf initial_velocity, backward once per rollout, update under torch.no_grad()
import torch

torch.manual_seed(0)

GRAVITY = torch.tensor([0.0, -9.81])
DT = 0.01


def timestep(state, action):
    """Differentiable semi-implicit Euler step for a point-mass box: state = [pos(2), vel(2)]."""
    pos, vel = state[:2], state[2:]
    vel = vel + DT * (GRAVITY + action)
    pos = pos + DT * vel
    return torch.cat((pos, vel), 0)


# Set up initial conditions for optimization
initial_position = torch.tensor([3.0, 0.0])
initial_velocity = torch.zeros(2, requires_grad=True)
action = torch.zeros(2)
goal = torch.tensor([4.0, 0.0])
num_timesteps = 100
learning_rate = 0.05

for iteration in range(30):
    state = torch.cat((initial_position, initial_velocity), 0)
    states = [state]
    for i in range(num_timesteps):
        state = timestep(state, action)
        states.append(state)
    loss = (state[:2] - goal).norm()
    loss.backward()
    with torch.no_grad():
        initial_velocity -= learning_rate * initial_velocity.grad
        initial_velocity.grad.zero_()
print(loss.item(), initial_velocity.tolist())
