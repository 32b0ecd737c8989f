// kgcrawl knowledge graph schema for Neo4j 5 (SPEC §8): the unique keys.
// kgcrawl creates these itself when it writes to a Neo4j graph; run this file by hand with
//   cypher-shell -u neo4j -p "$KGCRAWL_GRAPH_PASSWORD" -f neo4j/schema.cypher
// Each constraint also gives the exact-match index that every MERGE of the writer uses.
CREATE CONSTRAINT page_url IF NOT EXISTS FOR (n:Page) REQUIRE n.url IS UNIQUE;
CREATE CONSTRAINT concept_iri IF NOT EXISTS FOR (n:Concept) REQUIRE n.iri IS UNIQUE;
CREATE CONSTRAINT host_name IF NOT EXISTS FOR (n:Host) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT crawl_id IF NOT EXISTS FOR (n:Crawl) REQUIRE n.id IS UNIQUE;
