"""A hostile HTTP server on 127.0.0.1 for the crawler's tests: raw sockets, one hazard per path.

Every connection gets its own thread, reads one request and acts out its path's
hazard (the table in `HostileServer._act`). A connection lives at most `bound`
seconds and every pause checks the server's stop flag, so no test hangs on it
and `close` joins every thread it started. The crawler reaches it as
`http://hostile.test/...` through `--resolve` (`server.resolve`).
"""

from __future__ import annotations

import socket
import struct
import threading
import time
import zlib
from collections import Counter
from functools import lru_cache

HOST = "hostile.test"
BOMB_BYTES = 64 << 20  # 64 MiB of zeros: ~64 KiB compressed, past any max_bytes we test
OK_PAGE = "<html><head><title>旅游 ok</title></head><body><p>景区 酒店 旅游</p></body></html>"


@lru_cache(maxsize=2)
def bomb(kind: str) -> bytes:
    """BOMB_BYTES of zeros, gzip- or deflate-compressed."""
    zeros = bytes(1 << 20)
    if kind == "gzip":
        out = zlib.compressobj(9, zlib.DEFLATED, 31)
    else:
        out = zlib.compressobj(9, zlib.DEFLATED, 15)
    parts = [out.compress(zeros) for _ in range(BOMB_BYTES >> 20)]
    return b"".join(parts) + out.flush()


def response(
    status: str, headers: dict[str, str], body: bytes = b"", keep_alive: bool = False
) -> bytes:
    """One answer; it says `Connection: close` since the server closes after every exchange
    (unannounced, a client may reuse the closed connection and fail without a request),
    except where a hazard keeps the connection."""
    close = {} if keep_alive else {"Connection": "close"}
    head = "".join(f"{k}: {v}\r\n" for k, v in {**headers, **close}.items())
    return f"HTTP/1.1 {status}\r\n{head}\r\n".encode("latin-1") + body


def html(body: str, content_type: str = "text/html; charset=utf-8") -> bytes:
    data = body.encode("utf-8")
    headers = {"Content-Type": content_type, "Content-Length": str(len(data))}
    return response("200 OK", headers, data)


class HostileServer:
    """Serves the hazards; `pages` adds plain pages, `hits` counts requests per path."""

    def __init__(self, bound: float = 20.0, drip: float = 0.2, robots: str | None = None) -> None:
        self.bound = bound
        self.drip = drip
        self.robots = robots  # robots.txt text, a hazard's path, or None for 404
        self.pages: dict[str, str] = {"/ok": OK_PAGE}
        self.hits: Counter[str] = Counter()
        self.times: list[tuple[float, str]] = []  # (monotonic time, path) of every request
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self._listener.settimeout(0.1)
        self.port = self._listener.getsockname()[1]

    @property
    def resolve(self) -> str:
        return f"{HOST}=127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return f"http://{HOST}{path}"

    def __enter__(self) -> HostileServer:
        accept = threading.Thread(target=self._accept, name="hostile-accept")
        accept.start()
        self._threads.append(accept)
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(5)
        self._listener.close()

    # -- plumbing --------------------------------------------------------------------

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            thread = threading.Thread(target=self._serve, args=(conn,), name="hostile-conn")
            with self._lock:
                self._threads = [t for t in self._threads if t.is_alive()]
                self._threads.append(thread)
            thread.start()

    def _serve(self, conn: socket.socket) -> None:
        ends = time.monotonic() + self.bound
        conn.settimeout(1.0)
        try:
            target = self._request(conn)
            if target is not None:
                self._act(_Conn(conn, ends, self._stop), target.split("?")[0], target)
        except (OSError, IndexError):
            pass
        finally:
            conn.close()

    def _request(self, conn: socket.socket) -> str | None:
        """Read one request's head and count it; its target, or None if the client left."""
        request = b""
        while b"\r\n\r\n" not in request and len(request) < 65536:
            chunk = conn.recv(4096)
            if not chunk:
                return None
            request += chunk
        target = request.split(b" ", 2)[1].decode("latin-1")
        with self._lock:
            self.hits[target] += 1
            self.times.append((time.monotonic(), target))
        return target

    # -- the hazards -------------------------------------------------------------------

    def _act(self, c: _Conn, path: str, target: str) -> None:
        """What each path does; unknown paths answer 404."""
        drip = self.drip
        if path == "/robots.txt" and self.robots and self.robots.startswith("/"):
            path = self.robots  # robots.txt acts out a hazard, e.g. "/drip-headers"
        if path == "/robots.txt":
            if self.robots is None:
                c.send(response("404 Not Found", {"Content-Length": "0"}))
            else:
                c.send(html(self.robots, "text/plain"))
        elif path in self.pages:
            c.send(html(self.pages[path]))
        elif path == "/keep-alive":  # keeps the connection, then its idle timeout fires just as
            page = OK_PAGE.replace("ok", path).encode()  # the next request on it comes: that
            head = {"Content-Type": "text/html", "Content-Length": str(len(page))}
            c.send(response("200 OK", head, page, keep_alive=True))
            self._request(c.sock)  # request is read, counted and closed without a byte
        elif path == "/drip-body":  # headers at once, then one byte per `drip` seconds
            c.send(response("200 OK", {"Content-Type": "text/html", "Content-Length": "100000"}))
            while c.send(b"x"):
                c.sleep(drip)
        elif path == "/drip-headers":  # the status line and headers, one byte at a time
            for byte in response("200 OK", {"Content-Type": "text/html", "X-Pad": "p" * 500}):
                if not c.send(bytes([byte])) or not c.sleep(drip):
                    return
        elif path == "/silent":  # reads the request, never answers
            c.sleep(self.bound)
        elif path == "/reset":  # RST instead of an answer
            c.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        elif path == "/close":  # FIN without a byte
            pass
        elif path == "/bad-status":
            c.send(b"HTTP/1.1 two hundred OK\r\nContent-Length: 2\r\n\r\nhi")
        elif path == "/garbage":
            c.send(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" * 20)
        elif path == "/dup-length":
            body = OK_PAGE.encode()
            c.send(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n"
                b"Content-Length: %d\r\n\r\n" % (len(body), len(body) + 7) + body
            )
        elif path == "/truncated":  # promises 10 000 bytes, sends 100, closes
            c.send(response("200 OK", {"Content-Type": "text/html", "Content-Length": "10000"}))
            c.send(b"<html>" + b"a" * 94)
        elif path == "/bad-chunk":
            head = {"Content-Type": "text/html", "Transfer-Encoding": "chunked"}
            c.send(response("200 OK", head, b"zz\r\nhello\r\n0\r\n\r\n"))
        elif path in ("/huge", "/huge-declared"):  # 50 MB, with or without Content-Length
            head = {"Content-Type": "text/html", "Connection": "close"}
            if path == "/huge-declared":
                head["Content-Length"] = str(50 << 20)
            c.send(response("200 OK", head))
            block = b"<p>" + b"a" * 65533
            for _ in range(800):
                if not c.send(block):
                    return
        elif path in ("/gzip-bomb", "/deflate-bomb"):
            kind = path[1:].split("-")[0]
            data = bomb(kind)
            head = {"Content-Type": "text/html", "Content-Encoding": kind}
            c.send(response("200 OK", {**head, "Content-Length": str(len(data))}, data))
        elif path.startswith("/redirect/"):  # /redirect/n → /redirect/n-1 → … → /ok
            n = int(path.rsplit("/", 1)[1] or 0)
            c.send(_redirect(f"/redirect/{n - 1}" if n > 0 else "/ok"))
        elif path in ("/loop/a", "/loop/b"):
            c.send(_redirect("/loop/b" if path.endswith("a") else "/loop/a"))
        elif path == "/to-private":
            c.send(_redirect(f"http://127.0.0.1:{self.port}/ok"))
        elif path == "/to-nat64":
            c.send(_redirect(f"http://[64:ff9b::7f00:1]:{self.port}/ok"))
        elif path == "/to-malformed":
            c.send(_redirect("http://[::1"))
        elif path.startswith("/charset/"):  # one page per charset name (no duplicates)
            page = OK_PAGE.replace("ok", path)
            c.send(html(page, "text/html; charset=" + path.split("/", 2)[2]))
        elif path == "/retry-after":  # 429 the first time a URL is asked for, then the page
            if self.hits[target] == 1:
                c.send(response("429 Too Many Requests", {"Retry-After": "1", **_EMPTY}))
            else:
                c.send(html(OK_PAGE))
        elif path == "/retry-after-long":
            c.send(response("429 Too Many Requests", {"Retry-After": "100000", **_EMPTY}))
        else:
            c.send(response("404 Not Found", _EMPTY))


_EMPTY = {"Content-Length": "0", "Connection": "close"}


def _redirect(location: str) -> bytes:
    return response("302 Found", {"Location": location, **_EMPTY})


class _Conn:
    """One connection's socket, its end of life, and the server's stop flag."""

    def __init__(self, sock: socket.socket, ends: float, stop: threading.Event) -> None:
        self.sock = sock
        self.ends = ends
        self.stop = stop

    def send(self, data: bytes) -> bool:
        """Send all of `data`; False once the client left, the bound passed or the server stops."""
        if self.stop.is_set() or time.monotonic() > self.ends:
            return False
        try:
            self.sock.sendall(data)
        except OSError:
            return False
        return True

    def sleep(self, seconds: float) -> bool:
        """Pause, but not past the bound nor the server's stop; False if cut short."""
        left = self.ends - time.monotonic()
        return not self.stop.wait(min(seconds, max(0.0, left))) and left > seconds
