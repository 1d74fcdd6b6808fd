"""What the commands share: argument parsing and checks, one-line errors, progress bars.
The layer just below the five commands (``python -m nim_evo.run|learn|plot|play|arena``)."""
