CREATE TABLE `checkout_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`cart_id` text NOT NULL,
	`protocol` text NOT NULL,
	`caller` text NOT NULL,
	`buyer_first_name` text,
	`buyer_last_name` text,
	`buyer_phone` text,
	`payment_method_id` text,
	`canceled_at` integer,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `checkout_sessions_cart_id_unique` ON `checkout_sessions` (`cart_id`);