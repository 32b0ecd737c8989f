"""`kgcrawl sandbox serve|truth|manifest|info`: the generated web."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from kgcrawl.cli.common import console, sandbox_app
from kgcrawl.fit import counted
from kgcrawl.sandbox.hazards import CRAWL_DELAY_SECONDS

SandboxSeed = Annotated[int, typer.Option("--seed", help="World seed.")]
SandboxSize = Annotated[
    str, typer.Option("--size", help="World size: small (~100 hosts), default (~300), large.")
]
SandboxProfile = Annotated[
    str,
    typer.Option(
        "--profile", help="Kind of web: default (portals), sparse (academic, English), flat."
    ),
]


@sandbox_app.command("serve")
def sandbox_serve(
    seed: SandboxSeed = 0,
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="Port on 127.0.0.1 (0 = any free).")
    ] = 0,
    size: SandboxSize = "default",
    profile: SandboxProfile = "default",
    slow_delay: Annotated[
        float, typer.Option("--slow-delay", help="Seconds slow hosts wait before answering.")
    ] = 0.5,
    hang: Annotated[
        float, typer.Option("--hang", help="Seconds /live/ pages stall mid-body.")
    ] = 30.0,
    crawl_delay: Annotated[
        float, typer.Option("--crawl-delay", help="Crawl-delay of crawl-delay hosts' robots.txt.")
    ] = CRAWL_DELAY_SECONDS,
    parent: Annotated[
        int | None, typer.Option("--parent", hidden=True, help="Exit when this process does.")
    ] = None,
) -> None:
    """Serve the sandbox web on 127.0.0.1 until SIGINT/SIGTERM; print the --resolve mapping."""
    from kgcrawl.sandbox.server import serve
    from kgcrawl.sandbox.world import World

    if parent is not None:  # started by a crawl (runner.sandbox_process): go with it
        from kgcrawl.lifetime import die_with_parent

        die_with_parent(parent)

    world = World(seed, size, profile)

    def ready(server) -> None:
        hosts = len(world.hosts)
        about = f"seed={seed} size={size} profile={profile} ({hosts} hosts)"
        console.print(f"sandbox {about} on {server.base_url}")
        console.print(f"--resolve '{server.resolve[0]}'", highlight=False)
        sys.stdout.flush()

    serve(
        world, port, slow_delay=slow_delay, hang_seconds=hang, crawl_delay=crawl_delay, ready=ready
    )


@sandbox_app.command("truth")
def sandbox_truth(
    urls: Annotated[list[str], typer.Argument(help="URLs of the sandbox web.")],
    seed: SandboxSeed = 0,
    size: SandboxSize = "default",
    profile: SandboxProfile = "default",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print each URL's ground truth: status, labels per domain, topic shares."""
    import json

    from kgcrawl.sandbox.lexicon import DOMAIN_TOPICS
    from kgcrawl.sandbox.view import truth_table
    from kgcrawl.sandbox.world import World

    world = World(seed, size, profile)
    truths = [world.truth(url) for url in urls]
    if as_json:
        data = [t.to_dict(DOMAIN_TOPICS) for t in truths]
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    else:
        console.print(truth_table(truths))


@sandbox_app.command("manifest")
def sandbox_manifest(
    domain: Annotated[str, typer.Option("--domain", help="tourism or rainstorm.")],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="Output file: .jsonl (the format of evaluate --truth), .csv or .json.",
        ),
    ],
    max_pages: Annotated[int, typer.Option("--max-pages", help="Pages to list.")] = 15000,
    seed: SandboxSeed = 0,
    size: SandboxSize = "default",
    profile: SandboxProfile = "default",
) -> None:
    """Write the pages reachable from the domain's seeds (BFS, up to N) with their labels."""
    from kgcrawl.sandbox.manifest import bfs, write_manifest
    from kgcrawl.sandbox.world import World

    rows = bfs(World(seed, size, profile), domain, max_pages)
    meta = {"domain": domain, "seed": seed, "size": size, "profile": profile}
    meta["max_pages"] = max_pages
    write_manifest(rows, out, meta)
    relevant = sum(r.relevant for r in rows)
    console.print(f"{out}: {counted(len(rows), 'page')}, {relevant} relevant to {domain}",
                  soft_wrap=True, markup=False)  # fmt: skip


@sandbox_app.command("info")
def sandbox_info(
    seed: SandboxSeed = 0,
    size: SandboxSize = "default",
    profile: SandboxProfile = "default",
    bfs_pages: Annotated[
        int, typer.Option("--bfs-pages", help="Pages of the per-domain BFS sample (0 = none).")
    ] = 1000,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print the world's statistics: hosts by kind and hazard, relevant shares per domain."""
    import json

    from kgcrawl.sandbox.manifest import world_info
    from kgcrawl.sandbox.view import info_table
    from kgcrawl.sandbox.world import World

    info = world_info(World(seed, size, profile), bfs_pages)
    if as_json:
        sys.stdout.write(json.dumps(info, ensure_ascii=False, indent=1) + "\n")
    else:
        console.print(info_table(info))
