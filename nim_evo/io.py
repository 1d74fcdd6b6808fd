"""Atomic writes and the versioned JSON envelope of everything nim_evo saves."""

from __future__ import annotations

import json
import os
import pickle
import tempfile
from pathlib import Path

from nim_evo.validation import UserError

FORMAT_VERSION = 1
_UMASK = os.umask(0o022)
os.umask(_UMASK)


def atomic_write_bytes(path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new, never a part.

    A temporary file beside the target is written, flushed and synced, then renamed over it.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, 0o666 & ~_UMASK)  # as open() would create it, not mkstemp's 0600
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_text(path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def write_json(path, data) -> None:
    atomic_write_text(path, json.dumps(data, indent=1) + "\n")


def write_pickle(path, data) -> None:
    atomic_write_bytes(path, pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))


def read_json(path) -> dict:
    """Read a JSON object; a missing, unreadable or malformed file is a one-line ``ValueError``."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        raise UserError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UserError(f"cannot read {path}: {error}") from None
    if not isinstance(data, dict):
        raise UserError(f"{path} does not hold a JSON object")
    return data

