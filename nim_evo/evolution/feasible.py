"""What a run checks of its board before it begins: whether a genome bound to the board (a
table) can evolve on it in reasonable time, and how long it should take."""

from __future__ import annotations

from nim_evo.engine.sizes import MAX_PANEL_CELLS
from nim_evo.engine.space import panel_tabulable, space_size
from nim_evo.evolution.config import Config
from nim_evo.genomes import get_kind, kind_names
from nim_evo.validation import UserError

# A genome bound to its board (a table) holds a gene per position of its space. On our 2-core
# machine a generation on a big space costs about 29 microseconds a position in one process
# and 18 with --jobs 2; on seven heaps' 21,318 multisets, whose arrays stay in cache, 17-21.
# A limit of 1,000,000 positions admits nine heaps (690,690 multisets) and keeps a generation
# under 30 s; ten heaps' 4,032,015 (2 minutes a generation, by the same rate) are refused.
MAX_BOUND_GENES = 1_000_000
SECONDS_PER_GENE = 29e-6
SECONDS_PER_GENE_TWO = 18e-6  # with two workers (threads, on a space this big)
SECONDS_PER_GENE_IN_CACHE, IN_CACHE = 21e-6, 50_000  # up to this many positions, with one or two workers

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


def expected_time(config: Config, jobs: int = 1) -> str | None:
    """For a genome bound to a big board (10,000 positions or more), what a generation and the
    run should take on a machine like ours with ``jobs`` workers; ``None`` otherwise."""
    if config.kind.board_free:
        return None
    size = space_size(config.rules, config.multiset)
    if size < 10_000:
        return None
    what = "multisets of piles" if config.multiset else "positions"
    rate = SECONDS_PER_GENE_IN_CACHE if size <= IN_CACHE else SECONDS_PER_GENE if jobs == 1 else SECONDS_PER_GENE_TWO
    generation = size * rate
    workers = "one worker" if jobs == 1 else "two workers"
    return (f"about {_duration(generation)} a generation ({_duration(generation * config.generations)} at most) "
            f"for a {config.genome} genome of {size:,} {what}, with {workers} on 2 cores")


def _duration(seconds: float) -> str:
    if seconds < 9.5:
        return f"{seconds:.1f} s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
