"""The scheduler's side of politeness and dispatch: host turns and a ready queue per host.

Politeness is decided here, in the one scheduler process, so it holds however
many workers or machines fetch (SPEC §6): a URL goes out only when its host has
no request in flight and its rest since the last one has passed (`HostTurns`).
The fetchers never choose a URL.

`Dispatcher` keeps every worker slot busy while any host is free. It asks the
strategy for links; a link whose host is busy or resting waits in that host's
ready queue (it stays taken: the strategy chose it, it goes out at the host's
next turn, before anything the strategy picks later for that host). Parked links
are bounded (`park_limit`). When the strategy's next links all belong to busy
hosts and the bound is reached, the best queued link of a free host is taken
straight from the frontier, so a frontier dominated by one slow host cannot
starve the other slots. The strategy is told which hosts wait (a request out or a
link parked), so one that draws at random (ITS) can draw from the others
(strategies/tabu.py).

Interpretation (issue 19 item 0): the old loop held ≤ 4 × workers links, put them
back and stopped filling — 1.6 of 8 requests in flight for BFS on the sandbox.
The bound here is also 4 × workers parked links, but a full bound no longer
stops the filling, and the fallback (the frontier's best link outside the busy
and resting hosts) departs from the strategy's order only when the strategy has
nothing for a free host among its next 4 × workers choices.
"""

from __future__ import annotations

import statistics
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait

from kgcrawl.crawl.core import Crawl
from kgcrawl.crawl.workers import Done, Workers

PARK_PER_SLOT = 4
# Seconds after which a request in flight stops holding a unit of the page budget.
# Interpretation: the budget bounds what goes out, so a crawl never fetches pages it
# will not keep; but a page that stalls while holding the last unit held the whole
# crawl until its read timeouts ran out (a sandbox live page: 3 × 20 s, one
# `bench_vs_scrapy` round 88 s instead of 30). Past this age another link may go out
# for its unit; whichever is left when the budget is reached, in flight or answered
# with the page that reached it, is cut (Engine._run_parallel). A sandbox page
# answers in milliseconds, most web pages within a second or two.
STALLED = 5.0
# Sooner, once the crawl knows how long its answers take: a request out for longer than
# STALL_FACTOR × the 90th percentile of the last ANSWERS_KEPT answers' times (at least
# STALL_FLOOR seconds; with fewer than ANSWERS_TRUSTED answers, STALLED) is stalled too.
# Interpretation (issue 19, wall time): in three 3 000-page sandbox crawls (fcits_oh, 8
# in flight) the analyser had no page for 1.2–3.5 s of the last 4 s, 5–15 % of the
# crawl (20.4–24.3 s): the last units were held by requests to slow hosts (0.5–4 s),
# where an answer (fetch, analysis and the wait for the analyser) takes 46–52 ms at the
# 90th percentile. A request past 3 × that is slow, not late. With this rule the
# analyser waited 0.3–0.9 s of those 4 s and a crawl took 19.0–19.6 s; three interleaved
# rounds of `bench_vs_scrapy.py`: 137–149 → 151–156 pages/s, CPU a page unchanged. At most
# `capacity` more pages are fetched than kept, and only at the budget's end; on the web,
# whose answers take a second or more, the rule stays near `STALLED`.
STALL_FACTOR = 3.0
STALL_FLOOR = 0.25
ANSWERS_KEPT = 200
ANSWERS_TRUSTED = 20


class HostTurns:
    """Per host: a request in flight or not, and when its rest ends (the scheduler's clock)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.busy: set[str] = set()
        self.ready_at: dict[str, float] = {}

    def free(self, host: str, now: float) -> bool:
        return host not in self.busy and self.ready_at.get(host, 0.0) <= now

    def start(self, host: str) -> None:
        self.busy.add(host)

    def finish(self, host: str, delay: float) -> None:
        """The host's request came back: it rests `delay` seconds from now."""
        self.busy.discard(host)
        self.ready_at[host] = self.clock() + delay

    def unavailable(self, now: float) -> set[str]:
        """Hosts with a request in flight or still resting (rests that ended are forgotten)."""
        ended = [host for host, at in self.ready_at.items() if at <= now]
        for host in ended:
            del self.ready_at[host]
        return self.busy | self.ready_at.keys()

    def rest(self, host: str, sleep: Callable[[float], None] = time.sleep) -> None:
        """Wait out the host's rest (the sequential loop: one request at a time)."""
        wait_for = self.ready_at.get(host, 0.0) - self.clock()
        if wait_for > 0:
            sleep(wait_for)


class Dispatcher:
    """Links to worker slots, one in flight per host, until the budget or the frontier ends."""

    def __init__(self, crawl: Crawl, workers: Workers, turns: HostTurns) -> None:
        self.crawl = crawl
        self.workers = workers
        self.turns = turns
        self.park_limit = PARK_PER_SLOT * workers.capacity
        self.in_flight: dict[Future[Done], tuple[int, float]] = {}  # link, when it went out
        self.parked: dict[str, deque[int]] = {}
        self.parked_count = 0
        self.fallbacks = 0  # links taken past the strategy for a free host
        self.occupancy = Occupancy(turns.clock)
        self.answer_seconds: deque[float] = deque(maxlen=ANSWERS_KEPT)

    def fill(self, room: int) -> None:
        """Hand out links until every slot is busy, `room` more are out, or no host is free.

        A request out for `stalled_after()` seconds or more no longer counts against `room`,
        unless it has answered: its page waits only for the engine to fold it in.
        """
        now = self.turns.clock()
        slots = self.workers.capacity - len(self.in_flight)
        if room < self.workers.capacity:  # the budget's end: requests out may hold it
            stalled = self.stalled_after()
            holding = sum(
                1
                for future, (_, at) in self.in_flight.items()
                if now - at < stalled or future.done()
            )
            slots = min(slots, room - holding)
        for host in list(self.parked):
            if slots <= 0:
                break
            if self.turns.free(host, now):
                self._send(self._unpark(host))
                slots -= 1
        while slots > 0 and self.parked_count < self.park_limit:
            link = self.crawl.select(self.parked.keys() | self.turns.busy)
            if link is None:
                break
            host = self.crawl.host_of(link)
            if self.turns.free(host, now) and host not in self.parked:
                self._send(link)
                slots -= 1
            else:
                self.parked.setdefault(host, deque()).append(link)
                self.parked_count += 1
        if slots > 0 and self.parked_count >= self.park_limit:
            self._fill_past_strategy(slots, now)

    def _fill_past_strategy(self, slots: int, now: float) -> None:
        unavailable = self.turns.unavailable(now) | set(self.parked)
        frontier = self.crawl.frontier
        while slots > 0:
            link = frontier.best_outside(unavailable)
            if link is None:
                return
            frontier.take(link)
            self.fallbacks += 1
            unavailable.add(self.crawl.host_of(link))
            self._send(link)
            slots -= 1

    def _unpark(self, host: str) -> int:
        queue = self.parked[host]
        link = queue.popleft()
        if not queue:
            del self.parked[host]
        self.parked_count -= 1
        return link

    def _send(self, link: int) -> None:
        self.turns.start(self.crawl.host_of(link))
        self.occupancy.change(len(self.in_flight) + 1)
        future = self.workers.submit(self.crawl.url_of(link), self.crawl.extractor)
        self.in_flight[future] = (link, self.turns.clock())

    def stalled_after(self) -> float:
        """Seconds after which a request in flight is stalled: it no longer holds a unit of
        the page budget (`STALL_FACTOR`)."""
        if len(self.answer_seconds) < ANSWERS_TRUSTED:
            return STALLED
        p90 = statistics.quantiles(self.answer_seconds, n=10)[-1]
        return min(STALLED, max(STALL_FLOOR, STALL_FACTOR * p90))

    def next_wake(self) -> float | None:
        """Seconds until a parked host's rest ends, when a slot is free for it; else None.

        A parked host already free waits for a slot, not for time: waking for it would spin.
        """
        if len(self.in_flight) >= self.workers.capacity:
            return None
        now = self.turns.clock()
        ready_at, busy = self.turns.ready_at, self.turns.busy
        ends = [at for h in self.parked if h not in busy and (at := ready_at.get(h, 0.0)) > now]
        return min(ends) - now if ends else None

    def collect(self, timeout: float | None) -> list[tuple[int, Done | BaseException]]:
        """Wait for at least one answer (or the timeout); each link with its Done or error.

        Answers come in the order their links went out, so that workers answering
        at once (a replay of recorded outcomes) fold in the same order every time.
        """
        if not self.in_flight:
            return []
        done, _ = wait(self.in_flight, timeout=timeout, return_when=FIRST_COMPLETED)
        answers: list[tuple[int, Done | BaseException]] = []
        now = self.turns.clock()
        for future in [f for f in self.in_flight if f in done]:
            link, sent = self.in_flight.pop(future)
            self.answer_seconds.append(now - sent)
            error = future.exception()
            answers.append((link, error if error is not None else future.result()))
        self.occupancy.change(len(self.in_flight))
        return answers

    @property
    def idle(self) -> bool:
        return not self.in_flight and not self.parked

    def close(self) -> None:
        """Parked links back to Q_wait; work in flight is abandoned (its URLs stay unlogged)."""
        for host in list(self.parked):
            while host in self.parked:
                self.crawl.put_back(self._unpark(host))
        for future in self.in_flight:
            future.cancel()


class Occupancy:
    """The time-weighted mean of requests in flight (issue 19's in-flight occupancy)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.started = clock()
        self.last = self.started
        self.level = 0
        self.area = 0.0

    def change(self, level: int) -> None:
        now = self.clock()
        self.area += self.level * (now - self.last)
        self.last, self.level = now, level

    @property
    def mean(self) -> float:
        elapsed = self.last - self.started
        return self.area / elapsed if elapsed > 0 else 0.0
