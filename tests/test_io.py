"""Files: atomic writes (the old file or the new one, never a part, nothing left behind) and
JSON reads whose every failure is one line."""

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from nim_evo.archives import write_arrays_document
from nim_evo.io import read_json
from nim_evo.atomic import atomic_write, atomic_write_bytes, atomic_write_text, uninterrupted, write_json
from nim_evo.validation import UserError


def test_a_write_replaces_the_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "deep" / "er" / "f.txt"
    atomic_write_text(path, "old")
    atomic_write_text(path, "new")
    assert path.read_text() == "new"
    assert sorted(p.name for p in path.parent.iterdir()) == ["f.txt"]
    mode = path.stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask  # as open() would make it, not a private temporary's 0600


def test_a_reader_sees_the_old_file_or_the_new_never_a_part(tmp_path, monkeypatch):
    """Up to the rename the target holds the whole old content, while the new content is
    whole (written and synced) in a temporary beside it; the rename (atomic on POSIX) is
    the only step that changes what a reader of the target sees."""
    path = tmp_path / "f.txt"
    atomic_write_text(path, "old content")
    synced, seen = [], []
    fsync, replace = os.fsync, os.replace

    def recording_fsync(fd):
        synced.append(fd)
        fsync(fd)

    def observing_replace(source, target):
        source, target = Path(source), Path(target)
        seen.append((source.parent, source.name, source.read_bytes(), target.read_text(), list(synced)))
        replace(source, target)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    monkeypatch.setattr(os, "replace", observing_replace)
    atomic_write_text(path, "new content, é")
    [(where, name, temporary, target, synced_before)] = seen
    assert where == tmp_path and name.startswith(".f.txt.") and name.endswith(".tmp")
    assert temporary == "new content, é".encode("utf-8")
    assert target == "old content"
    assert len(synced_before) == 1  # synced before the rename
    assert path.read_text(encoding="utf-8") == "new content, é"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]


def test_a_failed_write_keeps_the_old_file_and_removes_its_temporary(tmp_path, monkeypatch):
    path = tmp_path / "f.json"
    write_json(path, {"a": 1})

    def full_disk(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError, match="No space left"):
        atomic_write_bytes(path, b"{}")
    assert json.loads(path.read_text()) == {"a": 1}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.json"]


@pytest.mark.parametrize("error", [OSError(5, "Input/output error"), KeyboardInterrupt()])
def test_a_write_failing_half_way_keeps_the_old_file_and_removes_its_temporary(tmp_path, monkeypatch, error):
    """The temporary written but not yet synced when the write fails (a disk error, Ctrl-C):
    the old file as it was, no temporary left."""
    path = tmp_path / "f.txt"
    atomic_write_text(path, "old")

    def failing_fsync(fd):
        assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # the temporary is there
        raise error

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(type(error)):
        atomic_write_text(path, "new")
    assert path.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]


def test_a_failed_first_write_leaves_nothing(tmp_path, monkeypatch):
    def full_disk(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError):
        atomic_write_bytes(tmp_path / "new.bin", b"data")
    assert list(tmp_path.iterdir()) == []


def test_writing_where_a_directory_stands_fails_and_leaves_it(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(OSError):
        atomic_write_text(tmp_path / "d", "x")
    assert (tmp_path / "d").is_dir() and sorted(p.name for p in tmp_path.iterdir()) == ["d"]


def test_write_json_then_read_json_round_trips(tmp_path):
    data = {"piles": [1, 3, 5], "misere": False, "name": "é"}
    write_json(tmp_path / "x.json", data)
    assert read_json(tmp_path / "x.json") == data
    write_json(tmp_path / "y.json", {"a": [1]})
    assert (tmp_path / "y.json").read_text() == '{\n "a": [\n  1\n ]\n}\n'  # indented by one, a final newline
    atomic_write_text(tmp_path / "z.txt", "é")
    assert (tmp_path / "z.txt").read_bytes() == b"\xc3\xa9"  # UTF-8 whatever the locale


def test_a_big_json_document_is_written_a_part_at_a_time_as_dumps_writes_it(tmp_path, monkeypatch):
    """Some 700,000 pieces of the encoder's (a nine-heap table's moves are ten million),
    written in parts of at most 65,536: the bytes ``json.dumps(indent=1)`` gives, in more
    than one write, none of them the whole file."""
    data = {"moves": [None] + [[k % 9, k % 17] for k in range(100_000)], "name": "é", "x": 0.1}
    writes = []
    real = os.fdopen

    def counting(*args, **kwargs):
        handle = real(*args, **kwargs)
        write = handle.write
        handle.write = lambda part: writes.append(len(part)) or write(part)
        return handle

    monkeypatch.setattr(os, "fdopen", counting)
    write_json(tmp_path / "big.json", data)
    expected = (json.dumps(data, indent=1) + "\n").encode("utf-8")
    assert (tmp_path / "big.json").read_bytes() == expected
    assert len(writes) > 1 and sum(writes) == len(expected) and max(writes) < len(expected)


def test_a_write_whose_writer_fails_keeps_the_old_file_and_removes_its_temporary(tmp_path):
    path = tmp_path / "f.bin"
    atomic_write_bytes(path, b"old")

    def half_then_fail(handle):
        handle.write(b"ne")
        raise ValueError("the writer's own error")

    with pytest.raises(ValueError, match="the writer's own"):
        atomic_write(path, half_then_fail)
    assert path.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["f.bin"]

    def full_disk(handle):
        handle.write(b"ne")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError) as raised:  # a full disk, said naming the file being written
        atomic_write(path, full_disk)
    assert raised.value.filename == str(path) and raised.value.errno == 28
    assert path.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["f.bin"]


@pytest.mark.parametrize("content, message", [
    (None, "no such file: {path}"),
    ("{not json", "cannot read {path}: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ("", "cannot read {path}: Expecting value: line 1 column 1 (char 0)"),
    ('{"a": 1}\n{"b": 2}', "cannot read {path}: Extra data: line 2 column 1 (char 9)"),
    ("[1, 2]", "{path} does not hold a JSON object"),
    ('"text"', "{path} does not hold a JSON object"),
    ("null", "{path} does not hold a JSON object"),
    (b"\xff\xfe\x00", "cannot read {path}: "),
])
def test_every_bad_json_file_is_one_line(tmp_path, content, message):
    """Missing, not JSON, not UTF-8, or JSON but not an object: a ``ValueError`` (a
    :class:`UserError`) of one line naming the file."""
    path = tmp_path / "x.json"
    if isinstance(content, str):
        path.write_text(content)
    elif content is not None:
        path.write_bytes(content)
    with pytest.raises(ValueError) as caught:
        read_json(path)
    assert isinstance(caught.value, UserError)
    text = str(caught.value)
    assert text.startswith(message.format(path=path)) and "\n" not in text
    if not message.endswith(": "):
        assert text == message.format(path=path)


def test_a_directory_is_no_json_file(tmp_path):
    with pytest.raises(UserError) as caught:
        read_json(tmp_path)
    assert str(caught.value) == f"{tmp_path} is a directory, not a file nim_evo reads"


def test_deeply_nested_json_is_one_line_not_a_recursion_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(UserError, match="nests too deep"):
        read_json(path)


def test_an_array_document_round_trips_without_pickle(tmp_path):
    import numpy as np

    from nim_evo.archives import read_arrays_document, write_arrays_document

    genes = np.arange(7, dtype=np.int16)
    credit = (np.linspace(0, 1, 7, dtype=np.float32), np.ones(7, dtype=np.float32))
    document = {"format": "x", "population": [{"genes": genes, "credit": credit, "fitness": (0.5, 0.25)}],
                "rules": {"a": [1, 2]}, "count": np.int64(3)}
    write_arrays_document(tmp_path / "c.npz", document)
    back = read_arrays_document(tmp_path / "c.npz")
    item = back["population"][0]
    assert item["genes"].dtype == np.int16 and np.array_equal(item["genes"], genes)
    assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(item["credit"], credit))
    assert item["fitness"] == [0.5, 0.25] and back["rules"] == {"a": [1, 2]} and back["count"] == 3
    with pytest.raises(TypeError, match="only arrays of numbers"):
        write_arrays_document(tmp_path / "o.npz", {"x": np.array([object()], dtype=object)})
    with pytest.raises(UserError, match=r"c.npz is [\d,]+ bytes; nim_evo reads array documents of at most 10$"):
        read_arrays_document(tmp_path / "c.npz", max_bytes=10)


def test_a_json_file_beyond_the_limit_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    import nim_evo.io as io_module

    path = tmp_path / "big.json"
    path.write_text("[" + "1," * 600 + "1]")
    monkeypatch.setattr(io_module, "MAX_JSON_BYTES", 1000)
    monkeypatch.setattr(io_module.json, "loads", lambda text: pytest.fail("parsed"))
    with pytest.raises(UserError, match=r"big.json is 1,203 bytes; nim_evo reads JSON files of at most 1,000$"):
        read_json(path)


def test_a_json_file_of_too_many_values_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    """Small in bytes, huge in memory: ``[[],[],...]`` costs some 60 bytes a value parsed. The
    values are counted on the bytes first; a file within the limit is read as ever."""
    import nim_evo.io as io_module

    monkeypatch.setattr(io_module, "MAX_JSON_VALUES", 1000)
    path = tmp_path / "lists.json"
    path.write_text('{"x": [' + "[]," * 1000 + "[]]}")
    monkeypatch.setattr(io_module.json, "loads", lambda text: pytest.fail("parsed"))
    with pytest.raises(UserError, match=r"lists.json holds some 2,005 JSON values; nim_evo's files hold at most 1,000$"):
        read_json(path)
    monkeypatch.undo()
    monkeypatch.setattr(io_module, "MAX_JSON_VALUES", 2005)
    assert len(read_json(path)["x"]) == 1001



def test_a_write_that_must_not_replace_leaves_a_file_that_appeared_meanwhile(tmp_path):
    path = tmp_path / "mine.json"
    atomic_write_text(path, "first", replace=False)
    assert path.read_text() == "first"
    with pytest.raises(UserError, match="was written by someone else meanwhile; it is left as it is") as caught:
        atomic_write_text(path, "second", replace=False, flag="--html")
    assert str(caught.value).endswith("(pass replace=True to overwrite it, or another path)")
    assert caught.value.command.endswith("(use --force to overwrite it, or another --html)")
    assert path.read_text() == "first" and sorted(p.name for p in tmp_path.iterdir()) == ["mine.json"]


def test_uninterrupted_holds_ctrl_c_until_the_files_are_written(tmp_path):
    """A SIGINT in the middle of the body: the body runs to its end, then KeyboardInterrupt."""
    written = []
    with pytest.raises(KeyboardInterrupt):
        with uninterrupted():
            os.kill(os.getpid(), signal.SIGINT)
            write_arrays_document(tmp_path / "a.npz", {"x": np.arange(3)})
            written.append("a")
            atomic_write_text(tmp_path / "b.txt", "b")
            written.append("b")
    assert written == ["a", "b"] and (tmp_path / "b.txt").read_text() == "b"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_uninterrupted_answers_a_held_sigterm_with_its_own_handler():
    calls = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: calls.append(signum))
    try:
        with uninterrupted():
            os.kill(os.getpid(), signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGTERM)
            assert calls == []
        assert calls == [signal.SIGTERM]  # once, after the body
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_uninterrupted_leaves_signals_alone_off_the_main_thread():
    seen = []

    def body():
        with uninterrupted():
            seen.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=body)
    thread.start()
    thread.join()
    assert seen == [signal.default_int_handler]


@pytest.mark.parametrize("module", ["nim_evo.run", "nim_evo.learn", "nim_evo.plot", "nim_evo.play", "nim_evo.arena",
                                    "nim_evo"])
def test_ctrl_c_while_a_command_imports_is_one_line(module):
    """Ctrl-C before a command's main (its imports take a few tenths of a second) ends it in one
    line with status 130, never a traceback of whichever import it fell in. The signal is sent
    by the first import the command makes after its first line, so where it falls is fixed."""
    code = f"""
import os, runpy, signal, sys

class Trip:  # at the command's first import of nim_evo.cli.args, a Ctrl-C
    def find_spec(self, name, path=None, target=None):
        if name == "nim_evo.cli.args":
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)

sys.meta_path.insert(0, Trip())
sys.argv = ["x", *{["run"] if module == "nim_evo" else []!r}, "--help"]
runpy.run_module({module!r}, run_name="__main__", alter_sys=True)
"""
    process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert process.returncode == 130, process.stderr
    assert process.stderr == "\nnim_evo: interrupted\n" and process.stdout == ""


def _npz_member(shape, data: bytes) -> bytes:
    import io

    from numpy.lib import format as npy

    buffer = io.BytesIO()
    npy.write_array_header_1_0(buffer, {"descr": "<f8", "fortran_order": False, "shape": shape})
    return buffer.getvalue() + data


@pytest.mark.parametrize("how, message", [
    ("huge header", "holds other data than its header says"),  # 10^13 numbers claimed: 73 TiB asked of numpy
    ("short data", "holds other data than its header says"),
    ("zip bomb", "is compressed"),  # 2 GB of zeros in a 2 MB file
])
def test_an_array_archive_that_would_expand_is_refused_before_numpy_allocates(tmp_path, how, message):
    import zipfile

    from nim_evo.archives import read_arrays_document

    path = tmp_path / "checkpoint.npz"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED if how == "zip bomb" else zipfile.ZIP_STORED) as z:
        if how == "huge header":
            z.writestr("a0.npy", _npz_member((10**13,), bytes(64)))
        elif how == "short data":
            z.writestr("a0.npy", _npz_member((100,), bytes(8 * 99)))
        else:
            z.writestr("a0.npy", _npz_member((2**20,), bytes(8 * 2**20)))
        z.writestr("document.npy", _npz_member((0,), b""))
    with pytest.raises(UserError, match=f"checkpoint.npz is not a nim_evo array document .*{message}"):
        read_arrays_document(path)


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o444])
def test_replacing_a_file_keeps_its_permission_bits(tmp_path, mode):
    path = tmp_path / "private.json"
    path.write_text("{}")
    path.chmod(mode)
    write_json(path, {"a": 1})
    assert (path.stat().st_mode & 0o777) == mode and json.loads(path.read_text()) == {"a": 1}
    fresh = tmp_path / "fresh.json"
    write_json(fresh, {})
    assert (fresh.stat().st_mode & 0o777) == 0o666 & ~current_umask()


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_dangling_link_at_the_output_is_said_to_be_one(tmp_path):
    from nim_evo.io import refuse_overwrite

    link = tmp_path / "out.json"
    link.symlink_to(tmp_path / "nowhere.json")
    with pytest.raises(UserError, match="out.json is a link to a file that does not exist; remove it"):
        refuse_overwrite(link, force=False)
    with pytest.raises(UserError, match="out.json is a link to a file that does not exist; it is left as it is"):
        atomic_write_text(link, "{}", replace=False)
    assert link.is_symlink() and not (tmp_path / "nowhere.json").exists()


def test_a_full_disk_names_the_file_being_written(tmp_path, monkeypatch):
    import errno

    import nim_evo.atomic as nio

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(nio.os, "fsync", full)
    target = tmp_path / "checkpoint.npz"
    with pytest.raises(OSError) as caught:
        atomic_write_bytes(target, b"data")
    assert caught.value.errno == errno.ENOSPC and caught.value.filename == str(target)
    assert list(tmp_path.iterdir()) == []


def test_a_link_or_set_id_bits_choose_no_permission_bits(tmp_path):
    """A link at the target (in a run directory from someone else) lends it no mode, and a
    file's setuid/setgid/sticky bits are never carried over."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("x")
    elsewhere.chmod(0o6777)
    link = tmp_path / "logbook.csv"
    link.symlink_to(elsewhere)
    atomic_write_text(link, "new")
    assert not link.is_symlink() and (link.stat().st_mode & 0o7777) == 0o666 & ~current_umask()
    assert elsewhere.read_text() == "x"
    setid = tmp_path / "setid.json"
    setid.write_text("{}")
    setid.chmod(0o4755)
    write_json(setid, {})
    assert (setid.stat().st_mode & 0o7777) == 0o755


@pytest.mark.parametrize("data, message", [
    ({"format": "nim_evo/x", "version": 1, "a": 1}, None),
    ({"format": "nim_evo/y", "version": 1}, "f.json is not a nim_evo thing$"),
    ([1, 2], "f.json is not a nim_evo thing$"),
    ({"a": 1}, "f.json is not a nim_evo thing$"),  # no envelope: only where the reader takes older files
    ({"format": "nim_evo/x", "version": 3}, r"f.json has thing version 3 \(written by a newer nim_evo\); "
                                            "this nim_evo reads version 1$"),
    ({"format": "nim_evo/x", "version": 0}, "f.json has thing version 0; this nim_evo reads version 1$"),
    ({"format": "nim_evo/x", "version": True}, "f.json has thing version True; this nim_evo reads version 1$"),
    ({"format": "nim_evo/x"}, "f.json has thing version None; this nim_evo reads version 1$"),
])
def test_a_file_s_envelope_is_checked_by_one_reader_in_one_line(data, message):
    from nim_evo.io import check_envelope

    if message is None:
        assert check_envelope(data, "f.json", "nim_evo/x", 1, "thing") is data
    else:
        with pytest.raises(UserError, match=message):
            check_envelope(data, "f.json", "nim_evo/x", 1, "thing")


def test_a_file_written_before_it_had_an_envelope_reads_where_its_reader_allows():
    from nim_evo.io import check_envelope

    older = {"run": "r", "individuals": []}
    assert check_envelope(older, "f.json", "nim_evo/x", 1, "thing", unversioned=True) is older
    with pytest.raises(UserError, match="has thing version None"):  # half an envelope is no older file
        check_envelope({"format": "nim_evo/x"}, "f.json", "nim_evo/x", 1, "thing", unversioned=True)


def test_a_new_file_takes_the_umask_of_the_moment_it_is_written(tmp_path):
    """The umask is read as a file is written (it was read once, as nim_evo was imported: a
    program that tightened it afterwards still got files readable by all)."""
    before = os.umask(0o077)
    try:
        atomic_write_text(tmp_path / "private.txt", "mine")
    finally:
        os.umask(before)
    assert (tmp_path / "private.txt").stat().st_mode & 0o777 == 0o600
    atomic_write_text(tmp_path / "shared.txt", "ours")
    assert (tmp_path / "shared.txt").stat().st_mode & 0o777 == 0o666 & ~before
