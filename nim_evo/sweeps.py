"""``python -m nim_evo.sweeps``: ``nim-evo sweep`` (:mod:`nim_evo.commands.sweep`)."""

if __name__ == "__main__":
    from nim_evo.commands import launch

    launch("sweep")
