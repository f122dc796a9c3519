ALTER TABLE "users" ADD COLUMN "picture_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "picture_key" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "picture_crop_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_picture_id_unique" ON "users" USING btree ("picture_id");