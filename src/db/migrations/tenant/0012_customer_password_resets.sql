CREATE TABLE `customer_password_resets` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customer_password_resets_token_hash_unique` ON `customer_password_resets` (`token_hash`);--> statement-breakpoint
CREATE INDEX `customer_password_resets_customer_idx` ON `customer_password_resets` (`customer_id`);