"""Nim as reinforcement-learning environments (the ``nim-evo[rl]`` extra).

Importing this package registers the Gymnasium environment ``Nim-v0``
(:class:`nim_evo.interop.single.NimEnv`: one agent against any nim_evo player)::

    import gymnasium
    env = gymnasium.make("nim_evo.envs:Nim-v0", piles="7-5-3", opponent="nimsum")

and :mod:`nim_evo.envs.nim_v0` is the PettingZoo AEC environment, named as PettingZoo's own
are (:mod:`nim_evo.interop.aec`: two agents, ``player_0`` first)::

    from nim_evo.envs import nim_v0
    env = nim_v0.env(piles=(3, 4, 5))

Gymnasium (and PettingZoo, for ``nim_v0``) are needed only when these are imported.
"""

from nim_evo.interop.extras import RL, need

gymnasium = need("gymnasium", RL, "nim_evo.envs")

ID = "Nim-v0"

if ID not in gymnasium.registry:  # (registering twice would warn)
    gymnasium.register(id=ID, entry_point="nim_evo.interop.single:NimEnv")
