# source: variant of https://github.com/CAI23sbP/Isaaclab_Parkour/issues/3 (OnPolicyRunnerWithExtractor.learn_vision / update_depth_actor of scripts/rsl_rl/modules, as changed in commit 1d376f2, cut down to a fake Isaac Lab env with random depth images and proprioception)
# style: rl
# cause: tensor_reused_across_iterations
# line: 104
# expert: The depth latent is only recomputed when env.common_step_counter % 5 == 0, so at the start of a learning iteration the student actor can reuse the depth_latent computed in the previous iteration, whose graph update_depth_actor's backward already freed. The thread's resolution is the earlier version of the runner that runs the depth encoder (and appends the yaw) at every step, without the `% 5` gate.
import torch
import torch.nn as nn

torch.manual_seed(0)

NUM_ENVS, NUM_OBS, NUM_PROP, NUM_ACT = 4, 12, 10, 3


class ParkourEnv:
    """Fake vectorised env exposing what the runner reads from Isaac Lab."""

    def __init__(self):
        self.common_step_counter = 0

    def _observations(self):
        return {'depth_camera': torch.rand(NUM_ENVS, 1, 8, 8),
                'delta_yaw_ok': torch.rand(NUM_ENVS) > 0.5}

    def get_observations(self):
        return torch.randn(NUM_ENVS, NUM_OBS), {'observations': self._observations()}

    def step(self, actions):
        self.common_step_counter += 1
        obs = torch.randn(NUM_ENVS, NUM_OBS)
        dones = torch.zeros(NUM_ENVS)
        return obs, torch.zeros(NUM_ENVS), dones, {'observations': self._observations()}


class DepthEncoder(nn.Module):
    def __init__(self, latent_dim=6):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ELU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 16))
        self.rnn = nn.GRUCell(16 + NUM_PROP, 16)
        self.out = nn.Linear(16, latent_dim + 2)
        self.hidden_states = None

    def forward(self, depth_image, proprioception):
        feat = torch.cat([self.conv(depth_image), proprioception], dim=-1)
        self.hidden_states = self.rnn(feat, self.hidden_states)
        return self.out(self.hidden_states)

    def detach_hidden_states(self):
        if self.hidden_states is not None:
            self.hidden_states = self.hidden_states.detach()


class Actor(nn.Module):
    def __init__(self, latent_dim=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(NUM_OBS + latent_dim, 32), nn.ELU(), nn.Linear(32, NUM_ACT))

    def forward(self, obs, hist_encoding=True, scandots_latent=None):
        if scandots_latent is None:
            scandots_latent = torch.zeros(obs.shape[0], 6)
        return self.net(torch.cat([obs, scandots_latent], dim=-1))

    def act_inference(self, obs, hist_encoding=True, scandots_latent=None):
        return self.forward(obs, hist_encoding, scandots_latent)


class DistillationWithExtractor:
    def __init__(self):
        self.policy = Actor()          # frozen teacher
        self.depth_encoder = DepthEncoder()
        self.depth_actor = Actor()
        self.depth_encoder_optimizer = torch.optim.Adam(
            [*self.depth_actor.parameters(), *self.depth_encoder.parameters()], lr=1e-3)

    def update_depth_actor(self, actions_buffer, yaws_buffer):
        depth_actor_loss = (actions_buffer).norm(p=2, dim=1).mean()
        yaw_loss = (yaws_buffer).norm(p=2, dim=1).mean()
        loss = depth_actor_loss + yaw_loss
        self.depth_encoder_optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_([*self.depth_actor.parameters(), *self.depth_encoder.parameters()], 1.0)
        self.depth_encoder_optimizer.step()
        return {'depth_actor_loss': depth_actor_loss.item(), 'yaw_loss': yaw_loss.item()}


class OnPolicyRunnerWithExtractor:
    def __init__(self, env):
        self.env = env
        self.alg = DistillationWithExtractor()
        self.depth_encoder_cfg = {'num_steps_per_env': 3, 'num_prop': NUM_PROP}
        self.obs_normalizer = nn.Identity()

    def learn_vision(self, num_learning_iterations):
        obs, extras = self.env.get_observations()
        additional_obs = {}
        additional_obs["delta_yaw_ok"] = extras['observations']['delta_yaw_ok']
        additional_obs["depth_camera"] = extras["observations"]['depth_camera']
        self.alg.depth_encoder.train()
        self.alg.depth_actor.train()
        num_pretrain_iter = 0
        for it in range(num_learning_iterations):
            actions_buffer = []
            yaws_buffer = []
            for _ in range(self.depth_encoder_cfg['num_steps_per_env']):
                if self.env.common_step_counter % 5 == 0:
                    obs_prop_depth = obs[:, :self.depth_encoder_cfg['num_prop']].clone()
                    obs_prop_depth[:, 6:8] = 0
                    depth_latent_and_yaw = self.alg.depth_encoder(additional_obs["depth_camera"].clone(), obs_prop_depth)  # clone is crucial to avoid in-place operation
                    depth_latent = depth_latent_and_yaw[:, :-2]
                    yaw = 1.5 * depth_latent_and_yaw[:, -2:]
                    yaws_buffer.append(obs[:, 6:8].detach() - yaw)
                with torch.no_grad():
                    actions_teacher = self.alg.policy.act_inference(obs, hist_encoding=True, scandots_latent=None)
                obs[additional_obs["delta_yaw_ok"], 6:8] = yaw.detach()[additional_obs["delta_yaw_ok"]]
                actions_student = self.alg.depth_actor(obs, hist_encoding=True, scandots_latent=depth_latent)
                actions_buffer.append(actions_teacher.detach() - actions_student)

                if it < num_pretrain_iter:
                    obs, _, dones, infos = self.env.step(actions_teacher.detach())
                else:
                    obs, _, dones, infos = self.env.step(actions_student.detach())
                additional_obs['delta_yaw_ok'] = infos["observations"]['delta_yaw_ok']
                additional_obs['depth_camera'] = infos["observations"]['depth_camera']
                obs = self.obs_normalizer(obs)

            actions_buffer = torch.cat(actions_buffer, dim=0)
            yaws_buffer = torch.cat(yaws_buffer, dim=0)
            loss_dict = self.alg.update_depth_actor(actions_buffer, yaws_buffer)
            self.alg.depth_encoder.detach_hidden_states()
            print(f"it {it}: {loss_dict}")


runner = OnPolicyRunnerWithExtractor(ParkourEnv())
runner.learn_vision(num_learning_iterations=3)
