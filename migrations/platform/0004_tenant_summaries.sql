CREATE TABLE `organization_summaries` (
	`organization_id` integer PRIMARY KEY NOT NULL,
	`users` integer NOT NULL,
	`courses` integer NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `platform_people` (
	`organization_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`email` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`role` text,
	`disabled` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `user_id`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `platform_people_order_idx` ON `platform_people` (`organization_id`,`last_name`,`first_name`,`user_id`);