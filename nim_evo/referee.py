"""``python -m nim_evo.referee``: ``nim-evo referee`` (:mod:`nim_evo.commands.referee`)."""

if __name__ == "__main__":
    from nim_evo.commands import launch

    launch("referee")
