-- Signed-in learners' kept pages (docs/decisions/039-learner-page-cache.md): `user_versions` moves on every
-- change to a person's own rows that their home or course page reads; a second `content_version` row (id 2)
-- moves with the shared tables those pages read that visitors' pages do not (row 1, migration 0018).
CREATE TABLE `user_versions` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `content_version` (`id`, `version`) VALUES (2, 0);
--> statement-breakpoint
CREATE TRIGGER `user_version_lesson_progress_ai` AFTER INSERT ON `lesson_progress` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_lesson_progress_au` AFTER UPDATE ON `lesson_progress` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL AND old.`user_id` IS NOT new.`user_id` ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_lesson_progress_ad` AFTER DELETE ON `lesson_progress` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_course_completions_ai` AFTER INSERT ON `course_completions` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_course_completions_au` AFTER UPDATE ON `course_completions` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL AND old.`user_id` IS NOT new.`user_id` ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_course_completions_ad` AFTER DELETE ON `course_completions` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_certificates_ai` AFTER INSERT ON `certificates` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_certificates_au` AFTER UPDATE ON `certificates` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL AND old.`user_id` IS NOT new.`user_id` ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_certificates_ad` AFTER DELETE ON `certificates` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_bookmarks_ai` AFTER INSERT ON `bookmarks` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_bookmarks_au` AFTER UPDATE ON `bookmarks` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL AND old.`user_id` IS NOT new.`user_id` ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_bookmarks_ad` AFTER DELETE ON `bookmarks` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_assignment_people_ai` AFTER INSERT ON `assignment_people` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_assignment_people_au` AFTER UPDATE ON `assignment_people` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL AND old.`user_id` IS NOT new.`user_id` ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_assignment_people_ad` AFTER DELETE ON `assignment_people` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_group_members_ai` AFTER INSERT ON `group_members` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_group_members_au` AFTER UPDATE ON `group_members` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL AND old.`user_id` IS NOT new.`user_id` ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_group_members_ad` AFTER DELETE ON `group_members` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_users_ai` AFTER INSERT ON `users` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`id`, 1 WHERE new.`id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_users_au` AFTER UPDATE ON `users` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`id`, 1 WHERE new.`id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`id`, 1 WHERE old.`id` IS NOT NULL AND old.`id` IS NOT new.`id` ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_users_ad` AFTER DELETE ON `users` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`id`, 1 WHERE old.`id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_assignments_ai` AFTER INSERT ON `assignments` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_assignments_au` AFTER UPDATE ON `assignments` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_assignments_ad` AFTER DELETE ON `assignments` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_leaderboard_settings_ai` AFTER INSERT ON `leaderboard_settings` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_leaderboard_settings_au` AFTER UPDATE ON `leaderboard_settings` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_leaderboard_settings_ad` AFTER DELETE ON `leaderboard_settings` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_links_ai` AFTER INSERT ON `links` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_links_au` AFTER UPDATE ON `links` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_links_ad` AFTER DELETE ON `links` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_materials_ai` AFTER INSERT ON `materials` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_materials_au` AFTER UPDATE ON `materials` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_materials_ad` AFTER DELETE ON `materials` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_ratings_ai` AFTER INSERT ON `ratings` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_ratings_au` AFTER UPDATE ON `ratings` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_ratings_ad` AFTER DELETE ON `ratings` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
