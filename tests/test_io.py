"""Files: atomic writes (the old file or the new one, never a part, nothing left behind) and
JSON reads whose every failure is one line."""

import json
import os

import pytest

from nim_evo.io import atomic_write_bytes, atomic_write_text, read_json, write_json
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


def test_writing_where_a_directory_stands_fails_and_leaves_it(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(OSError):
        atomic_write_text(tmp_path / "d", "x")
    assert (tmp_path / "d").is_dir() and sorted(p.name for p in tmp_path.iterdir()) == ["d"]


def test_write_json_then_read_json_round_trips(tmp_path):
    data = {"piles": [1, 3, 5], "misere": False, "name": "é"}
    write_json(tmp_path / "x.json", data)
    assert read_json(tmp_path / "x.json") == data


@pytest.mark.parametrize("content, message", [
    (None, "no such file: "),
    ("{not json", "cannot read "),
    ("[1, 2]", "does not hold a JSON object"),
    (b"\xff\xfe\x00", "cannot read "),
])
def test_every_bad_json_file_is_one_line(tmp_path, content, message):
    path = tmp_path / "x.json"
    if isinstance(content, str):
        path.write_text(content)
    elif content is not None:
        path.write_bytes(content)
    with pytest.raises(UserError) as caught:
        read_json(path)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_deeply_nested_json_is_one_line_not_a_recursion_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(UserError, match="nests too deep"):
        read_json(path)


def test_an_array_document_round_trips_without_pickle(tmp_path):
    import numpy as np

    from nim_evo.io import read_arrays_document, write_arrays_document

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
    with pytest.raises(UserError, match=r"c.npz is [\d,]+ bytes; nim_evo reads at most 10$"):
        read_arrays_document(tmp_path / "c.npz", max_bytes=10)
