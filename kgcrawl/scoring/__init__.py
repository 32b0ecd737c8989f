"""Relevance and link scoring: R(p), anchor BM25, topic PageRank, priority (SPEC §4)."""
