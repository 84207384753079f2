CREATE TABLE `learning_paths` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`cover_file_id` integer,
	`category_id` integer,
	`published` integer DEFAULT false NOT NULL,
	`block_default_access` integer DEFAULT false NOT NULL,
	`force_groups` integer DEFAULT false NOT NULL,
	`self_enrol` integer DEFAULT true NOT NULL,
	`allow_certificates` integer DEFAULT false NOT NULL,
	`points` integer DEFAULT 0 NOT NULL,
	`validity_months` integer,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "learning_paths_points_check" CHECK("learning_paths"."points" >= 0)
);
--> statement-breakpoint
CREATE INDEX `learning_paths_published_position_idx` ON `learning_paths` (`published`,`position`);--> statement-breakpoint
CREATE TABLE `path_enrolments` (
	`path_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`source` text DEFAULT 'self' NOT NULL,
	`enrolled_at` integer NOT NULL,
	`completed_at` integer,
	`cycle` integer DEFAULT 1 NOT NULL,
	`expires_on` text,
	PRIMARY KEY(`path_id`, `user_id`),
	FOREIGN KEY (`path_id`) REFERENCES `learning_paths`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `path_enrolments_user_idx` ON `path_enrolments` (`user_id`);--> statement-breakpoint
CREATE TABLE `path_groups` (
	`path_id` integer NOT NULL,
	`group_id` integer NOT NULL,
	PRIMARY KEY(`path_id`, `group_id`),
	FOREIGN KEY (`path_id`) REFERENCES `learning_paths`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `path_groups_group_idx` ON `path_groups` (`group_id`);--> statement-breakpoint
CREATE TABLE `path_step_courses` (
	`step_id` integer NOT NULL,
	`course_id` integer NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`step_id`, `course_id`),
	FOREIGN KEY (`step_id`) REFERENCES `path_steps`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `path_step_courses_course_idx` ON `path_step_courses` (`course_id`);--> statement-breakpoint
CREATE TABLE `path_steps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`path_id` integer NOT NULL,
	`position` integer NOT NULL,
	`kind` text DEFAULT 'course' NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`required` integer DEFAULT 1 NOT NULL,
	`delay_days` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`path_id`) REFERENCES `learning_paths`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "path_steps_kind_check" CHECK("path_steps"."kind" in ('course','choice')),
	CONSTRAINT "path_steps_required_check" CHECK("path_steps"."required" >= 1),
	CONSTRAINT "path_steps_delay_check" CHECK("path_steps"."delay_days" between 0 and 365)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `path_steps_path_position_unique` ON `path_steps` (`path_id`,`position`);