CREATE TABLE `payment_routes` (
	`provider` text NOT NULL,
	`ref` text NOT NULL,
	`organization_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`provider`, `ref`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `payment_routes_organization_idx` ON `payment_routes` (`organization_id`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `next_payment_deadline` integer;--> statement-breakpoint
CREATE INDEX `organizations_next_payment_deadline_idx` ON `organizations` (`next_payment_deadline`);