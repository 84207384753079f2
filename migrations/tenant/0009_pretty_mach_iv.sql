PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_scorm_attempts` (
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
INSERT INTO `__new_scorm_attempts`("id", "user_id", "lesson_id", "sco_id", "version", "cmi", "completion_status", "success_status", "score_raw", "score_min", "score_max", "score_scaled", "total_seconds", "completed_at", "created_at", "updated_at") SELECT "id", "user_id", "lesson_id", "sco_id", "version", "cmi", "completion_status", "success_status", "score_raw", "score_min", "score_max", "score_scaled", "total_seconds", "completed_at", "created_at", "updated_at" FROM `scorm_attempts`;--> statement-breakpoint
DROP TABLE `scorm_attempts`;--> statement-breakpoint
ALTER TABLE `__new_scorm_attempts` RENAME TO `scorm_attempts`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `scorm_attempts_user_lesson_sco_unique` ON `scorm_attempts` (`user_id`,`lesson_id`,`sco_id`);--> statement-breakpoint
CREATE INDEX `scorm_attempts_lesson_idx` ON `scorm_attempts` (`lesson_id`);