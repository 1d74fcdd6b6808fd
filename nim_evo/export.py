"""``python -m nim_evo.export``: ``nim-evo export`` (:mod:`nim_evo.commands.export`)."""

if __name__ == "__main__":
    from nim_evo.commands import launch

    launch("export")
