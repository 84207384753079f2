-- Issue 50. When each person was last active (`user_activity`: the people list's "last active" filter and sort),
-- filled from the sessions' last use, and moved as sessions are used from now on. The audit of what admins did
-- records from where (`ip`, the request's address) and what it is about (`subject_kind`: a person or a course), and
-- is kept as long as the organization's `audit_retention_days` says (an index on `at` for the sweep that deletes
-- the older entries). Applied twice it fails: `user_activity` exists.
CREATE TABLE `user_activity` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`last_active_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_activity_last_active_idx` ON `user_activity` (`last_active_at`);--> statement-breakpoint
INSERT INTO `user_activity` (`user_id`, `last_active_at`) SELECT `user_id`, max(`last_seen_at`) FROM `sessions` GROUP BY `user_id`;--> statement-breakpoint
ALTER TABLE `user_settings` ADD `audit_retention_days` integer DEFAULT 730;--> statement-breakpoint
ALTER TABLE `admin_audit` ADD `subject_kind` text DEFAULT 'person' NOT NULL;--> statement-breakpoint
ALTER TABLE `admin_audit` ADD `ip` text;--> statement-breakpoint
CREATE INDEX `admin_audit_at_idx` ON `admin_audit` (`at`);