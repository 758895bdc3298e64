-- Full-text index of products (names in every locale, descriptions, SKUs, tags), kept in step by
-- src/catalog/search.ts; rowid = products.seq. Prefix indexes make "word*" queries cheap, diacritics
-- fold ("cafe" finds "café"), and rank weighs a match in the name above one in the description.
CREATE VIRTUAL TABLE `product_search` USING fts5(
	`name`,
	`description`,
	`sku`,
	`tags`,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);
--> statement-breakpoint
INSERT INTO `product_search` (`product_search`, `rank`) VALUES ('rank', 'bm25(10.0, 1.0, 5.0, 3.0)');
