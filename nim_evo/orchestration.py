"""A run being evolved: the orchestration under :func:`nim_evo.evolve`, :func:`nim_evo.resume`,
``python -m nim_evo.run`` and a sweep's tasks.

:class:`Evolution` begins a run (or resumes one from its run directory), holds its directory
for the process, checkpoints each generation, says what it is doing on stderr, and at the end
writes the run's outputs and exports its champion. Beside it, what a run checks before it
begins: the opponents (:func:`named_opponents`, :func:`check_opponents`), the toolbox with its
learned opponents trained first (:func:`make_toolbox`), the worker count (:func:`check_jobs`).

Why a layer of its own, between :mod:`nim_evo.api` and :mod:`nim_evo.console`, and not a
module of :mod:`nim_evo.evolution` beside the run directory: an evolution talks to a person
(the run's opening lines, the progress bar, a learned opponent being trained, why it stopped),
and what nim_evo shows a person is :mod:`nim_evo.console`'s, a layer above ``evolution``. An
orchestrator in ``evolution`` reporting through an observer that ``console`` supplies would
need an observer protocol as wide as what a run says (its opening lines, a bar to close on an
error, two ways of stopping, a learner trained or found in the cache), each caller (the API,
the command, a sweep) wiring it up again. Here the orchestration imports ``console``
directly, as :mod:`nim_evo.api` does, and ``evolution`` stays the machinery that prints nothing
(the DEAP loop, fitness, the run directory, the cluster). The :class:`~nim_evo.api.Run` an
evolution ends in is the API's (:meth:`nim_evo.api.Run.evolved`): this module evolves the
run's state and writes the document the ``Run`` makes of its champion.
"""

from __future__ import annotations

import dataclasses
import hashlib
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from nim_evo.agents.player import name_of
from nim_evo.agents.protocol import is_agent
from nim_evo.console.opponents import resolve_saying
from nim_evo.console.progress import Progress
from nim_evo.console.text import wrapped
from nim_evo.engine.space import panel_tabulable
from nim_evo.agents.imported import is_code, source_digest
from nim_evo.evaluation import opponents
from nim_evo.evaluation.specs import Spec, is_file, is_learner
from nim_evo.evolution import cluster, loop, stages, target
from nim_evo.evolution.config import Config
from nim_evo.evolution.feasible import check_feasible, expected_time
from nim_evo.evolution.fitness import ceiling
from nim_evo.evolution.rundir import RunDir, exported_by, resumed_export
from nim_evo.genomes import GENOME_FORMAT
from nim_evo.io import MAX_JSON_BYTES, check_writable, new_folders, read_regular, refuse_overwrite, remove_empty
from nim_evo.atomic import write_json
from nim_evo.validation import JOBS, KeywordError, ParameterError, UserError, check, printable, usable_jobs


@dataclass
class Evolution:
    """A run being evolved: what :func:`nim_evo.evolve`, :func:`nim_evo.resume`, ``python -m nim_evo.run``
    and a sweep's tasks drive (:meth:`nim_evo.api.Run.evolved`)."""

    config: Config
    toolbox: Any  # DEAP's Toolbox: what it holds is registered at run time
    state: loop.State
    run_dir: RunDir | None = None
    extra: dict = field(default_factory=dict)
    jobs: int = 1

    @classmethod
    def begin(cls, config: Config, out=None, export=None, force: bool = False, jobs: int = 1,
              command: str | None = None, quiet: bool = False, given: dict | None = None,
              overlap: bool = True) -> Evolution:
        """A new run at generation 0; with ``out``, written to that run directory (refused if
        it holds files, unless ``force``), and with ``export`` the champion exported there at the
        end; ``given``: opponents given as agent objects, by the names the config holds for them;
        ``overlap``: as :func:`nim_evo.evolution.loop.make_toolbox`'s."""
        check_feasible(config)
        export = None if export is None else Path(export)
        if export is not None:
            refuse_overwrite(export, force, keyword="export")
        files = check_opponents(config, given)      # names, files and code, before any training
        run_dir = None if out is None else RunDir(out)
        created = [new_folders(path) for path in (None if run_dir is None else run_dir.path, export and export.parent)
                   if path is not None]
        try:
            if export is not None:
                check_writable(export.parent)  # only now touch the disk, and before the first generation
            if run_dir is not None:
                run_dir.check_free(force=force, inside=export and export.parent)
                run_dir.lock()
            toolbox = make_toolbox(config, jobs, quiet, given, overlap)
            state = loop.start(config, toolbox)
            extra = {"export": None if export is None else str(export), "command": command, "opponent_files": files,
                     "given_opponents": sorted(given or ())}
            if run_dir is not None:
                run_dir.begin(state, config, extra, force=force, inside=export and export.parent)
        except BaseException:  # a run refused or stopped before its first checkpoint leaves no empty folder
            if run_dir is not None:
                run_dir.unlock()
            for folders in created:
                remove_empty(folders)
            raise
        return cls(config, toolbox, state, run_dir, extra, jobs)

    @classmethod
    def resume(cls, directory, generations: int | None = None, genomes_dir=None, force: bool = False,
               jobs: int = 1, command: str | None = None, quiet: bool = False,
               given: dict | None = None, trusted=None, until: str | None = None, export: bool = True,
               overlap: bool = True) -> Evolution:
        """The run in ``directory`` at its last checkpoint, to go on to ``generations`` (and
        with ``until`` a new target, :data:`~nim_evo.evolution.target.NEVER` for none); its
        champion exported where it was before, or into ``genomes_dir`` if given; ``given``: the
        agent objects it was begun with, by their names; ``trusted``: the code opponents
        (``module:NAME``, ``file.py:NAME``) it plays, named again by the person (a run
        directory is a file from anyone: what it names is never imported unasked); ``export``:
        False for a run whose champion stays in its directory (a sweep's); ``overlap``: as
        :func:`nim_evo.evolution.loop.make_toolbox`'s."""
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
                run_dir.write_config(config)
            return cls(config, make_toolbox(config, jobs, quiet, given, overlap), state, run_dir, extra, jobs)
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
        return not perfect or stages.beyond_its_boards(self.config, champion)

    def _generations(self, progress: bool, on_generation) -> tuple[bool, bool]:
        """The generations of :meth:`evolve`: ``(reached, stopped)``."""
        config, state = self.config, self.state
        with Progress(config.generations, state.generation, quiet=not progress) as bar:  # closed on an error too
            bar.ceiling = stages.stage_ceiling(self.toolbox, state) if progress else None
            bar.update(state.logbook[-1], config.opponents)
            reached = self.reached()
            stopped = state.generation > 0 and on_generation is not None and bool(on_generation(dict(state.logbook[-1])))
            last, unsaved = (0.0, time.perf_counter()), False  # (what the last checkpoint took, when it ended)
            while state.generation < config.generations and not reached and not stopped:
                loop.step(state, config, self.toolbox)
                if self.run_dir is not None:
                    took, ended = last
                    unsaved = took >= SLOW_CHECKPOINT and time.perf_counter() - ended < took / CHECKPOINT_SHARE
                    if not unsaved:
                        last = self._save()
                if progress:
                    bar.ceiling = stages.stage_ceiling(self.toolbox, state)
                bar.update(state.logbook[-1], config.opponents)
                reached = self.reached()
                stopped = on_generation is not None and bool(on_generation(dict(state.logbook[-1])))
            if unsaved:
                self._save()
        if reached and progress:
            assert config.until is not None  # reached() is False without a target
            print(wrapped(f"stopped at generation {state.generation} of {config.generations}: the champion reached "
                          f"{target.said(config.until)} (until {config.until})", stream=sys.stderr), file=sys.stderr)
        elif stopped and progress and state.generation < config.generations:
            print(f"stopped at generation {state.generation} of {config.generations}: on_generation asked to",
                  file=sys.stderr)
        return reached, stopped

    def _save(self) -> tuple[float, float]:
        """Checkpoint the run: ``(seconds it took, when it ended)``."""
        assert self.run_dir is not None  # (asked only of a run with a directory)
        began = time.perf_counter()
        self.run_dir.save(self.state, self.config, self.extra)
        ended = time.perf_counter()
        return ended - began, ended

    def evolve(self, progress: bool = True, on_generation=None) -> bool:
        """Evolve to the configured number of generations, or until the champion reaches the
        run's target (checkpointing each generation in a run directory, but where a checkpoint
        takes :data:`SLOW_CHECKPOINT` or more: see :data:`CHECKPOINT_SHARE`); whether it reached
        it. ``on_generation(record)`` is called after each generation with its logbook record
        (a dict); a true answer stops the run there, as a target reached does (a run resumed past
        generation 0 asks it first of the last it holds, so that a run it stopped stays stopped). Then
        :meth:`finish` writes the run's outputs (:meth:`nim_evo.api.Run.evolved` does both)."""
        config, state = self.config, self.state
        if progress:
            where = f": {self.run_dir.path}" if self.run_dir is not None else ""
            print(wrapped(printable(f"evolving a {config.genome} genome on {config.rules.name} against "
                                    f"{', '.join(config.opponents)} ({config.fitness} fitness), {config.generations} "
                                    f"generations, seed {config.seed}{where}"), stream=sys.stderr), file=sys.stderr)
            if config.fitness == "sampled":  # a win rate of 2 x games games: its 95% margin at worst (p = 1/2)
                print(f"  sampled fitness: each win rate within about ±{1.96 * (0.125 / config.games) ** 0.5:.3f} (95%),"
                      " the best of a population's reading high", file=sys.stderr)
            ordered = [panel for panel in self.toolbox.panels if getattr(panel, "tables", None) is not None and not panel.multiset]
            if config.multiset and ordered:  # an order-reading opponent (or genome): the game as it is played
                print(wrapped(f"  an opponent reads the order of the piles: fitness is measured on the ordered "
                              f"board ({ordered[0].space.n_positions:,} positions of {ordered[0].rules.name}), not "
                              "over multisets", stream=sys.stderr), file=sys.stderr)
            if expected_time(config) and state.generation < config.generations:
                print(f"  expect {expected_time(config)}", file=sys.stderr)
        try:
            reached, _ = self._generations(progress, on_generation)
        except BaseException:  # an error, Ctrl-C, or on_generation raising: the directory is free again
            if self.run_dir is not None:
                self.run_dir.unlock()
            raise
        return reached

    def champion_meta(self) -> dict:
        """What the champion's document records of this run beside its genome: its name (the
        export's file name, else the run's), the command that began it, the one that resumed it."""
        assert self.run_dir is not None  # only a run written to a directory has outputs
        resumed = {"resumed_with": self.extra["resumed_with"]} if self.extra.get("resumed_with") else {}
        export = Path(self.extra["export"]) if self.extra.get("export") else None
        return {"name": export.stem if export is not None else self.run_dir.run_id,
                "command": self.extra.get("command"), **resumed}

    def finish(self, document: dict, force: bool = False) -> Path | None:
        """Write the run's outputs, the champion's ``document`` among them, export it (an
        export of another run's is replaced only with ``force``) and free the directory; where
        it was exported, if it was."""
        assert self.run_dir is not None  # only a run written to a directory has outputs
        self.run_dir.write_outputs(self.state, self.config, document)
        export = Path(self.extra["export"]) if self.extra.get("export") else None
        if export is not None:
            if export.exists() and not force and not exported_by(export, document):
                raise KeywordError(f"{export} holds another run's genome; the champion stays in "
                                   f"{self.run_dir.champion_path} ([[pass force=True|use --force]] to overwrite the "
                                   "export)")
            write_json(export, document)
        self.run_dir.unlock()
        return export


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
        if name in names or Spec.parse(name).known:
            taken = "another opponent" if name in names else "a player nim_evo knows"
            raise UserError(f"opponents[{i}] is called {name!r}, which names {taken}: give the agent a name "
                            "attribute of its own")
        names.append(name)
        given[name] = player
    return tuple(names), given


def check_opponents(config: Config, given: dict | None = None) -> dict:
    """Refuse unknown opponents, unreadable files and code that does not give an agent, in one
    line, before any training; return the sha256 of each opponent file and code file (a
    resumed run must find the same ones)."""
    if not panel_tabulable(config.rules, multiset=config.multiset):  # a panel of named movers: cheap, checks the board
        make_toolbox(config, 1, quiet=True, given=given)
        return {spec: digest for spec in config.opponents if is_code(spec) and (digest := source_digest(spec))}
    files = {}
    for spec in config.opponents:
        if given and spec in given or is_learner(spec):  # (a learner is trained when the panel is made)
            continue
        opponents.resolve(spec, config.rules)  # an unknown name, an unreadable file or code: one line
        if is_code(spec) and source_digest(spec):
            files[spec] = source_digest(spec)
        elif is_file(spec):
            files[spec] = hashlib.sha256(read_regular(spec, MAX_JSON_BYTES, "JSON files")).hexdigest()
    return files


# A checkpoint that takes a second or more (nine heaps': 310 MB, 3 s) is written once the time
# since the last one is ten times what that took, and after the last generation: at most a
# tenth of the run's time. A run stopped between checkpoints resumes from the last one, and
# replays the generations since: the same run.
SLOW_CHECKPOINT, CHECKPOINT_SHARE = 1.0, 0.1


def make_toolbox(config: Config, jobs: int, quiet: bool = False, given: dict | None = None, overlap: bool = True):
    """The run's DEAP toolbox (:func:`nim_evo.evolution.loop.make_toolbox`), its learned
    opponents trained (or found in the cache) first, saying which on stderr unless ``quiet``."""
    for spec in config.opponents:
        if is_learner(spec) and not (given and spec in given) and panel_tabulable(config.rules, multiset=config.multiset):
            resolve_saying(spec, config.rules, config.seed, quiet=quiet)
    return loop.make_toolbox(config, jobs, given, overlap)


@overload
def check_jobs(jobs: int, backend: str, scheduler) -> int: ...
@overload
def check_jobs(jobs: None, backend: str, scheduler) -> None: ...
def check_jobs(jobs, backend: str, scheduler) -> int | None:
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



__all__ = ["Evolution", "check_jobs", "check_opponents", "make_toolbox", "named_opponents"]
