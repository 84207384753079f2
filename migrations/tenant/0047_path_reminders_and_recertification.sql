-- Learning paths (issue 49): reminders for path assignments (a reminder's key names which table its assignment is in,
-- a course's `assignments` or `path_assignments`, as their ids are two sequences); re-assignment before a path's
-- completion expires, this many days before, found per path by its completions' expiry days.
DROP INDEX `reminders_key_unique`;--> statement-breakpoint
ALTER TABLE `reminders` ADD `subject` text DEFAULT 'course' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `reminders_key_unique` ON `reminders` (`user_id`,`subject`,`assignment_id`,`kind`,`due_on`,`week`);--> statement-breakpoint
ALTER TABLE `learning_paths` ADD `reassign_days_before` integer DEFAULT 30 NOT NULL;--> statement-breakpoint
CREATE INDEX `path_enrolments_expiry_idx` ON `path_enrolments` (`path_id`,`expires_on`) WHERE expires_on is not null;--> statement-breakpoint
-- A path valid one month is assigned again two weeks before, not the default 30 days (longer than it lasts).
UPDATE `learning_paths` SET `reassign_days_before` = 14 WHERE `validity_months` = 1;
