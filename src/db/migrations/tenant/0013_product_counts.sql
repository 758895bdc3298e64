CREATE TABLE `category_product_counts` (
	`category_id` text NOT NULL,
	`status` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`category_id`, `status`),
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `product_counts` (
	`status` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `products_created_idx` ON `products` (`created_at`,`id`);--> statement-breakpoint
-- Fill the kept counts for the products that exist (src/catalog/counts.ts keeps them from now on).
INSERT INTO `product_counts` (`status`, `n`) SELECT `status`, count(*) FROM `products` GROUP BY `status`;
--> statement-breakpoint
INSERT INTO `category_product_counts` (`category_id`, `status`, `n`)
WITH RECURSIVE tree(root, id) AS (
  SELECT id, id FROM categories
  UNION SELECT tree.root, c.id FROM categories c JOIN tree ON c.parent_id = tree.id)
SELECT tree.root, p.status, count(DISTINCT p.id) FROM tree
  JOIN product_categories pc ON pc.category_id = tree.id
  JOIN products p ON p.id = pc.product_id
GROUP BY tree.root, p.status;
