-- sale_blocks (src/db/schema.ts, src/db/sale-pages.ts): which programs have sales in each block of
-- 4,096 sale ids, in place of the index on sales (program_id, id), whose leaf of each sale's program
-- was a random page written at every COMMIT (issue 14). Kept by the trigger below in the sale's own
-- transaction, then filled from the sales that exist.
CREATE TABLE `sale_blocks` (
	`block` integer NOT NULL,
	`program_id` integer NOT NULL,
	PRIMARY KEY(`block`, `program_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TRIGGER `sale_block` AFTER INSERT ON `sales` BEGIN
  INSERT OR IGNORE INTO sale_blocks (block, program_id) VALUES (NEW.id >> 12, NEW.program_id);
END;
--> statement-breakpoint
INSERT OR IGNORE INTO sale_blocks (block, program_id) SELECT DISTINCT id >> 12, program_id FROM sales;
--> statement-breakpoint
DROP INDEX `sales_program_id`;
