-- Records whose literal is the whole query, read through a B-tree.
--
-- A pasted error most often equals a record's literal, and a common error is the literal of many records:
-- the exact keys' GIN index answers `exact_keys @> ARRAY[key]` only after reading every record holding
-- the key into a bitmap, so a search for a literal that thousands of records share cost in proportion to
-- them (about 7 ms at a million records for a literal 24,000 of them hold, where the search keeps 50). A
-- B-tree on the literal's key is read in order and stops at the search's cap, whatever the corpus; the
-- search statement reads it first when no filter is set (db/queries/search/statement-text.ts).
CREATE INDEX search_documents_literal ON search_documents (literal_key) WHERE literal_key IS NOT NULL;
