"""The knowledge graph: an embedded FalkorDB server, one GraphStore over two adapters, writes."""
