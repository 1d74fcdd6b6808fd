"""Measuring agents against each other: tournaments (sampled and exact), round robins, the
opponent panel (built-in, learned and file opponents), strategy files. Above agents,
genomes and learners; below evolution."""
