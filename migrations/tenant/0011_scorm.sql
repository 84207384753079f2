CREATE TABLE `scorm_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`lesson_id` integer NOT NULL,
	`sco_id` text NOT NULL,
	`version` text NOT NULL,
	`cmi` text NOT NULL,
	`completion_status` text DEFAULT 'not attempted' NOT NULL,
	`success_status` text DEFAULT 'unknown' NOT NULL,
	`score_raw` real,
	`score_min` real,
	`score_max` real,
	`score_scaled` real,
	`total_seconds` integer DEFAULT 0 NOT NULL,
	`completed_at` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lesson_id`) REFERENCES `lessons`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scorm_attempts_user_lesson_sco_unique` ON `scorm_attempts` (`user_id`,`lesson_id`,`sco_id`);--> statement-breakpoint
CREATE INDEX `scorm_attempts_lesson_idx` ON `scorm_attempts` (`lesson_id`);--> statement-breakpoint
CREATE TABLE `scorm_packages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`lesson_id` integer NOT NULL,
	`version` text NOT NULL,
	`title` text NOT NULL,
	`folder` text NOT NULL,
	`items` text NOT NULL,
	`file_count` integer NOT NULL,
	`unpacked_bytes` integer NOT NULL,
	`uploaded_by` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`lesson_id`) REFERENCES `lessons`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scorm_packages_lesson_unique` ON `scorm_packages` (`lesson_id`);