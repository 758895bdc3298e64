-- What an agent's request is decided on changed: its row, its host's, its grants or a member's role.
-- Any process's change moves the count, so a process that keeps agents in memory reads them again.
INSERT INTO `agent_standing_version` (`id`, `version`) VALUES (1, 0);--> statement-breakpoint
CREATE TRIGGER `agents_insert_moves_agent_standing` AFTER INSERT ON `agents` BEGIN
	UPDATE `agent_standing_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `agents_update_moves_agent_standing` AFTER UPDATE ON `agents` BEGIN
	UPDATE `agent_standing_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `agents_delete_moves_agent_standing` AFTER DELETE ON `agents` BEGIN
	UPDATE `agent_standing_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `agent_hosts_insert_moves_agent_standing` AFTER INSERT ON `agent_hosts` BEGIN
	UPDATE `agent_standing_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `agent_hosts_update_moves_agent_standing` AFTER UPDATE ON `agent_hosts` BEGIN
	UPDATE `agent_standing_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `agent_hosts_delete_moves_agent_standing` AFTER DELETE ON `agent_hosts` BEGIN
	UPDATE `agent_standing_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `agent_grants_insert_moves_agent_standing` AFTER INSERT ON `agent_grants` BEGIN
	UPDATE `agent_standing_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `agent_grants_update_moves_agent_standing` AFTER UPDATE ON `agent_grants` BEGIN
	UPDATE `agent_standing_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `agent_grants_delete_moves_agent_standing` AFTER DELETE ON `agent_grants` BEGIN
	UPDATE `agent_standing_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `members_insert_moves_agent_standing` AFTER INSERT ON `members` BEGIN
	UPDATE `agent_standing_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `members_update_moves_agent_standing` AFTER UPDATE ON `members` BEGIN
	UPDATE `agent_standing_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `members_delete_moves_agent_standing` AFTER DELETE ON `members` BEGIN
	UPDATE `agent_standing_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
