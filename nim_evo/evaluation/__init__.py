"""Measuring agents against each other: batched play (sampled games in numpy blocks), exact
evaluation (backward induction), tournaments built on both, round robins, the
opponent panel (built-in, learned and file opponents), strategy files. Above agents,
genomes and learners; below evolution."""
