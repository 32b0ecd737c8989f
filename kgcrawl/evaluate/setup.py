"""The set-up section of summary.md: how the evaluation was run, so its figures can be redone.

It names the world, where the truth came from (or why there is none), the
per-host delay and why it is what it is — the one setting that differs between
the sandbox and other worlds — and every run with how it ended.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgcrawl.crawl.ended import ended_early

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
        f"- LP counts pages with R(p) > α = {result.alpha:.2f}",
        f"- per crawl: {result.max_pages:,} pages, metrics every {result.report_every:,}, "
        f"{plan.workers_per_crawl} worker(s), strategy seed {plan.seed} + repeat",
        f"- {len(result.runs)} crawls, {plan.parallel} at a time, {result.seconds:,.0f} s in all",
        "",
        *_runs_table(result),
    ]
    if result.failed:
        lines += ["", "Left out of the tables (a crawl of the strategy gave no result):", ""]
        lines += [f"- {run.run_id}: {run.error or 'no page downloaded'}" for run in result.failed]
    return "\n".join(lines) + "\n"


def _runs_table(result: EvaluationResult) -> list[str]:
    """Every run, how it ended, and with a truth file how many of its pages it does not list."""
    unknown = result.plan.truth is not None
    extra = " Not in the truth file |" if unknown else ""
    lines = [
        f"| Run | Strategy | Repeat | DP | LP | Ended | Seconds |{extra}",
        "| --- | --- | ---: | ---: | ---: | --- | ---: |" + (" ---: |" if unknown else ""),
    ]
    for run in result.runs:
        ended = f"**{run.ended}** (before its budget)" if ended_early(run.ended) else run.ended
        line = (f"| {run.run_id} | {run.strategy.upper()} | {run.repeat} | {run.dp:,} | "
                f"{run.lp:,} | {ended} | {run.seconds:,.0f} |")  # fmt: skip
        if unknown:
            line += f" {run.truth_scores.unknown:,} |" if run.truth_scores else " – |"
        lines.append(line)
    return lines
