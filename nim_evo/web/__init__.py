"""Champions in a web page: the page (:mod:`~nim_evo.web.page`), the moves of a strategy bound to
its board as a look-up (:mod:`~nim_evo.web.lookup`), and board-free genomes in JavaScript
(:mod:`~nim_evo.web.translate`)."""
