CREATE TABLE `moved_shops` (
	`org_id` text PRIMARY KEY NOT NULL,
	`to_url` text NOT NULL,
	`hosts` text NOT NULL,
	`key_hashes` text NOT NULL,
	`moved_at` integer NOT NULL
);
