CREATE TABLE `analytics_daily` (
	`metric` text NOT NULL,
	`course_id` integer DEFAULT 0 NOT NULL,
	`day` text NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	`to_date` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`metric`, `course_id`, `day`)
);
--> statement-breakpoint
CREATE TABLE `analytics_rollup` (
	`id` integer PRIMARY KEY NOT NULL,
	`time_zone` text,
	`ready` integer DEFAULT false NOT NULL,
	`built_at` integer
);
