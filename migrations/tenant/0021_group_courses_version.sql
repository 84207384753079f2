CREATE TRIGGER `content_version_group_courses_ai` AFTER INSERT ON `group_courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_group_courses_au` AFTER UPDATE ON `group_courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_group_courses_ad` AFTER DELETE ON `group_courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
