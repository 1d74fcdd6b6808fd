"""``python -m nim_evo.arena``: ``nim-evo arena`` (:mod:`nim_evo.commands.arena`)."""

if __name__ == "__main__":
    from nim_evo.commands import launch

    launch("arena")
