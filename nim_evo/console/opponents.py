"""Opponents for the commands: :func:`nim_evo.evaluation.opponents.resolve`, telling the
person what happens when a learned opponent is loaded or trained."""

from __future__ import annotations

import sys

from nim_evo.games.base import Game
from nim_evo.console.progress import TrainingProgress
from nim_evo.evaluation import opponents
from nim_evo.evaluation.specs import is_learner
from nim_evo.learners import LEARNERS
from nim_evo.validation import printable


def resolve_saying(spec: str, rules: Game, seed: int = 0, role: str = "opponent", quiet: bool = False):
    """:func:`nim_evo.evaluation.opponents.resolve`, saying on stderr (unless ``quiet``) whether a learner is loaded from the
    cache or trained, and then showing a progress bar."""
    if not is_learner(spec) or quiet:
        return opponents.resolve(spec, rules, seed)
    cached = opponents.cached_path(spec, rules, seed)
    episodes = LEARNERS[spec].episodes
    what = f"loaded from {printable(cached)}" if cached.exists() else f"training {episodes:,} self-play games, seed {seed}"
    print(f"learned {role} {spec} for {rules.name}: {what}", file=sys.stderr)
    if cached.exists():
        return opponents.resolve(spec, rules, seed)
    with TrainingProgress(episodes) as bar:
        return opponents.resolve(spec, rules, seed, progress=bar)
