CREATE TABLE `ucp_signing_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`x` text NOT NULL,
	`y` text NOT NULL,
	`private_key` text NOT NULL,
	`created_at` integer NOT NULL
);
