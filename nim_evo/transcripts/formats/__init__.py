"""One reader per harness's transcript files; :mod:`nim_evo.transcripts.reading` lists them."""
