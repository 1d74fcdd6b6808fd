"""A new agent or learner is one file and its registration: declared as an installed
package's entry point (``nim_evo.agents``, ``nim_evo.learners``) it is a name every command
takes; registered from a script, a name the library takes; a name taken is refused."""

import os
import subprocess
import sys
import textwrap

import pytest

from nim_evo import Rules, check_player, make_agent
from nim_evo.agents.registry import AGENTS, agent_names, register

from test_conformance import Longest  # a person's agent: all of the longest pile
from nim_evo.validation import UserError

PLUGIN = textwrap.dedent('''
    """A package's agent and learner, one file."""
    import numpy as np

    from nim_evo.agents import Player
    from nim_evo.learners.wincount import WinCountLearner


    class Cautious(Player):
        """One object from the longest pile (the first of the longest)."""

        name = "cautious"
        order_blind = True

        def move_probabilities(self, positions):
            rows = np.zeros((len(positions), self.rules.n_moves))
            moves = np.array(self.rules.moves)
            for r, piles in enumerate(positions):
                if piles.any():
                    pile = int(np.argmax(piles))
                    rows[r, int(np.flatnonzero((moves[:, 0] == pile) & (moves[:, 1] == 1))[0])] = 1.0
            return rows


    class Patient(WinCountLearner):
        name = "patient"
        episodes = 500
''')


def test_an_agent_and_a_learner_from_a_package_s_entry_points_are_names_the_commands_take(tmp_path):
    site = tmp_path / "site"
    info = site / "nim_plugin-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: nim-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[nim_evo.agents]\ncautious = nim_plugin:Cautious\n\n"
                                           "[nim_evo.learners]\npatient = nim_plugin:Patient\n")
    (site / "nim_plugin.py").write_text(PLUGIN)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    out = tmp_path / "run"
    done = subprocess.run([sys.executable, "-m", "nim_evo.run", "--genome", "table", "--game", "2-3-4", "--generations",
                           "2", "--population", "6", "--offspring", "6", "--opponents", "cautious,patient",
                           "--out", str(out), "--genomes-dir", str(tmp_path / "genomes"), "--quiet"],
                          capture_output=True, text=True, env=environment, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert {"cautious", "patient"} <= set((out / "logbook.csv").read_text().splitlines()[0].split(","))
    learned = subprocess.run([sys.executable, "-m", "nim_evo.learn", "--learner", "patient", "--game", "7-5-3",
                              "--opponents", "cautious", "--out", str(tmp_path / "p.json"), "--quiet"],
                             capture_output=True, text=True, env=environment, cwd=tmp_path)
    assert learned.returncode == 0, learned.stderr


def test_a_script_registers_an_agent_and_a_taken_name_is_refused():
    try:
        register("greedy-test", Longest)
        assert "greedy-test" in agent_names()
        rules = Rules((2, 3, 4), 2)
        check_player(make_agent("greedy-test", rules), rules)
        with pytest.raises(UserError, match="the agent name 'random' is taken by nim_evo.agents.base.RandomAgent"):
            register("random", Longest)
        with pytest.raises(UserError, match="needs a name without commas, colons"):
            register("a,b", Longest)
    finally:
        AGENTS._items.pop("greedy-test", None)
