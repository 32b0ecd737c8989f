"""`kgcrawl ontology show|weights`, `build-ontology`, `refresh-ontology`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kgcrawl.cli.common import SetOption, _load_topic, app, console, ontology_app, stage_bar
from kgcrawl.ontology.taxonomy import DEFAULT_LIFT, DEFAULT_THETA

if TYPE_CHECKING:
    from rich.text import Text


@ontology_app.command("show")
def ontology_show(
    domain_or_file: Annotated[
        str, typer.Argument(help="Domain (pipelines/<name>.toml) or OWL/TTL file.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a tree.")] = False,
    set_: SetOption = None,
) -> None:
    """Show the concept tree: label, English label, edge type, depth, weight."""
    from kgcrawl.ontology.view import ontology_json, ontology_tree

    model = _load_topic(domain_or_file, set_)
    if as_json:
        console.print_json(data=ontology_json(model))
    else:
        console.print(ontology_tree(model))


@ontology_app.command("weights")
def ontology_weights(
    domain_or_file: Annotated[
        str, typer.Argument(help="Domain (pipelines/<name>.toml) or OWL/TTL file.")
    ],
    csv: Annotated[bool, typer.Option("--csv", help="Print CSV instead of a table.")] = False,
    set_: SetOption = None,
) -> None:
    """Print W_T: each concept's similarity to the topic concept, with its five factors."""
    from kgcrawl.ontology.view import weights_csv, weights_table

    model = _load_topic(domain_or_file, set_)
    if csv:
        sys.stdout.write(weights_csv(model))
    else:
        console.print(weights_table(model))


@app.command("build-ontology")
def build_ontology(
    corpus: Annotated[Path, typer.Argument(help="Corpus folder (.txt .md .html .jsonl).")],
    domain: Annotated[
        str | None, typer.Option(help="Domain name (default: the folder name).")
    ] = None,
    topic: Annotated[
        str | None,
        typer.Option(help="Topic concept label (default: the base root, else the domain)."),
    ] = None,
    base: Annotated[Path | None, typer.Option(help="Hand-built OWL to merge into.")] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="OWL file (default: ontologies/<domain>.fca.owl)."),
    ] = None,
    lattice_dir: Annotated[Path, typer.Option(help="Where .cxt and .gv/.svg go.")] = Path(
        "lattice"
    ),
    min_df: Annotated[int, typer.Option(help="Least documents a term must occur in.")] = 2,
    max_df: Annotated[float, typer.Option(help="Largest share of documents for a term.")] = 0.8,
    max_terms: Annotated[int, typer.Option(help="Most terms (formal attributes).")] = 120,
    min_chars: Annotated[int, typer.Option(help="Shortest term, in characters.")] = 2,
    term: Annotated[
        list[str] | None, typer.Option("--term", help="Pin a term (repeatable).")
    ] = None,
    terms_file: Annotated[Path | None, typer.Option(help="Pin the terms of a file.")] = None,
    all_words: Annotated[
        bool, typer.Option("--all-words", help="Count every Chinese word, not only nouns.")
    ] = False,
    min_support: Annotated[
        int, typer.Option(help="Keep concepts with at least this many documents.")
    ] = 0,
    max_concepts: Annotated[int, typer.Option(help="Stop past this many concepts.")] = 200_000,
    engine: Annotated[
        str, typer.Option(help="Lattice engine: cbo (fast) or concepts (the library).")
    ] = "cbo",
    subsumption: Annotated[
        float,
        typer.Option(help="θ: share of a term's documents its parent must be in (1 = strict)."),
    ] = DEFAULT_THETA,
    lift: Annotated[
        float, typer.Option(help="How much likelier the parent is in the term's documents.")
    ] = DEFAULT_LIFT,
) -> None:
    """Build a domain ontology from a corpus with formal concept analysis (lattice → taxonomy)."""
    from rich.markup import escape

    from kgcrawl.ontology.build import BuildOptions
    from kgcrawl.ontology.build import build_ontology as build

    options = BuildOptions(
        domain=domain,
        topic=topic,
        base=base,
        out=out,
        lattice_dir=lattice_dir,
        min_df=min_df,
        max_df=max_df,
        max_terms=max_terms,
        min_chars=min_chars,
        nouns_only=not all_words,
        terms=tuple(term or ()),
        terms_file=terms_file,
        min_support=min_support,
        max_concepts=max_concepts,
        engine=engine,
        subsumption=subsumption,
        lift=lift,
    )
    with stage_bar() as progress:
        result = build(corpus, options, progress)
    _print_summary(f"build-ontology {result.domain}", result.summary(files=False), result.files)
    for skipped in result.corpus.skipped:
        console.print(f"[yellow]skipped[/yellow] {escape(f'{skipped.name}: {skipped.reason}')}",
                      highlight=False)  # fmt: skip
    console.print(f"next: {result.next_step()}", soft_wrap=True, highlight=False, markup=False)


@app.command("refresh-ontology")
def refresh_ontology(
    domain: Annotated[str, typer.Argument(help="Domain (pipelines/<name>.toml) or pipeline file.")],
    run: Annotated[
        str | None,
        typer.Option(
            "--run", help="Take the pages from this run, not the graph, and refine its ontology."
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Report the new terms; write nothing.")
    ] = False,
    corpus: Annotated[
        Path | None,
        typer.Option(
            help="Corpus folder (default: the pipeline's calibration.positives, else "
            "corpus/<domain>)."
        ),
    ] = None,
    max_new: Annotated[int, typer.Option(help="Most new terms to add.")] = 20,
    significance: Annotated[
        float,
        typer.Option(
            help="Chance that any added term splits relevant from irrelevant pages by luck "
            "(Fisher's test, Bonferroni); 1: no test."
        ),
    ] = 0.05,
    background: Annotated[
        bool,
        typer.Option(
            help="Contrast the relevant pages with the off-topic documents calibration uses "
            "(calibration.negatives) as well as with the crawl's irrelevant pages."
        ),
    ] = True,
    set_: SetOption = None,
) -> None:
    """Add terms found in relevant crawled pages to a new ontology version (never in place)."""
    from kgcrawl.ontology.refresh import RefreshOptions
    from kgcrawl.ontology.refresh import refresh_ontology as refresh

    options = RefreshOptions(
        run=run, dry_run=dry_run, corpus=corpus, overrides=tuple(set_ or ()), max_new=max_new,
        significance=significance, background=background,
    )  # fmt: skip
    with stage_bar() as progress:
        result = refresh(domain, options, progress)
    _print_refresh(result)
    if hint := result.how_to_use():
        console.print(hint, highlight=False)


def _term_line(row) -> Text:
    """A new term on a narrow terminal: one sentence, folded, not six key: value lines."""
    from rich.text import Text

    term, parent, relevant, irrelevant, background, score = row
    return Text(f"{term} → under {parent}: relevant pages {relevant}, irrelevant {irrelevant}, "
                f"off-topic documents {background}, score {score}", overflow="fold")  # fmt: skip


def _print_refresh(result) -> None:
    """The new terms and where they went, then what the refresh read and wrote."""
    from kgcrawl.fit import Records

    added = Records(
        ("term", "placed under", "relevant pages", "irrelevant pages", "off-topic docs", "score"),
        title=f"new terms for {result.domain}",
        numeric=frozenset(("relevant pages", "irrelevant pages", "off-topic docs", "score")),
        narrow=_term_line,
    )  # fmt: skip
    for term in result.added:
        added.add_row(
            term.term, term.parent_label, str(term.relevant_pages),
            str(term.irrelevant_pages), str(term.background), f"{term.score:.3f}",
        )  # fmt: skip
    console.print(added if result.added else "no new term found")
    _print_summary(f"refresh-ontology {result.domain}", result.summary(files=False), result.files)


def _print_summary(title: str, rows: list[tuple[str, str]], files: list[Path]) -> None:
    """A key-value table, then one line per file written: a path folded in a table cell
    breaks mid-name, and a reader could not copy it whole."""
    from kgcrawl.fit import folding_table

    table = folding_table("", "", title=title, show_header=False)
    for what, value in rows:
        table.add_row(what, value)
    console.print(table)
    for path in files:
        console.print(f"written: {path}", soft_wrap=True, highlight=False, markup=False)
