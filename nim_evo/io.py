"""Reading what nim_evo reads back, under one policy (:func:`open_regular`: regular files of a
bounded size; JSON of a bounded depth, count of values and integer size; an envelope of format
and version), and the checks of the paths it writes to. Nothing nim_evo reads can run code.
(Writing: :mod:`nim_evo.atomic`; a folder's lock: :mod:`nim_evo.folderlock`.)"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from pathlib import Path

from nim_evo.validation import KeywordError, UserError

FORMAT_VERSION = 1
MAX_DEPTH = 100  # how deep a document read back may nest
MAX_JSON_BYTES = 128 * 2**20  # the biggest file nim_evo writes (a table genome of 2,000,000 positions) is ~30 MB
# Parsed, a value costs up to some 60 bytes (an empty list), so 128 MiB of "[[],[],..." took
# 2.4 GB before its error; the biggest files nim_evo writes hold one value per position (a
# table genome of 2,000,000) or per position and move (a learner of 2,000,000 pairs).
MAX_JSON_VALUES = 8_000_000
MAX_INTEGER_DIGITS = 100  # a seed may be big; nothing nim_evo writes comes near 100 digits


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


@contextlib.contextmanager
def open_regular(path, max_bytes: int, what: str = "files"):
    """``path`` open for reading (binary), under the one policy every reader follows: a
    regular file only (a FIFO, a device, a directory, or a link to one, is refused before it
    is opened, so nothing waits on a pipe or reads a device without end), of at most
    ``max_bytes`` (``what``: the kind of file, for the message). Each refusal is a one-line
    :class:`UserError` naming the file. Readers read at most ``max_bytes + 1`` bytes of it
    (a file that grows while it is read is refused too: see :func:`read_regular`)."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.islink(path):
            raise UserError(f"{path} is a link to a file that does not exist") from None
        raise UserError(f"no such file: {path}") from None
    except OSError as error:  # a loop of links, a name too long, no permission
        raise UserError(f"cannot read {path}: {error.strerror or error}") from None
    _check_regular(path, mode)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise UserError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        status = os.fstat(fd)  # what was opened, if the name was swapped since
        _check_regular(path, status.st_mode)
        if status.st_size > max_bytes:
            raise UserError(f"{path} is {status.st_size:,} bytes; nim_evo reads {what} of at most {max_bytes:,}")
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with handle:
        yield handle


def _check_regular(path: Path, mode: int) -> None:
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
        raise UserError(f"{path} is {kind}, not a file nim_evo reads")


def read_regular(path, max_bytes: int, what: str = "files") -> bytes:
    """The bytes of ``path``, read under :func:`open_regular`'s policy: as many as the file
    holds when opened (``read(n)`` allocates ``n`` bytes first, so asking for the limit would
    cost it in memory for every small file), and a file that has grown past the limit since
    is refused."""
    with open_regular(path, max_bytes, what) as handle:
        size = os.fstat(handle.fileno()).st_size
        data = handle.read(size + 1)
        if len(data) > size:  # grown since it was opened: read on, in steps, past the limit at most
            while len(data) <= max_bytes and (more := handle.read(min(max_bytes + 1 - len(data), 1 << 20))):
                data += more
    if len(data) > max_bytes:
        raise UserError(f"{path} is more than {max_bytes:,} bytes; nim_evo reads {what} of at most {max_bytes:,}")
    return data


def bounded_int(text: str) -> int:
    """``text`` as an integer for ``json.loads``; a one-line ``UserError`` past
    :data:`MAX_INTEGER_DIGITS` digits (CPython's own limit is a traceback)."""
    digits = len(text.lstrip("-"))
    if digits > MAX_INTEGER_DIGITS:
        raise UserError(f"holds an integer of {digits:,} digits; nim_evo reads integers of at most "
                        f"{MAX_INTEGER_DIGITS} digits")
    return int(text)


def check_json_values(raw: bytes, where) -> None:
    """A one-line :class:`UserError` naming ``where`` for JSON text of more than
    :data:`MAX_JSON_VALUES` values, counted before it is parsed (parsed, each takes some 50
    bytes: 150 million numbers took 2.8 GB)."""
    # about the values it holds, or more: a string (a pair of quotes) and a key (a colon) each cost
    # some 50 bytes parsed, as much as a number or an empty list
    values = raw.count(b",") + raw.count(b"[") + raw.count(b"{") + raw.count(b":") + raw.count(b'"') // 2
    if values > MAX_JSON_VALUES:
        raise UserError(f"{where} holds some {values:,} JSON values; nim_evo's files hold at most "
                        f"{MAX_JSON_VALUES:,}")


def parse_json(text, where: str):
    """``text`` (str or UTF-8 bytes) parsed as JSON; anything unreadable, too deep, too big for
    the memory left or an integer of more than :data:`MAX_INTEGER_DIGITS` digits is a one-line
    :class:`UserError` naming ``where`` (a file, a flag)."""
    size = f"{len(text):,} {'bytes' if isinstance(text, bytes) else 'characters'}"  # (as given: bytes are decoded)
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text, parse_int=bounded_int)
    except UserError as error:
        raise UserError(f"{where} {error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UserError(f"cannot read {where}: {error}") from None
    except RecursionError:  # thousands of nested [ or {
        raise UserError(f"cannot read {where}: its JSON nests too deep") from None
    except MemoryError:
        raise UserError(f"not enough memory to read {where} ({size})") from None


def read_json(path) -> dict:
    """Read a JSON object (under :func:`open_regular`'s policy); a missing, unreadable, too big
    or malformed file is a one-line :class:`UserError` naming it. Peak memory stays within some
    6 times the file's size for a file of numbers, and within 6 times :data:`MAX_JSON_BYTES`
    whatever it holds (at most :data:`MAX_JSON_VALUES` values; ``benchmarks/readers.py``)."""
    raw = read_regular(path, MAX_JSON_BYTES, "JSON files")
    check_json_values(raw, path)
    data = parse_json(raw, str(path))
    if not isinstance(data, dict):
        raise UserError(f"{path} does not hold a JSON object")
    return data


def refuse_overwrite(path, force: bool, keyword: str = "out", flag: str = "--out") -> None:
    """A :class:`~nim_evo.validation.KeywordError` if ``path`` exists and ``force`` is not set:
    a user's file is never replaced (``keyword``, ``flag``: the argument and the command's flag
    that named the path)."""
    if os.path.islink(path) and not Path(path).exists() and not force:  # would be written through
        raise KeywordError(f"{path} is a link to a file that does not exist; remove it, or name another "
                           f"[[{keyword}|{flag}]]")
    if Path(path).exists() and not force:
        raise KeywordError(f"{path} exists; [[pass force=True|use --force]] to overwrite it, or another "
                           f"[[{keyword}|{flag}]]")


def new_folders(path) -> list[Path]:
    """The folders of ``path`` that do not exist yet, deepest first (those a write there makes:
    :func:`remove_empty` takes them back if it fails)."""
    path = Path(path)
    return [folder for folder in (path, *path.parents) if not folder.exists()]


def remove_empty(folders: list[Path]) -> None:
    """Remove ``folders`` (:func:`new_folders`), deepest first, while they are empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:  # not empty (or already gone): keep it and what holds it
            return


def check_writable(directory) -> None:
    """Create ``directory`` if needed; a one-line :class:`UserError` if it cannot be written to."""
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise UserError(f"{directory} is not a directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot create {directory}: {error.strerror or error}") from None
    if not directory.is_dir() or not os.access(directory, os.W_OK):
        raise UserError(f"cannot write to {directory}")


def check_envelope(data, path, fmt: str, version: int, what: str, unversioned: bool = False,
                   oldest: int | None = None) -> dict:
    """``data``, a document read from ``path``, if its envelope says it is format ``fmt`` at
    version ``version``, or any from ``oldest`` to it (the ``format`` and ``version`` fields
    beside its own, in every versioned file nim_evo writes); else a one-line
    :class:`UserError` saying which (``what``: the kind of file), a version newer than this
    nim_evo's said to be so. With ``unversioned``, a dict with neither field, as nim_evo wrote
    the file before it had an envelope, is taken as it is (its reader reads it as that nim_evo
    wrote it)."""
    if unversioned and isinstance(data, dict) and "format" not in data and "version" not in data:
        return data
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise UserError(f"{path} is not a nim_evo {what}")
    found = data.get("version")
    lowest = version if oldest is None else oldest
    if type(found) is not int or not lowest <= found <= version:  # (a bool is no version)
        newer = " (written by a newer nim_evo)" if type(found) is int and found > version else ""
        reads = f"version {version}" if lowest == version else f"versions {lowest} to {version}"
        raise UserError(f"{path} has {what} version {found!r}{newer}; this nim_evo reads {reads}")
    return data


