CREATE TABLE `agent_standing_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
