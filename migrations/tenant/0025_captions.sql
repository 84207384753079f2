CREATE TABLE `caption_cues` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`track_id` integer NOT NULL,
	`lesson_id` integer NOT NULL,
	`start_ms` integer NOT NULL,
	`end_ms` integer NOT NULL,
	`text` text NOT NULL,
	FOREIGN KEY (`track_id`) REFERENCES `caption_tracks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `caption_cues_track_start_idx` ON `caption_cues` (`track_id`,`start_ms`);--> statement-breakpoint
CREATE TABLE `caption_tracks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`lesson_id` integer NOT NULL,
	`file_id` integer NOT NULL,
	`language` text NOT NULL,
	`label` text NOT NULL,
	`cue_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`lesson_id`) REFERENCES `lessons`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `caption_tracks_lesson_language_unique` ON `caption_tracks` (`lesson_id`,`language`);--> statement-breakpoint
CREATE INDEX `caption_tracks_file_idx` ON `caption_tracks` (`file_id`);--> statement-breakpoint
CREATE TABLE `player_preferences` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`captions` text,
	`playback_rate` real DEFAULT 1 NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "player_preferences_rate_check" CHECK("player_preferences"."playback_rate" between 0.5 and 2)
);
