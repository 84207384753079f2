-- Words spoken in videos in the full-text search (issue 35, docs/decisions/036-captions.md): each caption cue
-- is a row of search_index with rowid = cue id * 4 + 3 (0006_search.sql numbers courses 0, lessons 1,
-- materials 2), kind 'cue', ref_id the cue, course_id its lesson's course and an empty title. Cues are only
-- ever inserted and deleted (a replaced track's cues are deleted and inserted again; deleting a lesson, a
-- track or its file deletes them by cascade, which runs these triggers too).
CREATE TRIGGER `search_caption_cues_ai` AFTER INSERT ON `caption_cues` BEGIN
  INSERT INTO `search_index` (rowid, kind, ref_id, course_id, title, body)
  VALUES (new.id * 4 + 3, 'cue', new.id, (SELECT course_id FROM `lessons` WHERE id = new.lesson_id), '', new.text);
END;
--> statement-breakpoint
CREATE TRIGGER `search_caption_cues_ad` AFTER DELETE ON `caption_cues` BEGIN
  DELETE FROM `search_index` WHERE rowid = old.id * 4 + 3;
END;
--> statement-breakpoint
CREATE TRIGGER `search_caption_cues_lesson_moved` AFTER UPDATE OF `course_id` ON `lessons` WHEN old.course_id <> new.course_id BEGIN
  DELETE FROM `search_index` WHERE rowid IN (SELECT id * 4 + 3 FROM `caption_cues` WHERE lesson_id = new.id);
  INSERT INTO `search_index` (rowid, kind, ref_id, course_id, title, body)
  SELECT id * 4 + 3, 'cue', id, new.course_id, '', text FROM `caption_cues` WHERE lesson_id = new.id;
END;
