CREATE TABLE `analytics_daily` (
	`course_id` integer DEFAULT 0 NOT NULL,
	`day` text NOT NULL,
	`completions` integer DEFAULT 0 NOT NULL,
	`watch_seconds` integer DEFAULT 0 NOT NULL,
	`downloads` integer DEFAULT 0 NOT NULL,
	`quiz_attempts` integer DEFAULT 0 NOT NULL,
	`quiz_passes` integer DEFAULT 0 NOT NULL,
	`completions_to_date` integer DEFAULT 0 NOT NULL,
	`watch_seconds_to_date` integer DEFAULT 0 NOT NULL,
	`downloads_to_date` integer DEFAULT 0 NOT NULL,
	`quiz_attempts_to_date` integer DEFAULT 0 NOT NULL,
	`quiz_passes_to_date` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`course_id`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `analytics_rollup` (
	`id` integer PRIMARY KEY NOT NULL,
	`time_zone` text,
	`ready` integer DEFAULT false NOT NULL,
	`built_at` integer
);
