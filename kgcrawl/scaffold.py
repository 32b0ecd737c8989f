"""`kgcrawl pipeline init`: a new domain's pipeline file, commented, checked, never overwritten.

A new domain needs four things — an ontology, its topic concept, seed URLs and
a language — and everything else has a sensible default. The file written
names those four, leaves α and β to calibration ("auto"), shows the settings
people change most with a comment each, and is loaded once before it is kept,
so a file `init` writes always passes `kgcrawl pipeline check`: `init` refuses
without the on-topic documents that α's calibration needs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kgcrawl.calibrate import default_positives, readable_corpus
from kgcrawl.config import SettingsError, load_settings
from kgcrawl.names import check_domain_name
from kgcrawl.settings_checks import LANGUAGES, seed_problem
from kgcrawl.suggest import did_you_mean


@dataclass(frozen=True)
class NewPipeline:
    """What `pipeline init` was asked for."""

    name: str
    ontology: Path
    seeds: tuple[str, ...]  # URLs, or files of URLs (one a line, # comments)
    language: str = "en"
    topic: str | None = None  # default: the ontology's root concept
    folder: Path = Path("pipelines")
    corpus: Path | None = None  # on-topic documents for calibrating α (default corpus/NAME)


def read_seeds(items: Sequence[str]) -> list[str]:
    """URLs as given, and the URLs listed in any item that is a file; checked, in order. A
    bad one is named with where it came from: the option, or the file and its line."""
    given: dict[str, str] = {}  # URL → where it was given
    for item in items:
        if Path(item).is_file():
            try:
                lines = Path(item).read_bytes().decode("utf-8-sig").splitlines()  # BOM or not
            except (OSError, UnicodeDecodeError) as exc:
                why = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else exc.strerror
                raise SettingsError(
                    f"--seeds {item}: cannot read the file of URLs ({why})"
                ) from None
            for number, line in enumerate(lines, start=1):
                given.setdefault(line.split("#", 1)[0].strip(), f"--seeds {item} line {number}")
        else:
            given.setdefault(item.strip(), "--seeds")
    urls = [url for url in given if url]
    for url in urls:
        problem = seed_problem(url)
        if problem:
            nor = ", nor a file of URLs" if given[url] == "--seeds" else ""
            raise SettingsError(f"{given[url]}: {problem}{nor}: {url!r}")
    if not urls:
        raise SettingsError("--seeds: give at least one URL, or a file with one URL a line")
    return urls


def topic_label(ontology: Path, language: str, topic: str | None) -> str:
    """The topic concept's label: the one asked for (checked), else the ontology's root."""
    from kgcrawl.ontology.model import OntologyError
    from kgcrawl.ontology.owl import read_ontology

    try:
        onto = read_ontology(ontology)
    except OntologyError as exc:
        raise SettingsError(f"--ontology {ontology}: {exc}") from None
    if topic is None:
        return onto.concepts[onto.root].label(language)
    if onto.find(topic) is None:
        labels = [label for c in onto.concepts.values() for label in c.all_labels()]
        raise SettingsError(
            f"--topic {topic}: the ontology {ontology.name} has no such concept"
            + did_you_mean(topic, labels)
        )
    return topic


def init_pipeline(new: NewPipeline) -> Path:
    """Write `<folder>/<name>.toml` and load it once; refuse to overwrite a file."""
    check_domain_name(new.name, "NAME")
    if new.language not in LANGUAGES:
        raise SettingsError(f"--language {new.language}: one of {', '.join(LANGUAGES)}")
    path = new.folder / f"{new.name}.toml"
    if path.exists():
        raise SettingsError(f"{path} exists already; edit it, or choose another NAME")
    if not new.ontology.is_file():
        raise SettingsError(f"--ontology {new.ontology}: no such file")
    seeds = read_seeds(new.seeds)
    topic = topic_label(new.ontology, new.language, new.topic)
    if new.corpus is not None and not new.corpus.is_dir():
        raise SettingsError(f"--corpus {new.corpus}: no such folder")
    if new.corpus is None and not (default := default_positives(new.folder, new.name)).is_dir():
        raise SettingsError(
            f"--corpus: no on-topic documents to calibrate α on ({default} is not a folder): "
            "give --corpus, the documents the ontology was built from"
        )
    readable_corpus(new.corpus or default, "--corpus")
    ontology, corpus = (
        Path(os.path.relpath(p.resolve(), new.folder.resolve())).as_posix() if p else ""
        for p in (new.ontology, new.corpus)
    )
    new.folder.mkdir(parents=True, exist_ok=True)
    text = pipeline_text(new.name, ontology, topic, new.language, seeds, corpus)
    path.write_text(text, "utf-8")
    try:
        load_settings(str(path))
    except SettingsError:
        path.unlink()
        raise
    return path


def pipeline_text(
    name: str, ontology: str, topic: str, language: str, seeds: list[str], corpus: str = ""
) -> str:
    """The pipeline file: the domain's four facts, then the settings changed most, commented."""
    q = json.dumps  # TOML basic strings are JSON strings
    seed_lines = "\n".join(f"    {q(url, ensure_ascii=False)}," for url in seeds)
    return f"""\
# The {name} domain, written by `kgcrawl pipeline init`. Every setting not named here
# has its default: `kgcrawl pipeline check {name}` lists them all and where each came from.
topic = {q(topic, ensure_ascii=False)}  # the topic concept of the ontology
language = {q(language)}  # "en" or "zh": how page text is cut into words
ontology = {q(ontology, ensure_ascii=False)}  # relative to this file
seeds = [
{seed_lines}
]

[relevance]
alpha = "auto"  # a page is relevant when R(p) > alpha; "auto": calibrated for the ontology
beta = "auto"   # a link is queued when its priority > beta; "auto": follows alpha

[calibration]   # how "auto" is found: `kgcrawl calibrate {name}`
# on-topic documents, relative to this file; "" = corpus/{name} beside pipelines/
positives = {q(corpus, ensure_ascii=False)}
negatives = ""  # off-topic documents; "" = the shipped corpus/background

[crawl]
strategy = "fcits_oh"  # bfs, ops, fcsa, fcts, fcits, fcoits, fcits_oh, fcosa_g, fcosa_lg, moaco
max_pages = 15000
workers = 8     # requests in flight at once (never two to one host); 1 = sequential

[fetch]
delay = 1.0     # seconds between requests to a host (robots.txt Crawl-delay is obeyed too)

[graph]
uri = "embedded"  # "embedded" (FalkorDB), "none", or a bolt:// / neo4j:// URI
"""
