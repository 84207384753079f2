-- Full-text search over what learners can find (courses, lessons, materials), kept current by triggers on
-- every edit. rowid = id * 4 + kind (0 course, 1 lesson, 2 material), so each row is replaced by rowid.
CREATE VIRTUAL TABLE `search_index` USING fts5(
  `kind` UNINDEXED, `ref_id` UNINDEXED, `course_id` UNINDEXED, `title`, `body`,
  tokenize = 'unicode61 remove_diacritics 2'
);
--> statement-breakpoint
INSERT INTO `search_index` (rowid, kind, ref_id, course_id, title, body) SELECT id * 4, 'course', id, id, title, description FROM `courses`;
--> statement-breakpoint
INSERT INTO `search_index` (rowid, kind, ref_id, course_id, title, body) SELECT id * 4 + 1, 'lesson', id, course_id, title, body FROM `lessons`;
--> statement-breakpoint
INSERT INTO `search_index` (rowid, kind, ref_id, course_id, title, body) SELECT id * 4 + 2, 'material', id, course_id, title, '' FROM `materials`;
--> statement-breakpoint
CREATE TRIGGER `search_courses_ai` AFTER INSERT ON `courses` BEGIN
  INSERT INTO `search_index` (rowid, kind, ref_id, course_id, title, body) VALUES (new.id * 4, 'course', new.id, new.id, new.title, new.description);
END;
--> statement-breakpoint
CREATE TRIGGER `search_courses_au` AFTER UPDATE OF `title`, `description` ON `courses` BEGIN
  DELETE FROM `search_index` WHERE rowid = old.id * 4;
  INSERT INTO `search_index` (rowid, kind, ref_id, course_id, title, body) VALUES (new.id * 4, 'course', new.id, new.id, new.title, new.description);
END;
--> statement-breakpoint
CREATE TRIGGER `search_courses_ad` AFTER DELETE ON `courses` BEGIN
  DELETE FROM `search_index` WHERE rowid = old.id * 4;
END;
--> statement-breakpoint
CREATE TRIGGER `search_lessons_ai` AFTER INSERT ON `lessons` BEGIN
  INSERT INTO `search_index` (rowid, kind, ref_id, course_id, title, body) VALUES (new.id * 4 + 1, 'lesson', new.id, new.course_id, new.title, new.body);
END;
--> statement-breakpoint
CREATE TRIGGER `search_lessons_au` AFTER UPDATE OF `title`, `body`, `course_id` ON `lessons` BEGIN
  DELETE FROM `search_index` WHERE rowid = old.id * 4 + 1;
  INSERT INTO `search_index` (rowid, kind, ref_id, course_id, title, body) VALUES (new.id * 4 + 1, 'lesson', new.id, new.course_id, new.title, new.body);
END;
--> statement-breakpoint
CREATE TRIGGER `search_lessons_ad` AFTER DELETE ON `lessons` BEGIN
  DELETE FROM `search_index` WHERE rowid = old.id * 4 + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_materials_ai` AFTER INSERT ON `materials` BEGIN
  INSERT INTO `search_index` (rowid, kind, ref_id, course_id, title, body) VALUES (new.id * 4 + 2, 'material', new.id, new.course_id, new.title, '');
END;
--> statement-breakpoint
CREATE TRIGGER `search_materials_au` AFTER UPDATE OF `title` ON `materials` BEGIN
  DELETE FROM `search_index` WHERE rowid = old.id * 4 + 2;
  INSERT INTO `search_index` (rowid, kind, ref_id, course_id, title, body) VALUES (new.id * 4 + 2, 'material', new.id, new.course_id, new.title, '');
END;
--> statement-breakpoint
CREATE TRIGGER `search_materials_ad` AFTER DELETE ON `materials` BEGIN
  DELETE FROM `search_index` WHERE rowid = old.id * 4 + 2;
END;
