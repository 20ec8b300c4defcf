DROP INDEX `processor_events_event_id_unique`;--> statement-breakpoint
CREATE UNIQUE INDEX `processor_events_once` ON `processor_events` (`event_id`,`program_id`);