"""What a run checks of its board before it begins: whether a genome bound to the board (a
table) can evolve on it in reasonable time, and how long it should take."""

from __future__ import annotations

from nim_evo.engine.sizes import MAX_PANEL_CELLS
from nim_evo.engine.space import panel_tabulable, space_size
from nim_evo.evolution.config import Config
from nim_evo.genomes import get_kind, kind_names
from nim_evo.validation import UserError

# A genome bound to its board (a table) holds a gene per position of its space, and is evaluated
# in the run's process beside its variation (loop.overlaps), whatever the jobs. On our 2-core
# machine a generation costs about 14 microseconds a position on a big space (nine heaps'
# 690,690 multisets: 9.6 s), and 11 on seven heaps' 21,318 multisets, whose arrays stay in cache.
# A limit of 1,000,000 positions admits nine heaps and keeps a generation under 15 s; ten heaps'
# 4,032,015 (a minute a generation, by the same rate, and more memory than this machine has)
# are refused.
MAX_BOUND_GENES = 1_000_000
SECONDS_PER_GENE = 14e-6
SECONDS_PER_GENE_IN_CACHE, IN_CACHE = 11e-6, 50_000  # up to this many positions


def check_feasible(config: Config) -> None:
    """Refuse, in one line, a genome bound to its board (a table) on a board whose space is
    too big to evolve it in reasonable time (more than :data:`MAX_BOUND_GENES` positions),
    saying what would do instead."""
    if config.kind.board_free:
        return
    size = space_size(config.rules, config.multiset)
    if size <= MAX_BOUND_GENES and panel_tabulable(config.rules, multiset=config.multiset):
        return
    what = "multisets of piles" if config.multiset else "positions"
    free: list[str] | str  # the kinds that play any board, then the flags naming them
    free = [name for name in kind_names() if get_kind(name).board_free]
    free = f"--genome {', '.join(free[:-1])} or {free[-1]}" if len(free) > 1 else f"--genome {free[0]}"
    if size <= MAX_BOUND_GENES:  # few positions, but so many moves that the opponents' tables would not fit
        raise UserError(f"the board {config.rules.name} has {size:,} {what} but {config.rules.n_actions:,} moves "
                        f"each, more than a {config.genome} genome's opponents can be tabled on (at most "
                        f"{MAX_PANEL_CELLS:,} position-move pairs); a cap (--max-take) or smaller piles would do")
    multisets = space_size(config.rules, True)
    if not config.multiset and multisets <= MAX_BOUND_GENES and panel_tabulable(config.rules, multiset=True):
        instead = f"over multisets of piles (--space multiset, the default) it has {multisets:,}"
    else:
        instead = f"{free} play any board"
    raise UserError(f"the board {config.rules.name} has {size:,} {what}, too many for a {config.genome} genome "
                    f"(at most {MAX_BOUND_GENES:,}: a generation would take about "
                    f"{_duration(size * SECONDS_PER_GENE)}); {instead}")


def expected_time(config: Config) -> str | None:
    """For a genome bound to a big board (10,000 positions or more), what a generation and the
    run should take on a machine like ours; ``None`` otherwise."""
    if config.kind.board_free:
        return None
    size = space_size(config.rules, config.multiset)
    if size < 10_000:
        return None
    what = "multisets of piles" if config.multiset else "positions"
    generation = size * (SECONDS_PER_GENE_IN_CACHE if size <= IN_CACHE else SECONDS_PER_GENE)
    return (f"about {_duration(generation)} a generation ({_duration(generation * config.generations)} at most) "
            f"for a {config.genome} genome of {size:,} {what}, on 2 cores")


def _duration(seconds: float) -> str:
    if seconds < 9.5:
        return f"{seconds:.1f} s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
