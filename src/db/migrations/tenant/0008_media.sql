CREATE TABLE `media` (
	`id` text PRIMARY KEY NOT NULL,
	`content_type` text NOT NULL,
	`bytes` integer NOT NULL,
	`width` integer,
	`height` integer,
	`sha256` text NOT NULL,
	`created_at` integer NOT NULL,
	`data` blob NOT NULL
);
--> statement-breakpoint
CREATE INDEX `media_bytes_idx` ON `media` (`bytes`);