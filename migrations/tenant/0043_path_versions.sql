-- Learning paths on learners' kept pages (issue 49, docs/caching.md): the home page's "Your paths" and a course
-- page's "step 2 of 4 of your path" read the paths, their steps, courses and groups (content_version row 2, as
-- assignments) and the person's own enrolments (user_versions).
CREATE TRIGGER `content_version_learning_paths_ai` AFTER INSERT ON `learning_paths` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_learning_paths_au` AFTER UPDATE ON `learning_paths` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_learning_paths_ad` AFTER DELETE ON `learning_paths` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_path_steps_ai` AFTER INSERT ON `path_steps` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_path_steps_au` AFTER UPDATE ON `path_steps` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_path_steps_ad` AFTER DELETE ON `path_steps` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_path_step_courses_ai` AFTER INSERT ON `path_step_courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_path_step_courses_au` AFTER UPDATE ON `path_step_courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_path_step_courses_ad` AFTER DELETE ON `path_step_courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_path_groups_ai` AFTER INSERT ON `path_groups` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_path_groups_au` AFTER UPDATE ON `path_groups` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_path_groups_ad` AFTER DELETE ON `path_groups` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_path_enrolments_ai` AFTER INSERT ON `path_enrolments` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_path_enrolments_au` AFTER UPDATE ON `path_enrolments` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL AND old.`user_id` IS NOT new.`user_id` ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_path_enrolments_ad` AFTER DELETE ON `path_enrolments` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
