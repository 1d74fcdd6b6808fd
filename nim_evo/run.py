"""``python -m nim_evo.run``: ``nim-evo run`` (:mod:`nim_evo.commands.run`)."""

if __name__ == "__main__":
    from nim_evo.commands import launch

    launch("run")
