"""Memory the readers take, measured: peak resident memory while a file of each format is read,
as a multiple of the file's size, beside the plain library call the reader replaced (same
file, same process kind: each read in a fresh subprocess, its imports done first).

Usage: python benchmarks/readers.py [--mb 32]   (about 40 s at 32 MB; --mb 128 reaches the JSON limit; Linux)

The promises it holds (nim_evo/io.py, nim_evo/evolution/rundir.py):
- JSON (``read_json``, limit 128 MiB): peak within 6 x the file's size for files of numbers,
  and within 6 x the limit (768 MiB) whatever the file holds (at most 8,000,000 values);
- a logbook's CSV (``read_logbook``, limit 256 MiB): 8 bytes per cell kept, at most a million
  rows and 1,000 columns (within 4 x for a logbook as runs write it);
- an array document (``read_arrays_document``, the checkpoint's npz, limit 2 GiB and 100,000
  members): within 1.5 x;
- a run's checkpoint read back (``RunDir.load``: the arrays, then the population checked
  and thawed into DEAP individuals): within 5 x, beside the board's own tables.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

PROBE = r"""
import sys
def high_water():  # this process's peak resident memory (getrusage's maxrss outlives exec: the parent's)
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
how, path = sys.argv[1], sys.argv[2]
import csv, json, numpy as np
from nim_evo.archives import read_arrays_document
from nim_evo.io import read_json
from nim_evo.evolution.logbook import read_logbook
from nim_evo.evolution.rundir import RunDir
base = high_water()
if how == "json.load":
    with open(path) as handle:
        kept = json.load(handle)
elif how == "read_json":
    kept = read_json(path)
elif how == "csv.DictReader":
    with open(path, newline="") as handle:
        kept = list(csv.DictReader(handle))
elif how == "read_logbook":
    kept = read_logbook(path, ["random"])
elif how == "np.load":
    with np.load(path) as archive:
        kept = {name: archive[name] for name in archive.files}
elif how == "read_arrays_document":
    kept = read_arrays_document(path)
elif how == "RunDir.load":
    kept = RunDir(path).load()
print((high_water() - base) * 1024)
"""


def peak(how: str, path: Path) -> int:
    """Bytes of resident memory reading ``path`` added to the process's peak."""
    done = subprocess.run([sys.executable, "-c", PROBE, how, str(path)], capture_output=True, text=True, check=True)
    return int(done.stdout.split()[-1])


def json_file(path: Path, size: int) -> None:
    count = size // 16
    moves = np.random.default_rng(0).integers(10**13, 10**14, count)
    path.write_text(json.dumps({"kind": "table", "genome": {"moves": moves.tolist()}}))


def json_worst_file(path: Path, size: int) -> None:
    """As many values as a JSON file may hold (``MAX_JSON_VALUES``, as it counts them), each as
    costly as it can be for its bytes (objects of one-letter keys and empty objects, short
    strings): what bounds JSON's memory whatever the file's size."""
    from nim_evo.io import MAX_JSON_VALUES

    n = MAX_JSON_VALUES // 9 - 1  # each item counts 9: {, {, :, :, two commas, three pairs of quotes
    path.write_text('{"g": [' + ",".join(['{"k":{},"a":"b"}'] * n) + "]}")


def logbook_file(path: Path, size: int) -> None:
    header = "gen,evals,games,min,mean,max,accuracy,random,subgames,seconds\n"
    row = "{g},12,3456,0.1,0.5,0.912345,0.87,0.5,0.25,0.001\n"
    rows = size // len(row.format(g=10**6))
    with open(path, "w") as handle:
        handle.write(header)
        handle.writelines(row.format(g=g) for g in range(rows))


def arrays_file(path: Path, size: int) -> None:
    from nim_evo.archives import write_arrays_document

    members = 60
    genes = [np.zeros(size // members // 18, np.int16) for _ in range(members)]
    write_arrays_document(path, {"population": [{"genes": g, "credit": [np.zeros(len(g)), np.zeros(len(g))]}
                                                for g in genes]})


def run_directory(folder: Path) -> Path:
    out = folder / "run"
    subprocess.run([sys.executable, "-m", "nim_evo.run", "--genome", "table", "--game", "3-4-5-6-7-8-9-10",
                    "--population", "60", "--offspring", "10", "--generations", "1", "--opponents", "random",
                    "--out", str(out), "--genomes-dir", str(folder / "genomes"), "--quiet"], check=True,
                   capture_output=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=32, help="size of the JSON, CSV and npz files made (MiB)")
    size = parser.parse_args().mb * 2**20
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        cases = [("JSON", folder / "x.json", json_file, "json.load", "read_json", 6),
                 ("JSON, worst", folder / "w.json", json_worst_file, "json.load", "read_json", None),
                 ("CSV logbook", folder / "logbook.csv", logbook_file, "csv.DictReader", "read_logbook", 4),
                 ("npz arrays", folder / "x.npz", arrays_file, "np.load", "read_arrays_document", 1.5)]
        print(f"{'format':<13}{'file MB':>8}  {'baseline (peak MB)':<24}{'nim_evo (peak MB)':<30}{'x of':>7}{'':7}"
              f"{'promise':<9}{'vs baseline':>11}")
        for title, path, make, baseline, ours, promise in cases:
            make(path, size)
            _row(title, path.stat().st_size, baseline, peak(baseline, path), ours, peak(ours, path), promise)
        run = run_directory(folder)
        checkpoint = (run / "checkpoint.npz").stat().st_size
        _row("checkpoint", checkpoint, "np.load", peak("np.load", run / "checkpoint.npz"), "RunDir.load",
             peak("RunDir.load", run), 5)


def _row(title, size, baseline, base_peak, ours, our_peak, promise) -> None:
    if promise is None:  # the bound is of the limit, not the file: peak within 6 x MAX_JSON_BYTES
        from nim_evo.io import MAX_JSON_BYTES

        ratio, promise, of = our_peak / MAX_JSON_BYTES, 6, "limit"
    else:
        ratio, of = our_peak / size, "file"
    held = "held" if ratio <= promise else "BROKEN"
    print(f"{title:<13}{size / 2**20:>8.1f}  {baseline:<16}{base_peak / 2**20:>6.0f}  {ours:<22}{our_peak / 2**20:>6.0f}  "
          f"{ratio:>5.2f}x {of:<5} {promise:>4}x {held:<6}{our_peak / max(base_peak, 1):>6.2f}")


if __name__ == "__main__":
    main()
