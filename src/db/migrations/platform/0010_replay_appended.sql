PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_agent_jwt_replay` (
	`expires_at` integer NOT NULL,
	`principal` text NOT NULL,
	`jti` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_agent_jwt_replay`("expires_at", "principal", "jti", "created_at") SELECT "expires_at", "principal", "jti", "created_at" FROM `agent_jwt_replay`;--> statement-breakpoint
DROP TABLE `agent_jwt_replay`;--> statement-breakpoint
ALTER TABLE `__new_agent_jwt_replay` RENAME TO `agent_jwt_replay`;--> statement-breakpoint
PRAGMA foreign_keys=ON;