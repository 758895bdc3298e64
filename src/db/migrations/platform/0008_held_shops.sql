CREATE TABLE `held_shops` (
	`org_id` text PRIMARY KEY NOT NULL,
	`taken_at` integer NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
