"""The set-up section of summary.md: how the evaluation was run, so its figures can be redone.

It names the world, where the truth came from (or why there is none), the
per-host delay and why it is what it is — the one setting that differs between
the sandbox and other worlds —, the α LP counts by, and every run with how it
ended and its own α.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgcrawl.crawl.ended import ended_early
from kgcrawl.fit import counted

if TYPE_CHECKING:
    from kgcrawl.config import Settings
    from kgcrawl.evaluate.run import EvaluationPlan, EvaluationResult


def delay_note(plan: EvaluationPlan, settings: Settings) -> str:
    """The crawls' `fetch.delay` and why: --set, else 0 on the sandbox, else the pipeline's."""
    from kgcrawl.config import parse_overrides

    if "fetch.delay" in parse_overrides(list(plan.overrides)):
        why = "set with --set fetch.delay"
    elif plan.sandbox:
        why = "the sandbox, whose server is ours (robots.txt Crawl-delay still holds)"
    else:
        origin = settings.origins.get("fetch.delay", "default")
        why = "the pipeline's" if origin == str(settings.source) else f"from {origin}"
    return f"fetch.delay = {settings.fetch.delay:g} s between requests to a host: {why}"


def setup_markdown(result: EvaluationResult) -> str:
    """How the evaluation was run, appended to summary.md."""
    plan = result.plan
    if plan.sandbox:
        world = (f"sandbox, world seed {plan.seed}, size {plan.sandbox_size}, "
                 f"profile {plan.sandbox_profile}")  # fmt: skip
    elif plan.resolve:
        world = "the pipeline's seeds, served at " + ", ".join(plan.resolve) + " (--resolve)"
    else:
        world = "the pipeline's seeds on the web"
    if result.judge is not None:
        truth = result.judge.about
    else:
        truth = result.no_truth or "none: true harvest and recall are not measured"
    lines = ["## Set-up", "", f"- world: {world}", f"- truth: {truth}"]
    scores = result.truth_scores()
    if plan.truth is not None and scores is not None:
        downloaded = len(scores.relevant) + len(scores.irrelevant)
        lines.append(f"- {scores.unknown:,} of the {downloaded:,} pages downloaded are not in "
                     f"{plan.truth} and count as not relevant")  # fmt: skip
    lines += [
        f"- {result.delay}",
        f"- {alpha_note(result)}",
        f"- per crawl: {result.max_pages:,} pages, metrics every {result.report_every:,}, "
        f"{result.workers} worker(s), strategy seed {plan.seed} + repeat",
        f"- {counted(len(result.runs), 'crawl')}, {plan.parallel} at a time, "
        f"{result.seconds:,.0f} s in all",
        "",
        *_runs_table(result),
    ]
    if result.failed:
        lines += ["", "Left out of the tables (a crawl of the strategy gave no result):", ""]
        lines += [f"- {run.run_id}: {run.error or 'no page downloaded'}" for run in result.failed]
    return "\n".join(lines) + "\n"


def alpha_note(result: EvaluationResult) -> str:
    """What LP counts: each crawl judges by its own α, which starts at the corpora's and may be
    recalibrated on the web's first pages (scoring/web_alpha.py). Said as one α, Table 2
    compared LP counted at different α without a word."""
    alphas = [run.alpha for run in result.runs if run.alpha is not None]
    starts = sorted({alpha.start for alpha in alphas}) or [result.alpha]
    start = " or ".join(f"{value:.3f}" for value in starts)
    if not any(alpha.moved for alpha in alphas):
        return f"LP counts pages with R(p) > α = {start}, the corpora's; no crawl recalibrated it"
    return (
        f"LP counts pages with R(p) > the crawl's own α: each starts at the corpora's "
        f"α = {start} and may recalibrate it on the web's first pages (scoring/web_alpha.py); "
        "the runs' table gives each crawl's α, start → end per page language: Table 2 "
        "compares LP counted at these different α"
    )


def _runs_table(result: EvaluationResult) -> list[str]:
    """Every run, how it ended, its α, and with a truth file how many of its pages it does not
    list."""
    unknown = result.plan.truth is not None
    extra = " Not in the truth file |" if unknown else ""
    lines = [
        f"| Run | Strategy | Repeat | DP | LP | α | Ended | Seconds |{extra}",
        "| --- | --- | ---: | ---: | ---: | --- | --- | ---: |" + (" ---: |" if unknown else ""),
    ]
    for run in result.runs:
        ended = f"**{run.ended}** (before its budget)" if ended_early(run.ended) else run.ended
        alpha = run.alpha or "–"
        line = (f"| {run.run_id} | {run.strategy.upper()} | {run.repeat} | {run.dp:,} | "
                f"{run.lp:,} | {alpha} | {ended} | {run.seconds:,.0f} |")  # fmt: skip
        if unknown:
            line += f" {run.truth_scores.unknown:,} |" if run.truth_scores else " – |"
        lines.append(line)
    return lines
