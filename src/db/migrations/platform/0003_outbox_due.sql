ALTER TABLE `organizations` ADD `outbox_due_at` integer;--> statement-breakpoint
CREATE INDEX `organizations_outbox_due_idx` ON `organizations` (`outbox_due_at`);--> statement-breakpoint
-- Rows written before this column existed: every organization is looked at once, then set from its file.
UPDATE `organizations` SET `outbox_due_at` = 0;