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
