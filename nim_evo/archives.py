"""Array documents: JSON values and numpy arrays of numbers, at any depth, in one ``.npz``
archive (a run's checkpoint), written atomically and read back without pickle, within limits a
file cannot talk its way past (members counted before ``zipfile`` reads them, sizes checked
before numpy allocates)."""

from __future__ import annotations

import json
import os
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib import format as npy

from nim_evo.io import MAX_DEPTH, check_json_values, open_regular, parse_json
from nim_evo.atomic import atomic_write
from nim_evo.validation import UserError

# A checkpoint of 8 heaps' tables is a few hundred MB; read back and thawed into a population,
# a checkpoint takes some 4 times its size (benchmarks/readers.py), so at most 8 GiB.
MAX_ARRAYS_BYTES = 2 * 2**30
ARRAY_KEY = "__array__"  # {"__array__": "a3"} in the document stands for member a3 of the archive
DOCUMENT = "document"  # the archive member holding the JSON document, as UTF-8 bytes


def write_arrays_document(path, document) -> None:
    """Write ``document`` (JSON values and numpy arrays of numbers, at any depth) as one
    ``.npz`` archive, atomically: the arrays as its members, the rest as JSON in a member
    of its own. :func:`read_arrays_document` reads it back without pickle."""
    arrays: dict[str, Any] = {}

    def encode(value):  # (what JSON has no form for, met in its walk: numbering arrays as they come)
        if isinstance(value, np.ndarray):
            if value.dtype.kind not in "biuf":
                raise TypeError(f"only arrays of numbers are written, got dtype {value.dtype}")
            key = f"a{len(arrays)}"
            arrays[key] = value
            return {ARRAY_KEY: key}
        if isinstance(value, np.generic):
            return value.item()
        raise TypeError(f"{type(value).__name__} is not a JSON value nor an array of numbers")

    text = json.dumps(document, allow_nan=True, default=encode)
    members: dict[str, Any] = {DOCUMENT: np.frombuffer(text.encode("utf-8"), dtype=np.uint8)}
    atomic_write(path, lambda handle: np.savez(handle, **members, **arrays))  # (straight to the file: a
    # nine-heap checkpoint, 310 MB, is not copied twice in memory first)


def _check_members(path: Path, archive: zipfile.ZipFile) -> None:
    """Refuse, before numpy allocates anything, an archive whose members would take more
    memory than its bytes: a compressed member (nim_evo writes them stored, so a few MB
    cannot expand to GB), or an array header claiming more (or less) data than follows it
    (a header of 10^13 numbers otherwise asks numpy for 73 TiB)."""
    for info in archive.infolist():
        if info.compress_type != zipfile.ZIP_STORED or info.file_size != info.compress_size:
            # stored, a member is as big as its bytes in the file (a size field can lie otherwise)
            raise UserError(f"{path} is not a nim_evo array document (member {info.filename!r} is compressed)")
        with archive.open(info) as member:
            version = npy.read_magic(member)
            if version not in ((1, 0), (2, 0)):  # what np.savez writes for arrays of numbers
                raise UserError(f"{path} is not a nim_evo array document (member {info.filename!r} is "
                                f".npy version {version})")
            read_header = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
            shape, _, dtype = read_header(member, max_header_size=10_000)
            if dtype.hasobject or int(np.prod(shape, dtype=object)) * dtype.itemsize != info.file_size - member.tell():
                raise UserError(f"{path} is not a nim_evo array document (member {info.filename!r} "
                                "holds other data than its header says)")


MAX_MEMBERS = 100_000  # a checkpoint holds a few arrays per individual, of at most 10,000 and 5


def _check_entries(path: Path, handle) -> None:
    """Refuse an archive of more than :data:`MAX_MEMBERS` members before ``zipfile`` reads its
    directory (an object of some 400 bytes per member: a 48 MB directory of empty entries took
    442 MB). The count is the end-of-directory record's (its ZIP64 form where it has one)."""
    size = handle.seek(0, os.SEEK_END)
    handle.seek(max(0, size - 65_558))  # the record (22 bytes) and a comment of at most 65,535
    tail = handle.read()
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) < at + 22:
        raise UserError(f"{path} is not a nim_evo array document (not a zip archive)")
    entries = int.from_bytes(tail[at + 10:at + 12], "little")
    locator = tail.rfind(b"PK\x06\x07", 0, at)
    if entries == 0xFFFF and locator >= 0 and len(tail) >= locator + 20:  # ZIP64: the count is in its own record
        handle.seek(int.from_bytes(tail[locator + 8:locator + 16], "little"))
        record = handle.read(56)
        if record[:4] == b"PK\x06\x06" and len(record) == 56:
            entries = int.from_bytes(record[32:40], "little")
    handle.seek(0)
    if entries > MAX_MEMBERS:
        raise UserError(f"{path} has {entries:,} members; a nim_evo array document has at most {MAX_MEMBERS:,}")


def read_arrays_document(path, max_bytes: int = MAX_ARRAYS_BYTES):
    """The document :func:`write_arrays_document` wrote; a one-line :class:`UserError` for a
    file that is missing, not a regular file, too big, not such an archive, or holds anything
    but numbers (numpy reads it with ``allow_pickle=False``: an object array is refused, never
    unpickled). Its arrays take their bytes' worth of memory, once."""
    path = Path(path)
    with open_regular(path, max_bytes, "array documents") as handle:
        _check_entries(path, handle)
        try:
            with zipfile.ZipFile(handle) as archive:
                _check_members(path, archive)
                if sum(info.file_size for info in archive.infolist()) > max_bytes:
                    raise UserError(f"{path} holds more than {max_bytes:,} bytes of arrays")
            handle.seek(0)
            with np.load(handle, allow_pickle=False) as archive:
                members = {name: archive[name] for name in archive.files}
        except UserError:
            raise
        except MemoryError:
            raise UserError(f"not enough memory to read {path}") from None
        except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile, zlib.error) as error:
            # not an archive, a corrupt member, an object array (which would need pickle)
            raise UserError(f"{path} is not a nim_evo array document ({type(error).__name__})") from None
    text = members.pop(DOCUMENT, None)
    if text is None or text.dtype != np.uint8 or text.ndim != 1:
        raise UserError(f"{path} is not a nim_evo array document (no {DOCUMENT})")
    raw = text.tobytes()
    del text  # (its bytes are copied: the array goes before they are parsed)
    check_json_values(raw, f"{path}'s document")
    document = parse_json(raw, str(path))

    def decode(value, depth=0):
        if depth > MAX_DEPTH:
            raise UserError(f"{path} nests deeper than {MAX_DEPTH} levels")
        if isinstance(value, dict):
            if set(value) == {ARRAY_KEY}:
                array = members.get(value[ARRAY_KEY]) if isinstance(value[ARRAY_KEY], str) else None
                if array is None or array.dtype.kind not in "biuf":
                    raise UserError(f"{path} refers to an array it does not hold: {value[ARRAY_KEY]!r}")
                return array
            return {k: decode(v, depth + 1) for k, v in value.items()}
        if isinstance(value, list):
            return [decode(v, depth + 1) for v in value]
        return value

    return decode(document)
