-- Filing raises an item's size with every instance it adds. While `size` was in an index, each of
-- those updates wrote a new row version elsewhere in the table and an entry in every index of
-- archive_items; the embedded database runs no autovacuum, so they stayed, and every look at an
-- uploader's items (the storage quota, on each STOW-RS request) read more of them as time went
-- on. Without `size` in an index, the update stays on its page (HOT) and the old version is pruned
-- there. The rebuild drops the entries that the old updates left in the other indexes.
DROP INDEX "archive_items_uploader_size_idx";--> statement-breakpoint
CREATE INDEX "archive_items_uploader_idx" ON "archive_items" USING btree ("uploader_id");--> statement-breakpoint
REINDEX TABLE "archive_items";
