"""Pipeline settings: `pipelines/<domain>.toml` → a validated, frozen Settings record.

Values are layered: defaults < pipeline file < environment (`KGCRAWL_<SECTION>_<KEY>`)
< command line (`--set section.key=value`), and each remembers where it came
from, so `kgcrawl pipeline check` can say why a value is what it is. Any bad
value stops the command before anything runs, with one line naming the key and
the file (SPEC §11).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, NoReturn

from kgcrawl.errors import KgcrawlError
from kgcrawl.setting_values import as_flag, as_items, as_number, as_numbers, as_whole
from kgcrawl.settings_checks import AUTO, check_settings
from kgcrawl.suggest import did_you_mean


class SettingsError(KgcrawlError):
    """A pipeline setting is wrong; the message names the key and the file."""


AUTO_KEYS = ("relevance.alpha", "relevance.beta", "tabu.host_min_ratio")  # a number, or "auto"
# Keys that moved, and where to: an old pipeline gets one line naming the new key.
MOVED_KEYS = {"tabu.sa_t0": "annealing.t0", "tabu.sa_cooling": "annealing.cooling",
              "tabu.sa_floor": "annealing.floor"}  # fmt: skip


@dataclass(frozen=True)
class Relevance:
    """Scoring: thresholds (α, β), Eq. 9 weights r, PageRank ω and d, Eq. 1 k and τ, BM25."""

    alpha: float | str = AUTO  # a number, or "auto": calibrated per ontology (SPEC §4.6)
    beta: float | str = AUTO
    r: tuple[float, float, float] = (0.1, 0.5, 0.4)  # scoring/priority.py says why
    omega: float = 0.6
    damping: float = 0.85
    k: tuple[float, float, float, float, float] = (0.2, 0.2, 0.2, 0.2, 0.2)
    tau: float = 1.0
    bm25_k: float = 2.0
    bm25_b: float = 0.75
    pagerank_every: int = 100
    pagerank_scale: str = "percentile"  # Eq. 9's PR term (scoring.priority.pagerank_term)


@dataclass(frozen=True)
class Anchors:
    """A link's anchor evidence (SPEC §4.3 turn 2): which sources, their weights, the window."""

    evidence: tuple[str, ...] = ("anchor", "url", "context")  # ("anchor",): the paper
    weights: tuple[float, float, float] = (1.0, 0.5, 0.3)  # anchor, url, context (evidence.py)
    context_words: int = 10  # words each side of the link, in its enclosing block
    url_host: bool = False  # the host name's words count as URL evidence too


@dataclass(frozen=True)
class Calibration:
    """How `alpha = "auto"` and `beta = "auto"` are found (SPEC §4.6, kgcrawl/calibrate.py)."""

    positives: str = ""  # on-topic documents; "" = corpus/<domain> beside the pipelines
    negatives: str = ""  # off-topic documents; "" = the shipped corpus/background
    precision: float = 0.0  # 0: α near the best F1; else the lowest α with this precision
    tolerance: float = 0.04  # α: the middle of those whose F1 is within this of the best
    labelled_tolerance: float = 0.02  # α on labelled pages: moved into this of their best F1
    beta_margin: float = 0.9  # β = r2 · α · margin
    page_tokens: int = 600  # length of each composed page (calibrate.py says why)
    share: float = 0.5  # a composed page is relevant when this share of it is on topic
    pages: int = 400  # composed pages
    probe_pages: int = 200  # after these, α recalibrated on the words they name (0: never)
    # α at least this quantile of R(p) over the pages whose main text names no topic word
    # (scoring/navigation_floor.py), once `navigation_pages` of them (0: never) in one
    # language have been met, at the probe or later within the first `navigation_within`
    # pages (later only when they came at that rate before the probe)
    navigation_quantile: float = 0.95
    navigation_pages: int = 20
    navigation_within: int = 1000


@dataclass(frozen=True)
class Crawl:
    """The crawl loop and its state."""

    strategy: str = "fcits_oh"
    max_pages: int = 15000
    workers: int = 8
    seed: int = 0
    checkpoint_every: int = 50
    discard_keep: int = 200_000
    report_every: int = 500
    trap_cap: int = 100  # new links one URL template of a host may breed itself (0 = off)
    explore_after: int = 200  # nothing relevant in this many pages: explore (0 = never)
    main_text: str = "resiliparse"  # a page's main text for the graph (text/main_text.py)


@dataclass(frozen=True)
class Tabu:
    """ITS (SPEC §5.6), FCTS (§5.5) and FCITS_OH host memory (§5.7). 0 switches a list off."""

    tenure: int = 5  # H1: pages whose neighbourhood failed (ITS); hosts (FCTS)
    its_tries: int = 5
    aspiration: bool = True  # a tabu page's link that beats Hlink is taken all the same
    escape: float = 1.0  # γ: E's best only if its P ≥ γ · P(best of Q_wait); 0 = always E
    host_tenure: int = 4
    seeds_per_host: int = 1
    early_fraction: float = 0.3
    min_hosts: int = 10
    inject_links: int = 3
    host_min_visits: int = 50
    host_max_visits: int = 100  # with a numeric host_min_ratio (the paper's rule)
    host_min_ratio: float | str = AUTO  # "auto": a host goes on while its ratio ≥ the crawl's AC
    host_tick_pages: int = 100  # H2 also ticks every this many pages downloaded


@dataclass(frozen=True)
class Annealing:
    """FCSA (§5.4), FCOSA_G / FCOSA_LG (§5.8): annealing, the SA paper's filters (Table 7)."""

    t0: float = 1.0  # starting temperature
    cooling: float = 0.995  # T ← T · cooling after each selection
    floor: float = 1e-3  # lowest temperature
    phi: float = 0.15  # local-ontology filter of a child's anchor
    eta: float = 0.15  # global filter of the comprehensive priority
    local_ontologies: int = 3  # k2: top-level branches of the ontology, heaviest first
    target_weight: float = 0.25  # weight of R(P_u), the page a link points to


@dataclass(frozen=True)
class Colony:
    """MOACO (SPEC §5.8): the ant colony of the Chinese paper's §4; σ is relevance.alpha."""

    ants: int = 30
    max_depth: int = 7
    alpha: float = 0.3  # pheromone importance (Eq. 17)
    beta: float = 6.0  # heuristic importance (Eq. 17)
    rho: float = 0.7  # evaporation per cycle (Eq. 18)
    q0: float = 0.9  # pseudo-random proportional rule: chance of the best move (ACS)
    c0: float = 1.0  # pheromone of a path not yet walked
    eta: float = 0.1  # link threshold on R(l) (Eq. 13)
    link_weights: tuple[float, float, float] = (0.34, 0.33, 0.33)  # t1, t2, t3 of Eq. 13


@dataclass(frozen=True)
class Fetch:
    """Politeness and limits of SPEC §6."""

    user_agent: str = "kgcrawl/0.1 (+https://github.com/kgcrawl/kgcrawl)"
    delay: float = 1.0
    connect_timeout: float = 5.0
    read_timeout: float = 20.0
    max_redirects: int = 5
    retries: int = 2
    max_bytes: int = 5_000_000
    max_links: int = 5_000  # out-links kept per page, in document order
    # Turn 2: the longest pause a server may impose on us (robots Crawl-delay, Retry-After);
    # a host asking for more is waited on this long (Crawl-delay) or given up (Retry-After).
    max_wait: float = 30.0
    # robots.txt that failed (5xx, timeout): its host's pages wait this long, then are asked
    # again with a fresh robots.txt, at most `robots_tries` times in all (crawl/held.py)
    robots_retry: float = 60.0
    robots_tries: int = 3


@dataclass(frozen=True)
class Graph:
    """Where the knowledge graph lives: "embedded", "none", or a bolt:// / neo4j:// URI."""

    uri: str = "embedded"


@dataclass(frozen=True)
class Settings:
    """Everything one domain needs; built only by `load_settings`."""

    domain: str
    topic: str
    ontology: Path
    seeds: tuple[str, ...]
    language: str = "zh"
    relevance: Relevance = field(default_factory=Relevance)
    anchors: Anchors = field(default_factory=Anchors)
    crawl: Crawl = field(default_factory=Crawl)
    tabu: Tabu = field(default_factory=Tabu)
    annealing: Annealing = field(default_factory=Annealing)
    colony: Colony = field(default_factory=Colony)
    calibration: Calibration = field(default_factory=Calibration)
    fetch: Fetch = field(default_factory=Fetch)
    graph: Graph = field(default_factory=Graph)
    source: Path | None = None
    origins: dict[str, str] = field(default_factory=dict, compare=False)

    def flat(self) -> dict[str, Any]:
        """Every setting as `section.key` → value (top-level keys without a section)."""
        out: dict[str, Any] = {}
        for name in _TOP_KEYS:
            out[name] = getattr(self, name)
        for section in _SECTIONS:
            record = getattr(self, section)
            for f in fields(record):
                out[f"{section}.{f.name}"] = getattr(record, f.name)
        return out


_SECTIONS: dict[str, type] = {
    "relevance": Relevance,
    "anchors": Anchors,
    "crawl": Crawl,
    "tabu": Tabu,
    "annealing": Annealing,
    "colony": Colony,
    "calibration": Calibration,
    "fetch": Fetch,
    "graph": Graph,
}
_TOP_KEYS = ("domain", "topic", "ontology", "seeds", "language")
_REQUIRED = ("topic", "ontology", "seeds")

# A source checkout ships pipelines/ beside the package; the working directory wins.
CHECKOUT = Path(__file__).resolve().parents[1]


def cache_dir() -> Path:
    """Where derived files are kept between runs (calibrations, jieba's trie): $KGCRAWL_CACHE."""
    explicit = os.environ.get("KGCRAWL_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "kgcrawl"


def resolve_pipeline(name_or_path: str) -> Path:
    """`tourism` → `pipelines/tourism.toml`; a file's path is taken as it is (a folder of the
    same name, such as the corpus `build-ontology` named the domain after, is not)."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.is_file():
        if not path.is_file():
            raise SettingsError(f"{path}: no such pipeline file")
        return path
    folders = (Path.cwd() / "pipelines", CHECKOUT / "pipelines")
    for folder in folders:
        candidate = folder / f"{name_or_path}.toml"
        if candidate.is_file():
            return candidate
    if path.is_dir():  # it said "looked for pipelines//tmp.toml"
        raise SettingsError(f"{path}: a folder, not a pipeline (a domain's name or a .toml file)")
    known = {p.stem for folder in folders if folder.is_dir() for p in folder.glob("*.toml")}
    raise SettingsError(
        f"{name_or_path}: no pipeline named so (looked for pipelines/{name_or_path}.toml)"
        + did_you_mean(name_or_path, known)
    )


def parse_overrides(pairs: list[str] | tuple[str, ...]) -> dict[str, str]:
    """`["crawl.max_pages=100"]` → `{"crawl.max_pages": "100"}`."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise SettingsError(f"--set {pair}: expected key=value")
        out[key.strip()] = value.strip()
    return out


def load_settings(
    name_or_path: str,
    overrides: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
    check_ontology: bool = True,
) -> Settings:
    """Read, layer and validate a pipeline; raise SettingsError naming key and file."""
    path = resolve_pipeline(name_or_path)
    try:
        # the BOM that Windows Notepad writes before UTF-8 is no TOML, but it is no error
        raw = tomllib.loads(path.read_bytes().decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise SettingsError(f"{path}: not UTF-8 text; a pipeline is TOML, saved as UTF-8") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"{path}: cannot read the pipeline ({exc})") from None

    values: dict[str, Any] = {}
    origins: dict[str, str] = {}
    for key, value in raw.items():
        if isinstance(value, dict):
            if key not in _SECTIONS:
                raise SettingsError(f"{path}: unknown section [{key}]")
            for sub, subvalue in value.items():
                values[f"{key}.{sub}"] = subvalue
                origins[f"{key}.{sub}"] = str(path)
        else:
            values[key] = value
            origins[key] = str(path)
    values.setdefault("domain", path.stem)
    origins.setdefault("domain", f"{path} (file name)")

    env = os.environ if environ is None else environ
    for key in _known_keys():
        env_name = "KGCRAWL_" + key.replace(".", "_").upper()
        if env_name in env:
            values[key] = _users_path(key, env[env_name])
            origins[key] = f"environment {env_name}"
    for key, value in (overrides or {}).items():
        values[key] = _users_path(key, value)
        origins[key] = "command line"

    for key in _REQUIRED:
        if key not in values:
            raise SettingsError(f"{path}: missing key '{key}'")
    return _checked(values, origins, path, check_ontology)


def with_overrides(
    settings: Settings, overrides: dict[str, Any], origin: str = "command line"
) -> Settings:
    """Settings with some values replaced (coerced and validated as a pipeline's would be)."""
    values = {**settings.flat(), **{k: _users_path(k, v) for k, v in overrides.items()}}
    origins = {**settings.origins, **dict.fromkeys(overrides, origin)}
    return _checked(values, origins, settings.source or Path("settings"), check_ontology=True)


PATH_KEYS = frozenset({"ontology", "calibration.positives", "calibration.negatives"})


def _users_path(key: str, value: Any) -> Any:
    """A relative path given on the command line or in the environment is the user's, from
    the working directory (`--set ontology=ontologies/x.owl` names ./ontologies/x.owl);
    one written in a pipeline file is relative to that file."""
    if key in PATH_KEYS and isinstance(value, str | Path) and str(value):
        return str(Path(value).resolve())
    return value


def _checked(
    values: dict[str, Any], origins: dict[str, str], path: Path, check_ontology: bool
) -> Settings:
    known = _known_keys()
    for key in values:
        where = path if origins[key] == str(path) else origins[key]
        if key in MOVED_KEYS:
            raise SettingsError(f"{where}: key '{key}' is now '{MOVED_KEYS[key]}'")
        if key not in known:
            raise SettingsError(f"{where}: unknown key '{key}'" + did_you_mean(key, known))
    settings = _build(values, origins, path)
    _validate(settings, path, check_ontology)
    return settings


def _known_keys() -> dict[str, Any]:
    keys: dict[str, Any] = {
        "domain": str,
        "topic": str,
        "ontology": Path,
        "seeds": tuple[str, ...],
        "language": str,
    }
    for section, record in _SECTIONS.items():
        for f in fields(record):
            keys[f"{section}.{f.name}"] = f.default
    return keys


def _coerce(key: str, value: Any, like: Any, where: str) -> Any:
    """Turn a TOML, environment or command-line value into the default's type.

    Strict, so that a typo is an error rather than a silent default: `on` or
    `flase` for a boolean, or TOML's `true` for a number, used to load as False or 1.
    """
    try:
        if key in AUTO_KEYS:
            if isinstance(value, str) and value.strip().lower() == AUTO:
                return AUTO
            return as_number(value, 'a number or "auto"')
        if key == "anchors.evidence":  # a list of any length
            items = as_items(value, 'a list of words such as ["anchor", "url"]')
            return tuple(str(x).strip().lower() for x in items if str(x).strip())
        if isinstance(like, tuple):
            return as_numbers(value, like)
        if isinstance(like, bool):
            return as_flag(value)
        if isinstance(like, int):
            return as_whole(value)
        if isinstance(like, float):
            return as_number(value, "a number")
        if not isinstance(value, str):  # `user_agent = ["x"]` was the text "['x']"
            raise ValueError(f"expected text, got {value!r}")
        if key == "crawl.strategy":
            return value.strip().lower()  # FCITS_OH, as the papers write it, works
        return value
    except (TypeError, ValueError) as exc:
        raise SettingsError(f"{where}: key '{key}': {exc}") from None


def _build(values: dict[str, Any], origins: dict[str, str], path: Path) -> Settings:
    sections: dict[str, Any] = {}
    for section, record in _SECTIONS.items():
        kwargs = {}
        for f in fields(record):
            key = f"{section}.{f.name}"
            if key in values:
                kwargs[f.name] = _coerce(key, values[key], f.default, origins[key])
        sections[section] = record(**kwargs)
    seeds = values["seeds"]
    if isinstance(seeds, str):  # `a,b` or `[a, b]`, as a list setting is written
        seeds = [s for s in as_items(seeds, "a list of URLs") if str(s).strip()]
    if not isinstance(seeds, list | tuple):
        raise SettingsError(f"{origins['seeds']}: key 'seeds': expected a list of URLs")
    ontology = Path(str(values["ontology"]))
    if not ontology.is_absolute():
        ontology = (path.parent / ontology).resolve()
    full_origins = {key: origins.get(key, "default") for key in _known_keys()}
    return Settings(
        domain=str(values["domain"]),
        topic=str(values["topic"]),
        ontology=ontology,
        seeds=tuple(str(s).strip() for s in seeds),
        language=str(values.get("language", "zh")),
        source=path,
        origins=full_origins,
        **sections,
    )


def _validate(settings: Settings, path: Path, check_ontology: bool) -> None:
    def fail(key: str, message: str) -> NoReturn:
        # where the value came from, as a value that cannot be read at all says it
        origin = settings.origins.get(key, str(path))
        where = path if origin in ("default", str(path)) else origin
        raise SettingsError(f"{where}: key '{key}': {message}")

    check_settings(settings, fail, check_ontology)
