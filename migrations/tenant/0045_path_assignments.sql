-- Learning paths assigned (issue 49) as courses are: the assignments and their people; the triggers that keep the
-- learners' kept pages right when a path's due day shows on them (docs/caching.md).
CREATE TABLE `path_assignment_people` (
	`assignment_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`assigned_at` integer NOT NULL,
	`due_on` text NOT NULL,
	`completed_at` integer,
	`left_at` integer,
	PRIMARY KEY(`assignment_id`, `user_id`),
	FOREIGN KEY (`assignment_id`) REFERENCES `path_assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `path_assignment_people_user_idx` ON `path_assignment_people` (`user_id`,`due_on`);--> statement-breakpoint
CREATE INDEX `path_assignment_people_due_idx` ON `path_assignment_people` (`assignment_id`,`due_on`);--> statement-breakpoint
CREATE TABLE `path_assignments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`path_id` integer NOT NULL,
	`target` text NOT NULL,
	`user_id` integer,
	`group_id` integer,
	`due_kind` text NOT NULL,
	`due_date` text,
	`due_days` integer,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`path_id`) REFERENCES `learning_paths`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "path_assignments_target_check" CHECK(("path_assignments"."target" = 'person' and "path_assignments"."group_id" is null) or ("path_assignments"."target" = 'group' and "path_assignments"."user_id" is null)),
	CONSTRAINT "path_assignments_due_check" CHECK(("path_assignments"."due_kind" = 'date' and "path_assignments"."due_date" is not null and "path_assignments"."due_days" is null) or ("path_assignments"."due_kind" = 'days' and "path_assignments"."due_days" between 0 and 3650 and "path_assignments"."due_date" is null))
);
--> statement-breakpoint
CREATE INDEX `path_assignments_path_idx` ON `path_assignments` (`path_id`);--> statement-breakpoint
CREATE INDEX `path_assignments_group_idx` ON `path_assignments` (`group_id`);--> statement-breakpoint
CREATE INDEX `path_assignments_user_idx` ON `path_assignments` (`user_id`);--> statement-breakpoint
CREATE TRIGGER `content_version_path_assignments_ai` AFTER INSERT ON `path_assignments` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_path_assignments_au` AFTER UPDATE ON `path_assignments` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_path_assignments_ad` AFTER DELETE ON `path_assignments` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_path_assignment_people_ai` AFTER INSERT ON `path_assignment_people` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_path_assignment_people_au` AFTER UPDATE ON `path_assignment_people` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL AND old.`user_id` IS NOT new.`user_id` ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_path_assignment_people_ad` AFTER DELETE ON `path_assignment_people` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
