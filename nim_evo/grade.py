"""``python -m nim_evo.grade``: ``nim-evo grade`` (:mod:`nim_evo.commands.grade`)."""

if __name__ == "__main__":
    from nim_evo.commands import launch

    launch("grade")
