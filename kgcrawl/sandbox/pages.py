"""The page builder of a portal web: which links and sections each page has.

Links and topical locality: nav, breadcrumbs and pagers stay on the host;
related articles come from the same channel (85 %); external links target the
page's main topic (70 %), its second topic (15 %) or any topic (15 %), as a deep
article (55 %), a channel page (20 %) or a home page; home pages carry friend
links by host topic. Anchors are the target's title, except noisy ones ("更多",
"阅读全文", "click here", 8 %) and image links with only `alt` (4 %). Hub and
spam pages are built in `hubs.py`, trap pages in `traps.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgcrawl.sandbox import hubs, traps
from kgcrawl.sandbox.catalog import PORTALS, REGISTRY
from kgcrawl.sandbox.hazards import CALENDAR_START, LONG_CHAIN, Hazard
from kgcrawl.sandbox.heads import title
from kgcrawl.sandbox.hosts import Host, Kind, Style
from kgcrawl.sandbox.labels import LABELS
from kgcrawl.sandbox.lexicon import NOISY_ANCHORS, TOPICS, vocabulary
from kgcrawl.sandbox.render import Link, Plan, Section
from kgcrawl.sandbox.rng import digest, stream
from kgcrawl.sandbox.routes import (
    PER_PAGE,
    PageType,
    Route,
    article_date,
    article_id,
    list_pages,
    path_for,
)
from kgcrawl.sandbox.seeds import SEED_ROLES

if TYPE_CHECKING:
    from kgcrawl.sandbox.world import Resolved, World


class PageBuilder:
    """Decides the links and sections of one page of a portal web."""

    def __init__(self, world: World, r: Resolved):
        assert r.host is not None and r.content is not None and r.route is not None
        self.world = world
        self.host = r.host
        self.content = r.content
        self.route = r.route
        self.path = r.path
        self.lang = r.content.lang
        self.words = LABELS[self.lang]
        self.register = world.profile.register
        # A printer copy draws the same choices as its article, so it is a near-duplicate.
        self.key = r.path
        if r.route.type is PageType.PRINT:
            self.key = path_for(r.content, Route(PageType.ARTICLE, r.route.channel, r.route.number))
        self.rng = stream(world.seed, r.content.name, self.key, "links")
        self.head = world.head(r.content.name, r.route)
        self.sid = None
        if Hazard.SESSION_ID in r.content.hazards:
            self.sid = f"{digest(world.seed, r.content.name, r.path, r.sid or '', 'sid'):016x}"

    # ----- links ----------------------------------------------------------------------------

    def internal(self, path: str) -> str:
        """A host-relative href, carrying this page's session id on session hosts."""
        if self.sid is None:
            return path
        if self.content.style in (Style.QUERY, Style.FORUM):
            return path + ("&" if "?" in path else "?") + f"sid={self.sid}"
        base, sep, query = path.partition("?")
        return f"{base};jsessionid={self.sid}{sep}{query}"

    def route_href(self, route: Route) -> str:
        return self.internal(path_for(self.content, route))

    def home_url(self) -> str:
        return f"{self.content.scheme}://{self.content.name}/"

    def article_link(self, host: Host, channel: int, k: int, absolute: bool = False) -> Link:
        """A link to an article, anchored by its title, sometimes noisily or by an image."""
        route = Route(PageType.ARTICLE, channel, k)
        title = self.world.head(host.name, route).title
        path = path_for(host, route)
        href = f"{host.scheme}://{host.name}{path}" if absolute else self.internal(path)
        return self.anchor(href, title)

    def anchor(self, href: str, title: str) -> Link:
        rng = self.rng
        roll = rng.random()
        if roll < 0.08:
            return Link(
                href,
                rng.choice(NOISY_ANCHORS[self.lang]),
                title=title if rng.random() < 0.5 else "",
            )
        if roll < 0.12:
            return Link(href, "", alt=title, image=rng.randrange(1000))
        return Link(href, title)

    def external(self, topic: str) -> Link:
        """A link to another host on `topic`; tunnel clusters keep their domain links inside."""
        world, rng = self.world, self.rng
        tunnel = world.index.clusters.get(self.content.name)
        if tunnel is not None and topic == tunnel.domain and rng.random() < 0.7:
            peers = [c for c in tunnel.cluster if c != self.content.name]
            target = world.hosts[rng.choice(peers)]
            channel = target.channel_of(topic)
            if channel is not None and rng.random() < 0.6:
                return self.article_link(
                    target, channel, rng.randrange(target.channels[channel].size), True
                )
            return Link(f"{target.scheme}://{target.name}/", target.title)
        pool = [p for p in world.index.channels[topic] if p[0] != self.content.name]
        if not pool:
            target = world.hosts[rng.choice(world.index.content)]
            return Link(f"{target.scheme}://{target.name}/", target.title)
        name, channel = rng.choice(pool)
        target = world.hosts[name]
        roll = rng.random()
        if roll < 0.55 and target.channels[channel].size:
            return self.article_link(
                target, channel, rng.randrange(target.channels[channel].size), True
            )
        if roll < 0.75:
            url = world.url(name, Route(PageType.LIST, channel, 0))
            return self.anchor(url, target.channels[channel].name)
        return self.anchor(f"{target.scheme}://{target.name}/", target.title)

    def link_topic(self) -> str:
        rng, mix = self.rng, self.head.mixture
        roll = rng.random()
        if roll < 0.7 or len(mix) < 2:
            return mix[0][0]
        if roll < 0.85:
            return mix[1][0]
        return rng.choice(TOPICS)

    def friend_links(self) -> list[Link]:
        """Friend links of a home page: hosts on the same topic, some random, a directory."""
        world, rng, content = self.world, self.rng, self.content
        topic = content.topic or rng.choice(TOPICS)
        names = []
        for _ in range(rng.randint(4, 10)):
            pool = world.index.by_topic[topic] if rng.random() < 0.7 else world.index.content
            names.append(rng.choice(pool or world.index.content))
        if world.index.directories and rng.random() < 0.3:
            names.append(rng.choice(world.index.directories))
        tunnel = world.index.bridges.get(content.name)
        if tunnel is not None:
            names.append(tunnel.cluster[0])
        tunnel = world.index.clusters.get(content.name)
        if tunnel is not None:
            names += [c for c in tunnel.cluster if c != content.name]
        links = []
        for name in dict.fromkeys(n for n in names if n != content.name):
            target = world.hosts[name]
            links.append(Link(f"{target.scheme}://{target.name}/", target.title))
        return links

    def nav(self) -> list[Link]:
        words, flags = self.words, self.content.hazards
        links = [Link(self.home_url(), words["home"])]
        for i, channel in enumerate(self.content.channels[:9]):
            links.append(Link(self.route_href(Route(PageType.LIST, i, 0)), channel.name))
        if Hazard.CALENDAR in flags:
            links.append(Link(self.internal(f"/calendar/{CALENDAR_START}.html"), words["calendar"]))
        if Hazard.DEEP_PATH in flags:
            links.append(Link(self.internal("/doc/"), words["doc"]))
        if Hazard.ROBOTS in flags:
            links.append(Link(self.internal("/member/0.html"), words["member"]))
        if Hazard.OVERSIZED in flags:
            links.append(Link(self.internal("/export/0.html"), words["export"]))
            links.append(Link(self.internal("/export/1.html"), words["export_full"]))
        if Hazard.SLOW in flags:
            links.append(Link(self.internal("/live/0.html"), words["live"]))
        return links

    def footer(self) -> list[Link]:
        words = self.words
        links = [
            Link(self.internal(f"/{name}.html"), words[name])
            for name in ("about", "contact", "sitemap")
        ]
        if Hazard.REDIRECT in self.content.hazards:
            links.append(Link(self.internal("/loop/0.html"), words["loop"]))
        if self.world.profile.registry:
            icp = f"ICP备{digest(self.world.seed, self.content.name, 'icp') % 10**8:08d}号"
            registry, reports = REGISTRY
            links += [
                Link(f"http://{registry}/", icp),
                Link(f"http://{reports}/", "违法和不良信息举报"),
            ]
        return links

    def topbar(self) -> list[Link]:
        """The national portals of a generated host's top bar (`portals` profiles)."""
        if not self.world.profile.portals or self.content.name in SEED_ROLES:
            return []
        return [Link(f"http://{name}/", text) for name, text in PORTALS.items()]

    # ----- pages ------------------------------------------------------------------------------

    def build(self) -> Plan:
        content = self.content
        plan = Plan(
            lang=self.lang,
            title=self.head.title,
            mixture=self.head.mixture,
            site=content.title,
            home=self.home_url(),
            text_key=digest(self.world.seed, content.name, self.key, "text"),
            html5=digest(self.world.seed, content.name, "html5") % 2 == 0,
            malformed=Hazard.MALFORMED in content.hazards,
            register=self.register,
        )
        t = self.route.type
        if t is PageType.PRINT:
            self.article(plan, Route(PageType.ARTICLE, self.route.channel, self.route.number))
            back = self.route_href(Route(PageType.ARTICLE, self.route.channel, self.route.number))
            plan.body.append(Section("links", links=[Link(back, self.words["back"])]))
            plan.printable = True
            return plan
        plan.topbar = self.topbar()
        plan.nav = self.nav()
        plan.footer = self.footer()
        if content.kind is Kind.LINKFARM and t in (PageType.HOME, PageType.LIST, PageType.ARTICLE):
            hubs.farm(self, plan)
        elif t is PageType.ARTICLE:
            self.article(plan, self.route)
        elif t is PageType.LIST:
            self.listing(plan)
        elif t is PageType.HOME:
            self.home(plan)
        elif t is PageType.CALENDAR:
            traps.calendar(self, plan)
        elif t is PageType.DEEP:
            traps.deep(self, plan)
        elif t is PageType.STATIC and self.route.text == "sitemap":
            plan.body = [
                Section(
                    "links", heading=self.words["sitemap"], links=plan.nav[1:] + plan.footer[:2]
                ),
            ]
        else:  # about, contact, member, live
            plan.body = [Section("text", count=self.rng.randint(2, 5))]
            if t is PageType.STATIC and self.route.text == "contact":
                plan.body.append(Section("table", count=3))
        return plan

    def home(self, plan: Plan) -> None:
        content, rng, words = self.content, self.rng, self.words
        if content.kind is Kind.DIRECTORY:
            hubs.directory_home(self, plan)
            return
        plan.body.append(Section("text", count=1))
        first = next((i for i, ch in enumerate(content.channels) if ch.size), None)
        if first is not None and rng.random() < 0.6:
            title = self.world.head(content.name, Route(PageType.ARTICLE, first, 0)).title
            href = self.route_href(Route(PageType.ARTICLE, first, 0))
            plan.body.append(
                Section("figure", links=[Link(href, "", alt=title, image=rng.randrange(1000))])
            )
        for i, channel in enumerate(content.channels[:8]):
            links = [self.article_link(content, i, k) for k in range(min(5, channel.size))]
            links.append(Link(self.route_href(Route(PageType.LIST, i, 0)), words["more"]))
            plan.body.append(Section("links", heading=channel.name, links=links))
        plan.side.append(Section("links", heading=words["friends"], links=self.friend_links()))

    def listing(self, plan: Plan) -> None:
        content, rng, words, route = self.content, self.rng, self.words, self.route
        if content.kind is Kind.DIRECTORY:
            hubs.directory_list(self, plan)
            return
        channel = content.channels[route.channel]
        plan.crumbs = [
            Link(self.home_url(), words["home"]),
            Link(self.route_href(route), channel.name),
        ]
        start = route.number * PER_PAGE
        ks = range(start, min(channel.size, start + PER_PAGE))
        links = [self.article_link(content, route.channel, k) for k in ks]
        dates = [f"{article_date(article_id(content, route.channel, k)):%Y-%m-%d}" for k in ks]
        plan.body.append(Section("text", count=1))
        plan.body.append(Section("listing", heading=channel.name, links=links, notes=dates))
        plan.body.append(Section("pager", links=self.pager(route)))
        others = [i for i, ch in enumerate(content.channels) if i != route.channel and ch.size]
        hot = []
        for _ in range(min(5, len(others) * 2)):
            i = rng.choice(others)
            hot.append(self.article_link(content, i, rng.randrange(content.channels[i].size)))
        if hot:
            plan.side.append(Section("links", heading=words["hot"], links=hot))
        plan.side.append(
            Section(
                "links",
                heading=words["links"],
                links=[self.external(channel.topic) for _ in range(2)],
            )
        )

    def pager(self, route: Route) -> list[Link]:
        words = self.words
        pages = list_pages(self.content, route.channel)
        links = []
        if route.number > 0:
            links.append(
                Link(
                    self.route_href(Route(PageType.LIST, route.channel, route.number - 1)),
                    words["prev_page"],
                )
            )
        for n in range(max(0, route.number - 2), min(pages, route.number + 3)):
            if n != route.number:
                links.append(
                    Link(self.route_href(Route(PageType.LIST, route.channel, n)), str(n + 1))
                )
        if route.number + 1 < pages:
            links.append(
                Link(
                    self.route_href(Route(PageType.LIST, route.channel, route.number + 1)),
                    words["next_page"],
                )
            )
        return links

    def article(self, plan: Plan, route: Route) -> None:
        world, content, rng, words = self.world, self.content, self.rng, self.words
        channel = content.channels[route.channel]
        aid = article_id(content, route.channel, route.number)
        plan.date = article_date(aid)
        plan.crumbs = [
            Link(self.home_url(), words["home"]),
            Link(self.route_href(Route(PageType.LIST, route.channel, 0)), channel.name),
        ]
        # Inline links: externals by topic, the tunnel's next hop, sometimes an image.
        inline = [self.external(self.link_topic()) for _ in range(rng.randint(1, 4))]
        tunnel = world.index.entries.get((content.name, route.channel, route.number))
        if tunnel is not None and route.alias is None:
            target = world.hosts[tunnel.bridge or tunnel.cluster[0]]
            inline.insert(0, Link(f"{target.scheme}://{target.name}/", target.title))
        if rng.random() < 0.1:
            inline.append(Link(self.internal(f"/images/{rng.randrange(1000)}.png"), words["image"]))
        if content.kind is Kind.FORUM:
            spam = [hubs.farm_link(self) for _ in range(rng.random() < 0.3)]
            plan.body.append(Section("posts", count=rng.randint(3, 15), links=inline + spam))
        else:
            sections = rng.randint(2, 4)
            for s in range(sections):
                part = inline[s::sections]
                heading = self.phrase_heading() if s else ""
                plan.body.append(
                    Section("text", heading=heading, count=rng.randint(2, 4), links=part)
                )
                if s == 0 and rng.random() < 0.5:
                    plan.body.append(Section("figure", count=1))
            table_p = 0.7 if content.kind is Kind.GOV else 0.3
            if rng.random() < table_p:
                plan.body.append(Section("table", count=rng.randint(3, 8)))
            if rng.random() < 0.3:
                heading = self.phrase_heading()
                plan.body.append(Section("events", heading=heading, count=rng.randint(3, 6)))
        pdf_p = 0.5 if content.kind is Kind.GOV else 0.05
        if rng.random() < pdf_p:
            name = f"{self.head.title}.pdf"
            plan.body.append(
                Section(
                    "links",
                    heading=words["attach"],
                    links=[Link(self.internal(f"/files/{aid % 100000}.pdf"), name)],
                )
            )
        pager = []
        if route.number > 0:
            prev = self.article_link(content, route.channel, route.number - 1)
            pager.append(Link(prev.href, words["prev"] + (prev.text or prev.alt)))
        if route.number + 1 < channel.size:
            nxt = self.article_link(content, route.channel, route.number + 1)
            pager.append(Link(nxt.href, words["next"] + (nxt.text or nxt.alt)))
        if Hazard.ROBOTS in content.hazards:
            pager.append(Link(self.internal(f"/print/{aid}.html"), words["print"]))
        plan.body.append(Section("pager", links=pager))
        plan.body.append(Section("links", heading=words["related"], links=self.related(route)))
        others = [i for i, ch in enumerate(content.channels) if ch.size]
        hot = [
            self.article_link(content, i, rng.randrange(content.channels[i].size))
            for i in rng.sample(others, min(3, len(others)))
        ]
        plan.side.append(Section("links", heading=words["hot"], links=hot))

    def related(self, route: Route) -> list[Link]:
        """Related articles: on the page's main topic (85 %), from channels on that topic; some
        through redirects; rarely a dead link."""
        world, content, rng = self.world, self.content, self.rng
        top = self.world.heads.article_topic(content.name, route)
        on_top = [i for i, ch in enumerate(content.channels) if ch.topic == top and ch.size]
        same, other = [], []
        for _ in range(12):
            if on_top and rng.random() < 0.7:
                channel = rng.choice(on_top)
            else:
                channel = (
                    route.channel if rng.random() < 0.7 else rng.randrange(len(content.channels))
                )
            size = content.channels[channel].size
            k = rng.randrange(size) if size else route.number
            if (channel, k) == (route.channel, route.number):
                continue
            topic = world.heads.article_topic(content.name, Route(PageType.ARTICLE, channel, k))
            (same if topic == top else other).append((channel, k))
        links = []
        for _ in range(rng.randint(4, 8)):
            pool = same if same and (rng.random() < 0.85 or not other) else other
            if pool:
                links.append(self.article_link(content, *pool.pop()))
        if Hazard.REDIRECT in content.hazards and links:
            hops = LONG_CHAIN if rng.random() < 1 / 8 else rng.randint(1, 3)
            first = links[0]
            target = first.href
            links[0] = Link(
                self.internal(f"/jump/{hops}{target}"),
                first.text,
                first.title,
                first.alt,
                first.image,
            )
        if rng.random() < 1 / 30:
            channel = content.channels[route.channel]
            dead = path_for(content, Route(PageType.ARTICLE, route.channel, channel.size + 3))
            text = title(rng, self.head.mixture, self.lang, self.register)
            links.append(Link(self.internal(dead), text))
        return links

    def phrase_heading(self) -> str:
        top = vocabulary(self.head.mixture[0][0], self.lang)
        words = self.rng.choices(top.words, cum_weights=top.cum_weights, k=2)
        return ("" if self.lang == "zh" else " ").join(dict.fromkeys(words))
