ALTER TABLE `store_settings` ADD `email_sender_name` text;--> statement-breakpoint
ALTER TABLE `store_settings` ADD `email_reply_to` text;--> statement-breakpoint
ALTER TABLE `store_settings` ADD `order_page_url` text;