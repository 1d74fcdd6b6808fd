"""A run's per-generation log, ``logbook.csv``: written from DEAP's ``Logbook``
(:func:`logbook_csv`, a row per generation, its record keys as columns) and read back as
columns of numbers (:func:`read_logbook`, within fixed bounds of size and columns).
"""

from __future__ import annotations

import csv
import io
from array import array
from pathlib import Path
import numpy as np

from nim_evo.io import open_regular
from nim_evo.validation import MAX_GENERATIONS, UserError

OPTIONAL_COLUMNS = ("heldout", "restart", "stage")  # board-free genomes' held-out accuracy; runs with restarts;
# runs of several stages
MAX_LOGBOOK_BYTES = 256 * 2**20  # a million generations against a panel of ten
MAX_LOGBOOK_COLUMNS = 1_000  # a run's columns: some ten, and one per opponent


def read_logbook(path, opponents) -> dict:
    """A run's ``logbook.csv`` (as :func:`logbook_csv` writes it): its columns of generations,
    evaluations, games, fitness, accuracy and a win rate for each of ``opponents``, as float
    arrays (an empty cell, a value the run had not measured, is NaN). Anything else, a file
    over ``MAX_LOGBOOK_BYTES`` or not a regular file included, is a one-line ``UserError``
    naming the file. Rows are read one at a time into the columns kept, 8 bytes a cell, and a
    logbook has a row per generation (at most a million and one) and at most
    :data:`MAX_LOGBOOK_COLUMNS` columns: memory stays within 8 bytes per kept cell, some 100 MB
    for a run of a million generations against ten opponents, whatever the file holds."""
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise UserError(f"{path.parent} has no logbook.csv yet")
    try:
        with open_regular(path, MAX_LOGBOOK_BYTES, "logbooks") as handle:
            rows = csv.reader(io.TextIOWrapper(handle, encoding="utf-8", newline=""))
            header = next(rows, None)
            if header is None:
                raise UserError(f"{path} has no generations yet")
            needed = ["gen", "evals", "games", "min", "mean", "max", "accuracy", *opponents]
            missing = [name for name in needed if name not in header]
            if missing:
                raise UserError(f"{path} has no column {missing[0]!r}; is it a nim_evo logbook?")
            if len(header) > MAX_LOGBOOK_COLUMNS:
                raise UserError(f"{path} has {len(header):,} columns; a nim_evo logbook has at most "
                                f"{MAX_LOGBOOK_COLUMNS:,}")
            needed += [name for name in OPTIONAL_COLUMNS if name in header]
            where = [header.index(name) for name in needed]
            columns: list | dict  # the columns read, then by name as arrays
            columns = [array("d") for _ in needed]
            for count, row in enumerate(rows):
                if count % 4096 == 0 and handle.tell() > MAX_LOGBOOK_BYTES:  # grown while it is read
                    raise UserError(f"{path} is more than {MAX_LOGBOOK_BYTES:,} bytes; nim_evo reads logbooks of at "
                                    f"most {MAX_LOGBOOK_BYTES:,}")
                if count > MAX_GENERATIONS:  # a record per generation, 0 included
                    raise UserError(f"{path} has more rows than generations a run may have ({MAX_GENERATIONS:,})")
                if len(row) != len(header):
                    raise UserError(f"{path} has a row of {len(row)} cells under a header of {len(header)}")
                try:
                    for column, k in zip(columns, where):
                        column.append(float(row[k]) if row[k] != "" else np.nan)
                except ValueError:  # float() of a cell that is no number
                    raise UserError(f"{path} holds a value that is not a number") from None
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise UserError(f"cannot read {path}: {error}") from None
    except MemoryError:
        raise UserError(f"not enough memory to read {path}") from None
    if not len(columns[0]):
        raise UserError(f"{path} has no generations yet")
    columns = {name: np.frombuffer(column, dtype=float) for name, column in zip(needed, columns)}
    if any(np.isinf(column).any() for column in columns.values()) or np.isnan(columns["gen"]).any():
        raise UserError(f"{path} holds a value that is not a finite number")
    return columns


def logbook_csv(logbook) -> str:
    """The logbook as CSV: one row per generation, DEAP's record keys as columns."""
    if not len(logbook):
        return ""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(logbook[0].keys()), lineterminator="\n")
    writer.writeheader()
    writer.writerows(logbook)
    return out.getvalue()
