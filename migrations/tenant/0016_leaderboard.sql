CREATE TABLE `badges` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`rule` text NOT NULL,
	`threshold` integer NOT NULL,
	`color` text DEFAULT '#f59e0b' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `badges_rule_threshold_idx` ON `badges` (`rule`,`threshold`);--> statement-breakpoint
CREATE TABLE `leaderboard_activities` (
	`kind` text PRIMARY KEY NOT NULL,
	`points` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`daily_cap` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	CONSTRAINT "leaderboard_activities_points_check" CHECK("leaderboard_activities"."points" between 0 and 100000)
);
--> statement-breakpoint
CREATE TABLE `leaderboard_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`time_zone` text DEFAULT 'Europe/Copenhagen' NOT NULL,
	`reset_all_at` integer,
	`reset_month_at` integer,
	`reset_week_at` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `learner_stats` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`hidden` integer DEFAULT false NOT NULL,
	`lessons_completed` integer DEFAULT 0 NOT NULL,
	`courses_completed` integer DEFAULT 0 NOT NULL,
	`quizzes_passed` integer DEFAULT 0 NOT NULL,
	`perfect_quizzes` integer DEFAULT 0 NOT NULL,
	`bookmarks` integer DEFAULT 0 NOT NULL,
	`current_streak` integer DEFAULT 0 NOT NULL,
	`longest_streak` integer DEFAULT 0 NOT NULL,
	`last_active_day` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `learner_stats_streak_idx` ON `learner_stats` (`hidden`,`current_streak`,`last_active_day`);--> statement-breakpoint
CREATE TABLE `levels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`threshold` integer NOT NULL,
	`color` text DEFAULT '#6366f1' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `levels_threshold_unique` ON `levels` (`threshold`);--> statement-breakpoint
CREATE TABLE `points_histogram` (
	`period` text NOT NULL,
	`key` text NOT NULL,
	`points` integer NOT NULL,
	`learners` integer NOT NULL,
	PRIMARY KEY(`period`, `key`, `points`)
);
--> statement-breakpoint
CREATE TABLE `points_ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`activity` text NOT NULL,
	`ref` text NOT NULL,
	`course_id` integer,
	`points` integer NOT NULL,
	`day` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `points_ledger_award_unique` ON `points_ledger` (`user_id`,`activity`,`ref`);--> statement-breakpoint
CREATE INDEX `points_ledger_user_activity_day_idx` ON `points_ledger` (`user_id`,`activity`,`day`);--> statement-breakpoint
CREATE INDEX `points_ledger_created_idx` ON `points_ledger` (`created_at`);--> statement-breakpoint
CREATE TABLE `points_totals` (
	`user_id` integer NOT NULL,
	`period` text NOT NULL,
	`key` text NOT NULL,
	`points` integer DEFAULT 0 NOT NULL,
	`hidden` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`user_id`, `period`, `key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `points_totals_board_idx` ON `points_totals` (`period`,`key`,`hidden`,`points`,`user_id`);--> statement-breakpoint
CREATE TABLE `user_badges` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`badge_id` integer NOT NULL,
	`uid` text NOT NULL,
	`awarded_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`badge_id`) REFERENCES `badges`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_badges_user_badge_unique` ON `user_badges` (`user_id`,`badge_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `user_badges_uid_unique` ON `user_badges` (`uid`);--> statement-breakpoint
CREATE INDEX `bookmarks_created_user_idx` ON `bookmarks` (`created_at`,`user_id`);--> statement-breakpoint
CREATE INDEX `watch_time_daily_day_idx` ON `watch_time_daily` (`day`,`user_id`,`seconds`);