-- A link an import brought keeps its tool (docs/imports.md, Keeping old links working): only such
-- a link is found by a parameter other than `aff` (?via=, ?ref=…), so that a partner cannot take a
-- value the merchant's own links carry. The links imported before are those of imported partners.
ALTER TABLE `links` ADD `source` text;--> statement-breakpoint
UPDATE `links` SET `source` = (SELECT `p`.`source` FROM `partners` `p` WHERE `p`.`id` = `links`.`partner_id`)
  WHERE `partner_id` IN (SELECT `id` FROM `partners` WHERE `source` IS NOT NULL);
