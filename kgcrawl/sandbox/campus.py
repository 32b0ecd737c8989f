"""The hosts of an academic web (the sparse profile): universities and their departments.

Like a university web crawled in 1997: each university has a home page that
every page of its departments links back to (the few hubs, with very high
in-degree) and that lists its departments and its peer universities. A
department host holds courses (`/courses/geog341-tourism-geography/`), research
groups (`/research/flood-risk-lab/`), home directories of its people
(`/~jsmith/`) and news. The seed hosts of the papers' tables exist as
departments of subjects far from both domains, so relevant pages lie 2–5 links
from the seeds. Per domain, `DOMAIN_HOSTS` departments of subjects that touch
it give about an eighth of their courses and groups to it; nowhere else is a
channel on a domain, so relevant pages are rare and sit on a few hosts.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

from kgcrawl.sandbox.catalog import Catalog
from kgcrawl.sandbox.hosts import Alias, Channel, Host, Kind, Style
from kgcrawl.sandbox.lexicon import DOMAIN_TOPICS, vocabulary
from kgcrawl.sandbox.rng import stream
from kgcrawl.sandbox.seeds import SEED_ROLES, seed_hosts

UNIVERSITIES = {"small": 4, "default": 10, "large": 24}
DOMAIN_HOSTS = 5  # departments per domain that teach and research it
DOMAIN_CHANNELS = 0.22  # their share of channels on the domain
# Subject code → (department name, its main topic, the domains it may take up).
SUBJECTS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "GEOG": ("Geography", "weather", ("tourism", "rainstorm")),
    "CEE": ("Civil and Environmental Engineering", "industry", ("rainstorm",)),
    "ATMS": ("Atmospheric Sciences", "weather", ("rainstorm",)),
    "HRM": ("Hotel and Restaurant Management", "food", ("tourism",)),
    "ECON": ("Economics", "finance", ("tourism",)),
    "REC": ("Recreation and Leisure Studies", "sports", ("tourism",)),
    "CS": ("Computer Science", "technology", ()),
    "KIN": ("Kinesiology", "sports", ()),
    "FILM": ("Film and Media Studies", "entertainment", ()),
    "PH": ("Public Health", "health", ()),
    "EDUC": ("Education", "education", ()),
    "FSN": ("Food Science and Nutrition", "food", ()),
    "ME": ("Mechanical Engineering", "industry", ()),
    "FIN": ("Finance", "finance", ()),
}
SEED_SUBJECTS = ("CS", "KIN", "FILM", "PH", "EDUC", "FSN", "ME", "FIN")
_PLACES = ("north", "lake", "river", "west", "pine", "stone", "bay", "oak", "hill",
           "east", "maple", "cedar", "granite", "harbor")  # fmt: skip
# More names for a large campus: drawn from only when the size needs more than _PLACES, so
# the small and default worlds keep the universities they were measured on.
_MORE_PLACES = ("south", "valley", "summit", "meadow", "prairie", "willow", "ridge", "birch",
                "canyon", "forest", "delta", "aspen")  # fmt: skip
_SURNAMES = ("smith", "chen", "garcia", "miller", "wang", "jones", "kim", "brown", "lee",
             "davis", "patel", "wilson", "li", "moore")  # fmt: skip
_DISCIPLINE = ("Geography", "Management", "Analysis", "Planning", "Systems", "Studies",
               "Modeling", "Seminar")  # fmt: skip
_GROUP = ("Lab", "Group", "Center", "Initiative")


def slugify(text: str) -> str:
    """Lower-case words joined by hyphens: "Flood Risk Lab" → flood-risk-lab."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def acronym(name: str) -> str:
    """What a research group is called in links: "Flood Risk Lab" → FRL."""
    return "".join(w[0] for w in name.split() if w[0].isalpha()).upper()


def build_campus(seed: int, size: str) -> Catalog:
    """Universities, their departments (seed hosts among them) and which teach the domains."""
    rng = stream(seed, "campus", size)
    catalog = Catalog()
    hosts = catalog.hosts
    count = UNIVERSITIES[size]
    stems = rng.sample(_PLACES if count <= len(_PLACES) else _PLACES + _MORE_PLACES, count)
    for stem in stems:
        name = f"www.{stem}.edu"
        title = f"{stem.title()} {rng.choice(('University', 'State University', 'College'))}"
        news = (Channel("news", "education", "News", rng.randint(10, 30)),)
        hosts[name] = Host(name, Kind.UNIVERSITY, "en", "education", title, "http",
                           Style.ACADEMIC, news)  # fmt: skip
    units = [
        (f"{code.lower()}.{stem}.edu", code, f"www.{stem}.edu")
        for stem in stems
        for code in rng.sample(list(SUBJECTS), rng.randint(4, 7))
    ]
    teaching: dict[str, list[str]] = {}
    for d in DOMAIN_TOPICS:
        candidates = [name for name, code, _ in units if d in SUBJECTS[code][2]]
        for name in rng.sample(candidates, min(DOMAIN_HOSTS, len(candidates))):
            teaching.setdefault(name, []).append(d)
    for name, code, university in units:
        domains = tuple(teaching.get(name, ()))
        hosts[name] = _department(rng, name, code, university, domains, "http")
    universities = [f"www.{stem}.edu" for stem in stems]
    for name, scheme in seed_hosts().items():
        code = rng.choice(SEED_SUBJECTS)
        department = _department(rng, name, code, rng.choice(universities), (), scheme, small=True)
        aliases = tuple(Alias(a.target, "home") for a in SEED_ROLES[name].aliases)
        hosts[name] = replace(department, aliases=aliases)
    return catalog


def _department(
    rng: random.Random,
    name: str,
    code: str,
    university: str,
    domains: tuple[str, ...],
    scheme: str,
    small: bool = False,
) -> Host:
    """A department host; the `domains` it teaches and researches get DOMAIN_CHANNELS of its
    (then many) channels; a `small` one is a seed: a few channels only."""
    title, topic, _ = SUBJECTS[code]
    count = rng.randint(60, 80) if domains else rng.randint(3, 6) if small else rng.randint(6, 12)
    others = [t for _, t, _ in SUBJECTS.values()]
    topics = [topic if rng.random() < 0.8 else rng.choice(others) for _ in range(count)]
    for d in domains:
        for i in rng.sample(range(count), round(count * DOMAIN_CHANNELS)):
            topics[i] = d
    channels = _channels(rng, topics, code)
    # The university a department belongs to is the `source` its pages link home to.
    return Host(name, Kind.DEPARTMENT, "en", topic, f"Department of {title}", scheme,
                Style.ACADEMIC, channels, source=university)  # fmt: skip


def _channels(rng: random.Random, topics: list[str], code: str) -> tuple[Channel, ...]:
    """Courses, research groups and home directories on the given topics, then a news channel."""
    out: list[Channel] = []
    used: set[str] = set()
    for t in topics:
        words = [w for w in vocabulary(t, "en").words[:40] if " " not in w]
        word = rng.choice(words).title()
        roll = rng.random()
        if roll < 0.55:
            number = rng.randint(100, 599)
            name = f"{code} {number}: {word} {rng.choice(_DISCIPLINE)}"
            slug = f"courses/{code.lower()}{number}-{slugify(name.split(': ', 1)[1])}"
            size = rng.randint(8, 18)
        elif roll < 0.8:
            name = f"{word} {rng.choice(_DISCIPLINE[:4])} {rng.choice(_GROUP)}"
            slug, size = f"research/{slugify(name)}", rng.randint(7, 14)
        else:
            person = rng.choice(_SURNAMES)
            name = f"Prof. {rng.choice('ABCDEFGHJKLMRST')}. {person.title()}"
            slug, size = f"~{person}{rng.randint(1, 99)}", rng.randint(5, 10)
        if slug not in used:
            used.add(slug)
            out.append(Channel(slug, t, name, size))
    out.append(Channel("news", topics[0], "News", rng.randint(10, 30)))
    return tuple(out)
