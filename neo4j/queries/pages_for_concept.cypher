// Best pages for a concept: the most relevant pages that mention it or a narrower concept.
// The concept is matched by IRI or by any of its labels; narrower concepts are those
// below it through SUBCLASS_OF, INDUCED_BY or SYNONYM_OF.
// @param concept  the concept's IRI or one of its labels (e.g. 景点)
// @param limit = 20  how many pages to list
MATCH (c:Concept)
WHERE c.iri = $concept OR $concept IN c.labels
MATCH (n:Concept)-[:SUBCLASS_OF|INDUCED_BY|SYNONYM_OF*0..]->(c)
WITH DISTINCT n
MATCH (p:Page)-[m:MENTIONS]->(n)
WITH p, toInteger(sum(m.count)) AS mentions, collect(n.label) AS concepts
RETURN p.url AS url, p.title AS title, p.relevance AS relevance, mentions, concepts
ORDER BY relevance DESC, mentions DESC, url
LIMIT $limit
