"""One reader policy for every format nim_evo reads (JSON, the logbook's CSV, the checkpoint's
npz): regular files only, a size limit per format, integers of any length and a lack of memory
each one line naming the file; nothing a file is can hang a command or read without end."""

import json
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

from nim_evo.engine.rules import Rules
from nim_evo.evolution.logbook import read_logbook
from nim_evo.archives import read_arrays_document, write_arrays_document
from nim_evo.io import read_json
from nim_evo.commands.run import main as run
from nim_evo.validation import UserError

READERS = {"json": read_json, "npz": read_arrays_document, "csv": lambda path: read_logbook(path, ["random"])}


def within(seconds, function, *args):
    """``function(*args)``'s exception (or None), failing the test if it does not return in time
    (a reader waiting on a pipe would wait for ever)."""
    outcome = []

    def call():
        try:
            function(*args)
        except BaseException as error:  # noqa: BLE001 - handed to the test
            outcome.append(error)
        else:
            outcome.append(None)

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, f"{getattr(function, '__name__', function)} still reading after {seconds} s"
    return outcome[0]


@pytest.mark.parametrize("fmt", READERS)
def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path, fmt):
    path = tmp_path / f"f.{fmt}"
    os.mkfifo(path)
    error = within(10, READERS[fmt], path)
    assert isinstance(error, UserError) and str(error) == f"{path} is a named pipe (FIFO), not a file nim_evo reads"


@pytest.mark.parametrize("fmt", READERS)
def test_a_link_to_a_device_is_refused_before_it_is_read(tmp_path, fmt):
    path = tmp_path / f"zero.{fmt}"
    path.symlink_to("/dev/zero")
    error = within(10, READERS[fmt], path)
    assert isinstance(error, UserError) and str(error) == f"{path} is a device, not a file nim_evo reads"


@pytest.mark.parametrize("fmt", READERS)
def test_a_dangling_link_says_so(tmp_path, fmt):
    path = tmp_path / f"gone.{fmt}"
    path.symlink_to(tmp_path / "nowhere")
    with pytest.raises(UserError, match="is a link to a file that does not exist$"):
        READERS[fmt](path)


def test_a_file_that_grows_past_the_limit_while_read_is_refused(tmp_path, monkeypatch):
    """The size is checked when the file is opened, and again by what is read."""
    import nim_evo.io as nio

    path = tmp_path / "big.json"
    path.write_text('{"a": 1}')
    real_fstat = os.fstat
    monkeypatch.setattr(nio.os, "fstat", lambda fd: os.stat_result((*real_fstat(fd)[:6], 3, *real_fstat(fd)[7:])))
    monkeypatch.setattr(nio, "MAX_JSON_BYTES", 4)
    with pytest.raises(UserError, match="is more than 4 bytes; nim_evo reads JSON files of at most 4"):
        read_json(path)


@pytest.mark.parametrize("text", ["1" * 5000, "-" + "7" * 101])
def test_an_integer_of_any_length_is_one_line(tmp_path, text):
    path = tmp_path / "long.json"
    path.write_text(f'{{"kind": "table", "genome": [{text}]}}')
    with pytest.raises(UserError) as caught:
        read_json(path)
    digits = len(text.lstrip("-"))
    assert str(caught.value) == (f"{path} holds an integer of {digits:,} digits; nim_evo reads integers of at "
                                 "most 100 digits")
    archive = tmp_path / "long.npz"
    write_arrays_document(archive, {"n": 1})
    members = dict(np.load(archive))
    members["document"] = np.frombuffer(f'{{"n": {text}}}'.encode(), dtype=np.uint8)
    np.savez(archive, **members)
    with pytest.raises(UserError, match=f"long.npz holds an integer of {digits:,} digits"):
        read_arrays_document(archive)


def test_an_integer_of_a_hundred_digits_still_reads(tmp_path):
    path = tmp_path / "seed.json"
    path.write_text(json.dumps({"seed": 10**99}))
    assert read_json(path) == {"seed": 10**99}


@pytest.mark.parametrize("fmt, target", [("json", "json.loads"), ("npz", "numpy.load"), ("csv", "csv.reader")])
def test_running_out_of_memory_is_one_line_naming_the_file(tmp_path, monkeypatch, fmt, target):
    path = tmp_path / f"x.{fmt}"
    if fmt == "json":
        path.write_text("{}")
    elif fmt == "npz":
        write_arrays_document(path, {"a": np.zeros(3)})
    else:
        path.write_text("gen,evals,games,min,mean,max,accuracy,random\n0,1,1,0,0,0,0,0\n")

    def exhausted(*args, **kwargs):
        raise MemoryError

    module, name = target.rsplit(".", 1)
    monkeypatch.setattr(f"{module}.{name}", exhausted)
    with pytest.raises(UserError, match=f"^not enough memory to read {path}"):
        READERS[fmt](path)


def test_a_logbook_row_of_other_length_than_its_header_is_one_line(tmp_path):
    path = tmp_path / "logbook.csv"
    path.write_text("gen,evals,games,min,mean,max,accuracy,random\n0,1,1,0,0,0,0,0,9\n")
    with pytest.raises(UserError, match="has a row of 9 cells under a header of 8"):
        read_logbook(path, ["random"])


@pytest.mark.parametrize("name", ["checkpoint.npz", "config.json"])
def test_a_fifo_in_a_run_directory_is_one_line_at_resume(tmp_path, capsys, name):
    out = tmp_path / "r"
    assert run(["--game", "2-3", "--population", "4", "--offspring", "4", "--generations", "1", "--quiet",
                "--out", str(out), "--genomes-dir", str(tmp_path / "g")]) == 0
    (out / name).unlink()
    os.mkfifo(out / name)
    process = subprocess.run([sys.executable, "-m", "nim_evo.run", "--resume", str(out), "--generations", "2",
                              "--genomes-dir", str(tmp_path / "g")], capture_output=True, text=True, timeout=120)
    assert process.returncode == 2
    assert process.stderr == f"nim_evo: error: {out / name} is a named pipe (FIFO), not a file nim_evo reads\n"


def test_a_fifo_in_the_learner_cache_is_trained_again_and_replaced(tmp_path, monkeypatch):
    from nim_evo.evaluation import opponents

    monkeypatch.setenv("NIM_EVO_CACHE", str(tmp_path))
    monkeypatch.setattr(opponents, "_TRAINED", {})
    path = opponents._cache_key("wincount", Rules((2, 3)), 0, 50, {})[0]
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    error = within(60, opponents.trained, "wincount", Rules((2, 3)), 0, 50)
    assert error is None and path.is_file()


@pytest.mark.parametrize("name", ["1-" + "9" * 5000, "3-cap" + "9" * 5000])
def test_a_board_of_thousands_of_digits_is_one_line(name):
    with pytest.raises(UserError, match="pile sizes and caps are at most 1,000,000,000,000,000$"):
        Rules.parse(name)


@pytest.mark.parametrize("param, value, message", [
    ("alpha", 10**40, "alpha must be in [0, 1], got 1e+40"),
    ("alpha", 10**400, "parameter alpha must be a finite number, got an integer of about 401 digits"),
    ("reward", float("inf"), "parameter reward must be a finite number, got inf"),
])
def test_a_learner_parameter_beyond_a_float_is_one_line(param, value, message):
    from nim_evo.learners import make_learner

    with pytest.raises(UserError) as caught:
        make_learner("td", Rules((2, 3)), **{param: value})
    assert str(caught.value) == message


def test_a_learner_file_with_a_parameter_beyond_a_float_is_one_line(tmp_path):
    from nim_evo.commands.learn import main as learn
    from nim_evo.learners.files import load_learner

    path = tmp_path / "l.json"
    assert learn(["--learner", "wincount", "--game", "2-3", "--games", "20", "--out", str(path), "--quiet"]) == 0
    document = json.loads(path.read_text())
    document["params"]["cutoff"] = 10**40
    path.write_text(json.dumps(document))
    with pytest.raises(UserError, match="parameter cutoff must be an integer below 2\\*\\*62, got an integer of about"):
        load_learner(path)


def test_learn_param_of_thousands_of_digits_is_one_line(capsys):
    from nim_evo.commands.learn import main as learn

    assert learn(["--learner", "td", "--game", "2-3", "--games", "10", "--param", "alpha=" + "9" * 5000]) == 2
    assert capsys.readouterr().err == ("nim_evo: error: --param alpha holds an integer of 5,000 digits; nim_evo "
                                       "reads integers of at most 100 digits\n")


def test_an_archive_of_too_many_members_is_refused_before_its_directory_is_read(tmp_path, monkeypatch):
    import zipfile

    import nim_evo.archives as archives

    path = tmp_path / "many.npz"
    with zipfile.ZipFile(path, "w") as archive:
        for k in range(30):
            archive.writestr(f"m{k}", b"")
    monkeypatch.setattr(archives, "MAX_MEMBERS", 20)
    monkeypatch.setattr(zipfile, "ZipFile", lambda *a, **k: pytest.fail("the directory was read"))
    with pytest.raises(UserError, match="many.npz has 30 members; a nim_evo array document has at most 20$"):
        read_arrays_document(path)


def test_a_logbook_of_too_many_rows_or_columns_is_refused(tmp_path, monkeypatch):
    import nim_evo.evolution.logbook as logbook

    path = tmp_path / "logbook.csv"
    header = "gen,evals,games,min,mean,max,accuracy,random"
    path.write_text(header + "\n" + "0,1,1,0,0,0,0,0\n" * 12)
    monkeypatch.setattr(logbook, "MAX_GENERATIONS", 10)
    with pytest.raises(UserError, match="has more rows than generations a run may have \\(10\\)"):
        read_logbook(path, ["random"])
    path.write_text(header + "," + ",".join(f"c{k}" for k in range(1000)) + "\n")
    with pytest.raises(UserError, match="has 1,008 columns; a nim_evo logbook has at most 1,000"):
        read_logbook(path, ["random"])


def test_a_cap_or_a_position_of_thousands_of_digits_is_one_line():
    from nim_evo import make_agent, play_game

    with pytest.raises(UserError, match="max_take must be at most 1,000,000,000,000,000, got an integer of about"):
        Rules((2, 3), 10**5000)
    rules = Rules((2, 3))
    with pytest.raises(UserError, match="pile sizes are whole numbers from 0 to 1,000,000,000,000,000"):
        play_game(rules, [make_agent("random", rules)] * 2, np.random.default_rng(0), start=(10**5000, 1))


def test_the_size_of_a_board_too_big_to_count_in_integers_is_the_float_count():
    """Three piles of a million: past the exact count's work bound, the float count (it was
    2^62, far from 166,667,666,668,500,001)."""
    from math import comb

    from nim_evo.engine.sizes import multiset_count

    assert multiset_count([10**6] * 3) == pytest.approx(comb(10**6 + 3, 3), rel=1e-12)
