"""``python -m nim_evo.plot``: ``nim-evo plot`` (:mod:`nim_evo.commands.plot`)."""

if __name__ == "__main__":
    from nim_evo.commands import launch

    launch("plot")
