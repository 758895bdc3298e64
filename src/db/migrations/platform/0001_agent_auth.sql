CREATE TABLE `agent_approvals` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_id` text NOT NULL,
	`host_id` text NOT NULL,
	`method` text NOT NULL,
	`capabilities` text NOT NULL,
	`status` text NOT NULL,
	`user_code_hash` text NOT NULL,
	`binding_message` text,
	`reason` text,
	`interval` integer NOT NULL,
	`last_polled_at` integer,
	`failed_attempts` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`organization_id` text,
	`decided_by` text,
	`decided_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`host_id`) REFERENCES `agent_hosts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_approvals_pending_code_idx` ON `agent_approvals` (`user_code_hash`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `agent_approvals_agent_status_idx` ON `agent_approvals` (`agent_id`,`status`);--> statement-breakpoint
CREATE TABLE `agent_grants` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_id` text NOT NULL,
	`capability` text NOT NULL,
	`status` text NOT NULL,
	`constraints` text,
	`granted_by` text,
	`denied_by` text,
	`reason` text,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_grants_agent_capability_idx` ON `agent_grants` (`agent_id`,`capability`);--> statement-breakpoint
CREATE TABLE `agent_hosts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`public_key` text NOT NULL,
	`thumbprint` text NOT NULL,
	`status` text NOT NULL,
	`organization_id` text,
	`user_id` text,
	`activated_at` integer,
	`last_used_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_hosts_thumbprint_unique` ON `agent_hosts` (`thumbprint`);--> statement-breakpoint
CREATE INDEX `agent_hosts_organization_idx` ON `agent_hosts` (`organization_id`);--> statement-breakpoint
CREATE TABLE `agent_jwt_replay` (
	`principal` text NOT NULL,
	`jti` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`principal`, `jti`)
);
--> statement-breakpoint
CREATE INDEX `agent_jwt_replay_expires_idx` ON `agent_jwt_replay` (`expires_at`);--> statement-breakpoint
CREATE TABLE `agent_server_keys` (
	`name` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `agents` (
	`id` text PRIMARY KEY NOT NULL,
	`host_id` text NOT NULL,
	`name` text NOT NULL,
	`mode` text NOT NULL,
	`public_key` text NOT NULL,
	`thumbprint` text NOT NULL,
	`status` text NOT NULL,
	`organization_id` text,
	`user_id` text,
	`activated_at` integer,
	`last_used_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`host_id`) REFERENCES `agent_hosts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agents_thumbprint_unique` ON `agents` (`thumbprint`);--> statement-breakpoint
CREATE INDEX `agents_host_status_idx` ON `agents` (`host_id`,`status`);--> statement-breakpoint
CREATE INDEX `agents_organization_idx` ON `agents` (`organization_id`);