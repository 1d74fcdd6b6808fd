"""A run's directory: ``config.json``, ``logbook.csv`` (:mod:`~nim_evo.evolution.logbook`),
``checkpoint.npz``, ``hall_of_fame.json``, ``champion.json`` (and pictures, ``fitness.png`` and
``policy.png``, when drawn).
Every file is written atomically; nothing existing is overwritten unless asked.

The checkpoint is data, never code: a JSON document with its arrays (genes, credit) in one
``.npz`` archive (:func:`nim_evo.archives.write_arrays_document`), read without pickle. The
``checkpoint.pkl`` of nim_evo before it is refused without being opened: unpickling a file
can run any code its author put in it.
"""

from __future__ import annotations

import os
from pathlib import Path

from nim_evo.evolution.checkpoint import freeze, thaw
from nim_evo.evolution.config import Config
from nim_evo.evolution.logbook import logbook_csv
from nim_evo.evolution.loop import State
from nim_evo.genomes import GENOME_FORMAT, GenomeAgent, genome_document, genome_from_document
from nim_evo.archives import read_arrays_document, write_arrays_document
from nim_evo.io import check_envelope, read_json
from nim_evo.atomic import atomic_write_text, uninterrupted, write_json
from nim_evo.folderlock import hold_folder
from nim_evo.validation import KeywordError, UserError

# Each JSON file of a run carries an envelope, its format and version (read by
# :func:`nim_evo.io.check_envelope`); a config.json or hall_of_fame.json an older nim_evo wrote
# without one still reads.
CHECKPOINT_FORMAT, CHECKPOINT_VERSION = "nim_evo/checkpoint", 2
# version 2 keeps no credit nor lexicase cases (a resumed run evaluates them again): an older
# nim_evo refuses it in one line, where it would have resumed a table run without credit (another
# run); version 1, with them, reads
OLDEST_CHECKPOINT = 1
CONFIG_FORMAT, CONFIG_VERSION = "nim_evo/run-config", 1
HALL_OF_FAME_FORMAT, HALL_OF_FAME_VERSION = "nim_evo/hall-of-fame", 1


class RunDir:
    """A run directory's files: config, checkpoint, logbook, hall of fame and champion, written
    atomically and read back checked; a lock while a process runs it."""

    def __init__(self, path):
        self.path = Path(path)
        self.config_path = self.path / "config.json"
        self.checkpoint_path = self.path / "checkpoint.npz"
        self.old_checkpoint_path = self.path / "checkpoint.pkl"  # nim_evo before 0.2: never opened
        self.logbook_path = self.path / "logbook.csv"
        self.halloffame_path = self.path / "hall_of_fame.json"
        self.champion_path = self.path / "champion.json"

    def lock(self) -> None:
        """Hold the directory for this process until :meth:`unlock` (or its end, however it
        ends): a second run on the same directory (``--out`` or ``--resume``) is refused in
        one line instead of both writing it (:func:`nim_evo.folderlock.hold_folder`)."""
        if getattr(self, "_lock", None) is not None:
            return
        try:
            self._lock = hold_folder(self.path)
        except BlockingIOError:
            raise KeywordError(f"{self.path} is being written by another run (a run or [[resume|--resume]] still "
                               "going); wait for it to end, or use another [[out|--out]]") from None

    def unlock(self) -> None:
        """Let go of the run directory's lock (nothing if none is held)."""
        if getattr(self, "_lock", None) is not None:
            self._lock()
            self._lock = None

    @property
    def run_id(self) -> str:
        """The directory's name (``--out .`` is named by where it stands)."""
        return self.path.name or self.path.resolve().name

    def check_free(self, force: bool = False, inside=None) -> None:
        """Refuse a non-empty directory unless ``force``; make sure it can be written.
        ``inside``, a path within the directory (the export's folder, say), does not count."""
        if self.path.exists() and not self.path.is_dir():
            raise UserError(f"{self.path} is not a directory")
        ours = set()
        if inside is not None:
            try:
                ours = {self.path / Path(inside).resolve().relative_to(self.path.resolve()).parts[0]}
            except (ValueError, IndexError):  # not inside
                pass
        if self.path.exists() and any(p not in ours for p in self.path.iterdir()) and not force:
            raise KeywordError(f"{self.path} exists and is not empty; [[resume it: nim_evo.resume(out)|use --resume "
                               f"{self.path}]] to continue it, or [[force=True|--force]] to start over in it")
        self.path.mkdir(parents=True, exist_ok=True)
        if not os.access(self.path, os.W_OK):
            raise UserError(f"cannot write to {self.path}")

    def begin(self, state: State, config: Config, extra: dict, force: bool = False, inside=None) -> None:
        """Write a new run's first checkpoint, then its config (a kill in between leaves a
        resumable run: the checkpoint is the authority). ``force`` first removes an old run's files."""
        self.check_free(force, inside)
        if force:
            for path in self._files():
                path.unlink(missing_ok=True)
        self.save(state, config, extra)
        self.write_config(config)

    def write_config(self, config: Config) -> None:
        """Write ``config.json`` (:func:`config_document`)."""
        write_json(self.config_path, config_document(config))

    def save(self, state: State, config: Config, extra: dict) -> None:
        """Checkpoint and logbook after a generation (a Ctrl-C meanwhile is answered after both)."""
        with uninterrupted():
            write_arrays_document(self.checkpoint_path, {"format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION,
                                                         "config": config.to_json(), "state": freeze(state, config),
                                                         **extra, **self._export_entry(extra.get("export"))})
            atomic_write_text(self.logbook_path, logbook_csv(state.logbook))

    def load(self) -> tuple[Config, State, dict]:
        """The config, last checkpoint and the run's extras (export path, command); ``ValueError``
        for anything corrupt, foreign or missing. The checkpoint's config is the authority:
        a ``config.json`` that differs from it only in ``generations`` (a kill while a run was
        being extended) or is missing (a kill before it was written) is rewritten."""
        if not self.path.is_dir():
            raise UserError(f"no run directory at {self.path}")
        self._remove_stale_temporaries()
        data = self._read_checkpoint()
        config = config_from_document(data.get("config"), self.checkpoint_path)
        try:
            state = thaw(data.get("state"), config)
        except UserError as error:
            raise UserError(f"{self.checkpoint_path}: {error}") from None
        extras = self._extras(data)
        document = read_json(self.config_path) if self.config_path.exists() else None  # corrupt: UserError
        written = None if document is None else config_fields(document, self.config_path)
        if written is not None and run_settings(written) != run_settings(config.to_json()):
            raise UserError(f"{self.checkpoint_path} belongs to another run than {self.config_path}")
        if document != config_document(config):  # (only once everything is checked; an older one gains its envelope)
            self.write_config(config)
        return config, state, extras

    def _export_entry(self, export) -> dict:
        """The export's path as the checkpoint keeps it: relative to the run directory, so that
        a run resumed from another working directory (or moved with its genomes folder)
        exports where it did before."""
        if export is None:
            return {"export": None}
        target = os.path.abspath(export)
        try:
            return {"export": os.path.relpath(target, self.path.absolute()), "export_from": "run directory"}
        except ValueError:  # another drive (Windows): kept absolute
            return {"export": target, "export_from": "run directory"}

    def _extras(self, data: dict) -> dict:
        """The checkpoint's extras, checked: the export path (relative to the run directory,
        or, in checkpoints of nim_evo 0.1, to where the run was started), the command line,
        the digests of the opponent files, the names of opponents given as agent objects."""
        extras = {key: data.get(key) for key in ("export", "command", "opponent_files", "given_opponents")}
        given = extras["given_opponents"]
        if given is not None and not (isinstance(given, list) and all(isinstance(v, str) for v in given)):
            raise UserError(f"{self.checkpoint_path}: given_opponents must be a list of names")
        for key in ("export", "command"):
            if not isinstance(extras[key], (str, type(None))):
                raise UserError(f"{self.checkpoint_path}: {key} must be text, not {type(extras[key]).__name__}")
        files = extras["opponent_files"]
        if files is not None and not (isinstance(files, dict) and all(isinstance(v, str) for v in files.values())):
            raise UserError(f"{self.checkpoint_path}: opponent_files must map file names to digests")
        if extras["export"] is not None and data.get("export_from") == "run directory":
            extras["export"] = os.path.normpath(os.path.join(self.path.absolute(), extras["export"]))
        return extras

    def _read_checkpoint(self) -> dict:
        if not self.checkpoint_path.exists():
            if self.old_checkpoint_path.exists():
                raise UserError(f"{self.old_checkpoint_path} is a pickle, the checkpoint of an older nim_evo; "
                                "nim_evo no longer opens pickles (they can run code): start the run again")
            if self.config_path.exists():
                raise KeywordError(f"{self.path} was stopped before its first generation was saved; start it again "
                                   f"with [[force=True, out={str(self.path)!r}|--force --out {self.path}]]")
            raise UserError(f"{self.path} has no checkpoint to resume from")
        return check_envelope(read_arrays_document(self.checkpoint_path), self.checkpoint_path, CHECKPOINT_FORMAT,
                              CHECKPOINT_VERSION, "checkpoint", oldest=OLDEST_CHECKPOINT)

    def _files(self) -> list[Path]:
        """The run's files, pictures (``python -m nim_evo.plot``) included."""
        pictures = [self.path / f"{name}.{fmt}" for name in ("fitness", "policy") for fmt in ("png", "svg", "pdf")]
        return [self.config_path, self.checkpoint_path, self.old_checkpoint_path, self.logbook_path, self.halloffame_path, self.champion_path,
                *pictures]

    def _remove_stale_temporaries(self) -> None:
        """Delete temporary files a killed run left mid-write (their targets are intact)."""
        ours = {p.name for p in self._files()}
        for leftover in self.path.glob(".*.tmp"):
            if leftover.name[1:].rsplit(".", 2)[0] in ours:
                leftover.unlink(missing_ok=True)

    def write_outputs(self, state: State, config: Config, champion_doc: dict) -> None:
        """The hall of fame of ``state`` and its champion (``champion_doc``), written together (a
        Ctrl-C meanwhile waits for both)."""
        halloffame = [individual_document(ind, config) for ind in state.halloffame]
        with uninterrupted():
            write_json(self.halloffame_path, {"format": HALL_OF_FAME_FORMAT, "version": HALL_OF_FAME_VERSION,
                                              "run": self.run_id, "individuals": halloffame})
            write_json(self.champion_path, champion_doc)


def config_from_document(document, path) -> Config:
    """A run's configuration from its JSON (a ``config.json``, a checkpoint's), checked by
    :class:`~nim_evo.evolution.config.Config`; a one-line ``UserError`` naming ``path`` otherwise."""
    if not isinstance(document, dict):
        raise UserError(f"{path} holds no nim_evo run config")
    try:
        return Config.from_json(document)
    except (TypeError, KeyError, ValueError) as error:
        reason = f"no field {error}" if isinstance(error, KeyError) else str(error).splitlines()[0]
        raise UserError(f"{path} holds no valid run config ({reason})") from None


def config_document(config: Config) -> dict:
    """What ``config.json`` holds: the configuration's fields (:meth:`Config.to_json`) in an envelope."""
    return {"format": CONFIG_FORMAT, "version": CONFIG_VERSION, **config.to_json()}


def config_fields(document, path) -> dict:
    """The configuration's fields of a ``config.json`` read from ``path``, its envelope checked
    (one without, as nim_evo wrote it before, taken as it is) and set aside; not yet checked
    as a configuration (:func:`config_from_document` does that)."""
    check_envelope(document, path, CONFIG_FORMAT, CONFIG_VERSION, "run config", unversioned=True)
    return {key: value for key, value in document.items() if key not in ("format", "version")}


def read_config_fields(path) -> dict:
    """A run's ``config.json`` as read (:func:`config_fields`), for what shows its fields."""
    return config_fields(read_json(path), path)


def read_config(path) -> Config:
    """A run's ``config.json``, checked (:func:`config_fields`, :func:`config_from_document`)."""
    return config_from_document(read_config_fields(path), path)


def read_hall_of_fame(path) -> list[GenomeAgent]:
    """A run's ``hall_of_fame.json``: its individuals as players, best first, each named after
    the run and its rank (``<run>#1``); a one-line ``UserError`` naming the file for one that is
    not a hall of fame (its envelope and each genome checked; one without an envelope, as
    nim_evo wrote it before, still reads)."""
    data = check_envelope(read_json(path), path, HALL_OF_FAME_FORMAT, HALL_OF_FAME_VERSION, "hall of fame",
                          unversioned=True)
    run, individuals = data.get("run"), data.get("individuals")
    if not isinstance(run, str) or not isinstance(individuals, list) or not individuals:
        raise UserError(f"{path} holds no hall of fame (a run's name and a list of individuals)")
    players = []
    for rank, document in enumerate(individuals, 1):
        if not isinstance(document, dict):
            raise UserError(f"{path}: individual {rank} is no genome document")
        kind, genes, rules = genome_from_document(document, f"{path}, individual {rank}")
        players.append(GenomeAgent(kind, genes, rules, name=f"{run}#{rank}"))
    return players


def upgraded_config(written):
    """A ``config.json`` as this nim_evo writes it (one an older nim_evo wrote lacks the
    settings added since, which read as that nim_evo ran); as it is if it does not read."""
    if not isinstance(written, dict):
        return written
    try:
        return Config.from_json(written).to_json()
    except (UserError, TypeError, KeyError):
        return written


def run_settings(config_json) -> dict | None:
    """What makes two configurations the same run: the configuration as this nim_evo reads it
    (:func:`upgraded_config`) without its generations and its target, which a resume may
    change; ``None`` for what is not a configuration."""
    config_json = upgraded_config(config_json)
    if not isinstance(config_json, dict):
        return None
    return {key: value for key, value in config_json.items() if key not in ("generations", "until")}


def export_path(genomes_dir, run_dir: RunDir, config: Config) -> Path:
    """Where ``python -m nim_evo.run`` exports a run's champion: ``<genomes_dir>/<run-id>-<kind>.json``,
    or ``<run-id>.json`` where the run id ends with its kind already (the ids runs are given)."""
    run_id = run_dir.run_id
    return Path(genomes_dir) / (f"{run_id}.json" if run_id.endswith(f"-{config.genome}") else
                                f"{run_id}-{config.genome}.json")


def exported_by(path: Path, document: dict) -> bool:
    """Was ``path`` exported by this same run (resumed, or extended with more generations)?
    Same run id and the same configuration but for the number of generations."""
    try:
        existing = read_json(path)
    except UserError:  # unreadable or damaged: not this run's
        return False
    if not isinstance(existing, dict) or not isinstance(existing.get("run_config"), dict):
        return False
    return existing.get("format") == document.get("format") and existing.get("run") == document.get("run") \
        and run_settings(existing["run_config"]) == run_settings(document["run_config"])


def resumed_export(recorded: str | None, genomes_dir, run_dir: RunDir, config: Config) -> Path:
    """Where a resumed run exports its champion. A checkpoint is a file people pass around, so
    it never chooses a folder, nor which file in it is replaced: it keeps the file name it had
    (a plain ``.json`` name) only where that is the run's default name or the run's own earlier
    export (this run's genome, by its id and settings), else the run's default name; in
    ``genomes_dir`` if the person gives one; otherwise in the folder the checkpoint records
    only if that is, once resolved, the default ``genomes`` folder, or the run's own earlier
    export is there. Anything else is refused in one line that says how to choose the folder
    (``genomes_dir``)."""
    if not recorded:
        return export_path(genomes_dir or "genomes", run_dir, config)
    recorded_path = Path(recorded)
    name = recorded_path.name
    if not name.endswith(".json") or name == ".json" or name != os.path.basename(recorded) or not name.isprintable():
        raise UserError(f"{run_dir.checkpoint_path}: export must name a .json file, got {recorded!r}")
    own = {"format": GENOME_FORMAT, "run": run_dir.run_id, "run_config": config.to_json()}

    def named(folder: Path) -> Path:  # the name it had if it is the run's own, else the run's default name
        target = folder / name
        if target == export_path(folder, run_dir, config) or (target.is_file() and exported_by(target, own)):
            return target
        return export_path(folder, run_dir, config)

    if genomes_dir is not None:
        return named(Path(genomes_dir))
    default = Path("genomes")
    if recorded_path.parent.resolve() == default.resolve():
        return named(default)
    if recorded_path.is_file() and exported_by(recorded_path, own):
        return recorded_path
    raise KeywordError(f"{run_dir.checkpoint_path} says the champion goes to {recorded!r}, outside the genomes folder; "
                       f"a checkpoint does not choose where nim_evo writes: give the folder with "
                       f"[[genomes_dir=...|--genomes-dir]]")


def individual_document(ind, config: Config, **extra) -> dict:
    """A genome document for an evaluated individual, with its fitness and win rates."""
    families = {} if config.families is None else {"families": list(config.families)}  # it plays each one's boards
    return genome_document(config.kind, ind, config.rules, **families,
                           fitness=list(ind.fitness.values),
                           win_rates={name: {"first": first, "second": second}
                                      for name, (first, second) in getattr(ind, "rates", {}).items()},
                           **extra)
