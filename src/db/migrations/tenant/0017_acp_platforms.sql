CREATE TABLE `acp_platforms` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_hint` text NOT NULL,
	`webhook_url` text,
	`signing_secret` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `acp_platforms_token_hash_unique` ON `acp_platforms` (`token_hash`);