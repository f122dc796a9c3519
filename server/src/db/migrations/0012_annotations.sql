CREATE TABLE "annotations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"item_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"series_instance_uid" text,
	"sop_instance_uid" text,
	"frame" integer,
	"data" jsonb NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "annotations_kind" CHECK ("annotations"."kind" in ('length', 'angle', 'ellipse', 'rectangle', 'probe', 'arrow'))
);
--> statement-breakpoint
ALTER TABLE "image_notes" ADD COLUMN "key_images" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_item_id_images_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "annotations_item_author_idx" ON "annotations" USING btree ("item_id","author_id");