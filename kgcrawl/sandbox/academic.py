"""The page builder of an academic web (the sparse profile): which links each page has.

Pages look like a 1997 university web: a bare header linking the university's
home page (the hub every page points to) and the department's, lists and
sentences with links, and many links that lead nowhere — old course offerings,
home directories of people who left, hosts that no longer exist: about 70 % of
the link occurrences on a page are dead (404 or an unknown host).

Anchors rarely name a topic: a course is linked by its code ("GEOG 341"), a
research group by its acronym, a person by name, a page by its kind
("Syllabus", "Lecture 3") or by "here" and "more"; only now and then by its
full title. The topic shows in the URL (`/courses/geog341-tourism-geography/`)
and in the sentence or list entry the link sits in, which describes the target
with its topic's words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgcrawl.sandbox.campus import acronym
from kgcrawl.sandbox.hosts import Channel, Host, Kind
from kgcrawl.sandbox.lexicon import NOISY_ANCHORS, vocabulary
from kgcrawl.sandbox.render import Link, Plan, Section
from kgcrawl.sandbox.rng import digest, stream
from kgcrawl.sandbox.routes import PageType, Route, academic_leaf, academic_section, path_for

if TYPE_CHECKING:
    from kgcrawl.sandbox.world import Resolved, World

DEAD_PER_LIVE = (1.7, 2.9)  # dead links added per live one: ≈ 70 % of links are dead
FULL_TITLE = 0.12  # anchors that spell out the target's title (its topic words too)
NOISY = 0.12
_OLD_HOSTS = ("cs", "geog", "www", "students", "faculty", "www2", "lib")
_OLD_STEMS = ("midland", "coastal", "eastern", "central", "tri-state", "western", "southern")
_SENTENCES = (
    "Notes on {words} are {}.",
    "For {words}, see {}.",
    "{} covers {words}.",
    "Students interested in {words} should read {} first.",
    "Our work on {words} is described {}.",
)


class AcademicBuilder:
    """Decides the links and sections of one page of an academic web."""

    def __init__(self, world: World, r: Resolved):
        assert r.content is not None and r.route is not None
        self.world = world
        self.host: Host = r.content
        self.route = r.route
        self.path = r.path
        self.rng = stream(world.seed, self.host.name, r.path, "links")
        self.head = world.head(self.host.name, r.route)
        self.university = world.hosts[self.host.source or self.host.name]

    # ----- links ------------------------------------------------------------------------------

    def home(self, host: Host) -> str:
        return f"{host.scheme}://{host.name}/"

    def words(self, topic: str, n: int = 2) -> str:
        """A few words of `topic`, for the sentence or list entry around a link."""
        vocab = vocabulary(topic, "en", self.world.profile.register)
        picked = self.rng.choices(vocab.words, cum_weights=vocab.cum_weights, k=n)
        return " and ".join(dict.fromkeys(picked))

    def anchor(self, href: str, short: str, full: str) -> Link:
        """Mostly the short name (a code, an acronym, a page kind); sometimes the full title or
        a noisy word."""
        roll = self.rng.random()
        if roll < NOISY:
            return Link(href, self.rng.choice(NOISY_ANCHORS["en"]))
        return Link(href, full if roll < NOISY + FULL_TITLE else short)

    def channel_link(self, host: Host, i: int) -> Link:
        """A link to a course, research group or home directory, by its code, acronym or name."""
        channel = host.channels[i]
        href = f"{host.scheme}://{host.name}{path_for(host, Route(PageType.LIST, i, 0))}"
        return self.anchor(href, _short(channel), channel.name)

    def page_link(self, i: int, k: int) -> Link:
        channel = self.host.channels[i]
        label = _leaf_title(academic_leaf(channel.slug, k))
        href = path_for(self.host, Route(PageType.ARTICLE, i, k))
        return self.anchor(href, label, f"{channel.name} - {label}")

    def described(self, links: list[Link], topics: list[str]) -> Section:
        """Links each set in a sentence that names its target's topic."""
        sentences = [self.rng.choice(_SENTENCES).replace("{words}", self.words(t)) for t in topics]
        return Section("prose", links=links, notes=sentences)

    def dead_link(self) -> Link:
        """A link that leads nowhere: an old offering, a departed user, a vanished host."""
        rng, host = self.rng, self.host
        roll = rng.random()
        if roll < 0.4 and host.channels:
            channel = rng.choice(host.channels)
            href = f"/{channel.slug.rstrip('/')}-{rng.randint(1992, 1996)}/"
            return self.anchor(href, _short(channel), f"{channel.name} ({href[-6:-2]})")
        user = f"~{rng.choice(('jdoe', 'mwong', 'pkumar', 'slee', 'abrown'))}{rng.randint(1, 99)}"
        if roll < 0.6:
            return Link(f"/{user}/", rng.choice(("home page", "here", user)))
        name = f"{rng.choice(_OLD_HOSTS)}.{rng.choice(_OLD_STEMS)}{rng.randint(1, 99)}.edu"
        path = rng.choice((f"/{user}/", "/research/", "/courses/", "/pub/papers.html"))
        return Link(f"http://{name}{path}", rng.choice(("link", "here", "more", name)))

    # ----- pages ------------------------------------------------------------------------------

    def build(self) -> Plan:
        host, route = self.host, self.route
        plan = Plan(
            lang="en",
            title=self.head.title,
            mixture=self.head.mixture,
            site=host.title,
            home=self.home(host),
            text_key=digest(self.world.seed, host.name, self.path, "text"),
            html5=False,
            register=self.world.profile.register,
        )
        plan.nav = [Link(self.home(self.university), self.university.title)]
        if host is not self.university:
            plan.nav.append(Link(self.home(host), host.title))
        plan.footer = [Link("/about.html", "About"), Link("/contact.html", "Contact")]
        t = route.type
        if t is PageType.HOME and host.kind is Kind.UNIVERSITY:
            self.university_home(plan)
        elif t is PageType.HOME:
            self.department_home(plan)
        elif t is PageType.LIST:
            self.channel_index(plan)
        elif t is PageType.ARTICLE:
            self.channel_page(plan)
        else:
            plan.body = [Section("text", count=self.rng.randint(1, 3))]
        live = len(plan.links())
        dead = [self.dead_link() for _ in range(round(live * self.rng.uniform(*DEAD_PER_LIVE)))]
        half = len(dead) // 2
        plan.body.append(Section("links", heading="Links", links=dead[:half]))
        topics = [self.head.mixture[0][0]] * (len(dead) - half)
        plan.body.append(self.described(dead[half:], topics))
        return plan

    def university_home(self, plan: Plan) -> None:
        world, host = self.world, self.host
        departments = [world.hosts[n] for n in world.index.members.get(host.name, ())]
        notes = [f"{d.title}: {self.words(_main(d), 3)}" for d in departments]
        links = [Link(self.home(d), d.title.removeprefix("Department of ")) for d in departments]
        peers = [world.hosts[n] for n in world.index.universities if n != host.name]
        plan.body = [
            Section("text", count=2),
            Section("listing", heading="Academic departments", links=links, notes=notes),
            Section("links", heading="News", links=self.news_links()),
            Section("links", heading="Other universities", links=[
                Link(self.home(p), p.title) for p in peers]),
        ]  # fmt: skip

    def department_home(self, plan: Plan) -> None:
        world, host, rng = self.world, self.host, self.rng
        sections = {"courses": "Courses", "research": "Research", "people": "People"}
        plan.body = [Section("text", count=rng.randint(1, 2))]
        for section, heading in sections.items():
            indexes = [
                i for i, ch in enumerate(host.channels) if academic_section(ch.slug) == section
            ]
            if not indexes:
                continue
            links = [self.channel_link(host, i) for i in indexes]
            notes = [_describe(host.channels[i], self.words(host.channels[i].topic, 3))
                     for i in indexes]  # fmt: skip
            plan.body.append(Section("listing", heading=heading, links=links, notes=notes))
        plan.body.append(Section("links", heading="News", links=self.news_links()))
        code = host.name.split(".", 1)[0]
        peers = [n for u in world.index.universities for n in world.index.members[u]
                 if n.startswith(f"{code}.") and n != host.name]  # fmt: skip
        related = [self.hosts_link(n) for n in rng.sample(peers, min(3, len(peers)))]
        if related:
            plan.side.append(Section("links", heading="Elsewhere", links=related))

    def channel_index(self, plan: Plan) -> None:
        host, route = self.host, self.route
        channel = host.channels[route.channel]
        plan.title = f"{channel.name} - {host.title}"
        pages = [self.page_link(route.channel, k) for k in range(channel.size)]
        plan.body = [
            Section("text", count=self.rng.randint(1, 2)),
            self.described(pages, [channel.topic] * len(pages)),
        ]
        plan.side.append(Section("links", links=self.related(channel.topic)))

    def channel_page(self, plan: Plan) -> None:
        host, route, rng = self.host, self.route, self.rng
        channel = host.channels[route.channel]
        plan.title = f"{channel.name} - {_leaf_title(academic_leaf(channel.slug, route.number))}"
        index = Link(path_for(host, Route(PageType.LIST, route.channel, 0)), _short(channel))
        plan.crumbs = [Link(self.home(host), host.title), index]
        nearby = [k for k in (route.number - 1, route.number + 1) if 0 <= k < channel.size]
        others = rng.sample(range(channel.size), min(2, channel.size))
        siblings = [self.page_link(route.channel, k) for k in dict.fromkeys(nearby + others)]
        topic = self.head.mixture[0][0]
        plan.body = [
            Section("text", count=rng.randint(2, 4)),
            self.described(siblings, [topic] * len(siblings)),
        ]
        plan.side.append(Section("links", links=self.related(topic)))

    def related(self, topic: str) -> list[Link]:
        """One to three courses or groups on `topic` here or at other universities."""
        world, rng = self.world, self.rng
        pool = world.index.channels.get(topic, ())
        picks = [pool[rng.randrange(len(pool))] for _ in range(rng.randint(1, 3))] if pool else []
        return [self.channel_link(world.hosts[name], i) for name, i in picks]

    def news_links(self) -> list[Link]:
        host = self.host
        i = next(i for i, ch in enumerate(host.channels) if ch.slug == "news")
        latest = [self.page_link(i, k) for k in range(min(3, host.channels[i].size))]
        return [*latest, Link(path_for(host, Route(PageType.LIST, i, 0)), "more")]

    def hosts_link(self, name: str) -> Link:
        other = self.world.hosts[name]
        return Link(self.home(other), self.world.hosts[other.source or name].title)


def _short(channel: Channel) -> str:
    """How links name a channel: a course code, a group's acronym, a person's name."""
    section = academic_section(channel.slug)
    if section == "courses":
        return channel.name.split(":", 1)[0]
    if section == "research":
        return acronym(channel.name)
    return channel.name


def _describe(channel: Channel, words: str) -> str:
    if academic_section(channel.slug) == "people":
        return f"research interests: {words}"
    return f"{channel.name.split(': ', 1)[-1]} ({words})"


def _leaf_title(leaf: str) -> str:
    """syllabus → Syllabus, lecture03 → Lecture 3."""
    stem = leaf.rstrip("0123456789")
    number = leaf[len(stem) :]
    return stem.title() + (f" {int(number)}" if number else "")


def _main(host: Host) -> str:
    return host.topic or "education"
