"""What the commands alone share: argument parsing and its checks, flags in messages, exit
codes, Ctrl-C at start-up. The layer just above :mod:`nim_evo.api` and below the commands
(``python -m nim_evo.run|learn|plot|play|arena|export``); what they show a person is
:mod:`nim_evo.console`'s, shared with the library."""
