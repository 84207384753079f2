CREATE TABLE `assignment_people` (
	`assignment_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`assigned_at` integer NOT NULL,
	`due_on` text NOT NULL,
	`completed_at` integer,
	`left_at` integer,
	PRIMARY KEY(`assignment_id`, `user_id`),
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `assignment_people_user_idx` ON `assignment_people` (`user_id`,`due_on`);--> statement-breakpoint
CREATE INDEX `assignment_people_due_idx` ON `assignment_people` (`assignment_id`,`due_on`);--> statement-breakpoint
CREATE TABLE `assignments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`course_id` integer NOT NULL,
	`target` text NOT NULL,
	`user_id` integer,
	`group_id` integer,
	`due_kind` text NOT NULL,
	`due_date` text,
	`due_days` integer,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "assignments_target_check" CHECK(("assignments"."target" = 'person' and "assignments"."group_id" is null) or ("assignments"."target" = 'group' and "assignments"."user_id" is null)),
	CONSTRAINT "assignments_due_check" CHECK(("assignments"."due_kind" = 'date' and "assignments"."due_date" is not null and "assignments"."due_days" is null) or ("assignments"."due_kind" = 'days' and "assignments"."due_days" between 0 and 3650 and "assignments"."due_date" is null))
);
--> statement-breakpoint
CREATE INDEX `assignments_group_idx` ON `assignments` (`group_id`);--> statement-breakpoint
CREATE INDEX `assignments_user_idx` ON `assignments` (`user_id`);--> statement-breakpoint
CREATE INDEX `assignments_course_idx` ON `assignments` (`course_id`);