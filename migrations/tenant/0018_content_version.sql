CREATE TABLE `content_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `content_version` (`id`, `version`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `content_version_courses_ai` AFTER INSERT ON `courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_courses_au` AFTER UPDATE ON `courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_courses_ad` AFTER DELETE ON `courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_lessons_ai` AFTER INSERT ON `lessons` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_lessons_au` AFTER UPDATE ON `lessons` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_lessons_ad` AFTER DELETE ON `lessons` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_files_ai` AFTER INSERT ON `files` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_files_au` AFTER UPDATE ON `files` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_files_ad` AFTER DELETE ON `files` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_categories_ai` AFTER INSERT ON `categories` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_categories_au` AFTER UPDATE ON `categories` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_categories_ad` AFTER DELETE ON `categories` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_carousels_ai` AFTER INSERT ON `carousels` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_carousels_au` AFTER UPDATE ON `carousels` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_carousels_ad` AFTER DELETE ON `carousels` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_carousel_courses_ai` AFTER INSERT ON `carousel_courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_carousel_courses_au` AFTER UPDATE ON `carousel_courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_carousel_courses_ad` AFTER DELETE ON `carousel_courses` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
