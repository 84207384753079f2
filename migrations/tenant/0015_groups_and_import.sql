CREATE TABLE `group_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`group_id` integer NOT NULL,
	`field` text NOT NULL,
	`operator` text NOT NULL,
	`value` text DEFAULT '' NOT NULL,
	`course_id` integer,
	`other_group_id` integer,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`other_group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `group_rules_group_idx` ON `group_rules` (`group_id`);--> statement-breakpoint
CREATE INDEX `group_rules_other_group_idx` ON `group_rules` (`other_group_id`);--> statement-breakpoint
CREATE TABLE `user_imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`status` text DEFAULT 'preview' NOT NULL,
	`file_name` text NOT NULL,
	`content` text NOT NULL,
	`row_count` integer NOT NULL,
	`group_id` integer,
	`send_invitations` integer DEFAULT true NOT NULL,
	`job_id` integer,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `user_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`default_language` text,
	`default_group_ids` text DEFAULT '[]' NOT NULL,
	`invite_imported` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	CONSTRAINT "user_settings_single_row" CHECK("user_settings"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE `group_members` ADD `source` text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE `groups` ADD `cover_file_id` integer;--> statement-breakpoint
ALTER TABLE `groups` ADD `rule_match` text DEFAULT 'all' NOT NULL;