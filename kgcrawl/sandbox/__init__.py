"""The sandbox web: a generated multi-host web with ground truth, served on loopback (SPEC §12).

`world.World` generates every page from (seed, host, path); `server.SandboxServer`
serves it by `Host` header; `truth`, `manifest` give labels and statistics;
`hazards` lists the traps and faults and where they are. Nothing here imports
the ontology, scoring or crawl code: the world's truth is not computed by the
code it judges.
"""
