"""The Python API: evolve a genome, or train a learner, in a few lines of a notebook.

    >>> import nim_evo
    >>> run = nim_evo.evolve(genome="table", rules=nim_evo.Rules(piles=(7, 5, 3)), generations=30, seed=1)
    >>> run.accuracy                              # share of winning positions where it plays a winning move
    1.0
    >>> run.champion.move((7, 5, 3), rng)         # a playable agent
    >>> run.plot()                                # a matplotlib Figure of the fitness history
    >>> run.export("genomes/mine.json")           # a strategy file nim_evo.load_strategy reads back

:func:`evolve` writes a run directory only when ``out`` is given (``python -m nim_evo.run``
is a thin layer over it, and gives it one); :func:`resume` continues a run directory from
its last checkpoint. :func:`train` trains a learner. Every parameter is checked as the
commands check theirs (:mod:`nim_evo.validation`): a mistake is a one-line
:class:`~nim_evo.validation.UserError`.
"""

from __future__ import annotations

import base64
import dataclasses
import io
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from nim_evo.games.base import Game
from nim_evo.games.nim import nim_board
from nim_evo.agents.protocol import AGENT, is_agent
from nim_evo.annotations import OnGeneration, PlayerSpec, StrPath
from nim_evo.console.progress import TrainingProgress
from nim_evo.engine.rules import Rules, family_name, family_of
from nim_evo.games.registry import GAME
from nim_evo.engine.space import SpaceTooLarge
from nim_evo.evaluation.opponents import resolve as resolve_opponent
from nim_evo.evaluation.heldout import RANDOM, held_out_accuracy
from nim_evo.evaluation.specs import Spec
from nim_evo.evolution import cluster, loop, target
from nim_evo.evolution.config import CONFIG_CONSTRAINTS, Config
from nim_evo.evolution.fitness import accuracy, ceiling
from nim_evo.evolution.rundir import RunDir, individual_document
from nim_evo.genomes import GenomeAgent, get_kind, kind_names
from nim_evo.atomic import write_json
from nim_evo.learners import LEARNERS, SEATS, Learner, make_learner
from nim_evo.learners.base import check_opponent
from nim_evo.orchestration import Evolution, check_jobs, named_opponents
from nim_evo.validation import (BOOL, EPISODES, PATH, SEED, Constraint, InstanceOf, KeywordError, Names, Options,
                                UserError, check, printable, renamed_keyword, validate)

if TYPE_CHECKING:
    from deap import tools
    from matplotlib.figure import Figure


class AgentsByName(Constraint):
    """Agent objects by their names (what :func:`resume` is given for a run's own)."""

    def __call__(self, value) -> bool:
        return isinstance(value, dict) and all(isinstance(name, str) and is_agent(agent)
                                               for name, agent in value.items())

    def __str__(self) -> str:
        return "a dict of agents by their names"


class CallableOf(Constraint):
    """Anything that can be called."""

    def __init__(self, what: str):
        self.what = what

    def __call__(self, value) -> bool:
        return callable(value)

    def __str__(self) -> str:
        return self.what


# The keyword arguments of evolve, resume, train and Run.export that Config does not hold (its
# CONFIG_CONSTRAINTS check the run's settings), each with what it may be.
ARGUMENTS = {
    "out": [None, PATH], "export": [None, PATH], "directory": [PATH], "genomes_dir": [None, PATH], "path": [PATH],
    "generations": [None, *CONFIG_CONSTRAINTS["generations"]],  # resume's: None goes on to the run's own
    "force": [BOOL], "progress": [BOOL], "scheduler": [None, InstanceOf(str, what="a scheduler's address")],
    "agents": [None, AgentsByName()],
    "rules": [GAME], "games": [None, EPISODES], "seat": [Options(*SEATS)],
    "on_generation": [None, CallableOf(what="a function of a generation's record")],
}
# train's opponent: one agent, name or spec, or a policy table
OPPONENT = [None, InstanceOf(str, what="an agent's name or spec"), AGENT,
            InstanceOf(np.ndarray, what="a policy table")]


@dataclass(repr=False)
class Run:
    """An evolution run: its configuration, its DEAP state, and where it wrote (if anywhere).

    Attributes:
        config: the :class:`~nim_evo.evolution.config.Config` it ran with.
        state: the DEAP population, hall of fame and logbook, and its generation.
        directory: the run directory, or ``None`` for a run kept in memory.
        exported: where its champion was exported, if it was.
    """

    config: Config
    state: loop.State
    directory: RunDir | None = None
    exported: Path | None = None
    toolbox: Any = field(default=None, repr=False)  # DEAP's Toolbox: what it holds is registered at run time

    @property
    def logbook(self) -> tools.Logbook:
        """DEAP's ``Logbook``: one record per generation (fitness statistics, the champion's
        win rate against each opponent, its accuracy, games and seconds)."""
        return self.state.logbook

    @property
    def hall_of_fame(self) -> tools.HallOfFame:
        """DEAP's ``HallOfFame`` of the best individuals, best first."""
        return self.state.halloffame

    @property
    def genes(self) -> Any:
        """The champion's genes (the best individual the run has seen)."""
        return self.state.halloffame[0]

    @property
    def champion(self) -> GenomeAgent:
        """The champion as a playable agent: ``move(piles, rng)``, ``distribution(piles)``."""
        return GenomeAgent(self.config.kind, self.genes, self.config.rules)

    @cached_property
    def accuracy(self) -> float | None:
        """Share of the board's winning positions where the champion plays a winning move
        (the solver's verdict; in a run of several families, the least of :attr:`accuracies`);
        ``None`` on a board too big to solve."""
        return None if self.accuracies is None else min(self.accuracies.values())

    @cached_property
    def accuracies(self) -> dict[str, float] | None:
        """The champion's accuracy on the run's board in each of its families, by the board's
        name (one entry but for a run of several families); ``None`` on a board too big to solve."""
        try:
            return {rules.name: accuracy(self.config.kind, self.genes, rules) for rules in self.config.home_rules()}
        except SpaceTooLarge:  # a board too big to solve
            return None

    @cached_property
    def ceiling(self) -> tuple[float, float] | None:
        """The most any genome could score against this run's panel, as (fitness, sub-games)
        (:attr:`nim_evo.evolution.fitness.Panel.ceiling`): against perfect opponents the
        second seat cannot win, so a perfect champion's fitness is well below 1. ``None`` on
        a board played without tables."""
        return None if self.toolbox is None else ceiling(self.toolbox.panels)

    @cached_property
    def held_out(self) -> dict | None:
        """For a genome that plays any board, its accuracy on boards it was not trained on
        (:func:`nim_evo.evaluation.heldout.held_out_accuracy`); ``None`` for one bound to its board."""
        if not self.config.kind.board_free:
            return None
        several = len(self.config.family_pairs) > 1  # then each family's random boards are named
        report = {}
        for rules in self.config.home_rules():
            for board, share in held_out_accuracy(self.config.kind, self.genes, rules, self.config.seed).items():
                report[f"{board} of {family_name(family_of(nim_board(rules)))}" if several and board == RANDOM
                       else board] = share
        return report

    @classmethod
    def evolved(cls, evolution: Evolution, progress: bool = True, force: bool = False,
                on_generation: OnGeneration | None = None) -> Run:
        """The run ``evolution`` (:class:`nim_evo.orchestration.Evolution`, new or resumed) makes,
        evolved to its end (:meth:`~nim_evo.orchestration.Evolution.evolve`: ``progress`` on stderr,
        ``on_generation`` after each generation); in a run directory, its outputs written and
        its champion exported (an export of another run's replaced only with ``force``)."""
        evolution.evolve(progress=progress, on_generation=on_generation)
        run = cls(evolution.config, evolution.state, evolution.run_dir, toolbox=evolution.toolbox)
        if evolution.run_dir is not None:
            run.exported = evolution.finish(run.document(**evolution.champion_meta()), force=force)
        return run

    def document(self, **meta: Any) -> dict:
        """The champion's genome document (what :meth:`export` writes)."""
        run = {"run": self.directory.run_id} if self.directory is not None else {}
        held_out = {} if self.held_out is None else {"held_out_accuracy": self.held_out}
        return individual_document(self.genes, self.config, **run, accuracy=self.accuracy, **held_out,
                                   run_config=self.config.to_json(), **meta)

    def export(self, path: StrPath, force: bool = False) -> Path:
        """Write the champion to ``path`` as a strategy file (atomically); an existing file
        is replaced only with ``force``. Returns the path."""
        validate(ARGUMENTS, {"path": path, "force": force})
        path = Path(path)
        if path.exists() and not force:
            raise UserError(f"{path} exists; pass force=True to replace it")
        write_json(path, self.document(name=path.stem))
        return path

    def plot(self, x: str = "generations") -> Figure:
        """The fitness history as a matplotlib ``Figure`` (what ``fitness.png`` shows)."""
        from nim_evo.plots.history import History, draw_history  # matplotlib only when drawing

        run_id = self.directory.run_id if self.directory is not None else "this run"
        return draw_history([History.from_logbook(run_id, self.config.to_json(), self.logbook)], x)

    def __repr__(self) -> str:
        """One short line: kind, board, generations, fitness, accuracy (and where it is written)."""
        where = "" if self.directory is None else f", in {printable(self.directory.path)}"
        return printable(f"<Run: {self._said()}{where}>")[:500]

    def _said(self) -> str:
        accuracy = "accuracy not measured" if self.accuracy is None else f"accuracy {self.accuracy:.4f}"
        return (f"{self.config.genome} genome on {self.config.rules.name}, generation {self.state.generation} of "
                f"{self.config.generations}, fitness {self.genes.fitness.values[0]:.4f}, {accuracy}")

    def _repr_html_(self) -> str:
        """A notebook's view: a small table of the run and its fitness picture."""
        import html  # (import time: learn --help loads this module; only a notebook shows a run as HTML)

        rows = {"genome": self.config.genome, "board": self.config.rules.name,
                "generation": f"{self.state.generation} of {self.config.generations}",
                "opponents": ", ".join(self.config.opponents),
                "fitness": f"{self.genes.fitness.values[0]:.4f}",
                "accuracy": "not measured" if self.accuracy is None else f"{100 * self.accuracy:.2f}%",
                "directory": "in memory" if self.directory is None else str(self.directory.path)}
        table = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
                        for k, v in rows.items())
        buffer = io.BytesIO()
        self.plot().savefig(buffer, format="png", dpi=60)
        picture = base64.b64encode(buffer.getvalue()).decode("ascii")
        return (f"<table>{table}</table><img alt='fitness history' style='max-width:100%' "
                f"src='data:image/png;base64,{picture}'>")


def evolve(genome: str = "table", rules: Game | None = None, *, generations: int = 200, seed: int = 0,
           opponents: Sequence[PlayerSpec] | None = None, jobs: int = 1, out: StrPath | None = None,
           export: StrPath | None = None, force: bool = False, progress: bool = True, backend: str = "local",
           scheduler: str | None = None, on_generation: OnGeneration | None = None, **settings: Any) -> Run:
    """Evolve a ``genome`` kind on ``rules`` (default: piles 1-3-5-7-9) against ``opponents``
    (default: the kind's own panel, else random, nimsum and minimax) and return the :class:`Run`.
    An opponent is a name or spec (an agent, a learner, a strategy file, ``module:NAME``) or an
    agent object (anything with ``move``, ``distribution`` or ``move_probabilities``; results
    call it by its ``name``, else its class name).

    ``settings`` are the other fields of :class:`~nim_evo.evolution.config.Config`
    (``population``, ``offspring``, ``fitness``, ``games``, ``starts``, ``space``, ``cxpb``,
    ``mutpb``, ``tournsize``, ``indpb``, ``greedy``, ``credit``, ``train_boards``,
    ``selection``, ``restart``; ``until="accuracy=1"`` or ``"ceiling"`` to stop at a target;
    ``families=["normal", "misere", "cap3", "cap3-misere"]`` for one program of several). ``jobs`` workers evaluate
    fitness (the result does not depend on it), on joblib's local pool or, with
    ``backend="dask"``, a Dask cluster. With ``out`` the run is written to that directory
    (checkpoints, logbook, hall of fame, champion; :func:`resume` continues it), and with
    ``export`` its champion is exported there too. ``progress`` shows a progress bar on stderr.
    ``on_generation(record)`` is called after each generation with its logbook record, a dict
    (``gen``, ``evals``, ``max``, ``accuracy``, a win rate per opponent, ...), to feed a notebook
    widget or an experiment tracker; a true answer stops the run there.
    The same arguments give the same champion as ``python -m nim_evo.run`` with the same flags.
    """
    validate(ARGUMENTS, {"out": out, "export": export, "force": force, "progress": progress, "scheduler": scheduler,
                         "on_generation": on_generation})
    config, given = config_from(genome, rules, opponents, generations=generations, seed=seed, **settings)
    jobs = check_jobs(jobs, backend, scheduler)
    if export is not None and out is None:
        raise UserError("export goes with out (a run directory); or call export() on the run returned")
    with cluster.evaluation_backend(backend, jobs, scheduler) as workers:
        evolution = Evolution.begin(config, out=out, export=export, force=force, jobs=workers, quiet=not progress,
                                    given=given)
        return Run.evolved(evolution, progress=progress, force=force, on_generation=on_generation)


def config_from(genome: str = "table", rules: Game | None = None, opponents=None, who: str = "evolve()",
                **settings) -> tuple:
    """``(config, given)``: the run :func:`evolve`'s keywords describe (the kind's own settings
    where not given; piles 1-3-5-7-9 by default), and the opponents given as agent objects, by
    their names; one line for a keyword that is no setting."""
    fields = {f.name for f in dataclasses.fields(Config)} - {"genome", "rules", "generations", "seed", "opponents"}
    unknown = sorted(set(settings) - fields - {"generations", "seed"})
    if unknown:
        raise UserError(f"{who} has no setting {unknown[0]!r}; its settings are {', '.join(sorted(fields))}")
    if genome in kind_names():  # the kind's own settings where not given (an unknown kind: Config says so)
        settings = {**get_kind(genome).settings_for(rules or Rules((1, 3, 5, 7, 9))), **settings}
    given: dict = {}
    if opponents is not None:
        settings["opponents"], given = named_opponents(opponents)
    config = Config(genome=genome, rules=Rules((1, 3, 5, 7, 9)) if rules is None else rules, **settings)
    return config, given


def resume(directory: StrPath, generations: int | None = None, *, jobs: int = 1, genomes_dir: StrPath | None = None,
           force: bool = False, progress: bool = True, backend: str = "local", scheduler: str | None = None,
           agents: dict | None = None, code: Sequence[str] | None = None, until: str | None = None,
           on_generation: OnGeneration | None = None) -> Run:
    """Continue the run in ``directory`` from its last checkpoint (to ``generations``, or
    to the number it was begun with); the same champion as a run never interrupted. ``until``
    gives the run a new target (``"accuracy=1"``, ``"ceiling"``; ``"never"``: none; ``None``:
    the one it was begun with; a run that stopped at its target goes on only with another).
    ``agents``: the opponents it was begun with as agent objects, by their names; ``code``: the code
    opponents it plays (``module:NAME``, ``file.py:NAME``), named again (a run directory may
    come from anyone: what it names is never imported unless you name it too);
    ``on_generation``: as :func:`evolve`'s."""
    validate(ARGUMENTS, {"directory": directory, "generations": generations, "genomes_dir": genomes_dir,
                         "force": force, "progress": progress, "scheduler": scheduler, "agents": agents,
                         "on_generation": on_generation})
    check("code", code, [None, Names()])
    check("until", until, [None, Options(target.NEVER), target.UNTIL])
    jobs = check_jobs(jobs, backend, scheduler)
    with cluster.evaluation_backend(backend, jobs, scheduler) as workers:
        evolution = Evolution.resume(directory, generations, genomes_dir=genomes_dir, force=force, jobs=workers,
                                     quiet=not progress, given=agents, trusted=code, until=until)
        return Run.evolved(evolution, progress=progress, force=force, on_generation=on_generation)


def train(learner: str, rules: Game, games: int | None = None, seed: int = 0, opponents: PlayerSpec | None = None,
          seat: str = "alternate", progress: bool = False, *, episodes: int | None = None,
          opponent: PlayerSpec | None = None, **params: Any) -> Learner:
    """A learner (``qlearning``, ``td``, ``montecarlo``, ``wincount``, ``quality``,
    ``subgame``) trained on ``rules`` for ``games`` games (its source write-up's number by
    default) by self-play, or against ``opponents`` (one agent or name) from ``seat``;
    ``params`` go to the learner (e.g. ``alpha=0.5``). A playable agent, which
    :func:`nim_evo.learners.files.save_learner` writes as a strategy file. ``episodes`` and
    ``opponent`` are the old names of ``games`` and ``opponents`` (a ``DeprecationWarning``)."""
    games = renamed_keyword("episodes", episodes, "games", games)
    opponents_ = renamed_keyword("opponent", opponent, "opponents", opponents)
    check("progress", progress, [BOOL])
    training = Training.begin(learner, rules, games, seed, opponents_, seat, params)
    training.run(progress)
    return training.learner


@dataclass
class Training:
    """:func:`train` in two steps: :meth:`begin` checks every argument, makes the learner and
    resolves its opponent; :meth:`run` plays the games. (``nim-evo learn`` checks its output
    file between them.)"""

    learner: Learner
    games: int
    seed: int
    opponent: Any  # None for self-play, else an agent or a policy table
    seat: str

    @classmethod
    def begin(cls, learner: str, rules: Game, games: int | None = None, seed: int = 0,
              opponents: PlayerSpec | None = None, seat: str = "alternate", params: dict | None = None) -> Training:
        """A learner ready to train, or a one-line :class:`~nim_evo.validation.UserError`
        (said with the command's flags where they differ: a :class:`KeywordError`)."""
        check("learner", learner, [Options(*LEARNERS)])
        check("seed", seed, [SEED])
        validate(ARGUMENTS, {"rules": rules, "games": games, "seat": seat})
        check("opponents", opponents, OPPONENT)
        agent = make_learner(learner, rules, **(params or {}))
        if isinstance(opponents, str):
            if Spec.parse(opponents).several:
                raise KeywordError(f"a learner trains against one opponent; [[opponents={opponents!r}|--opponents "
                                   f"{opponents!r}]] names several")
            opponents = resolve_opponent(opponents, rules, seed)
        if opponents is None and seat != "alternate":
            raise KeywordError("[[seat|--seat]] places the learner against [[an opponent|--opponents]]; "
                               "self-play uses both seats")
        if opponents is not None and not isinstance(opponents, np.ndarray):
            check_opponent(agent.order_blind, opponents)  # before any game (or a command's file)
        return cls(agent, agent.episodes if games is None else games, seed, opponents, seat)

    def run(self, progress: bool = False) -> np.ndarray:
        """Play the training games (a progress bar on stderr with ``progress``); whether the
        learner won each (self-play: the first seat)."""
        with TrainingProgress(self.games, quiet=not progress) as bar:
            return self.learner.train(self.games, np.random.default_rng(self.seed), self.opponent, self.seat,
                                      progress=bar)


__all__ = ["Run", "evolve", "resume", "train"]
