"""The hosts of a sandbox world: names, kinds, channels, hazards, tunnels.

The catalogue is the only part of a world computed up front (a few hundred
records); pages are generated on request from it. It holds every host of the
papers' seed tables (`SEEDS`, identical to `pipelines/*.toml`) with a role
chosen to resemble the real site — tourism portals, weather bureaus, a textile
company among the tourism seeds as in the paper — plus generated hosts up to
the world's size, drawn from the world seed.

Tunnels: each is a small cluster of hidden hosts of a domain topic that no
directory, friend link, mirror or other page links to, except one off-topic
article on a visible host (the entry), optionally through the home page of a
hidden off-topic host (the bridge). So the cluster is reachable only through one
or two off-topic pages.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache

from kgcrawl.sandbox.hazards import GBK_HAZARDS, Hazard
from kgcrawl.sandbox.lexicon import (
    CHANNELS,
    DOMAIN_TOPICS,
    OFF_TOPICS,
    SITE_NOUNS,
    TOPICS,
    affinity,
    filler,
)
from kgcrawl.sandbox.rng import stream


class Kind(StrEnum):
    """What a host is; decides its channels, page layouts and link habits."""

    PORTAL = "portal"  # topical portal: most channels on one topic
    NEWS = "news"  # mixed portal: channels on many topics
    SITE = "site"  # small agency, company or personal site
    FORUM = "forum"  # boards and threads
    GOV = "gov"  # government or agency site: notices, tables, PDF attachments
    DIRECTORY = "directory"  # hub: lists other hosts by topic
    LINKFARM = "linkfarm"  # keyword-stuffed pages of links
    MIRROR = "mirror"  # copy of another host
    MOVED = "moved"  # old name of another host: every path redirects


class Style(StrEnum):
    """How a host spells its URLs."""

    CMS = "cms"  # /travel/202406/t20240612_100123.html
    SIMPLE = "simple"  # /travel/100123.html
    QUERY = "query"  # /show.php?id=100123
    FORUM = "forum"  # /thread-100123-1-1.html


LINKFARM_TOPIC = "spam"


@dataclass(frozen=True)
class Channel:
    """A section of a host: its topic and how many articles it holds."""

    slug: str
    topic: str
    name: str
    size: int


@dataclass(frozen=True)
class Alias:
    """A seed URL with an odd path (`/home?m_id=730`) standing for a page of a given role."""

    target: str  # path and query as written in the seed table
    role: str  # "home", "list" or "article"
    topic: str | None = None  # the channel topic a list or article alias belongs to


@dataclass(frozen=True)
class Host:
    """One host of the world."""

    name: str
    kind: Kind
    lang: str
    topic: str | None  # main topic; None for hosts that span all topics
    title: str
    scheme: str
    style: Style
    channels: tuple[Channel, ...]
    hazards: frozenset[Hazard] = frozenset()
    source: str | None = None  # mirror: the copied host; moved: the new host
    hidden: bool = False  # member of a tunnel cluster or a bridge
    aliases: tuple[Alias, ...] = ()
    base_id: int = 100000  # public article ids start here

    def channel_of(self, topic: str) -> int | None:
        """Index of the first channel on `topic`."""
        return next((i for i, ch in enumerate(self.channels) if ch.topic == topic), None)


@dataclass(frozen=True)
class Tunnel:
    """A hidden cluster of a domain and the off-topic pages that lead to it."""

    domain: str
    entry_host: str
    entry_channel: int
    entry_article: int
    bridge: str | None
    cluster: tuple[str, ...]


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

# The papers' seed tables (Tables A and B), as in pipelines/*.toml.
SEEDS: dict[str, tuple[str, ...]] = {
    "tourism": (
        "http://www.029wyly.com/",
        "http://travel.sina.com.cn/",
        "http://www.cntour.cn/",
        "https://www.china-zjj.net/",
        "http://www.ezjj.cn/",
        "https://www.qyer.com/",
        "http://lffuye.com/",
        "http://www.springtour.com/",
        "http://www.china1004.com/",
        "http://www.ctscd.com/",
        "http://www.dazijia.com/",
        "http://www.huangjinlvyou.com/",
        "http://www.ljta.gov.cn/",
        "https://www.mafengwo.cn/",
        "http://www.gdslyw.com/",
        "https://www.chimelong.com/",
        "http://www.gzcts03.cn/",
        "https://travel.ifeng.com/",
        "https://tour.jxcn.cn/",
        "http://www.visitbeijing.com.cn/",
        "https://travel.sohu.com/",
        "http://www.xjlymh.com/",
        "https://www.maigoo.com/maigoo/1343zxly_index.html",
        "http://www.chinazjy.com/",
        "http://www.guanguang.net.cn/",
        "http://www.landscape.cn/",
        "http://www.sxwhlyw.com/",
        "http://www.huangshan.com.cn/home?m_id=730",
        "http://wxpt.lyta.com.cn/h5/scenic/view/8a928c4841a657c10141ab7da62b0140",
        "http://www.sxjqtextile.com/",
    ),
    "rainstorm": (
        "http://data.cma.cn",
        "http://www.weather.com.cn",
        "http://news.weather.com.cn",
        "http://zhfy.xnl21.com",
        "http://www.tianqi.com",
        "http://www.zaihai.cn",
        "http://news.cctv.com/special",
        "https://15tianqi.cn",
        "http://www.jsmb.gov.cn",
        "http://www.nmc.cn",
        "http://www.ndrcc.org.cn",
        "http://www.cma.gov.cn",
        "http://www.qgshzh.cn",
        "http://www.whihr.com.cn",
        "http://klme.nuist.edu.cn",
        "http://www.weather.com.cn/rain",
        "http://www.ninhm.ac.cn",
        "http://www.qixiangwang.cn/news",
        "https://baijiahao.baidu.com/s?id=1599783711923902434&wfr=spider&for=pc",
        "http://www.whihr.com.cn/news.do?method=showNewsList&netyId=17",
        "http://news.cctv.com/special/2016xq",
        "http://js.weather.com.cn",
        "https://www.mem.gov.cn/kp/zrzh/hlzh",
        "http://www.qxkp.net/zhfy/byhl",
        "http://www.jjeri6.com/baike/25506.html",
        "http://m.421688.com/news",
        "http://www.cma.gov.cn/2011xzt/kpbd/rainstorm/2018050901/201805/t20180509_468007.html",
        "http://www.lzjjdc.com/k/honglaozaihaidefangzhicuoshi",
        "http://www.cma.gov.cn/2011xzt/20120816/20130625/2013062504/201307.html",
        "http://www.csdata.org/p/618",
    ),
}


@dataclass(frozen=True)
class _SeedRole:
    kind: Kind
    topic: str | None
    title: str
    extra: tuple[str, ...] = ()
    hazards: tuple[Hazard, ...] = ()
    aliases: tuple[Alias, ...] = ()


_R = _SeedRole
_H = Hazard
# Roles of the seed hosts, after what the real sites are. Some tourism seeds are
# mixed or off-topic (a textile company, a landscape-design site), as in the paper.
_SEED_ROLES: dict[str, _SeedRole] = {
    "www.029wyly.com": _R(Kind.SITE, "tourism", "西安文苑旅游"),
    "travel.sina.com.cn": _R(Kind.PORTAL, "tourism", "新浪旅游", ("food", "entertainment")),
    "www.cntour.cn": _R(Kind.PORTAL, "tourism", "中国旅游网", hazards=(_H.GBK,)),
    "www.china-zjj.net": _R(Kind.PORTAL, "tourism", "张家界旅游网"),
    "www.ezjj.cn": _R(Kind.SITE, "tourism", "e游张家界", hazards=(_H.GBK_BARE,)),
    "www.qyer.com": _R(Kind.FORUM, "tourism", "穷游网", hazards=(_H.SESSION_ID,)),
    "lffuye.com": _R(Kind.SITE, "food", "福业美食", ("tourism",), (_H.MALFORMED,)),
    "www.springtour.com": _R(Kind.SITE, "tourism", "春秋旅游"),
    "www.china1004.com": _R(Kind.PORTAL, "tourism", "中国旅游资讯网", hazards=(_H.GBK_META,)),
    "www.ctscd.com": _R(Kind.SITE, "tourism", "成都中国旅行社", hazards=(_H.SLOW,)),
    "www.dazijia.com": _R(Kind.FORUM, "tourism", "大自驾", hazards=(_H.SESSION_ID,)),
    "www.huangjinlvyou.com": _R(Kind.SITE, "tourism", "黄金旅游", hazards=(_H.REDIRECT,)),
    "www.ljta.gov.cn": _R(Kind.GOV, "tourism", "丽江市文化和旅游局", hazards=(_H.SLOW,)),
    "www.mafengwo.cn": _R(Kind.FORUM, "tourism", "马蜂窝", hazards=(_H.ROBOTS, _H.CRAWL_DELAY)),
    "www.gdslyw.com": _R(Kind.PORTAL, "tourism", "广东省旅游网"),
    "www.chimelong.com": _R(Kind.SITE, "tourism", "长隆旅游度假区", ("entertainment",)),
    "www.gzcts03.cn": _R(Kind.SITE, "tourism", "广州中旅", hazards=(_H.SERVER_ERROR,)),
    "travel.ifeng.com": _R(Kind.PORTAL, "tourism", "凤凰旅游", ("food",)),
    "tour.jxcn.cn": _R(Kind.PORTAL, "tourism", "江西旅游", ("weather",)),
    "www.visitbeijing.com.cn": _R(Kind.GOV, "tourism", "北京旅游网", hazards=(_H.CALENDAR,)),
    "travel.sohu.com": _R(Kind.PORTAL, "tourism", "搜狐旅游", ("entertainment",), (_H.ROBOTS,)),
    "www.xjlymh.com": _R(Kind.PORTAL, "tourism", "新疆旅游门户", hazards=(_H.DEEP_PATH,)),
    "www.maigoo.com": _R(
        Kind.DIRECTORY,
        None,
        "买购网",
        aliases=(Alias("/maigoo/1343zxly_index.html", "list", "tourism"),),
    ),
    "www.chinazjy.com": _R(Kind.SITE, "tourism", "中国张家界", hazards=(_H.RESET,)),
    "www.guanguang.net.cn": _R(Kind.PORTAL, "tourism", "中国观光网"),
    "www.landscape.cn": _R(Kind.SITE, "industry", "景观中国", ("tourism",)),
    "www.sxwhlyw.com": _R(Kind.GOV, "tourism", "山西文化旅游网"),
    "www.huangshan.com.cn": _R(
        Kind.PORTAL, "tourism", "黄山旅游官方网", aliases=(Alias("/home?m_id=730", "home"),)
    ),
    "wxpt.lyta.com.cn": _R(
        Kind.SITE,
        "tourism",
        "旅游微平台",
        aliases=(Alias("/h5/scenic/view/8a928c4841a657c10141ab7da62b0140", "article", "tourism"),),
    ),
    "www.sxjqtextile.com": _R(Kind.SITE, "industry", "嘉祺纺织有限公司"),
    "data.cma.cn": _R(Kind.GOV, "weather", "中国气象数据网", ("rainstorm",), (_H.OVERSIZED,)),
    "www.weather.com.cn": _R(
        Kind.PORTAL,
        "weather",
        "中国天气网",
        ("rainstorm", "rainstorm"),
        (_H.ROBOTS,),
        (Alias("/rain", "list", "rainstorm"),),
    ),
    "news.weather.com.cn": _R(Kind.PORTAL, "rainstorm", "天气新闻", ("weather",)),
    "zhfy.xnl21.com": _R(Kind.SITE, "rainstorm", "灾害防御网"),
    "www.tianqi.com": _R(Kind.PORTAL, "weather", "天气网", ("rainstorm",), (_H.GBK,)),
    "www.zaihai.cn": _R(Kind.PORTAL, "rainstorm", "中国灾害网", hazards=(_H.SERVER_ERROR,)),
    "news.cctv.com": _R(
        Kind.NEWS,
        None,
        "央视新闻",
        ("rainstorm",),
        aliases=(
            Alias("/special", "list", "rainstorm"),
            Alias("/special/2016xq", "article", "rainstorm"),
        ),
    ),
    "15tianqi.cn": _R(Kind.SITE, "weather", "15天天气预报"),
    "www.jsmb.gov.cn": _R(Kind.GOV, "rainstorm", "江苏省气象局", ("weather",), (_H.SLOW,)),
    "www.nmc.cn": _R(Kind.GOV, "weather", "中央气象台", ("rainstorm",), (_H.CALENDAR,)),
    "www.ndrcc.org.cn": _R(Kind.GOV, "rainstorm", "国家减灾网"),
    "www.cma.gov.cn": _R(
        Kind.GOV,
        "weather",
        "中国气象局",
        ("rainstorm",),
        aliases=(
            Alias(
                "/2011xzt/kpbd/rainstorm/2018050901/201805/t20180509_468007.html",
                "article",
                "rainstorm",
            ),
            Alias("/2011xzt/20120816/20130625/2013062504/201307.html", "article", "rainstorm"),
        ),
    ),
    "www.qgshzh.cn": _R(Kind.SITE, "rainstorm", "全国山洪灾害防治", hazards=(_H.RESET,)),
    "www.whihr.com.cn": _R(
        Kind.GOV,
        "rainstorm",
        "武汉暴雨研究所",
        aliases=(Alias("/news.do?method=showNewsList&netyId=17", "list", "rainstorm"),),
    ),
    "klme.nuist.edu.cn": _R(Kind.SITE, "education", "气象灾害重点实验室", ("weather", "rainstorm")),
    "www.ninhm.ac.cn": _R(Kind.SITE, "rainstorm", "水文气象研究所"),
    "www.qixiangwang.cn": _R(
        Kind.PORTAL,
        "weather",
        "气象网",
        ("rainstorm",),
        aliases=(Alias("/news", "list", "rainstorm"),),
    ),
    "baijiahao.baidu.com": _R(
        Kind.NEWS,
        None,
        "百家号",
        ("rainstorm",),
        aliases=(Alias("/s?id=1599783711923902434&wfr=spider&for=pc", "article", "rainstorm"),),
    ),
    "js.weather.com.cn": _R(Kind.PORTAL, "weather", "江苏天气", ("rainstorm",)),
    "www.mem.gov.cn": _R(
        Kind.GOV,
        "rainstorm",
        "应急管理部",
        aliases=(Alias("/kp/zrzh/hlzh", "list", "rainstorm"),),
    ),
    "www.qxkp.net": _R(
        Kind.SITE,
        "weather",
        "气象科普网",
        ("rainstorm",),
        aliases=(Alias("/zhfy/byhl", "list", "rainstorm"),),
    ),
    "www.jjeri6.com": _R(
        Kind.NEWS,
        None,
        "百科知识网",
        ("rainstorm",),
        (_H.MALFORMED,),
        (Alias("/baike/25506.html", "article", "rainstorm"),),
    ),
    "m.421688.com": _R(
        Kind.NEWS,
        None,
        "421688资讯",
        ("rainstorm",),
        aliases=(Alias("/news", "list", "rainstorm"),),
    ),
    "www.lzjjdc.com": _R(
        Kind.NEWS,
        None,
        "知识问答网",
        ("rainstorm",),
        aliases=(Alias("/k/honglaozaihaidefangzhicuoshi", "article", "rainstorm"),),
    ),
    "www.csdata.org": _R(
        Kind.SITE,
        "technology",
        "中国科学数据",
        ("rainstorm",),
        aliases=(Alias("/p/618", "article", "rainstorm"),),
    ),
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
_GBK_RATE = 0.15  # of Chinese generated hosts, split over the three declarations
_EN_RATE = 0.25
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


def seed_hosts() -> dict[str, str]:
    """Every seed host → the scheme its seed URL uses."""
    out: dict[str, str] = {}
    for urls in SEEDS.values():
        for url in urls:
            scheme, rest = url.split("://", 1)
            out.setdefault(rest.split("/", 1)[0].split("?", 1)[0], scheme)
    return out


def _weighted(rng: random.Random, weights: dict) -> object:
    keys = list(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


def companion(rng: random.Random, topic: str, exclude: frozenset[str] = frozenset()) -> str:
    """A topic drawn by its affinity with `topic` (lexicon.AFFINITY), never `topic` itself."""
    topics, cum_weights = _companions(topic, exclude)
    return rng.choices(topics, cum_weights=cum_weights)[0]


@lru_cache(maxsize=4096)
def _companions(topic: str, exclude: frozenset[str]) -> tuple[tuple[str, ...], tuple[float, ...]]:
    topics = tuple(t for t in TOPICS if t != topic and t not in exclude)
    return topics, tuple(itertools.accumulate(affinity(topic, t) for t in topics))


def _channels(
    rng: random.Random,
    kind: Kind,
    topic: str | None,
    extra: tuple[str, ...],
    lang: str,
    scale: float,
) -> tuple[Channel, ...]:
    """Channels of a host: main-topic channels, the given extras, sometimes a stray one."""
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


def build_catalog(seed: int, size: str) -> Catalog:
    """The world's hosts: the seed hosts with their roles, then generated ones."""
    profile = SIZES[size]
    rng = stream(seed, "catalog", size)
    catalog = Catalog()
    hosts = catalog.hosts
    base = 100000

    def add(host: Host) -> None:
        hosts[host.name] = host

    for name, scheme in seed_hosts().items():
        role = _SEED_ROLES[name]
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
                    rng, role.kind, role.topic, role.extra, "zh", profile.article_scale
                ),
                hazards=frozenset(role.hazards),
                aliases=role.aliases,
                base_id=base + rng.randrange(0, 800000, 1000),
            )
        )

    _add_tunnels(rng, catalog, profile)
    generated = profile.hosts - len(hosts)
    # One host of each whole-host hazard and of the rarer kinds, so every world has them.
    forced = [(Kind.SITE, {Hazard.DOWN}), (Kind.SITE, {Hazard.ROBOTS_ERROR}), (Kind.MIRROR, set())]
    forced += [(Kind.MIRROR, {Hazard.NEAR_MIRROR}), (Kind.MOVED, set()), (Kind.LINKFARM, None)]
    forced += [(Kind.LINKFARM, None), (Kind.SITE, {Hazard.CRAWL_DELAY})]
    for i in range(max(generated, len(forced))):
        kind, hazards = forced[i] if i < len(forced) else (_weighted(rng, _KIND_WEIGHTS), None)
        add(_generated_host(rng, kind, hazards, hosts, profile))
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
    profile: SizeProfile,
) -> Host:
    lang = "en" if rng.random() < _EN_RATE else "zh"
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
        else _weighted(rng, _TOPIC_WEIGHTS)
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
        channels=_channels(rng, kind, topic, (), lang, profile.article_scale),
        hazards=found,
        base_id=base_id,
    )


def _add_tunnels(rng: random.Random, catalog: Catalog, profile: SizeProfile) -> None:
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
        for t in range(profile.tunnels):
            entry_host, entry_channel = entries[t % len(entries)]
            entry_article = sum(
                1
                for x in catalog.tunnels
                if (x.entry_host, x.entry_channel) == entries[t % len(entries)]
            )
            cluster = []
            for _ in range(rng.randint(2, 3)):
                kind = rng.choice((Kind.SITE, Kind.PORTAL))
                lang = "zh" if rng.random() > _EN_RATE else "en"
                host = Host(
                    name=_name(rng, kind, domain, lang, set(hosts)),
                    kind=kind,
                    lang=lang,
                    topic=domain,
                    title=_title(rng, domain, lang),
                    scheme="http",
                    style=_style(rng, kind, lang),
                    channels=_channels(rng, kind, domain, (), lang, profile.article_scale),
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
                        Channel(slug, theme, zh, max(3, round(12 * profile.article_scale)))
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
