"""Hub and spam pages of a portal web: directories that list hosts by topic, link farms.

Directories give the web its hubs (pages with links to dozens of hosts); link
farms stuff their titles with every topic's top words and link anywhere, so a
crawler that trusts keywords or out-degree is led astray.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgcrawl.sandbox.heads import spread, title
from kgcrawl.sandbox.lexicon import TOPICS, vocabulary
from kgcrawl.sandbox.render import Link, Plan, Section
from kgcrawl.sandbox.routes import PER_PAGE, PageType, Route

if TYPE_CHECKING:
    from kgcrawl.sandbox.pages import PageBuilder


def farm_link(b: PageBuilder) -> Link:
    """A link into a link farm (forum spam), anchored by a stuffed title."""
    world, rng = b.world, b.rng
    if not world.index.farms:
        return b.external(rng.choice(TOPICS))
    farm = world.hosts[rng.choice(world.index.farms)]
    url = world.url(farm.name, Route(PageType.ARTICLE, 0, rng.randrange(farm.channels[0].size)))
    return Link(url, title(rng, spread(rng), b.lang, b.register))


def farm(b: PageBuilder, plan: Plan) -> None:
    """A link-farm page: a keyword-stuffed title, a little text, many links."""
    world, rng, content = b.world, b.rng, b.content
    stuffing = []
    for topic in ("tourism", "rainstorm", "finance", "health"):
        vocab = vocabulary(topic, b.lang, b.register)
        stuffing += vocab.words[:3]
    plan.title = ("" if b.lang == "zh" else " ").join(stuffing) + " " + plan.title
    links = []
    for _ in range(rng.randint(40, 80)):
        links.append(b.external(rng.choice(TOPICS)))
    size = content.channels[0].size
    pages = [
        Link(
            b.route_href(Route(PageType.ARTICLE, 0, rng.randrange(size))),
            title(rng, spread(rng), b.lang, b.register),
        )
        for _ in range(5)
    ]
    plan.body = [
        Section("text", count=1),
        Section("links", links=links),
        Section("links", heading=b.words["more"], links=pages),
    ]
    if len(world.index.farms) > 1:
        plan.side.append(Section("links", links=[farm_link(b) for _ in range(3)]))


def directory_home(b: PageBuilder, plan: Plan) -> None:
    """A directory's home: the first hosts of each topic and a link to the full list."""
    world, words = b.world, b.words
    plan.body.append(Section("text", count=1))
    for i, channel in enumerate(b.content.channels):
        listed = world.index.listing[channel.topic][:8]
        links = [Link(f"{world.hosts[n].scheme}://{n}/", world.hosts[n].title) for n in listed]
        links.append(Link(b.route_href(Route(PageType.LIST, i, 0)), words["more"]))
        plan.body.append(Section("links", heading=channel.name, links=links))


def directory_list(b: PageBuilder, plan: Plan) -> None:
    """A page of a directory's list of hosts on one topic, each with a line of description."""
    world, route, rng = b.world, b.route, b.rng
    channel = b.content.channels[route.channel]
    listed = world.index.listing[channel.topic][
        route.number * PER_PAGE : (route.number + 1) * PER_PAGE
    ]
    links = [Link(f"{world.hosts[n].scheme}://{n}/", world.hosts[n].title) for n in listed]
    notes = []
    for n in listed:
        vocab = vocabulary(channel.topic, world.hosts[n].lang, b.register)
        notes.append(" ".join(rng.choices(vocab.words, cum_weights=vocab.cum_weights, k=3)))
    plan.crumbs = [
        Link(b.home_url(), b.words["home"]),
        Link(b.route_href(route), channel.name),
    ]
    plan.body = [
        Section("text", count=1),
        Section("listing", heading=channel.name, links=links, notes=notes),
    ]
    plan.body.append(Section("pager", links=b.pager(route)))
