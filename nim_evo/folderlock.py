"""A folder held by one process at a time (:func:`hold_folder`): a run directory, a sweep folder."""

from __future__ import annotations

import os
import weakref


def hold_folder(path):
    """Hold the folder ``path`` for this process (an advisory ``flock`` on the folder itself: no
    lock file to leave behind, released when the process ends however it ends): a finalizer
    that lets it go, or None where there is no ``fcntl``. ``BlockingIOError`` if another
    process holds it."""
    try:
        import fcntl  # POSIX only: elsewhere no lock (None)
    except ImportError:
        return None
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise
    return _Release(fd)


class _Release:
    """Closes a folder's descriptor (releasing its lock) once, when called or collected."""

    def __init__(self, fd: int):
        self._finalizer = weakref.finalize(self, os.close, fd)

    def __call__(self) -> None:
        self._finalizer()
