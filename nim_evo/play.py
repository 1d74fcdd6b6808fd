"""``python -m nim_evo.play``: ``nim-evo play`` (:mod:`nim_evo.commands.play`)."""

if __name__ == "__main__":
    from nim_evo.commands import launch

    launch("play")
