"""What the sandbox knows about a URL: its status, topic shares and labels.

A page is truly relevant to a domain when it is an HTML page that a patient
client gets (status 200, a transient 503 retried) and its share of the domain's
topic is at least `RELEVANT_SHARE`. Shares are the latent topic mixture the page
was written from, over its topic words (filler words are not counted); they are
never measured with the crawler's scoring code.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from kgcrawl.sandbox.lexicon import DOMAIN_TOPICS

RELEVANT_SHARE = 0.4


def no_truth(domain: str) -> str | None:
    """Why the sandbox cannot say which pages are relevant to `domain`; None when it can.

    Only its own domains have a topic in the generator; for any other every
    page's share is 0, which is no truth at all, not "nothing is relevant".
    """
    return None if domain in DOMAIN_TOPICS else f"the sandbox has no truth for domain {domain}"


@dataclass(frozen=True)
class Truth:
    """Ground truth of one URL."""

    url: str
    host: str
    status: int  # what a client gets after retrying transient errors; 0 = connection reset
    content_type: str
    page_type: str
    shares: tuple[tuple[str, float], ...]  # topic → share, largest first; empty if not HTML
    canonical: str  # the page this URL shows (no session id; a mirror's source; a print's article)
    duplicate: str | None = None  # "exact" or "near" when canonical is another URL
    location: str | None = None  # redirect target
    hazards: tuple[str, ...] = ()  # hazards met at this URL (hazards.Hazard values)

    @property
    def is_page(self) -> bool:
        """An HTML page a crawler can download."""
        return self.status == 200 and self.content_type.startswith("text/html")

    def share(self, topic: str) -> float:
        return dict(self.shares).get(topic, 0.0)

    def relevant(self, domain: str) -> bool:
        """Truly relevant to `domain` (its topic share passes RELEVANT_SHARE)."""
        return self.is_page and self.share(domain) >= RELEVANT_SHARE

    def to_dict(self, domains: tuple[str, ...]) -> dict:
        out = asdict(self)
        out["shares"] = dict(self.shares)
        out["hazards"] = list(self.hazards)
        out["relevant"] = {d: self.relevant(d) for d in domains}
        return out
