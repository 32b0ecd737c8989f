"""Heads: what a page is about (its topic mixture) and what it is called (its title).

A head is cheap — a few draws from the page's own "head" stream — so a builder
can ask for the head of every page it links to (anchors are titles; related
articles follow topics) without writing those pages.

Topic mixture of a page (`truth.Truth.shares`): an article's channel has a
topic; with probability `ON_TOPIC[kind]` the article is on it, otherwise on a
companion topic (lexicon.AFFINITY); the main share is uniform in [0.35, 0.9] and
one to three companions split the rest. List pages follow their channel
([0.55, 0.85]), home pages the mix of their channels, link farms spread over six
topics (no share above 0.38), calendars and deep-path pages stay low
([0.05, 0.35]). A page is relevant to a domain when its share ≥ RELEVANT_SHARE.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass

from kgcrawl.sandbox.hosts import LINKFARM_TOPIC, Host, Kind
from kgcrawl.sandbox.labels import LABELS
from kgcrawl.sandbox.lexicon import DOMAIN_TOPICS, TOPICS, companion, filler, vocabulary
from kgcrawl.sandbox.rng import stream
from kgcrawl.sandbox.routes import PageType, Route, path_for

ON_TOPIC = {
    Kind.PORTAL: 0.85,
    Kind.NEWS: 0.8,
    Kind.SITE: 0.85,
    Kind.FORUM: 0.65,
    Kind.GOV: 0.9,
    Kind.UNIVERSITY: 0.85,
    Kind.DEPARTMENT: 0.9,
}
Mixture = tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class Head:
    """What a page is about and what it is called: cheap to compute for every link target."""

    mixture: Mixture
    title: str


def mix(
    rng, primary: str, low: float, high: float, companions=(1, 3), exclude=frozenset()
) -> Mixture:
    """A mixture with `primary` at a share in [low, high] and companions sharing the rest."""
    main = rng.uniform(low, high)
    taken = set(exclude) | {primary}
    others = []
    for _ in range(rng.randint(*companions)):
        other = companion(rng, primary, frozenset(taken))
        taken.add(other)
        others.append(other)
    weights = [rng.random() + 0.25 for _ in others]
    total = sum(weights)
    pairs = [(primary, main)] + [
        (t, (1 - main) * w / total) for t, w in zip(others, weights, strict=True)
    ]
    return tuple(sorted(((t, round(s, 4)) for t, s in pairs), key=lambda p: (-p[1], p[0])))


def spread(rng) -> Mixture:
    """Six topics with similar shares (link farms): none reaches 0.38."""
    topics = rng.sample(list(TOPICS), 6)
    weights = [rng.random() + 0.5 for _ in topics]
    total = sum(weights)
    pairs = sorted(
        ((t, round(w / total, 4)) for t, w in zip(topics, weights, strict=True)),
        key=lambda p: -p[1],
    )
    return tuple(pairs)


def title(rng, mixture: Mixture, lang: str, register: str = "full") -> str:
    """A headline of two to four words of the main topic, sometimes one of the second."""
    top = vocabulary(mixture[0][0], lang, register)
    words = rng.choices(top.words, cum_weights=top.cum_weights, k=rng.randint(2, 4))
    if len(mixture) > 1 and rng.random() < 0.5:
        second = vocabulary(mixture[1][0], lang, register)
        words.insert(
            rng.randrange(len(words) + 1), rng.choices(second.words, second.cum_weights)[0]
        )
    words = list(dict.fromkeys(words))
    if lang == "zh":
        if rng.random() < 0.3:
            words.insert(0, rng.choice(filler("zh").words[-12:]))
        sep = rng.choice(("", "", "：", "，")) if len(words) > 2 else ""
        return "".join(words[:2]) + sep + "".join(words[2:])
    text = " ".join(words)
    return text[:1].upper() + text[1:]


class Heads:
    """The heads of a world's pages, cached (`head` is an LRU cache of bounded size)."""

    def __init__(
        self,
        seed: int,
        hosts: dict[str, Host],
        entries: Collection[tuple[str, int, int]],
        register: str = "full",
        contained: bool = False,
    ):
        self.seed = seed
        self.hosts = hosts
        self.entries = entries  # (host, channel, article) of tunnel entries
        self.register = register
        self.contained = contained  # domains only where a channel is on them (profiles.py)
        self.head = functools.lru_cache(maxsize=16384)(self._head)

    def _head(self, name: str, route: Route) -> Head:
        host = self.hosts[name]
        t = route.type
        if t is PageType.PRINT:
            return self.head(name, Route(PageType.ARTICLE, route.channel, route.number))
        rng = stream(self.seed, name, path_for(host, route), "head")
        lang = host.lang
        own = host.channels[route.channel].topic if route.channel >= 0 else host.topic
        stray = self._stray(own)
        if t is PageType.ARTICLE:
            primary = self._article_topic(rng, host, route)
            channel = host.channels[route.channel]
            if route.alias is not None:
                mixture = mix(rng, primary, 0.6, 0.9)
            elif (name, route.channel, route.number) in self.entries:
                mixture = mix(rng, primary, 0.65, 0.9, exclude=frozenset(DOMAIN_TOPICS))
            elif channel.topic == LINKFARM_TOPIC:
                mixture = spread(rng)
            else:
                mixture = mix(rng, primary, 0.35, 0.9, exclude=stray)
            return Head(mixture, title(rng, mixture, lang, self.register))
        topic = host.topic or rng.choice(TOPICS)
        if t is PageType.LIST:
            channel = host.channels[route.channel]
            if channel.topic == LINKFARM_TOPIC:
                mixture = spread(rng)
            else:
                low = 0.5 if host.kind is Kind.DIRECTORY else 0.55
                mixture = mix(rng, channel.topic, low, 0.85, (1, 2), exclude=stray)
            if route.number == 0:
                suffix = ""
            else:
                suffix = (
                    f"_第{route.number + 1}页" if lang == "zh" else f" - page {route.number + 1}"
                )
            return Head(mixture, f"{channel.name}_{host.title}{suffix}")
        if t is PageType.HOME or (t is PageType.STATIC and route.text == "sitemap"):
            mixture = self._home_mix(rng, host)
            name_part = LABELS[lang]["sitemap"] + "_" if t is PageType.STATIC else ""
            return Head(
                mixture, f"{name_part}{host.title} - {title(rng, mixture, lang, self.register)}"
            )
        low, high = {
            PageType.MEMBER: (0.5, 0.9),
            PageType.STATIC: (0.15, 0.35),
            PageType.CALENDAR: (0.05, 0.3),
            PageType.DEEP: (0.05, 0.35),
            PageType.LIVE: (0.3, 0.7),
        }.get(t, (0.3, 0.6))
        mixture = mix(rng, topic, low, high, exclude=self._stray(topic))
        label = {PageType.STATIC: LABELS[lang].get(route.text, ""), PageType.CALENDAR: route.text}
        prefix = label.get(t, "")
        text = f"{prefix} {title(rng, mixture, lang, self.register)}".strip()
        return Head(mixture, text + f" - {host.title}")

    def _article_topic(self, rng, host: Host, route: Route) -> str:
        """The topic an article is mainly about: its channel's, or (off-topic article) a
        companion; these are the first draws of the article's head stream."""
        channel = host.channels[route.channel]
        if route.alias is not None:
            return route.alias.topic or channel.topic
        if (
            channel.topic == LINKFARM_TOPIC
            or (host.name, route.channel, route.number) in self.entries
        ):
            return channel.topic
        on = rng.random() < ON_TOPIC[host.kind]
        return channel.topic if on else companion(rng, channel.topic, self._stray(channel.topic))

    def _stray(self, topic: str | None) -> frozenset[str]:
        """Topics a page on `topic` may not wander into: other domains, in a contained web."""
        return frozenset(DOMAIN_TOPICS) - {topic} if self.contained else frozenset()

    def article_topic(self, name: str, route: Route) -> str:
        """An article's main topic without drawing its whole head (for related-article picks)."""
        host = self.hosts[name]
        return self._article_topic(
            stream(self.seed, name, path_for(host, route), "head"), host, route
        )

    def _home_mix(self, rng, host: Host) -> Mixture:
        if host.kind is Kind.LINKFARM:
            return spread(rng)
        counts = Counter(ch.topic for ch in host.channels)
        weights = {t: c * rng.uniform(0.7, 1.3) for t, c in counts.items()}
        total = sum(weights.values())
        return tuple(
            sorted(
                ((t, round(w / total, 4)) for t, w in weights.items()), key=lambda p: (-p[1], p[0])
            )
        )
