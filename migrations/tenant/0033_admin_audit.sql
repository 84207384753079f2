CREATE TABLE `admin_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`action` text NOT NULL,
	`actor_id` integer,
	`actor_email` text,
	`actor_role` text NOT NULL,
	`via` text NOT NULL,
	`actor_token` text,
	`subject_id` integer NOT NULL,
	`subject_email` text NOT NULL,
	`group_id` integer NOT NULL,
	`group_name` text NOT NULL
);
