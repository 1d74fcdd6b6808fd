"""nim_evo.evaluation.specs: a player spec read once, its form and label, and resolve making
each form into its player."""

import json

import numpy as np
import pytest

from nim_evo import Rules
from nim_evo.agents.base import NimSumAgent
from nim_evo.evaluation.opponents import resolve
from nim_evo.evaluation.specs import AGENT, CODE, FILE, LEARNER, Spec, is_file, is_learner, label
from nim_evo.genomes import genome_document, get_kind
from nim_evo.validation import UserError


@pytest.mark.parametrize("text, form, shown", [
    ("nimsum", AGENT, "nimsum"), ("take-3", AGENT, "take-3"), ("nosuchagent", AGENT, "nosuchagent"),
    ("qlearning", LEARNER, "qlearning"), ("td", LEARNER, "td"),
    ("genomes/7-5-3-seed1-rules.json", FILE, "7-5-3-seed1-rules"), ("champion.json", FILE, "champion"),
    ("runs/a,b/x", FILE, "x"),
    ("mypackage.agents:Greedy", CODE, "Greedy"), ("agents/mine.py:make", CODE, "make"),
])
def test_a_spec_is_read_once_into_its_form_and_label(text, form, shown):
    spec = Spec.parse(text)
    assert (spec.text, spec.form, spec.label) == (text, form, shown)
    assert label(text) == shown and is_file(text) == (form == FILE) and is_learner(text) == (form == LEARNER)


def test_several_players_are_a_comma_outside_a_path():
    assert Spec.parse("random,nimsum").several
    assert not Spec.parse("nimsum").several and not Spec.parse("runs/a,b/x").several


@pytest.mark.parametrize("text, known", [("nimsum", True), ("NimSum", True), ("take-12", True), ("td", True),
                                         ("x.json", True), ("m:f", True), ("my-agent", False), ("", False)])
def test_a_name_a_player_of_nim_evo_holds_is_known(text, known):
    """An agent object given in Python may not take a name that already names a player."""
    assert Spec.parse(text).known == known


def test_resolve_makes_each_form_into_its_player(tmp_path):
    rules = Rules((3, 4, 5))
    assert isinstance(resolve("nimsum", rules), NimSumAgent)
    (tmp_path / "mine.py").write_text("class First:\n"
                                      "    name = 'first'\n"
                                      "    def move(self, piles, rng):\n"
                                      "        return (next(i for i, n in enumerate(piles) if n), 1)\n")
    code = resolve(f"{tmp_path / 'mine.py'}:First", rules)
    assert code.distribution((0, 2, 5)) == [((1, 1), 1.0)]
    genes = get_kind("rules").create(rules, np.random.default_rng(0))
    path = tmp_path / "champion.json"
    path.write_text(json.dumps(genome_document("rules", genes, rules)))
    played = resolve(str(path), rules)
    assert played.rules == rules and played.kind.name == "rules"
    with pytest.raises(UserError):
        resolve("mine", rules, given={"mine": object()})  # an object given is checked as an agent
    with pytest.raises(UserError, match="nosuchagent"):
        resolve("nosuchagent", rules)
    assert resolve("nimsum", rules, given={"nimsum": NimSumAgent(rules)}).name == "nimsum"
