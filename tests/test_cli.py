"""The command line: every command documented, the ontology commands on a real file."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
import typer
from typer.testing import CliRunner

from kgcrawl.cli import HEAVY_MODULES, app
from kgcrawl.ontology.model import Concept, Edge, Ontology
from kgcrawl.ontology.owl import write_ontology

runner = CliRunner()
NS = "http://example.org/cli#"


def _commands(group, prefix: str = ""):
    for name, command in group.commands.items():
        yield prefix + name, command
        if hasattr(command, "commands"):
            yield from _commands(command, prefix + name + " ")


def test_every_command_has_help_text() -> None:
    root = typer.main.get_command(app)
    commands = list(_commands(root))
    assert {"ontology show", "ontology weights", "pipeline check"} <= {n for n, _ in commands}
    for name, command in commands:
        assert (command.help or "").strip(), f"`kgcrawl {name}` has no help text"
        result = runner.invoke(app, [*name.split(), "--help"])
        assert result.exit_code == 0, name


def test_every_out_option_has_the_short_name_o() -> None:
    root = typer.main.get_command(app)
    outs = [
        (name, param)
        for name, command in _commands(root)
        for param in command.params
        if "--out" in param.opts
    ]
    assert {"build-ontology", "demo", "runs export", "sandbox manifest"} <= {n for n, _ in outs}
    for name, param in outs:
        assert "-o" in param.opts, f"`kgcrawl {name} --out` has no -o"


@pytest.fixture(scope="module")
def owl_file(tmp_path_factory):
    onto = Ontology(
        NS,
        {
            c.iri: c
            for c in [
                Concept(NS + "R", {"zh": "暴雨灾害", "en": "rainstorm disaster"}),
                Concept(
                    NS + "F", {"zh": "洪水", "en": "flood"}, parent=NS + "R", edge=Edge.INDUCED_BY
                ),
                Concept(
                    NS + "L",
                    {"zh": "山体滑坡", "en": "landslide"},
                    parent=NS + "R",
                    edge=Edge.INDUCED_BY,
                ),
                Concept(
                    NS + "U",
                    {"zh": "城市内涝", "en": "urban waterlogging"},
                    parent=NS + "F",
                    edge=Edge.IS_A,
                ),
            ]
        },
    )
    path = tmp_path_factory.mktemp("cli") / "mini.owl"
    write_ontology(onto, path)
    return path


def test_ontology_show_tree_and_json(owl_file) -> None:
    result = runner.invoke(app, ["ontology", "show", str(owl_file)])
    assert result.exit_code == 0, result.output
    assert "城市内涝" in result.output and "induced-by" in result.output
    data = json.loads(runner.invoke(app, ["ontology", "show", str(owl_file), "--json"]).output)
    assert data["concepts"] == 4 and data["levels"] == 3
    assert data["branches"] == ["flood", "landslide"]
    by_label = {row["label"]: row for row in data["tree"]}
    # Sem(R, F): IF_Dis 1/2, IF_Den 2/2, IF_Dep 0, IF_Coi 0, IF_Rel 1/2 → (1/2+1+1/2)/5 = 0.4
    assert by_label["洪水"]["weight"] == pytest.approx(0.4)
    assert by_label["暴雨灾害"]["weight"] == 1.0


def test_an_english_only_ontology_shows_each_label_once(tmp_path) -> None:
    """Its concepts have no Chinese label to show the English one beside (`ontology show`)
    or under (`ontology weights`): each row was the label twice."""
    concepts = [Concept(NS + "C", {"en": "coffee"}),
                Concept(NS + "E", {"en": "espresso"}, parent=NS + "C", edge=Edge.IS_A)]  # fmt: skip
    path = tmp_path / "coffee.owl"
    write_ontology(Ontology(NS, {c.iri: c for c in concepts}), path)
    tree = runner.invoke(app, ["ontology", "show", str(path)]).output
    assert re.search(r"── espresso +is-a d=1", tree)
    table = runner.invoke(app, ["ontology", "weights", str(path)]).output
    assert table.count("espresso") == 1 and table.count("coffee") == 2  # and in the title


def test_labels_and_settings_that_look_like_markup_show_as_written(tmp_path) -> None:
    """Labels and setting values are data: `[/b]` stopped `ontology show` and `pipeline
    check` with a MarkupError, `[bold]` vanished."""
    root = Concept(NS + "C", {"en": "[/b] coffee"})
    concepts = [root, Concept(NS + "E", {"en": "[bold]espresso"}, parent=root.iri, edge=Edge.IS_A)]
    path = tmp_path / "coffee.owl"
    write_ontology(Ontology(NS, {c.iri: c for c in concepts}), path)
    for command in ("show", "weights"):
        result = runner.invoke(app, ["ontology", command, str(path)])
        assert result.exit_code == 0, result.output
        assert "[/b] coffee" in result.output and "[bold]espresso" in result.output
    agent = "fetch.user_agent=kgcrawl [/b] [bold]x"
    result = runner.invoke(app, ["pipeline", "check", "tourism", "--set", agent])
    assert result.exit_code == 0, result.output
    assert "kgcrawl [/b] [bold]x" in result.output


def test_an_ontology_file_is_one_whatever_its_name(owl_file, tmp_path) -> None:
    """A file not named .toml is read as an ontology, told by its content (it was read as
    a pipeline: "cannot read the pipeline")."""
    renamed = tmp_path / "tourism.png"
    renamed.write_bytes(owl_file.read_bytes())
    result = runner.invoke(app, ["ontology", "weights", str(renamed), "--csv"])
    assert result.exit_code == 0, result.output
    assert "暴雨灾害" in result.output


def test_ontology_weights_csv(owl_file) -> None:
    result = runner.invoke(app, ["ontology", "weights", str(owl_file), "--csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert [r["label"] for r in rows] == ["暴雨灾害", "洪水", "山体滑坡", "城市内涝"]
    # Sem(R, U): IF_Dis 1/3, IF_Den 1, IF_Dep 0, IF_Coi 0, IF_Rel (1/3 + 1/2)/2 = 5/12
    assert float(rows[3]["weight"]) == pytest.approx((1 / 3 + 1 + 5 / 12) / 5)


def test_cli_import_loads_no_heavy_library() -> None:
    """`kgcrawl --help` must start fast (≤ 0.5 s, benchmarks/bench_cli_startup.py)."""
    import subprocess
    import sys

    code = f"import sys, kgcrawl.cli; print([m for m in {HEAVY_MODULES!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_resume_refuses_options_that_would_change_the_run() -> None:
    result = runner.invoke(app, ["crawl", "--resume", "r1", "--strategy", "bfs", "--graph", "none"])
    assert result.exit_code == 2
    assert "drop --strategy, --graph" in re.sub(r"[\s│]+", " ", result.output)
