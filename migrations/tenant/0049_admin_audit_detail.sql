-- Issue 50: the audit of what admins did records bulk actions on people too: `detail` (the course and due day
-- assigned, the type given), and the group only for changes of a group's members and admins (nullable now, which
-- SQLite changes by rebuilding the table). `detail` is added first so the rebuild can copy it, and so that this
-- migration fails if applied twice; an index serves a person's page (what admins changed about them).
PRAGMA foreign_keys=OFF;--> statement-breakpoint
ALTER TABLE `admin_audit` ADD `detail` text;--> statement-breakpoint
CREATE TABLE `__new_admin_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`action` text NOT NULL,
	`actor_id` integer,
	`actor_email` text,
	`actor_role` text NOT NULL,
	`via` text NOT NULL,
	`actor_token` text,
	`subject_id` integer NOT NULL,
	`subject_email` text NOT NULL,
	`group_id` integer,
	`group_name` text,
	`detail` text
);
--> statement-breakpoint
INSERT INTO `__new_admin_audit`("id", "at", "action", "actor_id", "actor_email", "actor_role", "via", "actor_token", "subject_id", "subject_email", "group_id", "group_name", "detail") SELECT "id", "at", "action", "actor_id", "actor_email", "actor_role", "via", "actor_token", "subject_id", "subject_email", "group_id", "group_name", "detail" FROM `admin_audit`;--> statement-breakpoint
DROP TABLE `admin_audit`;--> statement-breakpoint
ALTER TABLE `__new_admin_audit` RENAME TO `admin_audit`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `admin_audit_subject_idx` ON `admin_audit` (`subject_id`,`id`);