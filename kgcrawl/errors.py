"""The one error type the command line turns into a one-line message and exit code 2."""


class KgcrawlError(Exception):
    """Bad input or a broken resource; the message names the file, key or URL."""


def disk_full(exc: BaseException) -> str | None:
    """A full disk (ENOSPC, EDQUOT, SQLite's SQLITE_FULL) as one line; None for anything else.

    A crawl that fills its disk stops; what it committed stays and `--resume`
    goes on once there is room, so the person needs the cause, not a traceback.
    """
    import errno
    import sqlite3

    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        where = f" writing {exc.filename}" if exc.filename else ""
        return f"disk full{where}: free some space and run the command again"
    if (
        isinstance(exc, sqlite3.Error)
        and getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    ):
        return "disk full writing the run state: free some space and run the command again"
    return None


def environment_error(exc: BaseException) -> str | None:
    """A full disk, or a file the command could not read or write (no such folder, no
    permission, a read-only file system), as one line naming the file; None for anything
    else, which stays a traceback.

    >>> environment_error(PermissionError(13, "Permission denied", "/srv/o.owl"))
    '/srv/o.owl: Permission denied'
    >>> environment_error(ValueError("a bug")) is None
    True
    """
    full = disk_full(exc)
    if full is None and isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    return full
