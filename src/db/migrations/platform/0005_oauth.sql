CREATE TABLE `oauth_clients` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`redirect_uris` text NOT NULL,
	`client_uri` text,
	`registered_from` text,
	`refresh_after` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `oauth_tokens` (
	`hash` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`family_id` text NOT NULL,
	`agent_id` text NOT NULL,
	`client_id` text NOT NULL,
	`resource` text NOT NULL,
	`scope` text NOT NULL,
	`code_challenge` text,
	`redirect_uri` text,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`revoked_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth_tokens_family_idx` ON `oauth_tokens` (`family_id`);--> statement-breakpoint
CREATE INDEX `oauth_tokens_expires_idx` ON `oauth_tokens` (`expires_at`);--> statement-breakpoint
ALTER TABLE `agent_hosts` ADD `credential` text DEFAULT 'ed25519' NOT NULL;--> statement-breakpoint
ALTER TABLE `agent_hosts` ADD `oauth_client_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `agent_hosts_oauth_client_idx` ON `agent_hosts` (`oauth_client_id`,`organization_id`);--> statement-breakpoint
ALTER TABLE `agents` ADD `credential` text DEFAULT 'ed25519' NOT NULL;