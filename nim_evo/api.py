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

import dataclasses
import hashlib
import sys
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, overload

import numpy as np

from nim_evo.console.opponents import resolve_saying
from nim_evo.console.progress import Progress, TrainingProgress
from nim_evo.console.text import wrapped
from nim_evo.agents.player import name_of
from nim_evo.agents.protocol import AGENT, is_agent
from nim_evo.engine.rules import RULES, Rules, family_name, family_of
from nim_evo.engine.space import SpaceTooLarge, tabulable
from nim_evo.evaluation import opponents
from nim_evo.evaluation.opponents import resolve as resolve_opponent, several as several_opponents
from nim_evo.evaluation.strategy import load_strategy
from nim_evo.evolution import cluster, loop, stages, target
from nim_evo.evolution.feasible import check_feasible, expected_time
from nim_evo.evolution.fitness import accuracy, ceiling
from nim_evo.evolution.rundir import RunDir, export_path, exported_by, individual_document, resumed_export
from nim_evo.genomes import GENOME_FORMAT, GenomeAgent, get_kind, kind_names
from nim_evo.io import MAX_JSON_BYTES, check_writable, read_json, read_regular, refuse_overwrite, write_json
from nim_evo.learners import LEARNERS, SEATS, Learner, make_learner
from nim_evo.learners.base import check_opponent
from nim_evo.validation import (BOOL, EPISODES, JOBS, PATH, SEED, Constraint, InstanceOf, KeywordError, Names, Options,
                                ParameterError,
                                UserError, check, printable, renamed_keyword, usable_jobs, validate)


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
    "generations": [None, *loop.CONFIG_CONSTRAINTS["generations"]],  # resume's: None goes on to the run's own
    "force": [BOOL], "progress": [BOOL], "scheduler": [None, InstanceOf(str, what="a scheduler's address")],
    "agents": [None, AgentsByName()],
    "rules": [RULES], "games": [None, EPISODES], "seat": [Options(*SEATS)],
    "on_generation": [None, CallableOf(what="a function of a generation's record")],
}
# train's opponent: one agent, name or spec, or a policy table
OPPONENT = [None, InstanceOf(str, what="an agent's name or spec"), AGENT,
            InstanceOf(np.ndarray, what="a policy table")]


@dataclass(repr=False)
class Run:
    """An evolution run: its configuration, its DEAP state, and where it wrote (if anywhere).

    Attributes:
        config: the :class:`~nim_evo.evolution.loop.Config` it ran with.
        state: the DEAP population, hall of fame and logbook, and its generation.
        directory: the run directory, or ``None`` for a run kept in memory.
        exported: where its champion was exported, if it was.
    """

    config: loop.Config
    state: loop.State
    directory: RunDir | None = None
    exported: Path | None = None
    toolbox: Any = field(default=None, repr=False)  # DEAP's Toolbox: what it holds is registered at run time

    @property
    def logbook(self):
        """DEAP's ``Logbook``: one record per generation (fitness statistics, the champion's
        win rate against each opponent, its accuracy, games and seconds)."""
        return self.state.logbook

    @property
    def hall_of_fame(self):
        """DEAP's ``HallOfFame`` of the best individuals, best first."""
        return self.state.halloffame

    @property
    def genes(self):
        """The champion's genes (the best individual the run has seen)."""
        return self.state.halloffame[0]

    @property
    def champion(self) -> GenomeAgent:
        """The champion as a playable agent: ``move(piles, rng)``, ``distribution(piles)``."""
        return GenomeAgent(self.config.genome, self.genes, self.config.rules)

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
            return {rules.name: accuracy(self.config.genome, self.genes, rules) for rules in self.config.home_rules()}
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
        if not get_kind(self.config.genome).board_free:
            return None
        from nim_evo.evaluation.heldout import RANDOM, held_out_accuracy

        several = len(self.config.family_pairs) > 1  # then each family's random boards are named
        report = {}
        for rules in self.config.home_rules():
            for board, share in held_out_accuracy(self.config.genome, self.genes, rules, self.config.seed).items():
                report[f"{board} of {family_name(family_of(rules))}" if several and board == RANDOM else board] = share
        return report

    def document(self, **meta) -> dict:
        """The champion's genome document (what :meth:`export` writes)."""
        run = {"run": self.directory.run_id} if self.directory is not None else {}
        held_out = {} if self.held_out is None else {"held_out_accuracy": self.held_out}
        return individual_document(self.genes, self.config, **run, accuracy=self.accuracy, **held_out,
                                   run_config=self.config.to_json(), **meta)

    def export(self, path, force: bool = False) -> Path:
        """Write the champion to ``path`` as a strategy file (atomically); an existing file
        is replaced only with ``force``. Returns the path."""
        validate(ARGUMENTS, {"path": path, "force": force})
        path = Path(path)
        if path.exists() and not force:
            raise UserError(f"{path} exists; pass force=True to replace it")
        write_json(path, self.document(name=path.stem))
        return path

    def plot(self, x: str = "generations"):
        """The fitness history as a matplotlib ``Figure`` (what ``fitness.png`` shows)."""
        from nim_evo.plots.history import History, draw_history

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
        import base64
        import html
        import io

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


@dataclass
class Evolution:
    """A run being evolved: what :func:`evolve` and ``python -m nim_evo.run`` drive."""

    config: loop.Config
    toolbox: Any  # DEAP's Toolbox: what it holds is registered at run time
    state: loop.State
    run_dir: RunDir | None = None
    extra: dict = field(default_factory=dict)
    jobs: int = 1

    @classmethod
    def begin(cls, config: loop.Config, out=None, export=None, force: bool = False, jobs: int = 1,
              command: str | None = None, quiet: bool = False, given: dict | None = None) -> Evolution:
        """A new run at generation 0; with ``out``, written to that run directory (refused if
        it holds files, unless ``force``), and with ``export`` the champion exported there at the
        end; ``given``: opponents given as agent objects, by the names the config holds for them."""
        check_feasible(config)
        export = None if export is None else Path(export)
        if export is not None:
            refuse_overwrite(export, force, keyword="export")
        files = check_opponents(config, given)      # names, files and code, before any training
        run_dir = None if out is None else RunDir(out)
        created = [_new_folders(path) for path in (None if run_dir is None else run_dir.path, export and export.parent)
                   if path is not None]
        try:
            if export is not None:
                check_writable(export.parent)  # only now touch the disk, and before the first generation
            if run_dir is not None:
                run_dir.check_free(force=force, inside=export and export.parent)
                run_dir.lock()
            toolbox = make_toolbox(config, jobs, quiet, given)
            state = loop.start(config, toolbox)
            extra = {"export": None if export is None else str(export), "command": command, "opponent_files": files,
                     "given_opponents": sorted(given or ())}
            if run_dir is not None:
                run_dir.begin(state, config, extra, force=force, inside=export and export.parent)
        except BaseException:  # a run refused or stopped before its first checkpoint leaves no empty folder
            if run_dir is not None:
                run_dir.unlock()
            for folders in created:
                _remove_empty(folders)
            raise
        return cls(config, toolbox, state, run_dir, extra, jobs)

    @classmethod
    def resume(cls, directory, generations: int | None = None, genomes_dir=None, force: bool = False,
               jobs: int = 1, command: str | None = None, quiet: bool = False,
               given: dict | None = None, trusted=None, until: str | None = None, export: bool = True) -> Evolution:
        """The run in ``directory`` at its last checkpoint, to go on to ``generations`` (and
        with ``until`` a new target, :data:`~nim_evo.evolution.target.NEVER` for none); its
        champion exported where it was before, or into ``genomes_dir`` if given; ``given``: the
        agent objects it was begun with, by their names; ``trusted``: the code opponents
        (``module:NAME``, ``file.py:NAME``) it plays, named again by the person (a run
        directory is a file from anyone: what it names is never imported unasked); ``export``:
        False for a run whose champion stays in its directory (a sweep's)."""
        run_dir = RunDir(directory)
        if run_dir.path.is_dir():
            run_dir.lock()
        try:  # a refused resume leaves the directory free (a notebook keeps the error, and with it the lock)
            config, state, extra = run_dir.load()
            extra["export"] = str(resumed_export(extra.get("export"), genomes_dir, run_dir, config)) if export else None
            exported = Path(extra["export"]) if export else None
            if exported is not None:
                check_writable(exported.parent)
            if exported is not None and exported.exists() and not force and not exported_by(
                    exported, {"format": GENOME_FORMAT, "run": run_dir.run_id, "run_config": config.to_json()}):
                raise KeywordError(f"{exported} holds another run's genome; [[pass force=True|use --force]] to "
                                   "overwrite it, or another [[genomes_dir|--genomes-dir]]")
            missing = [name for name in extra.get("given_opponents") or () if name not in (given or {})]
            if missing:
                raise UserError(f"the run played {', '.join(missing)}, given as agent objects in Python: give them "
                                f"again, resume(..., agents={{{missing[0]!r}: ...}})")
            from nim_evo.agents.imported import is_code

            if trusted is not None and not set(trusted) <= set(config.opponents):
                raise KeywordError(f"[[code|--opponents]] names the run's opponents again ({','.join(config.opponents)}), "
                                   "to let it run the code among them; it cannot change them")
            code = [spec for spec in config.opponents if is_code(spec) and spec not in (given or {})]
            if any(spec not in (trusted or ()) for spec in code):  # the directory names it: never imported unasked
                raise KeywordError(f"the run plays code ({', '.join(code)}), and a run directory cannot make nim_evo "
                                   "run code: name it again to resume, [[resume(..., code=[...])|--opponents "
                                   f"{','.join(config.opponents)}]]")
            files = check_opponents(config, given)
            for spec, digest in (extra.get("opponent_files") or {}).items():
                if files.get(spec) != digest:
                    raise UserError(f"the opponent file {spec} is not the one this run began with (changed, or resumed "
                                    "from another directory); resume where the run began, with the file as it was")
            extra["command"] = extra.get("command") or command
            extra["resumed_with"] = command
            if generations is not None and generations < state.generation:
                raise KeywordError(f"the run is at generation {state.generation}; [[generations|--generations]] "
                                   "cannot go below it")
            changed: dict[str, Any] = {"generations": generations} if generations is not None else {}
            if until is not None:  # a new target, or none
                changed["until"] = None if until == target.NEVER else until
            if changed:
                try:
                    config = dataclasses.replace(config, **changed)
                except ParameterError as error:
                    raise KeywordError(f"[[until|--until]] {error.problem}") from None
                run_dir.save(state, config, extra)  # the checkpoint first: it is the authority
                write_json(run_dir.config_path, config.to_json())
            return cls(config, make_toolbox(config, jobs, quiet, given), state, run_dir, extra, jobs)
        except BaseException:
            run_dir.unlock()
            raise

    def reached(self) -> bool:
        """Whether the champion has reached the run's target (``config.until``, see
        :mod:`nim_evo.evolution.target`)."""
        if self.config.until is None or stages.stage_of(self.state) + 1 < len(self.config.stages):
            return False  # (in a run of several stages, only the last stage's champion is the run's)
        top = ceiling(self.toolbox.panels)
        champion = self.state.halloffame[0]
        if not target.reached(self.config.until, self.state.logbook[-1], champion.fitness.values[0],
                              None if top is None else top[0]):
            return False
        perfect = target.parse(self.config.until) in (("accuracy", 1.0), (target.CEILING, None))
        return not perfect or stages.beyond_its_boards(self.config, champion, self.config.family_pairs)

    def _generations(self, progress: bool, on_generation) -> tuple[bool, bool]:
        """The generations of :meth:`evolve`: ``(reached, stopped)``."""
        config, state = self.config, self.state
        with Progress(config.generations, state.generation, quiet=not progress) as bar:  # closed on an error too
            bar.ceiling = stages.stage_ceiling(self.toolbox, state) if progress else None
            bar.update(state.logbook[-1], config.opponents)
            reached = self.reached()
            stopped = False
            while state.generation < config.generations and not reached and not stopped:
                loop.step(state, config, self.toolbox)
                if self.run_dir is not None:
                    self.run_dir.save(state, config, self.extra)
                if progress:
                    bar.ceiling = stages.stage_ceiling(self.toolbox, state)
                bar.update(state.logbook[-1], config.opponents)
                reached = self.reached()
                stopped = on_generation is not None and bool(on_generation(dict(state.logbook[-1])))
        if reached and progress:
            assert config.until is not None  # reached() is False without a target
            print(wrapped(f"stopped at generation {state.generation} of {config.generations}: the champion reached "
                          f"{target.said(config.until)} (until {config.until})"), file=sys.stderr)
        elif stopped and progress and state.generation < config.generations:
            print(f"stopped at generation {state.generation} of {config.generations}: on_generation asked to",
                  file=sys.stderr)
        return reached, stopped

    def evolve(self, progress: bool = True, force: bool = False, on_generation=None) -> Run:
        """Evolve to the configured number of generations, or until the champion reaches the
        run's target (checkpointing each generation in a run directory), then write the run's
        outputs and export the champion; the :class:`Run`. ``on_generation(record)`` is called
        after each generation with its logbook record (a dict); a true answer stops the run
        there, as a target reached does."""
        config, state = self.config, self.state
        if progress:
            where = f": {self.run_dir.path}" if self.run_dir is not None else ""
            print(wrapped(printable(f"evolving a {config.genome} genome on {config.rules.name} against "
                                    f"{', '.join(config.opponents)} ({config.fitness} fitness), {config.generations} "
                                    f"generations, seed {config.seed}{where}")), file=sys.stderr)
            if config.fitness == "sampled":  # a win rate of 2 x games games: its 95% margin at worst (p = 1/2)
                print(f"  sampled fitness: each win rate within about ±{1.96 * (0.125 / config.games) ** 0.5:.3f} (95%),"
                      " the best of a population's reading high", file=sys.stderr)
            ordered = [panel for panel in self.toolbox.panels if panel.tables is not None and not panel.multiset]
            if config.multiset and ordered:  # an order-reading opponent (or genome): the game as it is played
                print(wrapped(f"  an opponent reads the order of the piles: fitness is measured on the ordered "
                              f"board ({ordered[0].space.n_positions:,} positions of {ordered[0].rules.name}), not "
                              "over multisets"), file=sys.stderr)
            if expected_time(config) and state.generation < config.generations:
                print(f"  expect {expected_time(config)}", file=sys.stderr)
        try:
            reached, stopped = self._generations(progress, on_generation)
        except BaseException:  # an error, Ctrl-C, or on_generation raising: the directory is free again
            if self.run_dir is not None:
                self.run_dir.unlock()
            raise
        run = Run(config, state, self.run_dir, toolbox=self.toolbox)
        if self.run_dir is None:
            return run
        resumed = {"resumed_with": self.extra["resumed_with"]} if self.extra.get("resumed_with") else {}
        export = Path(self.extra["export"]) if self.extra.get("export") else None
        name = export.stem if export is not None else self.run_dir.run_id
        document = run.document(name=name, command=self.extra.get("command"), **resumed)
        self.run_dir.write_outputs(state, config, document)
        if export is not None:
            if export.exists() and not force and not exported_by(export, document):
                raise KeywordError(f"{export} holds another run's genome; the champion stays in "
                                   f"{self.run_dir.champion_path} ([[pass force=True|use --force]] to overwrite the "
                                   "export)")
            write_json(export, document)
            run.exported = export
        self.run_dir.unlock()
        return run


def evolve(genome: str = "table", rules: Rules | None = None, *, generations: int = 200, seed: int = 0,
           opponents=None, jobs: int = 1, out=None, export=None, force: bool = False,
           progress: bool = True, backend: str = "local", scheduler: str | None = None, on_generation=None,
           **settings) -> Run:
    """Evolve a ``genome`` kind on ``rules`` (default: piles 1-3-5-7-9) against ``opponents``
    (default: the kind's own panel, else random, nimsum and minimax) and return the :class:`Run`.
    An opponent is a name or spec (an agent, a learner, a strategy file, ``module:NAME``) or an
    agent object (anything with ``move``, ``distribution`` or ``move_probabilities``; results
    call it by its ``name``, else its class name).

    ``settings`` are the other fields of :class:`~nim_evo.evolution.loop.Config`
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
    jobs = _check_jobs(jobs, backend, scheduler)
    if export is not None and out is None:
        raise UserError("export goes with out (a run directory); or call export() on the run returned")
    with cluster.evaluation_backend(backend, jobs, scheduler) as workers:
        evolution = Evolution.begin(config, out=out, export=export, force=force, jobs=workers, quiet=not progress,
                                    given=given)
        return evolution.evolve(progress=progress, force=force, on_generation=on_generation)


def config_from(genome: str = "table", rules: Rules | None = None, opponents=None, who: str = "evolve()",
                **settings) -> tuple:
    """``(config, given)``: the run :func:`evolve`'s keywords describe (the kind's own settings
    where not given; piles 1-3-5-7-9 by default), and the opponents given as agent objects, by
    their names; one line for a keyword that is no setting."""
    fields = {f.name for f in dataclasses.fields(loop.Config)} - {"genome", "rules", "generations", "seed", "opponents"}
    unknown = sorted(set(settings) - fields - {"generations", "seed"})
    if unknown:
        raise UserError(f"{who} has no setting {unknown[0]!r}; its settings are {', '.join(sorted(fields))}")
    if genome in kind_names():  # the kind's own settings where not given (an unknown kind: Config says so)
        settings = {**get_kind(genome).defaults, **settings}
    given: dict = {}
    if opponents is not None:
        settings["opponents"], given = named_opponents(opponents)
    config = loop.Config(genome=genome, rules=Rules((1, 3, 5, 7, 9)) if rules is None else rules, **settings)
    return config, given


def resume(directory, generations: int | None = None, *, jobs: int = 1, genomes_dir=None, force: bool = False,
           progress: bool = True, backend: str = "local", scheduler: str | None = None,
           agents: dict | None = None, code=None, until: str | None = None, on_generation=None) -> Run:
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
    jobs = _check_jobs(jobs, backend, scheduler)
    with cluster.evaluation_backend(backend, jobs, scheduler) as workers:
        evolution = Evolution.resume(directory, generations, genomes_dir=genomes_dir, force=force, jobs=workers,
                                     quiet=not progress, given=agents, trusted=code, until=until)
        return evolution.evolve(progress=progress, force=force, on_generation=on_generation)


def train(learner: str, rules: Rules, games: int | None = None, seed: int = 0, opponents=None,
          seat: str = "alternate", progress: bool = False, *, episodes: int | None = None, opponent=None,
          **params):
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
    def begin(cls, learner: str, rules: Rules, games: int | None = None, seed: int = 0, opponents=None,
              seat: str = "alternate", params: dict | None = None) -> Training:
        """A learner ready to train, or a one-line :class:`~nim_evo.validation.UserError`
        (said with the command's flags where they differ: a :class:`KeywordError`)."""
        check("learner", learner, [Options(*LEARNERS)])
        check("seed", seed, [SEED])
        validate(ARGUMENTS, {"rules": rules, "games": games, "seat": seat})
        check("opponents", opponents, OPPONENT)
        agent = make_learner(learner, rules, **(params or {}))
        if isinstance(opponents, str):
            if several_opponents(opponents):
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


# -- what a run checks before it begins -------------------------------------------------------


def named_opponents(players) -> tuple[tuple[str, ...], dict]:
    """``(names, given)``: each opponent's name or spec, and the agent objects among them by
    name; refused in one line where an object is no agent or two opponents share a name."""
    if isinstance(players, str) or not isinstance(players, (list, tuple)):
        raise UserError(f"opponents must be a list of names or agents, got {players!r}")
    names, given = [], {}
    for i, player in enumerate(players):
        if isinstance(player, str):
            names.append(player)
            continue
        if not is_agent(player):
            raise UserError(f"opponents[{i}] is a {type(player).__name__}, not an agent: an agent has move(piles, "
                            "rng), distribution(piles) or move_probabilities(positions)")
        name = name_of(player)
        if name in names or opponents.is_spec(name):
            taken = "another opponent" if name in names else "a player nim_evo knows"
            raise UserError(f"opponents[{i}] is called {name!r}, which names {taken}: give the agent a name "
                            "attribute of its own")
        names.append(name)
        given[name] = player
    return tuple(names), given


def check_opponents(config: loop.Config, given: dict | None = None) -> dict:
    """Refuse unknown opponents, unreadable files and code that does not give an agent, in one
    line, before any training; return the sha256 of each opponent file and code file (a
    resumed run must find the same ones)."""
    from nim_evo.agents.imported import import_agent, is_code, source_digest
    from nim_evo.agents.registry import make_agent

    if not tabulable(config.rules, multiset=config.multiset):  # a panel of named movers: cheap, checks the board
        make_toolbox(config, 1, quiet=True, given=given)
        return {spec: digest for spec in config.opponents if is_code(spec) and (digest := source_digest(spec))}
    files = {}
    for spec in config.opponents:
        if given and spec in given:
            continue
        if is_code(spec):
            import_agent(spec, config.rules)
            if source_digest(spec):
                files[spec] = source_digest(spec)
        elif opponents.is_path(spec):
            load_strategy(spec, config.rules)
            files[spec] = hashlib.sha256(read_regular(spec, MAX_JSON_BYTES, "JSON files")).hexdigest()
        elif spec not in LEARNERS:
            make_agent(spec, config.rules)
    return files


def make_toolbox(config: loop.Config, jobs: int, quiet: bool = False, given: dict | None = None):
    """The run's DEAP toolbox, its learned opponents trained (or found in the cache) first,
    saying which on stderr unless ``quiet``."""
    for spec in config.opponents:
        if spec in LEARNERS and not (given and spec in given) and tabulable(config.rules, multiset=config.multiset):
            resolve_saying(spec, config.rules, config.seed, quiet=quiet)
    return loop.make_toolbox(config, jobs, given)


def _new_folders(path: Path) -> list[Path]:
    """The folders of ``path`` that do not exist yet, deepest first."""
    return [folder for folder in (path, *path.parents) if not folder.exists()]


def _remove_empty(folders: list[Path]) -> None:
    """Remove the folders a refused run created, deepest first, while they are empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:  # not empty (or already gone): keep it and what holds it
            return


@overload
def _check_jobs(jobs: int, backend: str, scheduler) -> int: ...
@overload
def _check_jobs(jobs: None, backend: str, scheduler) -> None: ...
def _check_jobs(jobs, backend: str, scheduler) -> int | None:
    """``jobs`` checked, and lowered to the machine's cores for local work (with a warning)."""
    if jobs is not None:
        check("jobs", jobs, [JOBS])
    cluster.check_backend(backend, scheduler, jobs)
    if jobs is None or scheduler is not None:
        return jobs
    jobs, note = usable_jobs(jobs)
    if note:
        warnings.warn(note, stacklevel=3)
    return jobs


__all__ = ["Evolution", "Run", "evolve", "resume", "train"]
