"""The hosts of a portal web (the default and flat profiles): kinds, channels, hazards, tunnels.

The catalogue is the only part of a world computed up front (a few hundred
records); pages are generated on request from it. It holds every host of the
papers' seed tables (`seeds.SEEDS`) in its role (`seeds.SEED_ROLES`), plus
generated hosts up to the world's size, drawn from the world seed.

Tunnels: each is a small cluster of hidden hosts of a domain topic that no
directory, friend link, mirror or other page links to, except one off-topic
article on a visible host (the entry), optionally through the home page of a
hidden off-topic host (the bridge). So the cluster is reachable only through one
or two off-topic pages.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from kgcrawl.sandbox.hazards import GBK_HAZARDS, Hazard
from kgcrawl.sandbox.hosts import LINKFARM_TOPIC, Channel, Host, Kind, Style, Tunnel
from kgcrawl.sandbox.lexicon import (
    CHANNELS,
    DOMAIN_TOPICS,
    OFF_TOPICS,
    SITE_NOUNS,
    TOPICS,
    companion,
    filler,
)
from kgcrawl.sandbox.profiles import SETTINGS, Profile
from kgcrawl.sandbox.rng import stream
from kgcrawl.sandbox.seeds import SEED_ROLES, SEEDS, seed_hosts


@dataclass(frozen=True)
class SizeProfile:
    """How big a world is: host count, article volume, tunnels per domain."""

    hosts: int
    article_scale: float
    tunnels: int


SIZES: dict[str, SizeProfile] = {
    "small": SizeProfile(hosts=100, article_scale=0.25, tunnels=2),
    "default": SizeProfile(hosts=300, article_scale=1.0, tunnels=4),
    "large": SizeProfile(hosts=1000, article_scale=1.5, tunnels=10),
}

# Generated hosts: how often each kind, topic and hazard appears.
_KIND_WEIGHTS = {
    Kind.PORTAL: 14,
    Kind.NEWS: 8,
    Kind.SITE: 42,
    Kind.FORUM: 10,
    Kind.GOV: 8,
    Kind.DIRECTORY: 3,
    Kind.LINKFARM: 5,
    Kind.MIRROR: 5,
    Kind.MOVED: 3,
}
_TOPIC_WEIGHTS = {"tourism": 16, "rainstorm": 10, "weather": 8} | {
    t: 8 for t in OFF_TOPICS if t != "weather"
}
_HAZARD_RATES = {
    Hazard.ROBOTS: 0.15,
    Hazard.CRAWL_DELAY: 0.08,
    Hazard.ROBOTS_ERROR: 0.02,
    Hazard.SLOW: 0.04,
    Hazard.SERVER_ERROR: 0.06,
    Hazard.RESET: 0.03,
    Hazard.REDIRECT: 0.06,
    Hazard.CALENDAR: 0.04,
    Hazard.SESSION_ID: 0.04,
    Hazard.DEEP_PATH: 0.03,
    Hazard.MALFORMED: 0.08,
    Hazard.OVERSIZED: 0.02,
    Hazard.DOWN: 0.01,
}
# What every Chinese site's footer links (profiles.Profile.registry): host → title.
REGISTRY = {
    "beian.miit.gov.cn": "ICP/IP地址/域名信息备案管理系统",
    "www.12377.cn": "中国互联网违法和不良信息举报中心",
}
# The national portals the top bar of every page of a generated host links
# (profiles.Profile.portals), as a Chinese site's 政府网站导航 / 友情链接 block does: host →
# anchor. 中国旅游网 and 中央气象台 are seeds no earlier seed page links, so a crawl of tourism
# or rainstorm downloads one of them among its first pages; no anchor names a topic word of
# either ontology. Hosts not in the catalogue yet are added as news portals.
PORTALS = {
    "www.gov.cn": "中国政府网",
    "www.people.com.cn": "人民网",
    "www.xinhuanet.com": "新华网",
    "www.cntour.cn": "中国旅游网",
    "www.nmc.cn": "中央气象台",
    "www.cma.gov.cn": "中国气象局",
}
_TIMING = frozenset({Hazard.SLOW, Hazard.CRAWL_DELAY})  # hazards that cost a crawl time
_GBK_RATE = 0.15  # of Chinese generated hosts, split over the three declarations
_CHANNEL_SIZES = {  # articles per channel at article_scale 1
    Kind.PORTAL: (40, 120),
    Kind.NEWS: (30, 100),
    Kind.SITE: (8, 40),
    Kind.FORUM: (40, 150),
    Kind.GOV: (20, 80),
    Kind.DIRECTORY: (0, 0),
    Kind.LINKFARM: (30, 80),
}
_SYLLABLES = (
    "hua",
    "shan",
    "long",
    "tian",
    "jiang",
    "xin",
    "da",
    "zhong",
    "bao",
    "feng",
    "yun",
    "hai",
    "jin",
    "ming",
    "kang",
    "le",
    "an",
    "xing",
    "guang",
    "hong",
    "bei",
    "nan",
    "dong",
    "xi",
    "chang",
    "ping",
    "lin",
    "shui",
    "he",
    "mei",
    "tai",
    "ji",
)
_PINYIN_HINT = {
    "tourism": ("lvyou", "youji", "trip", "tour"),
    "rainstorm": ("fangxun", "zaihai", "jianzai", "shanhong"),
    "weather": ("tianqi", "qixiang"),
    "finance": ("caijing", "licai"),
    "sports": ("tiyu", "qiumi"),
    "technology": ("keji", "shuma"),
    "entertainment": ("yule", "yingshi"),
    "health": ("jiankang", "yiliao"),
    "education": ("jiaoyu", "kaoshi"),
    "food": ("meishi", "chihuo"),
    "industry": ("fangzhi", "jixie"),
}
_EN_NAME_PARTS = (
    "blue",
    "red",
    "green",
    "river",
    "stone",
    "cloud",
    "sun",
    "bright",
    "north",
    "east",
    "open",
    "city",
    "star",
    "golden",
)
_EN_HINT = {
    "tourism": ("travel", "trip"),
    "rainstorm": ("floodwatch", "disaster"),
    "weather": ("weather", "forecast"),
    "finance": ("money", "finance"),
    "sports": ("sport", "goal"),
    "technology": ("tech", "digital"),
    "entertainment": ("fun", "screen"),
    "health": ("health", "care"),
    "education": ("learn", "edu"),
    "food": ("food", "kitchen"),
    "industry": ("textile", "machines"),
}


@dataclass
class Catalog:
    """All hosts of a world, by name, and its tunnels."""

    hosts: dict[str, Host] = field(default_factory=dict)
    tunnels: list[Tunnel] = field(default_factory=list)


def _weighted(rng: random.Random, weights: dict) -> object:
    keys = list(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


def _channels(
    rng: random.Random,
    kind: Kind,
    topic: str | None,
    extra: tuple[str, ...],
    lang: str,
    scale: float,
    mixed: int = 0,
) -> tuple[Channel, ...]:
    """Channels of a host: main-topic channels, the given extras, sometimes a stray one, and
    `mixed` general-interest ones (news, sports, finance … beside a portal's travel section)."""
    name_at = 1 if lang == "zh" else 2
    if kind is Kind.DIRECTORY:  # sizes are filled in once every host is known
        return tuple(Channel(t, t, CHANNELS[t][0][name_at], 0) for t in TOPICS)
    low, high = _CHANNEL_SIZES[kind]

    def size() -> int:
        return max(3, round(rng.randint(low, high) * scale))

    if kind is Kind.LINKFARM:
        return (Channel("p", LINKFARM_TOPIC, "links", size()),)
    if kind is Kind.NEWS:
        topics = rng.sample(list(TOPICS), rng.randint(5, 8))
    else:
        assert topic is not None
        main = {Kind.PORTAL: (3, 5), Kind.SITE: (1, 3), Kind.FORUM: (3, 5), Kind.GOV: (2, 4)}[kind]
        topics = [topic] * rng.randint(*main)
        if kind is not Kind.SITE or rng.random() < 0.4:
            topics.append(companion(rng, topic))
        if mixed:
            general = [t for t in OFF_TOPICS if t != topic]
            topics += rng.sample(general, min(mixed, len(general)))
            rng.shuffle(topics)  # the host's own section is one among many in its nav
    used: set[str] = set()
    channels = []
    for t in [*topics, *extra]:
        options = [c for c in CHANNELS[t] if c[0] not in used]
        if options:
            choice = rng.choice(options)
            used.add(choice[0])
            channels.append(Channel(choice[0], t, choice[name_at], size()))
    return tuple(channels)


def directory_listing(hosts: dict[str, Host], topic: str) -> tuple[str, ...]:
    """Hosts a directory lists under `topic`: visible hosts of that main topic, by name."""
    listed = (Kind.PORTAL, Kind.SITE, Kind.FORUM, Kind.GOV, Kind.MOVED)
    return tuple(
        sorted(
            h.name for h in hosts.values() if h.topic == topic and not h.hidden and h.kind in listed
        )
    )


def _style(rng: random.Random, kind: Kind, lang: str) -> Style:
    if kind is Kind.FORUM:
        return Style.FORUM
    if kind in (Kind.DIRECTORY, Kind.LINKFARM):
        return Style.SIMPLE
    if kind is Kind.GOV or (kind in (Kind.PORTAL, Kind.NEWS) and lang == "zh"):
        return rng.choice((Style.CMS, Style.CMS, Style.SIMPLE))
    return rng.choice((Style.SIMPLE, Style.SIMPLE, Style.QUERY))


def _title(rng: random.Random, topic: str | None, lang: str) -> str:
    theme = topic if topic in SITE_NOUNS else rng.choice(TOPICS)
    noun = rng.choice(SITE_NOUNS[theme][lang])
    if lang == "zh":
        place = rng.choice(filler("zh").words[-12:])
        return f"{place}{noun}"
    first, second = rng.sample(_EN_NAME_PARTS, 2)
    return f"{first.title()} {second.title()} {noun}"


def _name(rng: random.Random, kind: Kind, topic: str | None, lang: str, taken: set[str]) -> str:
    while True:
        if lang == "zh":
            stem = "".join(rng.sample(_SYLLABLES, rng.randint(1, 2)))
            if topic and rng.random() < 0.6:
                stem += rng.choice(_PINYIN_HINT[topic])
            tld = ".gov.cn" if kind is Kind.GOV else rng.choice((".com", ".cn", ".com.cn", ".net"))
        else:
            stem = rng.choice(_EN_NAME_PARTS)
            stem += rng.choice(_EN_HINT[topic]) if topic else rng.choice(_EN_NAME_PARTS)
            tld = ".gov" if kind is Kind.GOV else rng.choice((".com", ".org", ".net"))
        name = f"www.{stem}{tld}"
        if name not in taken:
            return name


def _hazards(rng: random.Random, kind: Kind, lang: str) -> frozenset[Hazard]:
    found = {h for h, rate in _HAZARD_RATES.items() if rng.random() < rate}
    if kind is Kind.FORUM and rng.random() < 0.4:
        found.add(Hazard.SESSION_ID)
    if lang == "zh" and rng.random() < _GBK_RATE:
        found.add(rng.choice(sorted(GBK_HAZARDS)))
    if Hazard.DOWN in found:
        found = {Hazard.DOWN}
    return frozenset(found)


def build_catalog(seed: int, size: str, profile: Profile = SETTINGS["default"]) -> Catalog:
    """The world's hosts: the seed hosts with their roles, then generated ones (the profile's
    share of them in English, each with the profile's general-interest channels)."""
    sizing = SIZES[size]
    rng = stream(seed, "catalog", size)
    catalog = Catalog()
    hosts = catalog.hosts
    base = 100000

    def add(host: Host) -> None:
        hosts[host.name] = host

    for name, scheme in seed_hosts().items():
        role = SEED_ROLES[name]
        add(
            Host(
                name=name,
                kind=role.kind,
                lang="zh",
                topic=role.topic,
                title=role.title,
                scheme=scheme,
                style=_style(rng, role.kind, "zh"),
                channels=_channels(
                    rng,
                    role.kind,
                    role.topic,
                    role.extra,
                    "zh",
                    sizing.article_scale,
                    profile.mixed,
                ),
                hazards=frozenset(role.hazards),
                aliases=role.aliases,
                base_id=base + rng.randrange(0, 800000, 1000),
            )
        )

    _add_tunnels(rng, catalog, sizing, profile.english)
    generated = sizing.hosts - len(hosts)
    # One host of each whole-host hazard and of the rarer kinds, so every world has them.
    forced = [(Kind.SITE, {Hazard.DOWN}), (Kind.SITE, {Hazard.ROBOTS_ERROR}), (Kind.MIRROR, set())]
    forced += [(Kind.MIRROR, {Hazard.NEAR_MIRROR}), (Kind.MOVED, set()), (Kind.LINKFARM, None)]
    forced += [(Kind.LINKFARM, None), (Kind.SITE, {Hazard.CRAWL_DELAY})]
    for i in range(max(generated, len(forced))):
        kind, hazards = forced[i] if i < len(forced) else (_weighted(rng, _KIND_WEIGHTS), None)
        add(_generated_host(rng, kind, hazards, hosts, sizing, profile))
    if profile.registry:
        for name, title in REGISTRY.items():
            channels = _channels(rng, Kind.GOV, "technology", (), "zh", sizing.article_scale)
            add(Host(name, Kind.GOV, "zh", "technology", title, "http", Style.CMS, channels))
    if profile.portals:
        for name, title in PORTALS.items():
            if name not in hosts:
                channels = _channels(rng, Kind.NEWS, None, (), "zh", sizing.article_scale)
                add(Host(name, Kind.NEWS, "zh", None, title, "http", Style.CMS, channels))
    if not profile.timing:
        for host in [h for h in hosts.values() if h.hazards & _TIMING]:
            hosts[host.name] = replace(host, hazards=host.hazards - _TIMING)
    for host in [h for h in hosts.values() if h.kind is Kind.DIRECTORY]:
        channels = tuple(
            replace(ch, size=len(directory_listing(hosts, ch.topic))) for ch in host.channels
        )
        hosts[host.name] = replace(host, channels=channels)
    return catalog


def _visible_content(hosts: dict[str, Host]) -> list[Host]:
    return [
        h
        for h in hosts.values()
        if not h.hidden
        and h.kind in (Kind.PORTAL, Kind.NEWS, Kind.SITE, Kind.FORUM, Kind.GOV)
        and Hazard.DOWN not in h.hazards
    ]


def _generated_host(
    rng: random.Random,
    kind: Kind,
    hazards: set[Hazard] | None,
    hosts: dict[str, Host],
    sizing: SizeProfile,
    profile: Profile,
) -> Host:
    lang = "en" if rng.random() < profile.english else "zh"
    scheme = rng.choice(("http", "http", "https"))
    base_id = 100000 + rng.randrange(0, 800000, 1000)
    if kind in (Kind.MIRROR, Kind.MOVED):
        pool = [h for h in _visible_content(hosts) if Hazard.SESSION_ID not in h.hazards]
        source = rng.choice(pool)
        stem = source.name.removeprefix("www.")
        prefix = "mirror" if kind is Kind.MIRROR else "old"
        name = f"{prefix}{rng.randint(1, 9)}.{stem}"
        while name in hosts:
            name = f"{prefix}{rng.randint(10, 99)}.{stem}"
        flags = {Hazard.MIRROR} if kind is Kind.MIRROR else {Hazard.MOVED}
        if hazards and Hazard.NEAR_MIRROR in hazards:
            flags = {Hazard.NEAR_MIRROR}
        return Host(
            name=name,
            kind=kind,
            lang=source.lang,
            topic=source.topic,
            title=source.title,
            scheme=source.scheme,
            style=source.style,
            channels=source.channels,
            hazards=frozenset(flags),
            source=source.name,
            base_id=source.base_id,
        )
    topic = (
        None
        if kind in (Kind.NEWS, Kind.DIRECTORY, Kind.LINKFARM)
        else _weighted(rng, _TOPIC_WEIGHTS | dict(profile.topic_weights))
    )
    found = frozenset(hazards) if hazards is not None else _hazards(rng, kind, lang)
    if lang == "en":
        found -= GBK_HAZARDS
    return Host(
        name=_name(rng, kind, topic, lang, set(hosts)),
        kind=kind,
        lang=lang,
        topic=topic,
        title=_title(rng, topic, lang),
        scheme=scheme,
        style=_style(rng, kind, lang),
        channels=_channels(rng, kind, topic, (), lang, sizing.article_scale, profile.mixed),
        hazards=found,
        base_id=base_id,
    )


def _add_tunnels(rng: random.Random, catalog: Catalog, sizing: SizeProfile, english: float) -> None:
    """Hidden clusters per domain, each entered from an off-topic channel of one of the
    domain's seed hosts (so the entry is on a seed's home page, a hop from the seed)."""
    hosts = catalog.hosts
    content = (Kind.PORTAL, Kind.NEWS, Kind.SITE, Kind.FORUM, Kind.GOV)
    for domain in DOMAIN_TOPICS:
        own = {url.split("://", 1)[1].split("/", 1)[0].split("?", 1)[0] for url in SEEDS[domain]}
        entries = [
            (h.name, i)
            for h in hosts.values()
            if h.name in own and not h.hazards and h.kind in content
            for i, ch in enumerate(h.channels)
            if ch.topic not in DOMAIN_TOPICS
        ]
        rng.shuffle(entries)
        for t in range(sizing.tunnels):
            entry_host, entry_channel = entries[t % len(entries)]
            entry_article = sum(
                1
                for x in catalog.tunnels
                if (x.entry_host, x.entry_channel) == entries[t % len(entries)]
            )
            cluster = []
            for _ in range(rng.randint(2, 3)):
                kind = rng.choice((Kind.SITE, Kind.PORTAL))
                lang = "zh" if rng.random() > english else "en"
                host = Host(
                    name=_name(rng, kind, domain, lang, set(hosts)),
                    kind=kind,
                    lang=lang,
                    topic=domain,
                    title=_title(rng, domain, lang),
                    scheme="http",
                    style=_style(rng, kind, lang),
                    channels=_channels(rng, kind, domain, (), lang, sizing.article_scale),
                    hidden=True,
                    base_id=100000 + rng.randrange(0, 800000, 1000),
                )
                hosts[host.name] = host
                cluster.append(host.name)
            bridge = None
            if t % 2 == 1:
                theme = rng.choice([x for x in OFF_TOPICS if x != "weather"])
                host = Host(
                    name=_name(rng, Kind.SITE, theme, "zh", set(hosts)),
                    kind=Kind.SITE,
                    lang="zh",
                    topic=theme,
                    title=_title(rng, theme, "zh"),
                    scheme="http",
                    style=Style.SIMPLE,
                    channels=tuple(
                        Channel(slug, theme, zh, max(3, round(12 * sizing.article_scale)))
                        for slug, zh, _en in CHANNELS[theme][:2]
                    ),
                    hidden=True,
                    base_id=100000 + rng.randrange(0, 800000, 1000),
                )
                hosts[host.name] = host
                bridge = host.name
            catalog.tunnels.append(
                Tunnel(domain, entry_host, entry_channel, entry_article, bridge, tuple(cluster))
            )
