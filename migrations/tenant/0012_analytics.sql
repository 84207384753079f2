CREATE TABLE `analytics_hourly` (
	`metric` text NOT NULL,
	`hour` integer NOT NULL,
	`course_id` integer DEFAULT 0 NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`metric`, `hour`, `course_id`)
);
--> statement-breakpoint
CREATE INDEX `analytics_hourly_totals_idx` ON `analytics_hourly` (`metric`,`course_id`,`hour`,`value`);--> statement-breakpoint
CREATE TABLE `analytics_user_hourly` (
	`user_id` integer NOT NULL,
	`metric` text NOT NULL,
	`hour` integer NOT NULL,
	`course_id` integer DEFAULT 0 NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `metric`, `hour`, `course_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `users_created_at_idx` ON `users` (`created_at`);