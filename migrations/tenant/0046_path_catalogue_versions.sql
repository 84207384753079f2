-- Learning paths on visitors' kept pages (issue 49, docs/caching.md): a category's page lists its paths, so changes to
-- them move content_version row 1 too (the visitors' pages' version), besides row 2 (migration 0043).
CREATE TRIGGER `content_version_1_learning_paths_ai` AFTER INSERT ON `learning_paths` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_1_learning_paths_au` AFTER UPDATE ON `learning_paths` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_1_learning_paths_ad` AFTER DELETE ON `learning_paths` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_1_path_steps_ai` AFTER INSERT ON `path_steps` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_1_path_steps_au` AFTER UPDATE ON `path_steps` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_1_path_steps_ad` AFTER DELETE ON `path_steps` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_1_path_step_courses_ai` AFTER INSERT ON `path_step_courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_1_path_step_courses_au` AFTER UPDATE ON `path_step_courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_1_path_step_courses_ad` AFTER DELETE ON `path_step_courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_1_path_groups_ai` AFTER INSERT ON `path_groups` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_1_path_groups_au` AFTER UPDATE ON `path_groups` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_1_path_groups_ad` AFTER DELETE ON `path_groups` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
