"""One program for several Nim families: names, settings, stages, and a file that plays each."""

import io

import pytest

import nim_evo
from nim_evo import Rules
from nim_evo.engine.rules import family_name, parse_family
from nim_evo.evolution.config import Config
from nim_evo.genomes import genome_document
from nim_evo.genomes.program import KIND, Program
from nim_evo.atomic import write_json
from nim_evo.validation import UserError

# a four-family program a run found (a seed 0 of an earlier training set, 43 generations): the
# step's residues, the second fold's largest half-residue, and a score that reads the misère flag
FOUR = ["mod(add(shl(mod(or(p, a), p)), sub(p, a)), k)", "if(x, if(eq(w, v), 2, v), v)",
        "min(shl(shl(2)), max(b, mod(shr(p), min(2, k))))"]
FAMILIES = ["normal", "misere", "cap3", "cap3-misere"]


@pytest.mark.parametrize("name, family", [("normal", (None, False)), ("misere", (None, True)), ("cap3", (3, False)),
                                          ("cap12-misere", (12, True)), (" Cap3-Misere ", (3, True))])
def test_family_names(name, family):
    assert parse_family(name) == family
    assert family_name(family) == name.strip().lower()


@pytest.mark.parametrize("name", ["cap0", "capx", "misere-cap3", "", 3, "cap3-normal"])
def test_unknown_families_are_one_line(name):
    with pytest.raises(UserError, match="families are normal, misere, capK and capK-misere"):
        parse_family(name)


def test_a_run_of_several_families_trains_on_each_in_two_stages():
    config = Config("program", Rules((1, 3, 5, 7, 9)), families=tuple(FAMILIES))
    assert config.family_pairs == ((None, False), (None, True), (3, False), (3, True))
    assert [rules.name for rules in config.home_rules()] == ["1-3-5-7-9", "1-3-5-7-9-misere", "1-3-5-7-9-cap3",
                                                             "1-3-5-7-9-cap3-misere"]
    first, last = config.stages
    assert first.families == ((None, False), (3, False)) and first.held == ("second",)
    assert last.families == config.family_pairs and last.held == ("step",)  # the second fold evolves now
    assert len(config.training_rules(0)) == 13 and len(config.training_rules()) == 26  # six boards, 6-19-27 capped
    assert Config.from_json(config.to_json()) == config


@pytest.mark.parametrize("settings, message", [
    ({"genome": "rules", "families": ("normal", "misere")}, "read the cap and the misère flag"),
    ({"families": ("misere", "cap3")}, "must hold the board's own family, normal"),
    ({"families": ("normal", "sorcery")}, "unknown family 'sorcery'"),
    ({"families": ("normal", "cap3", "CAP3")}, "names a family twice"),
])
def test_families_a_run_cannot_play_are_refused(settings, message):
    with pytest.raises(UserError, match=message):
        Config(**{"genome": "program", "rules": Rules((1, 3, 5, 7, 9)), **settings})


@pytest.fixture
def four(tmp_path):
    path = tmp_path / "four.json"
    write_json(path, genome_document("program", Program(FOUR), Rules((1, 3, 5, 7, 9)), name="four",
                                     families=FAMILIES))
    return path


@pytest.mark.parametrize("family", FAMILIES)
def test_its_file_plays_any_board_of_its_families_perfectly(four, family):
    rules = Rules.parse(f"2-4-6-11-{family}".replace("-normal", ""))
    agent = nim_evo.load_strategy(four, rules=rules)
    assert agent.rules == rules
    assert nim_evo.solve(rules).accuracy(KIND.policies([agent.genes], (nim_evo.solve(rules).space,))[0][0]) == 1.0


def test_its_file_refuses_a_family_it_was_not_evolved_for(four):
    with pytest.raises(UserError, match="evolved for normal, misere, cap3, cap3-misere .* cap2-misere|a cap of 2"):
        nim_evo.load_strategy(four, rules=Rules((2, 4), 2, True))


def test_play_arena_and_the_page_take_a_board_of_another_family(four, tmp_path, monkeypatch):
    from nim_evo.commands.arena import main as arena
    from nim_evo.commands.export import main as export
    from nim_evo.commands.play import main as play

    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert play([str(four), "--game", "3-5-8-cap3-misere"], stdin=io.StringIO(""), stdout=out) == 0
    assert "whoever takes the last object loses" in out.getvalue()
    assert arena([str(four), "nimsum", "--game", "3-5-8-cap3-misere", "--exact"]) == 0
    assert export(["--html", str(tmp_path / "p.html"), str(four), "--game", "2-4-6-9-cap3-misere"]) == 0
    assert '"misere":true' in (tmp_path / "p.html").read_text().replace(" ", "")


def test_a_training_board_named_as_a_game_plays_in_its_own_family_alone():
    """Plain boards play in every family of a stage; a game's full name in its own family (and
    in its normal version in a normal-play stage)."""
    config = Config("program", Rules((1, 3, 5, 7, 9)), families=("normal", "cap3-misere"),
                    train_boards=((2, 3), "1-4-6-cap3-misere", "2-2"))
    assert [r.name for r in config.training_rules(0)] == ["2-3", "2-3-cap3", "1-4-6-cap3", "2-2"]
    assert [r.name for r in config.training_rules(1)] == ["2-3", "2-3-cap3-misere", "1-4-6-cap3-misere", "2-2"]
    assert Config.from_json(config.to_json()) == config
    with pytest.raises(UserError, match="'2-2-cap3', of cap3, not one of the run's families"):
        Config("program", Rules((1, 3, 5, 7, 9)), families=("normal", "cap3-misere"), train_boards=("2-2-cap3",))


def test_until_accuracy_needs_every_familys_board_solvable():
    with pytest.raises(UserError, match="200-200-200 is too big to solve"):
        Config("program", Rules((200,) * 3, 3, False), families=("cap3", "normal"), until="accuracy=1")
