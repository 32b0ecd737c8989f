"""The one error type the command line turns into a one-line message and exit code 2."""


class KgcrawlError(Exception):
    """Bad input or a broken resource; the message names the file, key or URL."""
