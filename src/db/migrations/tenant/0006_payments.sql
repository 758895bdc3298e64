CREATE TABLE `integration_configs` (
	`provider` text PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`settings` text NOT NULL,
	`secrets` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`updated_by` text
);
--> statement-breakpoint
CREATE TABLE `payment_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`provider` text NOT NULL,
	`method` text NOT NULL,
	`status` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`credential_source` text NOT NULL,
	`provider_ref` text,
	`provider_ref2` text,
	`instructions` text NOT NULL,
	`last_error` text,
	`expires_at` integer NOT NULL,
	`received_amount` integer,
	`received_currency` text,
	`refunded_seen` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `payment_attempts_order_idx` ON `payment_attempts` (`order_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `payment_attempts_ref_idx` ON `payment_attempts` (`provider`,`provider_ref`);--> statement-breakpoint
CREATE UNIQUE INDEX `payment_attempts_ref2_idx` ON `payment_attempts` (`provider`,`provider_ref2`);--> statement-breakpoint
CREATE INDEX `payment_attempts_open_idx` ON `payment_attempts` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `payment_events` (
	`provider` text NOT NULL,
	`event_id` text NOT NULL,
	`kind` text NOT NULL,
	`attempt_id` text,
	`order_id` text,
	`outcome` text NOT NULL,
	`reason` text,
	`payload_sha256` text NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`provider`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `payment_events_order_idx` ON `payment_events` (`order_id`);--> statement-breakpoint
CREATE TABLE `payment_refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`attempt_id` text NOT NULL,
	`provider_refund_id` text,
	`amount` integer NOT NULL,
	`status` text NOT NULL,
	`source` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`attempt_id`) REFERENCES `payment_attempts`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "payment_refunds_amount_positive" CHECK("payment_refunds"."amount" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_refunds_provider_refund_id_unique` ON `payment_refunds` (`provider_refund_id`);--> statement-breakpoint
CREATE INDEX `payment_refunds_attempt_idx` ON `payment_refunds` (`attempt_id`);--> statement-breakpoint
ALTER TABLE `orders` ADD `payments` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `payment_flags` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `cancel_reason` text;