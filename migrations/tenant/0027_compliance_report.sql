CREATE TABLE `compliance_counts` (
	`group_id` integer NOT NULL,
	`done` integer NOT NULL,
	`due_on` text NOT NULL,
	`course_id` integer NOT NULL,
	`started` integer NOT NULL,
	`expires_on` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`group_id`, `done`, `due_on`, `course_id`, `started`, `expires_on`)
);
--> statement-breakpoint
CREATE INDEX `compliance_counts_expiry_idx` ON `compliance_counts` (`group_id`,`expires_on`,`course_id`,`n`);--> statement-breakpoint
CREATE TABLE `compliance_people` (
	`course_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`done` integer NOT NULL,
	`due_on` text NOT NULL,
	`started` integer DEFAULT false NOT NULL,
	`completed_at` integer,
	`expires_on` text,
	PRIMARY KEY(`course_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `compliance_people_course_idx` ON `compliance_people` (`course_id`,`done`,`due_on`,`user_id`);--> statement-breakpoint
CREATE INDEX `compliance_people_due_idx` ON `compliance_people` (`done`,`due_on`,`course_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `compliance_people_user_idx` ON `compliance_people` (`user_id`);--> statement-breakpoint
CREATE TABLE `compliance_totals` (
	`group_id` integer NOT NULL,
	`course_id` integer NOT NULL,
	`assigned` integer NOT NULL,
	`done` integer NOT NULL,
	`started` integer NOT NULL,
	PRIMARY KEY(`group_id`, `course_id`)
);
