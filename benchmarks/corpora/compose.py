"""Write the English test corpora from hand-written facts (gardening.py, tourism_en.py).

Each document is a short article on one subject: a concept (its own facts, an
opening that names its broader kind most of the time, one or two general care
or travel sentences), a kind (its facts and a few of its members), or a
general theme (soil, money, ...). Every sentence was written for this project;
the script only chooses and orders them, from a fixed seed, so the corpus is
the same on every run. A few documents are written as 1990s HTML (`<HEADER>`,
upper-case tags, a comment closed by `>` alone, as Netscape read it) and a
few as Windows-1252 text, so the corpus also exercises the reader (SPEC
§3.1.1–2). The hand-written taxonomy (the parents in gardening.py /
tourism_en.py) goes to
`benchmarks/corpora/<folder name>.reference.json`, outside the corpus folder.

Run: python benchmarks/corpora/compose.py gardening corpus/gardening-en
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
from pathlib import Path

OPENINGS = [
    "{X} {are} among the most rewarding {p} there are, and a fine place to start.",
    "Of all the {p} I know, I have learned the most from {x}.",
    "If you have room for only a few {p}, make {x} one of them.",
    "People ask me about {x} more than about any other {s}.",
    "{X} {are} a kind of {s} that rewards a little attention.",
]
PLAIN_OPENINGS = [
    "Here is what experience has taught me about {x}.",
    "A few notes on {x}, written after a long season.",
    "{X} {look} simple, but there is more to {them} than you might think.",
]
TITLES = ["Notes on {x}", "{X} in brief", "Getting {x} right", "What I know about {x}", "{X}"]
KIND_OPENINGS = [
    "An introduction to {p}, with a few that I like.",
    "Everybody has their own favourite {p}; these are mine.",
    "Some general advice on {p} before we look at a few of them.",
    "What I tell friends who ask about {p}.",
    "A handful of {p}, and what each is like.",
]
THEME_TITLES = ["A word about {t}", "Notes on {t}", "{T} basics"]
CLOSINGS = [
    "Good luck, and let me know how you get on.",
    "That is all for now.",
    "Questions are welcome in the comments.",
    "",
]
HTML_TEMPLATE = """<HTML>
<HEADER><TITLE>{title}</TITLE></HEADER>
<BODY BGCOLOR="#FFFFFF">
<CENTER><H1>{title}</H1></CENTER>
<!-- page last touched by the webmaster >
<P><FONT FACE="Arial">{body}</FONT>
<HR>
<ADDRESS>Back to the <A HREF="/">home page</A></ADDRESS>
</BODY>
"""


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def care_lines(data, name: str) -> list[str]:
    """The general lines that suit a concept: those of its top kind if it has its own."""
    top = name
    while data.CONCEPTS[top][0] is not None:
        top = data.CONCEPTS[top][0]
    return getattr(data, "CARE_BY_KIND", {}).get(top, data.CARE)


def concept_doc(rng: random.Random, data, name: str) -> tuple[str, str]:
    parent, plural, facts = data.CONCEPTS[name]
    mass = plural == name  # basil, rosemary: one verb form for the whole text
    fields = {"x": plural, "X": cap(plural), "are": "is" if mass else "are"}
    fields |= {"look": "looks" if mass else "look", "them": "it" if mass else "them"}
    if parent is not None and rng.random() < 0.9:
        parent_plural = data.CONCEPTS[parent][1]
        opening = rng.choice(OPENINGS).format(**fields, p=parent_plural, s=parent)
    else:
        opening = rng.choice(PLAIN_OPENINGS).format(**fields)
    chosen = rng.sample(facts, k=min(len(facts), rng.randint(3, 4)))
    care = rng.sample(care_lines(data, name), k=rng.randint(1, 2))
    body = [opening, *chosen, *(c.format(x=plural) for c in care)]
    if rng.random() < 0.3:
        theme = rng.choice(sorted(data.GENERAL))
        body.append(rng.choice(data.GENERAL[theme]))
    body.append(rng.choice(CLOSINGS))
    return rng.choice(TITLES).format(**fields), " ".join(s for s in body if s)


def kind_doc(rng: random.Random, data, name: str) -> tuple[str, str]:
    _, plural, facts = data.CONCEPTS[name]
    members = [c for c, (p, _, _) in data.CONCEPTS.items() if p == name]
    body = [rng.choice(KIND_OPENINGS).format(p=plural)]
    body += rng.sample(facts, k=min(len(facts), 2))
    for member in rng.sample(members, k=min(len(members), rng.randint(2, 3))):
        body.append(rng.choice(data.CONCEPTS[member][2]))
    body.append(rng.choice(care_lines(data, name)).format(x=plural))
    body.append(rng.choice(CLOSINGS))
    return rng.choice(TITLES).format(x=plural, X=cap(plural)), " ".join(s for s in body if s)


def theme_doc(rng: random.Random, data, theme: str) -> tuple[str, str]:
    lines = data.GENERAL[theme]
    body = rng.sample(lines, k=min(len(lines), rng.randint(3, 4)))
    kinds = [c for c, (p, _, _) in data.CONCEPTS.items() if p is None]
    body.append(rng.choice(data.CARE).format(x=data.CONCEPTS[rng.choice(kinds)][1]))
    title = rng.choice(THEME_TITLES).format(t=theme, T=cap(theme))
    return title, " ".join(body)


def documents(data, seed: int) -> list[tuple[str, str, str]]:
    """(file stem, title, body) for every document, in a fixed order."""
    rng = random.Random(seed)
    docs = []
    for name, (parent, _, _) in data.CONCEPTS.items():
        has_members = any(p == name for p, _, _ in data.CONCEPTS.values())
        stem = name.replace(" ", "-")
        if parent is None:
            docs += [(f"{stem}-{i}", *kind_doc(rng, data, name)) for i in range(1, 4)]
        else:
            docs += [(f"{stem}-{i}", *concept_doc(rng, data, name)) for i in range(1, 4)]
            if has_members:
                docs.append((f"{stem}-kinds", *kind_doc(rng, data, name)))
    for theme in data.GENERAL:
        docs += [(f"{theme}-{i}", *theme_doc(rng, data, theme)) for i in range(1, 3)]
    return docs


def write(module: str, folder: Path, seed: int = 18) -> int:
    """Write the corpus and its reference taxonomy; returns the number of documents."""
    data = importlib.import_module(f"benchmarks.corpora.{module}")
    folder.mkdir(parents=True, exist_ok=True)
    docs = documents(data, seed)
    for n, (stem, title, body) in enumerate(docs):
        if n % 25 == 7:  # 1990s HTML
            (folder / f"{stem}.html").write_text(
                HTML_TEMPLATE.format(title=title, body=body), encoding="ascii", errors="replace"
            )
        elif n % 25 == 19:  # a Windows text file: curly quotes and a dash in cp1252
            text = f"{title} – “{data.TOPIC}”\n\n{body}\n"
            (folder / f"{stem}.txt").write_bytes(text.encode("cp1252"))
        else:
            (folder / f"{stem}.md").write_text(f"# {title}\n\n{body}\n", encoding="utf-8")
    reference = {
        "topic": data.TOPIC,
        "is_a": [[c, p] for c, (p, _, _) in data.CONCEPTS.items() if p is not None],
        "concepts": list(data.CONCEPTS),
    }
    reference_path = Path(__file__).with_name(f"{folder.name}.reference.json")
    reference_path.write_text(json.dumps(reference, indent=1) + "\n")
    return len(docs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("module", choices=["gardening", "tourism_en"])
    parser.add_argument("folder", type=Path)
    args = parser.parse_args()
    print(write(args.module, args.folder), "documents written to", args.folder)


if __name__ == "__main__":
    main()
