"""Writes that land whole: a file written atomically (:func:`atomic_write`: readers see the old
file or the new, never a part; a full disk names the file), JSON written a part at a time
(:func:`write_json`), and Ctrl-C or SIGTERM held while files that belong together are written
(:func:`uninterrupted`)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import tempfile
import threading
from pathlib import Path

from nim_evo.validation import KeywordError, UserError


@contextlib.contextmanager
def uninterrupted():
    """Ctrl-C and SIGTERM held while the body writes files, and answered after it as they would
    have been (a ``KeyboardInterrupt``, most often): files that belong together (a generation's
    checkpoint and logbook) are written whole, and a signal that lands in a library's own
    clean-up (numpy's archive writer, which then raises another error) cannot turn into a
    traceback. Signals are left alone outside the main thread, where Python cannot set them."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = []
    previous = {number: signal.signal(number, lambda signum, frame: held.append(signum))
                for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    for number in dict.fromkeys(held):
        handler = previous[number]
        if callable(handler):
            handler(number, None)
        elif handler == signal.SIG_DFL:
            signal.raise_signal(number)


def atomic_write_bytes(path, data: bytes, replace: bool = True, flag: str = "--out") -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new, never a part.

    A temporary file beside the target is written, flushed and synced, then renamed over it
    (with the permission bits of the file it replaces);
    with ``replace=False`` it is linked in place only if ``path`` does not exist (a file that
    appeared since it was checked, another process's, is a one-line :class:`KeywordError`,
    naming ``flag``, the command's flag that named the path, and is left as it is).
    """
    atomic_write(path, lambda handle: handle.write(data), replace, flag)


def atomic_write(path, write, replace: bool = True, flag: str = "--out") -> None:
    """:func:`atomic_write_bytes` of what ``write(handle)`` writes to the (binary, seekable)
    temporary file: a big file need never be whole in memory."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, _mode_for(path))
        try:
            with os.fdopen(fd, "wb") as handle:
                write(handle)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as error:  # a full disk, a quota: said naming the file it was writing
            raise OSError(error.errno, error.strerror or str(error), str(path)) from None
        if replace:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)  # fails, atomically, if path exists
            except FileExistsError:
                if os.path.islink(path) and not path.exists():
                    raise UserError(f"{path} is a link to a file that does not exist; it is left as it is "
                                    "(remove it, or choose another name)") from None
                raise KeywordError(f"{path} was written by someone else meanwhile; it is left as it is "
                                   f"([[pass replace=True|use --force]] to overwrite it, or another "
                                   f"[[path|{flag}]])") from None
            except OSError:  # a file system without hard links: checked, then renamed
                if path.exists():
                    raise UserError(f"{path} was written by someone else meanwhile; it is left as it is") from None
                os.replace(tmp, path)
            else:
                os.unlink(tmp)
        _sync_directory(path.parent)  # the rename itself survives a power cut
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _mode_for(path: Path) -> int:
    """The permission bits the written file gets: those of the file it replaces (a file its
    owner made private stays private), else as ``open()`` would create it (not mkstemp's 0600)."""
    try:
        status = os.lstat(path)  # the file itself: a link (in a received run directory) chooses nothing
    except OSError:
        return 0o666 & ~_umask()
    return status.st_mode & 0o777 if stat.S_ISREG(status.st_mode) else 0o666 & ~_umask()  # never set-id bits


def _sync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # a platform without directory handles
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_text(path, text: str, replace: bool = True, flag: str = "--out") -> None:
    """``text`` as UTF-8, written as :func:`atomic_write_bytes` writes."""
    atomic_write_bytes(path, text.encode("utf-8"), replace, flag)


def write_json(path, data) -> None:
    """``json.dumps(data, indent=1)`` and a newline, written atomically, a part at a time: a
    nine-heap hall of fame (112 MB of text, some ten million pieces) is never whole in memory."""
    atomic_write(path, lambda handle: handle.writelines(_json_parts(data)))


def _json_parts(data, pieces: int = 1 << 16):
    """The UTF-8 bytes of :func:`write_json`'s text, ``pieces`` of the encoder's at a time."""
    batch: list[str] = []
    for piece in json.JSONEncoder(indent=1).iterencode(data):
        batch.append(piece)
        if len(batch) >= pieces:
            yield "".join(batch).encode("utf-8")
            batch.clear()
    batch.append("\n")
    yield "".join(batch).encode("utf-8")


def _umask() -> int:
    """The process's umask, read when a file is written (Linux says it in ``/proc/self/status``;
    elsewhere it is set and set back, as reading it in Python needs)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, UnicodeDecodeError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
