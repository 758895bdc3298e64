CREATE TABLE `categories` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`parent_id` text,
	`position` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_slug_unique` ON `categories` (`slug`);--> statement-breakpoint
CREATE INDEX `categories_parent_idx` ON `categories` (`parent_id`,`position`);--> statement-breakpoint
CREATE TABLE `product_categories` (
	`product_id` text NOT NULL,
	`category_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`product_id`, `category_id`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `product_categories_category_idx` ON `product_categories` (`category_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `products` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`slug` text NOT NULL,
	`status` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`tags` text NOT NULL,
	`images` text NOT NULL,
	`options` text NOT NULL,
	`tax_rate` integer,
	`requires_shipping` integer NOT NULL,
	`sort_name` text NOT NULL,
	`min_price` integer NOT NULL,
	`max_price` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `products_id_unique` ON `products` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `products_slug_unique` ON `products` (`slug`);--> statement-breakpoint
CREATE INDEX `products_status_price_idx` ON `products` (`status`,`min_price`,`id`);--> statement-breakpoint
CREATE INDEX `products_status_name_idx` ON `products` (`status`,`sort_name`,`id`);--> statement-breakpoint
CREATE INDEX `products_status_created_idx` ON `products` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `store_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`currency` text NOT NULL,
	`default_locale` text NOT NULL,
	`locales` text NOT NULL,
	`country` text NOT NULL,
	`prices_include_tax` integer NOT NULL,
	`tax_rates` text NOT NULL,
	`contact_email` text,
	`low_stock_threshold` integer NOT NULL,
	`manual_payment_methods` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `variants` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`sku` text,
	`title` text NOT NULL,
	`options` text NOT NULL,
	`price` integer NOT NULL,
	`compare_at_price` integer,
	`tracked` integer NOT NULL,
	`on_hand` integer NOT NULL,
	`allow_backorder` integer NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "variants_on_hand_not_negative" CHECK("variants"."on_hand" >= 0)
);
--> statement-breakpoint
CREATE INDEX `variants_product_idx` ON `variants` (`product_id`,`position`);--> statement-breakpoint
CREATE UNIQUE INDEX `variants_sku_idx` ON `variants` (`sku`);