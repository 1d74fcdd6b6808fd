"""What nim_evo shows a person, for the library and the commands alike: progress bars
(:mod:`~nim_evo.console.progress`), text cut and wrapped to a terminal
(:mod:`~nim_evo.console.text`), a run's closing summary (:mod:`~nim_evo.console.summary`),
what happens when a learned opponent is trained (:mod:`~nim_evo.console.opponents`), and a
game played by a person on two streams (:mod:`~nim_evo.console.session`,
:mod:`~nim_evo.console.games`). The layer below :mod:`nim_evo.orchestration` (a run being evolved)
and :mod:`nim_evo.api`; argument parsing and exit codes are the commands' own
(:mod:`nim_evo.cli`).
"""
