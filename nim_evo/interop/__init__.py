"""Where Nim players already live: thin adapters between nim_evo's engine and other ecosystems.

* :mod:`nim_evo.interop.aec`: a PettingZoo AEC environment (``nim_evo.envs.nim_v0``);
* :mod:`nim_evo.interop.single`: a Gymnasium environment against any nim_evo player
  (``gymnasium.make("nim_evo.envs:Nim-v0", ...)``);
* :mod:`nim_evo.interop.openspiel`: nim_evo players as ``pyspiel.Bot``\\ s in OpenSpiel's
  ``nim``, and pyspiel bots as nim_evo agents.
* :mod:`nim_evo.interop.spielgames`: every family as an OpenSpiel game (``nim_evo_kayles``,
  ``nim_evo_subtraction``, ...), registered with pyspiel when it is imported;
* :mod:`nim_evo.interop.textarena`: nim_evo players as TextArena agents in TextArena's own
  ``Nim-v0``, and its games logged for ``nim-evo referee``.

Course-style players (``choose_action(piles)`` objects, functions of a state with ``rows``)
are agents like any other (:mod:`nim_evo.agents.course`). Each ecosystem's package is an
optional extra, imported only when its adapter is used (:mod:`nim_evo.interop.extras`).
"""
