"""The PettingZoo AEC environment of Nim, under PettingZoo's naming (``<game>_v<version>``)::

    from nim_evo.envs import nim_v0
    env = nim_v0.env(piles=(3, 4, 5))          # wrapped as PettingZoo's classic games are
    raw = nim_v0.raw_env(piles="17-cap3-misere")

See :mod:`nim_evo.interop.aec` for observations, actions, rewards and infos.
"""

from nim_evo.interop.aec import env, raw_env

__all__ = ["env", "raw_env"]
