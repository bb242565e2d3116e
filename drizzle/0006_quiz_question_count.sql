ALTER TABLE `quizzes` ADD `question_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `quizzes` SET `question_count` = (SELECT count(*) FROM `questions` WHERE `questions`.`quiz_id` = `quizzes`.`id`);--> statement-breakpoint
CREATE TRIGGER `questions_count_insert` AFTER INSERT ON `questions` BEGIN
  UPDATE `quizzes` SET `question_count` = `question_count` + 1 WHERE `id` = NEW.`quiz_id`;
END;--> statement-breakpoint
CREATE TRIGGER `questions_count_delete` AFTER DELETE ON `questions` BEGIN
  UPDATE `quizzes` SET `question_count` = `question_count` - 1 WHERE `id` = OLD.`quiz_id`;
END;--> statement-breakpoint
CREATE TRIGGER `questions_count_move` AFTER UPDATE OF `quiz_id` ON `questions` WHEN OLD.`quiz_id` IS NOT NEW.`quiz_id` BEGIN
  UPDATE `quizzes` SET `question_count` = `question_count` - 1 WHERE `id` = OLD.`quiz_id`;
  UPDATE `quizzes` SET `question_count` = `question_count` + 1 WHERE `id` = NEW.`quiz_id`;
END;
