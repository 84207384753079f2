CREATE TABLE `course_completion_history` (
	`user_id` integer NOT NULL,
	`course_id` integer NOT NULL,
	`cycle` integer NOT NULL,
	`completed_at` integer NOT NULL,
	`expires_on` text,
	PRIMARY KEY(`user_id`, `course_id`, `cycle`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `recertifications` (
	`user_id` integer NOT NULL,
	`course_id` integer NOT NULL,
	`expires_on` text NOT NULL,
	`cycle` integer NOT NULL,
	`reassigned_at` integer NOT NULL,
	`due_on` text NOT NULL,
	PRIMARY KEY(`user_id`, `course_id`, `expires_on`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP INDEX `certificates_user_course_unique`;--> statement-breakpoint
ALTER TABLE `certificates` ADD `cycle` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `certificates` ADD `expires_on` text;--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_user_course_cycle_unique` ON `certificates` (`user_id`,`issued_for_course_id`,`cycle`);--> statement-breakpoint
ALTER TABLE `assignment_people` ADD `cycle` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `course_completions` ADD `cycle` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `course_completions` ADD `expires_on` text;--> statement-breakpoint
ALTER TABLE `course_completions` ADD `renewal_started_at` integer;--> statement-breakpoint
CREATE INDEX `course_completions_expiry_idx` ON `course_completions` (`expires_on`);--> statement-breakpoint
CREATE INDEX `course_completions_course_expiry_idx` ON `course_completions` (`course_id`,`expires_on`);--> statement-breakpoint
ALTER TABLE `courses` ADD `validity_months` integer;--> statement-breakpoint
ALTER TABLE `courses` ADD `reassign_days_before` integer DEFAULT 30 NOT NULL;