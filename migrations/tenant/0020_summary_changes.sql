CREATE TABLE `summary_changes` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer
);

--> statement-breakpoint
CREATE TRIGGER `summary_changes_users_ai` AFTER INSERT ON `users` BEGIN INSERT INTO `summary_changes` (`user_id`) VALUES (new.`id`); END;
--> statement-breakpoint
CREATE TRIGGER `summary_changes_users_au` AFTER UPDATE OF `email`, `first_name`, `last_name`, `role`, `disabled_at` ON `users` WHEN old.`email` IS NOT new.`email` OR old.`first_name` IS NOT new.`first_name` OR old.`last_name` IS NOT new.`last_name` OR old.`role` IS NOT new.`role` OR (old.`disabled_at` IS NULL) IS NOT (new.`disabled_at` IS NULL) BEGIN INSERT INTO `summary_changes` (`user_id`) VALUES (new.`id`); END;
--> statement-breakpoint
CREATE TRIGGER `summary_changes_users_ad` AFTER DELETE ON `users` BEGIN INSERT INTO `summary_changes` (`user_id`) VALUES (old.`id`); END;
--> statement-breakpoint
CREATE TRIGGER `summary_changes_courses_ai` AFTER INSERT ON `courses` BEGIN INSERT INTO `summary_changes` (`user_id`) VALUES (NULL); END;
--> statement-breakpoint
CREATE TRIGGER `summary_changes_courses_ad` AFTER DELETE ON `courses` BEGIN INSERT INTO `summary_changes` (`user_id`) VALUES (NULL); END;
