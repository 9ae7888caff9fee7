# source: https://github.com/QasimWani/RL-Unity/issues/5 (the MADDPG Tennis notebook MADDPG/src/Tennis.ipynb as committed in 65114da with the traceback of the issue, and MADDPG.py, agent.py, model.py, utils.py of MADDPG/src as of dba0c34 "issue created", kept unchanged next to the notebook; _stub_unityagents.py stands in for the Unity Tennis build (2 agents, 24 observations, 2 actions, 25-step episodes), 30 episodes instead of 15000, the commented-out random-play cell and the final score plot left out, and one line added after the MADDPG is created that names its two agents, agent1, agent2)
# scenario: imported_module
# cause: inplace_modified_saved_tensor
# root: file MADDPG.py line 79
# expert: MADDPG.learn computes both agents' predicted actions once (actions_pred1, actions_pred2) and hands them to agent1.learn and then agent2.learn; agent1.learn's actor_optimizer.step() updates agent1's actor in place, so when agent2's actor loss backpropagates through actions_pred1 the saved weights of agent1's actor are at a newer version and backward fails. As the author's follow-up commits do (d105fc6, and the final MADDPG/src/code/agent.py), each agent computes its predicted action with its own current actor inside learn (actions_pred = self.actor_local(states), here paired with the other agent's replayed action) instead of reusing predictions made before the other agent's update, and the retain_graph=True backwards are dropped.
# %%
from _stub_unityagents import UnityEnvironment  # stands in for unityagents
import numpy as np
import random
import torch
from collections import deque
from MADDPG import MADDPG

np.random.seed(0)
random.seed(0)
torch.manual_seed(0)
# %%
env = UnityEnvironment(file_name="../unity/Tennis.app")
# %%
# get the default brain
brain_name = env.brain_names[0]
brain = env.brains[brain_name]
# %%
# reset the environment
env_info = env.reset(train_mode=True)[brain_name]

# number of agents 
num_agents = len(env_info.agents)
print('Number of agents:', num_agents)

# size of each action
action_size = brain.vector_action_space_size
print('Size of each action:', action_size)

# examine the state space 
states = env_info.vector_observations
state_size = states.shape[1]
print('There are {} agents. Each observes a state with length: {}'.format(states.shape[0], state_size))
print('The state for the first agent looks like:', states[0])
# %%
#Create 2 agents (MA)
agents = MADDPG(state_size, action_size, random_seed = 2)
agent1, agent2 = agents.agent1, agents.agent2  # handles on the two DDPG agents
# %%
#Define Constants
n_episodes = 30
rand_episodes = 100 #number of episodes to encourage exploration
scores_list = []
scores_window = deque(maxlen=100)
# %%
for i_episode in range(1, n_episodes + 1):
    env_info = env.reset(train_mode=True)[brain_name]         
    states = env_info.vector_observations                  
    scores = np.zeros(num_agents)  
    
    time_step = 0
    while True:
        
        time_step += 1 #Update time step counter

        # Random actions for first 1200 episodes to encourage exploration
        if i_episode < rand_episodes:
            actions = agents.act(states, rand = True)
        else: 
            print("here")
            actions = agents.act(states)
        
        env_info = env.step(actions)[brain_name]           # send all actions to the environment
        next_states = env_info.vector_observations         # get next state (for each agent)              
        rewards = env_info.rewards                         # get reward (for each agent)
        dones = env_info.local_done                        # see if episode finished
        scores += env_info.rewards                         # update the score (for each agent)
        
        #Learn from experiences
        agents.step(time_step, states, actions, rewards, next_states, dones)
        
        states = next_states                               # roll over states to next time step
        if np.any(dones):                                 # exit loop if episode finished
            break
    
    scores_list.append(np.max(scores))
    scores_window.append(np.max(scores))
    print('\rEpisode {}\tAverage Score: {:.2f}'.format(i_episode, np.max(scores)), end="")
    
    if i_episode % 100 == 0:
        torch.save(agents.agent1.actor_local.state_dict(), 'checkpoint_agent1_actor.pth')
        torch.save(agents.agent1.critic_local.state_dict(), 'checkpoint_agent1_critic.pth')
        
        torch.save(agents.agent2.actor_local.state_dict(), 'checkpoint_agent2_actor.pth')
        torch.save(agents.agent2.critic_local.state_dict(), 'checkpoint_agent2_critic.pth')
        
        print('\rEpisode {}\tAverage Score: {:.2f}'.format(i_episode, np.mean(scores_window)))

    if np.mean(scores_window) > 0.5:
        torch.save(agents.agent1.actor_local.state_dict(), 'checkpoint_agent1_actor.pth')
        torch.save(agents.agent1.critic_local.state_dict(), 'checkpoint_agent1_critic.pth')
        
        torch.save(agents.agent2.actor_local.state_dict(), 'checkpoint_agent2_actor.pth')
        torch.save(agents.agent2.critic_local.state_dict(), 'checkpoint_agent2_critic.pth')
        
        print('\nEnvironment solved in {:d} episodes!\tAverage Score: {:.2f}'.format(i_episode, np.mean(scores_window)))
        break
