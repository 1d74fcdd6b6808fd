"""A run's configuration: :class:`Config`, everything that decides a run's result, its
constraints declared once (:data:`CONFIG_CONSTRAINTS`, as scikit-learn's
``_parameter_constraints``) and the checks that tie one setting to another (families, training
boards, a target), run when a ``Config`` is made. A ``Config`` reads and writes itself as JSON
(``config.json``, a checkpoint's, a strategy file's ``run_config``), a run begun by an older
nim_evo read as it ran.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from numbers import Integral

from nim_evo.engine.rules import Rules, family_name, family_of, parse_family
from nim_evo.games.nim import nim_board
from nim_evo.games.registry import GAME, game_from_json, game_to_json
from nim_evo.engine.sizes import enumerable
from nim_evo.games.base import Game
from nim_evo.evolution import target
from nim_evo.genomes import get_kind, kind_names
from nim_evo.genomes.protocol import GenomeKind, Stage
from nim_evo.validation import (GAMES, GENERATIONS, OFFSPRING, POPULATION, PROBABILITY, SEED, InstanceOf, Interval,
                                Names, Options, ParameterError, UserError, shown, validate)

SPACES = ("multiset", "ordered")
DEFAULT_OPPONENTS = ("random", "nimsum", "minimax")  # random, perfect and full-depth minimax play
SELECTIONS = ("tournament", "lexicase")
PERFECT = {"perfect", "nimsum", "minimax"}  # opponents that play perfectly (a decision beyond the boards stands for them)


CONFIG_CONSTRAINTS: dict[str, list]
CONFIG_CONSTRAINTS = {
    "genome": [Options(of=kind_names)],
    "rules": [GAME],
    "generations": [GENERATIONS],
    "population": [POPULATION],
    "offspring": [OFFSPRING],
    "cxpb": [PROBABILITY],
    "mutpb": [PROBABILITY],
    "opponents": [Names()],
    "games": [GAMES],
    "fitness": [Options("exact", "sampled")],
    "starts": [Options("start", "all")],
    "seed": [SEED],
    "tournsize": [Interval(Integral, 1, None)],
    "indpb": [None, PROBABILITY],
    "greedy": [PROBABILITY],
    "credit": [InstanceOf(bool)],
    "space": [Options(*SPACES)],
    "train_boards": [None, InstanceOf(tuple, what="a tuple of boards")],
    "selection": [None, Options(*SELECTIONS)],
    "restart": [None, Interval(Integral, 0, None)],
    "until": [None, target.UNTIL],
    "families": [None, Names()],
    "staged": [InstanceOf(bool)],
}


@dataclass(frozen=True)
class Config:
    """Everything that decides a run's result (``jobs`` does not), checked when made
    (:data:`CONFIG_CONSTRAINTS`: a :class:`~nim_evo.validation.ParameterError` names what is wrong)."""

    genome: str
    rules: Game  # a Nim board (Rules), or a board of another family: then no families, no training boards
    generations: int = 200
    population: int = 40
    offspring: int = 80
    cxpb: float = 0.5
    mutpb: float = 0.5
    opponents: tuple[str, ...] = DEFAULT_OPPONENTS
    games: int = 1000
    fitness: str = "exact"
    starts: str = "start"
    seed: int = 0
    tournsize: int = 3
    indpb: float | None = None   # per-gene mutation probability; None: the kind's default
    greedy: float = 1.0          # table genome: share of credit-guided gene mutations
    credit: bool = True          # table genome: operators read per-position credit (False: a plain GA)
    space: str = "multiset"      # the enumerated space fitness and table genes live on: multiset or ordered
    train_boards: tuple[tuple[int, ...] | str, ...] | None = None  # board-free kinds: the piles fitness is
    # measured on, each in the run's families (None: the kind's own set, or the board), or a game's
    # full name (2-3-cap3-misere), played in its own family alone
    selection: str | None = None  # survivors by tournament or lexicase (None: the kind's own choice)
    restart: int | None = None  # a new random population after this many generations without progress
    # (0: never; None: the kind's own choice)
    until: str | None = None  # stop at the first generation whose champion reaches this target
    # (:mod:`~nim_evo.evolution.target`: "accuracy=1", "ceiling"; None: run every generation)
    families: tuple[str, ...] | None = None  # several families at once, by name (normal, misere,
    # cap3, cap3-misere: the board's own among them), for a kind that reads the cap and the misère
    # flag; None: the board's own family alone
    staged: bool = True  # the kind's stages (False: a run begun before them, resumed as it began: one stage)

    def __post_init__(self):
        if isinstance(self.opponents, list):
            object.__setattr__(self, "opponents", tuple(self.opponents))
        if isinstance(self.families, list):
            object.__setattr__(self, "families", tuple(self.families))
        if isinstance(self.train_boards, (list, tuple)):
            object.__setattr__(self, "train_boards", tuple(tuple(b) if isinstance(b, (list, tuple)) else b
                                                           for b in self.train_boards))
        validate(CONFIG_CONSTRAINTS, vars(self))
        if self.opponents == DEFAULT_OPPONENTS and self.rules.family != "nim":  # the default panel's perfect play:
            object.__setattr__(self, "opponents", ("random", "perfect", "minimax"))  # nimsum is Nim's name for it
        _check_game(self)
        if self.cxpb + self.mutpb > 1:
            raise ParameterError("cxpb + mutpb", f"must be at most 1 (DEAP's varOr), got {self.cxpb + self.mutpb:g}")
        if self.families is not None:
            _check_families(self)
        if self.train_boards is not None:
            _check_train_boards(self.train_boards, self.kind, self.family_pairs)
        if self.selection == "lexicase" and self.fitness != "exact":
            raise ParameterError("selection", "lexicase reads every sub-game's exact win probability: it needs "
                                 "exact fitness")
        if self.until is not None:
            _check_until(self)

    @property
    def kind(self) -> GenomeKind:
        """The genome kind :attr:`genome` names."""
        return get_kind(self.genome)

    @property
    def selector(self) -> str:
        """How survivors are chosen: ``selection``, else the kind's own choice (tournament
        where fitness is sampled: lexicase needs every sub-game's exact value)."""
        if self.selection is not None:
            return self.selection
        return self.kind.selection if self.fitness == "exact" else "tournament"

    @property
    def family_pairs(self) -> tuple[tuple[int | None, bool], ...]:
        """The run's families as ``(max_take, misere)`` pairs: ``families``, else its board's."""
        if not isinstance(self.rules, Rules):  # a game of another family: its convention alone
            return ((None, self.rules.misere),)
        if self.families is None:
            return (family_of(self.rules),)
        return tuple(parse_family(name) for name in self.families)

    def stage_games(self, stage: int) -> tuple[Game, ...]:
        """A board of each family ``stage`` plays in: what random validation boards are drawn
        like (their heaps are the sampler's)."""
        if not isinstance(self.rules, Rules) and not self.stages[stage].nim:
            return (self.rules,)
        return tuple(Rules((1,), cap, misere) for cap, misere in self.stages[stage].families)

    def home_rules(self) -> tuple[Game, ...]:
        """The run's board in each of its families (what its accuracy is measured on)."""
        if not isinstance(self.rules, Rules):
            return (self.rules,)
        return tuple(Rules(self.rules.piles, cap, misere) for cap, misere in self.family_pairs)

    @property
    def stages(self) -> tuple[Stage, ...]:
        """How the search goes (:meth:`GenomeKind.stages`): one stage on the run's families,
        or several, each handing on parts of its champion to the next."""
        other = {} if isinstance(self.rules, Rules) else {"game": self.rules}  # (a kind of before games: Nim alone)
        return self.kind.stages(self.family_pairs, single=not self.staged, **other)

    def training_rules(self, stage: int = -1) -> tuple[Game, ...]:
        """The boards fitness is measured on in ``stage`` (default: the last, the run's own):
        ``train_boards``, else the kind's own training set (``train_boards`` of its class, and
        in families with a cap its ``capped_train_boards``), else the run's board; each in each
        of the stage's families (cap and misère flag)."""
        kind = self.kind
        if not isinstance(self.rules, Rules):
            if self.stages[stage].nim:  # (a heap game's program evolves Nim's fold first)
                return tuple(Rules(tuple(board)) for board in kind.train_boards or ())
            return kind.training_boards(self.rules)
        boards = self.train_boards or kind.train_boards or (self.rules.piles,)
        families = self.stages[stage].families
        plain = [board for board in boards if not isinstance(board, str)]
        named = [Rules.parse(board) for board in boards if isinstance(board, str)]
        own = [rules if family_of(rules) in families else Rules(rules.piles, rules.max_take, False) for rules in named
               if family_of(rules) in families or (rules.max_take, False) in families and not any(m for _, m in families)]
        capped = () if self.train_boards else tuple(Rules(board, cap, misere) for cap, misere in families
                                                    if cap is not None for board in kind.capped_train_boards)
        every = (*(Rules(tuple(board), cap, misere) for cap, misere in families for board in plain), *own, *capped)
        return tuple(dict.fromkeys(every))  # a board given twice (plain, and by its name) counts once

    def decision_rules(self, stage: int = -1) -> tuple[Game, ...]:
        """The families whose decisions beyond the boards fitness also reads in ``stage``
        (:mod:`nim_evo.evaluation.decisions`): the run's game where its kind says so, in a
        stage played in the game itself, against perfect play alone (the games after a
        decision are perfect play's)."""
        if (isinstance(self.rules, Rules) or self.stages[stage].nim or not self.kind.decides_beyond(self.rules)
                or not set(self.opponents) <= PERFECT):
            return ()
        return (self.rules,)

    @property
    def patience(self) -> int:
        """Generations without progress before a new population: ``restart``, else the kind's (0: never)."""
        return self.kind.restart if self.restart is None else self.restart

    @property
    def multiset(self) -> bool:
        """Whether the genomes play over multisets (order-blind)."""
        return self.space == "multiset"

    def to_json(self) -> dict:
        """The config as ``config.json`` records it (the board as its game's JSON)."""
        data = asdict(self)
        # Nim's three fields, as every config.json has recorded them; another game by its name
        data["rules"] = game_to_json(self.rules)
        data["opponents"] = list(self.opponents)
        data["train_boards"] = None if self.train_boards is None else [
            b if isinstance(b, str) else list(b) for b in self.train_boards]
        data["families"] = None if self.families is None else list(self.families)
        return data

    @classmethod
    def from_json(cls, data: dict) -> Config:
        """The config a ``config.json`` records (a run of an older nim_evo as it ran), each field
        checked."""
        data = dict(data)
        if "space" not in data:  # runs begun before multisets kept the operators of their time
            data = {**get_kind(data.get("genome")).upgrade_config(data), "space": "ordered"}
        data["rules"] = game_from_json(data.get("rules"), "the run's config")
        if not isinstance(data["opponents"], list):  # a string is no list of names ("abc" is not a, b, c)
            raise UserError(f"opponents must be a list of names, got {shown(data['opponents'])}")
        data["opponents"] = tuple(data["opponents"])
        data.setdefault("selection", "tournament")  # runs begun before lexicase selection and restarts
        data.setdefault("restart", 0)
        data.setdefault("until", None)  # runs begun before targets went every generation
        data.setdefault("families", None)  # and before families, played one
        data.setdefault("staged", False)  # and before stages: resumed in the one stage it began in
        return cls(**data)


def _check_game(config: Config) -> None:
    """A genome kind that plays the run's game; Nim's variants (families, training boards) for Nim alone."""
    kind = config.kind
    if kind.families is not None and config.rules.family not in kind.families:
        plays = "Nim only" if kind.families == ("nim",) else f"the families {', '.join(kind.families)} only"
        raise ParameterError("genome", f"{config.genome!r} plays {plays}, not {config.rules.name} (a "
                             f"{config.rules.family} game); the table genome plays every game")
    if not isinstance(config.rules, Rules):
        for name in ("families", "train_boards"):
            if getattr(config, name) is not None:
                raise ParameterError(name, f"are Nim's variants, not {config.rules.name}'s (a {config.rules.family} game)")


def _check_families(config: Config) -> None:
    """Families a kind can read, by name, the board's own among them."""
    assert config.families is not None  # checked only where given
    board = nim_board(config.rules)  # refused before for another family's board
    pairs = []
    for name in config.families:
        try:
            pairs.append(parse_family(name))
        except UserError as error:
            raise ParameterError("families", f"names {str(error)[0].lower()}{str(error)[1:]}") from None
    if len(set(pairs)) != len(pairs):
        raise ParameterError("families", f"names a family twice: {','.join(config.families)}")
    if not config.kind.reads_family and pairs != [family_of(board)]:
        raise ParameterError("families", f"are for genomes that read the cap and the misère flag (program), not a "
                             f"{config.genome} genome")
    if family_of(board) not in pairs:
        raise ParameterError("families", f"must hold the board's own family, {family_name(family_of(board))} "
                             f"({config.rules.name}), got {','.join(config.families)}")


def _check_until(config: Config) -> None:
    """A target the run can tell it reached: the ceiling of exact fitness, the accuracy of a board the solver takes."""
    what, _ = target.parse(config.until)
    if what == target.CEILING and config.fitness != "exact":
        raise ParameterError("until", "ceiling needs exact fitness: a sampled win rate may read above the ceiling "
                             "by chance (give accuracy=X instead)")
    big = [rules for rules in config.home_rules() if not enumerable(rules, multiset=True)]
    if what == "accuracy" and big:
        raise ParameterError("until", f"{config.until} needs the champion's accuracy, and the board "
                             f"{big[0].name} is too big to solve (give ceiling, or a smaller --game)")


MAX_TRAIN_BOARDS, MAX_TRAIN_PILES, MAX_TRAIN_PILE = 12, 6, 15


def _check_train_boards(boards, kind, families) -> None:
    if not kind.board_free:
        raise ParameterError("train_boards", f"is for genomes that play any board, not a {kind.name} genome")
    if not 1 <= len(boards) <= MAX_TRAIN_BOARDS:
        raise ParameterError("train_boards", f"must name 1 to {MAX_TRAIN_BOARDS} boards, got {len(boards)}")
    for board in boards:
        if isinstance(board, str):  # a game's full name: its board, in its own family (one of the run's)
            try:
                rules = Rules.parse(board)
            except UserError as error:
                raise ParameterError("train_boards", f"names {error}") from None
            if family_of(rules) not in families:
                raise ParameterError("train_boards", f"name {board!r}, of {family_name(family_of(rules))}, not one "
                                     f"of the run's families ({', '.join(map(family_name, families))})")
            board = rules.piles
        if not (isinstance(board, tuple) and 1 <= len(board) <= MAX_TRAIN_PILES and
                all(isinstance(n, Integral) and not isinstance(n, bool) and 0 <= n <= MAX_TRAIN_PILE for n in board)  # type: ignore[operator]  # typeshed: numbers.Integral has no >=
                and any(board)):
            raise ParameterError("train_boards", f"boards are 1 to {MAX_TRAIN_PILES} piles of 0 to {MAX_TRAIN_PILE} "
                                 f"objects, got {board!r}")
