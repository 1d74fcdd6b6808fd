"""``python -m nim_evo.learn``: ``nim-evo learn`` (:mod:`nim_evo.commands.learn`)."""

if __name__ == "__main__":
    from nim_evo.commands import launch

    launch("learn")
