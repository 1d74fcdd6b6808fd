"""Every public function refuses a wrong argument in one line: a :class:`nim_evo.UserError`
naming the argument (the keyword, never a command's ``--flag``), for a value of the wrong type
(``None``, an int where a path goes, a string where a number goes, a list, NaN where a
probability goes) as for one out of range (negative, zero, too big). A name of the right type
that names nothing (an agent, a game) is said in the words of what it should name
("unknown agent 'x'; known agents: ...", as the commands say it), with the known ones.

The table below holds one or more bad values for every parameter of every public callable of
:data:`nim_evo.__all__` (and of the :class:`nim_evo.Run` it returns);
:func:`test_every_public_callable_and_parameter_is_in_the_table` fails for a new function or
parameter that is not in it."""

from __future__ import annotations

import inspect
import math
import re
from pathlib import Path
from dataclasses import dataclass

import numpy as np
import pytest

import nim_evo
from nim_evo import Rules

TINY = Rules((2, 3))
QUICK = {"generations": 1, "population": 2, "offspring": 2, "progress": False}
NAN = math.nan
HUGE = 10**30


def rng():
    return np.random.default_rng(0)


def space():
    return nim_evo.space_for(TINY)


def nimsum():
    return nim_evo.make_agent("nimsum", TINY)


def table():
    return nimsum().policy(space())


@dataclass(frozen=True)
class Case:
    """``call(value)`` must refuse ``value`` for ``parameter`` of ``function`` in one line
    naming ``says`` (the parameter itself unless said otherwise)."""

    function: str
    parameter: str
    value: object
    call: object
    says: str | None = None

    @property
    def id(self) -> str:
        shown = repr(self.value) if not isinstance(self.value, float) else str(self.value)
        return f"{self.function}-{self.parameter}={shown[:20]}"


def cases(function: str, parameter: str, values, call, says: str | None = None) -> list[Case]:
    return [Case(function, parameter, value, call, says) for value in values]


TRANSCRIPT = Path(__file__).parents[1] / "docs" / "transcripts" / "nim-evo.jsonl"
UNKNOWN_AGENT = "unknown agent"  # a name that names no agent is said so, the known ones listed

# the bad values most parameters share
NOT_A_PATH = [None, 5, ["a"]]
NOT_RULES = [None, 5, ["2-3"]]
NOT_A_BOOL = ["yes", None, 1]
NOT_AN_AGENT = [None, 5]


def evolve(**kwargs):
    return nim_evo.evolve(**{"genome": "table", "rules": TINY, **QUICK, **kwargs})


def resume(**kwargs):
    return nim_evo.resume(**{"directory": RUN["directory"], "progress": False, **kwargs})


def train(**kwargs):
    return nim_evo.train(**{"learner": "td", "rules": TINY, "games": 10, **kwargs})


def tournament(**kwargs):
    return nim_evo.tournament(**{"rules": TINY, "player": "nimsum", "opponents": ["random"], "games": 10, **kwargs})


class _Huge(int):
    """An integer of 5,001 digits that a test's name can show (Python writes none of 4,300)."""

    def __repr__(self):
        return "10**5000"


HUGE = _Huge(10**5000)


def sweep(**kwargs):
    return nim_evo.sweep(**{"seeds": [0], "rules": TINY, "generations": 1, "out": RUN["fresh"](), "progress": False,
                            **kwargs})


def grade(**kwargs):
    return nim_evo.grade_player(**{"player": "random", "rules": TINY, "positions": 20, "games": 2, **kwargs})


def load(**kwargs):
    return nim_evo.load_strategy(**{"path": RUN["strategy"], **kwargs})


RUN: dict = {}  # filled by the module's fixture: a run directory, its exported strategy file, the Run


TABLE: list[Case] = [
    # -- evolve -----------------------------------------------------------------------------
    *cases("evolve", "genome", [None, 5, "tabel", ["table"]], lambda v: evolve(genome=v)),
    *cases("evolve", "rules", [5, ["2-3"], (2, 3)], lambda v: evolve(rules=v)),
    *cases("evolve", "generations", ["9", -3, 0, 10**7, 1.5, True, None], lambda v: evolve(generations=v)),
    *cases("evolve", "seed", [-1, "1", 1.5, None], lambda v: evolve(seed=v)),
    *cases("evolve", "opponents", [5, "random", [5], [], ["random", "random"]], lambda v: evolve(opponents=v)),
    *cases("evolve", "jobs", [0, -1, "2", 1.5], lambda v: evolve(jobs=v)),
    *cases("evolve", "out", [5, ["a"], 1.5], lambda v: evolve(out=v)),
    *cases("evolve", "export", [5, ["a"]], lambda v: evolve(out=RUN["fresh"](), export=v)),
    *cases("evolve", "force", NOT_A_BOOL, lambda v: evolve(force=v)),
    *cases("evolve", "progress", NOT_A_BOOL, lambda v: evolve(progress=v)),
    *cases("evolve", "backend", [None, 5, "slurm"], lambda v: evolve(backend=v)),
    *cases("evolve", "scheduler", [5, ["tcp://x:1"]], lambda v: evolve(scheduler=v)),
    *cases("evolve", "population", [1, 0, "4", 10**6], lambda v: evolve(population=v)),
    *cases("evolve", "offspring", [0, "4"], lambda v: evolve(offspring=v)),
    *cases("evolve", "cxpb", [NAN, -0.1, 1.5, "0.5"], lambda v: evolve(cxpb=v)),
    *cases("evolve", "mutpb", [NAN, 2], lambda v: evolve(mutpb=v)),
    *cases("evolve", "indpb", [NAN, -1], lambda v: evolve(indpb=v)),
    *cases("evolve", "greedy", [NAN, 1.5], lambda v: evolve(greedy=v)),
    *cases("evolve", "games", [0, "9", 10**9], lambda v: evolve(games=v)),
    *cases("evolve", "fitness", ["fast", None], lambda v: evolve(fitness=v)),
    *cases("evolve", "starts", ["middle", 3], lambda v: evolve(starts=v)),
    *cases("evolve", "space", ["round", None], lambda v: evolve(space=v)),
    *cases("evolve", "tournsize", [0, "3"], lambda v: evolve(tournsize=v)),
    *cases("evolve", "credit", ["yes", 1], lambda v: evolve(credit=v)),
    *cases("evolve", "popsize", [3], lambda v: evolve(popsize=v)),
    *cases("evolve", "until", ["accuracy", "accuracy=0", "accuracy=1.5", "accuracy=x", "never", 1, "best"],
           lambda v: evolve(until=v)),

    # -- resume -----------------------------------------------------------------------------
    *cases("resume", "directory", NOT_A_PATH, lambda v: resume(directory=v)),
    *cases("resume", "generations", ["9", -3, 0, 10**7, 1.5, True], lambda v: resume(generations=v)),
    *cases("resume", "jobs", [0, "2", 1.5], lambda v: resume(jobs=v)),
    *cases("resume", "genomes_dir", [5, ["a"]], lambda v: resume(genomes_dir=v)),
    *cases("resume", "force", NOT_A_BOOL, lambda v: resume(force=v)),
    *cases("resume", "progress", NOT_A_BOOL, lambda v: resume(progress=v)),
    *cases("resume", "backend", [None, 5, "slurm"], lambda v: resume(backend=v)),
    *cases("resume", "scheduler", [5], lambda v: resume(scheduler=v)),
    *cases("resume", "agents", [5, ["random"], {"mine": 5}, {5: nimsum}], lambda v: resume(agents=v)),
    *cases("resume", "code", [5, "m:Agent", [3], ["not-an-opponent:X"]], lambda v: resume(code=v)),
    *cases("resume", "until", ["accuracy=2", 1, "best"], lambda v: resume(until=v)),

    # -- train ------------------------------------------------------------------------------
    *cases("train", "learner", [None, 5, "sarsa", ["td"]], lambda v: train(learner=v)),
    *cases("train", "rules", NOT_RULES, lambda v: train(rules=v)),
    *cases("train", "games", ["9", -1, 1.5, 10**12, True], lambda v: train(games=v)),
    *cases("train", "seed", [-1, "1", 1.5, None], lambda v: train(seed=v)),
    *cases("train", "opponents", [5, ["random"], "random,nimsum"], lambda v: train(opponents=v)),
    *cases("train", "opponents", ["nosuch"], lambda v: train(opponents=v), says=UNKNOWN_AGENT),
    *cases("train", "seat", ["middle", 5, None], lambda v: train(opponents="random", seat=v)),
    *cases("train", "progress", NOT_A_BOOL, lambda v: train(progress=v)),
    *cases("train", "episodes", ["9", -1], lambda v: train(games=None, episodes=v), says="games"),
    *cases("train", "opponent", [5, ["random"]], lambda v: train(opponent=v), says="opponents"),
    *cases("train", "alpha", ["x"], lambda v: train(alpha=v)),

    # -- strategies and agents ----------------------------------------------------------------
    *cases("load_strategy", "path", NOT_A_PATH, lambda v: load(path=v)),
    *cases("load_strategy", "rules", ["7-5-3", 5, ["2-3"]], lambda v: load(rules=v)),
    *cases("load_strategy", "stochastic", NOT_A_BOOL, lambda v: load(stochastic=v)),
    *cases("make_agent", "name", [None, 5, ["nimsum"]], lambda v: nim_evo.make_agent(v, TINY)),
    *cases("make_agent", "name", ["nosuch", "take-x"], lambda v: nim_evo.make_agent(v, TINY), says=UNKNOWN_AGENT),
    *cases("make_agent", "rules", NOT_RULES + ["2-3"], lambda v: nim_evo.make_agent("nimsum", v)),
    *cases("make_agent", "depth", ["x", -1], lambda v: nim_evo.make_agent("minimax", TINY, depth=v)),
    *cases("make_agent", "speed", [3], lambda v: nim_evo.make_agent("minimax", TINY, speed=v)),
    *cases("as_player", "agent", NOT_AN_AGENT + ["nimsum"], lambda v: nim_evo.as_player(v, TINY)),
    *cases("as_player", "rules", [5, "2-3"], lambda v: nim_evo.as_player(nimsum(), v)),
    *cases("check_player", "player", NOT_AN_AGENT, lambda v: nim_evo.check_player(v, TINY)),
    *cases("check_player", "rules", [5, "2-3"], lambda v: nim_evo.check_player(nimsum(), v)),
    *cases("check_player", "seed", [-1, "1", None], lambda v: nim_evo.check_player(nimsum(), seed=v)),
    *cases("Player", "rules", NOT_RULES, lambda v: nim_evo.Player(v)),

    # -- tournaments and batched games --------------------------------------------------------
    *cases("evolve", "on_generation", [5, "print"], lambda v: evolve(on_generation=v)),
    *cases("resume", "on_generation", [5, "print"], lambda v: resume(on_generation=v)),
    *cases("sweep", "seeds", [5, [-1], [1, 1], [], "3-1", ["a"]], lambda v: sweep(seeds=v)),
    *cases("sweep", "grid", [{"colour": [1]}, {"population": 20}, {"population": []}, [1], "population=20"], lambda v: sweep(grid=v)),
    *cases("sweep", "out", NOT_A_PATH, lambda v: sweep(out=v)),
    *cases("sweep", "jobs", [0, "2", 1.5], lambda v: sweep(jobs=v)),
    *cases("sweep", "backend", ["nope", 5], lambda v: sweep(backend=v)),
    *cases("sweep", "scheduler", [5, "tcp://127.0.0.1:1"], lambda v: sweep(scheduler=v)),
    *cases("sweep", "resume", NOT_A_BOOL, lambda v: sweep(resume=v)),
    *cases("sweep", "progress", NOT_A_BOOL, lambda v: sweep(progress=v)),
    *cases("sweep", "code", [5, "a:B"], lambda v: sweep(code=v)),
    *cases("sweep", "minutes", [0, -1, "5", float("nan"), True, 10**7], lambda v: sweep(minutes=v)),
    *cases("grade_player", "player", NOT_AN_AGENT + [{"a": 1}], lambda v: grade(player=v)),
    *cases("grade_player", "player", ["nosuch"], lambda v: grade(player=v), says=UNKNOWN_AGENT),
    *cases("grade_player", "rules", NOT_RULES + ["2-3"], lambda v: grade(rules=v)),
    *cases("grade_player", "budget", [-1, 0, "9", float("nan"), None], lambda v: grade(budget=v)),
    *cases("grade_player", "positions", [0, "9", 1.5, 10**7], lambda v: grade(positions=v)),
    *cases("grade_player", "games", [0, -1, "9", 10**7], lambda v: grade(games=v)),
    *cases("grade_player", "seed", [-1, "1", 1.5], lambda v: grade(seed=v)),
    *cases("referee_transcripts", "paths", [None, 5, [], [5]], lambda v: nim_evo.referee_transcripts(v)),
    *cases("referee_transcripts", "fmt", ["chess", 5], lambda v: nim_evo.referee_transcripts(TRANSCRIPT, fmt=v)),
    *cases("referee_transcripts", "game", [5, ["3-4-5"]], lambda v: nim_evo.referee_transcripts(TRANSCRIPT, game=v)),
    *cases("referee_transcripts", "convention", ["both", True],
           lambda v: nim_evo.referee_transcripts(TRANSCRIPT, convention=v)),
    *cases("tournament", "rules", NOT_RULES + ["2-3"], lambda v: tournament(rules=v)),
    *cases("tournament", "player", NOT_AN_AGENT + [{"a": 1}], lambda v: tournament(player=v)),
    *cases("tournament", "player", ["nosuch"], lambda v: tournament(player=v), says=UNKNOWN_AGENT),
    *cases("tournament", "opponents", [["nosuch"]], lambda v: tournament(opponents=v), says=UNKNOWN_AGENT),
    *cases("tournament", "opponents", [None, 5, "random", [], [5]], lambda v: tournament(opponents=v)),
    *cases("tournament", "games", [0, -1, "9", 1.5, 10**9], lambda v: tournament(games=v)),
    *cases("tournament", "seed", [-1, "1", 1.5], lambda v: tournament(seed=v)),
    *cases("tournament", "exact", NOT_A_BOOL, lambda v: tournament(exact=v)),
    *cases("tournament", "starts", ["middle", None, [0], [99]], lambda v: tournament(starts=v)),
    *cases("tournament", "jobs", [0, "2", 1.5], lambda v: tournament(jobs=v)),
    *cases("tournament", "max_positions", [0, -1, "9", 1.5], lambda v: tournament(max_positions=v)),
    *cases("tournament", "multiset", NOT_A_BOOL, lambda v: tournament(multiset=v)),
    *cases("play_game", "rules", NOT_RULES, lambda v: nim_evo.play_game(v, (nimsum(), nimsum()), rng())),
    *cases("play_game", "players", [None, 5, [nimsum], (1, 2)], lambda v: nim_evo.play_game(TINY, v, rng())),
    *cases("play_game", "rng", [None, 5], lambda v: nim_evo.play_game(TINY, (nimsum(), nimsum()), v)),
    *cases("play_game", "start", [5, (-1, 2), "ab", (1.5, 2)],
           lambda v: nim_evo.play_game(TINY, (nimsum(), nimsum()), rng(), start=v)),
    *cases("play_game", "start", [(1,), (1, 2, 3)], lambda v: nim_evo.play_game(TINY, (nimsum(), nimsum()), rng(), start=v),
           says="position"),
    *cases("play_game", "max_moves", [0, "9", 1.5],
           lambda v: nim_evo.play_game(TINY, (nimsum(), nimsum()), rng(), max_moves=v)),
    *cases("play_games", "space", [None, TINY], lambda v: nim_evo.play_games(v, table(), table(), [11], rng())),
    *cases("play_games", "first", NOT_AN_AGENT, lambda v: nim_evo.play_games(space(), v, table(), [11], rng())),
    *cases("play_games", "second", NOT_AN_AGENT, lambda v: nim_evo.play_games(space(), table(), v, [11], rng())),
    *cases("play_games", "starts", [None, "x", [0], [1.5]],
           lambda v: nim_evo.play_games(space(), table(), table(), v, rng())),
    *cases("play_games", "rng", [None, 5], lambda v: nim_evo.play_games(space(), table(), table(), [11], v)),
    *cases("play_matches", "space", [None, TINY],
           lambda v: nim_evo.play_matches(v, nimsum(), nimsum(), [11], 2, rng())),
    *cases("play_matches", "player", NOT_AN_AGENT,
           lambda v: nim_evo.play_matches(space(), v, nimsum(), [11], 2, rng())),
    *cases("play_matches", "opponent", NOT_AN_AGENT,
           lambda v: nim_evo.play_matches(space(), nimsum(), v, [11], 2, rng())),
    *cases("play_matches", "starts", [None, "x", [0]],
           lambda v: nim_evo.play_matches(space(), nimsum(), nimsum(), v, 2, rng())),
    *cases("play_matches", "games", [0, -1, "9", 1.5],
           lambda v: nim_evo.play_matches(space(), nimsum(), nimsum(), [11], v, rng())),
    *cases("play_matches", "rng", [None, 5],
           lambda v: nim_evo.play_matches(space(), nimsum(), nimsum(), [11], 2, v)),
    *cases("win_probabilities", "space", [None, TINY], lambda v: nim_evo.win_probabilities(v, nimsum(), nimsum())),
    *cases("win_probabilities", "player", NOT_AN_AGENT,
           lambda v: nim_evo.win_probabilities(space(), v, nimsum())),
    *cases("win_probabilities", "opponent", NOT_AN_AGENT,
           lambda v: nim_evo.win_probabilities(space(), nimsum(), v)),

    # -- the engine ---------------------------------------------------------------------------
    *cases("Rules", "piles", [None, 5, "ab", (), (0, 0), (-1, 2), (1.5,), [[1]], (HUGE,)], lambda v: Rules(v)),
    *cases("Rules", "max_take", [0, -1, "3", 1.5], lambda v: Rules((2, 3), v)),
    *cases("Rules", "misere", NOT_A_BOOL, lambda v: Rules((2, 3), None, v)),
    *cases("Rules.parse", "name", [None, 5, ["2-3"]], lambda v: Rules.parse(v)),
    *cases("Rules.parse", "name", ["two-three", "2_3"], lambda v: Rules.parse(v), says="cannot read game"),
    *cases("Rules.preset", "name", [None, 5], lambda v: Rules.preset(v)),
    *cases("Rules.from_name", "name", [None, 5, ["2-3"]], lambda v: Rules.from_name(v)),
    *cases("Rules.preset", "name", ["2-3"], lambda v: Rules.preset(v), says="unknown game"),
    *cases("legal_moves", "piles", [None, 5, (1.5,), (-1, 2)], lambda v: nim_evo.legal_moves(v)),
    *cases("legal_moves", "max_take", [0, "3"], lambda v: nim_evo.legal_moves((2, 3), v)),
    *cases("solve", "rules", NOT_RULES, lambda v: nim_evo.solve(v)),
    *cases("solve", "rules", ["two-three", "20-sub0"], lambda v: nim_evo.solve(v), says="game"),
    *cases("solve", "max_positions", [0, -1, "9", 1.5], lambda v: nim_evo.solve(TINY, v)),
    *cases("space_for", "rules", NOT_RULES, lambda v: nim_evo.space_for(v)),
    *cases("space_for", "rules", ["two-three"], lambda v: nim_evo.space_for(v), says="cannot read game"),
    *cases("game", "name", [None, 5, ["2-3"]], lambda v: nim_evo.game(v)),
    *cases("game", "name", ["two-three", "2-sub", "3-sub1.0"], lambda v: nim_evo.game(v), says="game"),
    *cases("check_game", "game", [None, "7-5-3", object()], lambda v: nim_evo.check_game(v)),
    *cases("check_game", "seed", ["x", -1, 1.5], lambda v: nim_evo.check_game(Rules((2, 3)), seed=v)),
    *cases("space_for", "max_positions", [0, "9", 1.5], lambda v: nim_evo.space_for(TINY, v)),
    *cases("space_for", "multiset", NOT_A_BOOL, lambda v: nim_evo.space_for(TINY, multiset=v)),
    *cases("space_size", "rules", NOT_RULES, lambda v: nim_evo.space_size(v)),
    *cases("space_size", "multiset", NOT_A_BOOL, lambda v: nim_evo.space_size(TINY, v)),
    *cases("Space", "rules", NOT_RULES, lambda v: nim_evo.Space(v)),
    *cases("Space", "max_positions", [0, "9"], lambda v: nim_evo.Space(TINY, v)),
    *cases("MultisetSpace", "rules", NOT_RULES, lambda v: nim_evo.MultisetSpace(v)),
    *cases("MultisetSpace", "max_positions", [0, "9"], lambda v: nim_evo.MultisetSpace(TINY, v)),

    # -- the Run evolve returns ---------------------------------------------------------------
    *cases("Run.export", "path", NOT_A_PATH, lambda v: RUN["run"].export(v)),
    *cases("Run.export", "force", NOT_A_BOOL, lambda v: RUN["run"].export(RUN["fresh"]() / "x.json", force=v)),
    *cases("Run.plot", "x", [None, 5, "time"], lambda v: RUN["run"].plot(v)),
]

# Public callables that take no argument a person chooses: exceptions, and records the library
# builds and returns (a Run comes from evolve or resume; its methods are in the table).
NOT_CALLED = {"UserError", "AgentError", "SpaceTooLarge", "GameRecord", "Solution", "Run"}


@pytest.fixture(scope="module", autouse=True)
def run_directory(tmp_path_factory):
    """One tiny run written by evolve (to resume, and whose champion to load), once."""
    where = tmp_path_factory.mktemp("api-arguments")
    run = nim_evo.evolve("table", TINY, out=where / "run", export=where / "genomes" / "run.json", seed=1, **QUICK)
    counter = iter(range(10**6))

    def fresh():
        path = where / f"fresh-{next(counter)}"
        return path

    RUN.update(directory=where / "run", strategy=where / "genomes" / "run.json", run=run, fresh=fresh)
    yield
    RUN.clear()


@pytest.mark.filterwarnings("ignore:.* is now .*:DeprecationWarning")  # train's old keywords
@pytest.mark.parametrize("case", TABLE, ids=[case.id for case in TABLE])
def test_a_wrong_argument_is_one_user_error_naming_it(case):
    with pytest.raises(Exception) as caught:
        case.call(case.value)
    error = caught.value
    assert isinstance(error, nim_evo.UserError) and not isinstance(error, (TypeError, AttributeError)), (
        f"{type(error).__name__}: {error}")
    message = str(error)
    named = case.says or case.parameter
    assert "\n" not in message and message.strip(), message
    assert re.search(rf"(?<![\w-]){re.escape(named)}(?!\w)", message), f"{named} not named in: {message}"
    assert not re.search(r"(^|[\s'\"(])--\w", message), f"a command's flag in: {message}"


def public_callables() -> dict[str, object]:
    """Every public callable to check, by the name the table gives it: the functions and
    classes of ``nim_evo.__all__``, each class's public alternative constructors, and the
    public methods of the Run evolve returns."""
    found = {}
    for name in nim_evo.__all__:
        value = getattr(nim_evo, name)
        if not callable(value) or name in NOT_CALLED:
            continue
        found[name] = value
        if inspect.isclass(value):
            for attribute, raw in vars(value).items():
                if not attribute.startswith("_") and isinstance(raw, classmethod):
                    found[f"{name}.{attribute}"] = getattr(value, attribute)
    for attribute, raw in vars(nim_evo.Run).items():
        if not attribute.startswith("_") and inspect.isfunction(raw):
            found[f"Run.{attribute}"] = raw
    return found


def named_parameters(function) -> list[str]:
    skipped = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [p.name for p in inspect.signature(function).parameters.values()
            if p.kind not in skipped and p.name not in ("self", "cls")]


def test_every_public_callable_and_parameter_is_in_the_table():
    covered = {(case.function, case.parameter) for case in TABLE}
    missing = [f"{name}({parameter})" for name, function in public_callables().items()
               for parameter in named_parameters(function) if (name, parameter) not in covered]
    assert not missing, f"public callables or parameters with no bad value in TABLE: {', '.join(missing)}"


def test_a_refused_resume_leaves_its_run_directory_free(tmp_path):
    """A resume refused after it took the run directory lets it go: the next resume runs (a
    notebook keeps the last error, and with it whatever held the directory)."""
    nim_evo.evolve("table", TINY, out=tmp_path / "r", seed=1, **{**QUICK, "generations": 2})
    with pytest.raises(nim_evo.UserError, match="the run is at generation 2; generations cannot go below it") as kept:
        nim_evo.resume(tmp_path / "r", generations=1, progress=False)
    resumed = nim_evo.resume(tmp_path / "r", generations=3, progress=False, genomes_dir=tmp_path / "genomes")
    assert resumed.state.generation == 3 and kept
