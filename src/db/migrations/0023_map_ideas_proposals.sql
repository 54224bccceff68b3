CREATE TABLE "map_idea_labels" (
	"map_idea_id" integer NOT NULL,
	"label_id" integer NOT NULL,
	CONSTRAINT "map_idea_labels_map_idea_id_label_id_pk" PRIMARY KEY("map_idea_id","label_id")
);
--> statement-breakpoint
CREATE TABLE "map_ideas" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"creator_id" integer NOT NULL,
	"name" varchar(120) NOT NULL,
	"description" text NOT NULL,
	"image" text,
	"image_copyright" varchar(120) DEFAULT '' NOT NULL,
	"category_id" integer,
	"moderator_status" varchar(254),
	"moderator_feedback_text" text,
	"legacy_slug" varchar(100),
	"title_slug" varchar(50) GENERATED ALWAYS AS (left(btrim(regexp_replace(regexp_replace(lower(translate("name", ' ¨ª¯²³´¸¹ºÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľĿŀŃńŅņŇňŉŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣḤḥḦḧḨḩḪḫḬḭḮḯḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣṤṥṦṧṨṩṪṫṬṭṮṯṰṱṲṳṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẚẛẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰựỲỳỴỵỶỷỸỹ           　', '  a 23  1oAAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiiiinooooouuuuyyAaAaAaCcCcCcCcDdEeEeEeEeEeGgGgGgGgHhIiIiIiIiIJjKkLlLlLlLlNnNnNnnOoOoOoRrRrRrSsSsSsSsTtTtUuUuUuUuUuUuWwYyYZzZzZzsOoUuAaIiOoUuUuUuUuUuAaAaGgKkOoOojGgNnAaAaAaEeEeIiIiOoOoRrRrUuUuSsTtHhAaEeOoOoOoOoYyAaBbBbBbCcDdDdDdDdDdEeEeEeEeEeFfGgHhHhHhHhHhIiIiKkKkKkLlLlLlLlMmMmMmNnNnNnNnOoOoOoOoPpPpRrRrRrRrSsSsSsSsSsTtTtTtTtUuUuUuUuUuVvVvWwWwWwWwWwXxXxYyZzZzZzhtwyasAaAaAaAaAaAaAaAaAaAaAaAaEeEeEeEeEeEeEeEeIiIiOoOoOoOoOoOoOoOoOoOoOoOoUuUuUuUuUuUuUuYyYyYyYy            ')), '[^a-z0-9_ \t\n\r\f\v-]', '', 'g'), '[- \t\n\r\f\v]+', '-', 'g'), '-_'), 50)) STORED NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone,
	"point" jsonb NOT NULL,
	"point_label" varchar(255) DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proposal_labels" (
	"proposal_id" integer NOT NULL,
	"label_id" integer NOT NULL,
	CONSTRAINT "proposal_labels_proposal_id_label_id_pk" PRIMARY KEY("proposal_id","label_id")
);
--> statement-breakpoint
CREATE TABLE "proposals" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"creator_id" integer NOT NULL,
	"name" varchar(120) NOT NULL,
	"description" text NOT NULL,
	"image" text,
	"image_copyright" varchar(120) DEFAULT '' NOT NULL,
	"category_id" integer,
	"moderator_status" varchar(254),
	"moderator_feedback_text" text,
	"legacy_slug" varchar(100),
	"title_slug" varchar(50) GENERATED ALWAYS AS (left(btrim(regexp_replace(regexp_replace(lower(translate("name", ' ¨ª¯²³´¸¹ºÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľĿŀŃńŅņŇňŉŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣḤḥḦḧḨḩḪḫḬḭḮḯḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣṤṥṦṧṨṩṪṫṬṭṮṯṰṱṲṳṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẚẛẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰựỲỳỴỵỶỷỸỹ           　', '  a 23  1oAAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiiiinooooouuuuyyAaAaAaCcCcCcCcDdEeEeEeEeEeGgGgGgGgHhIiIiIiIiIJjKkLlLlLlLlNnNnNnnOoOoOoRrRrRrSsSsSsSsTtTtUuUuUuUuUuUuWwYyYZzZzZzsOoUuAaIiOoUuUuUuUuUuAaAaGgKkOoOojGgNnAaAaAaEeEeIiIiOoOoRrRrUuUuSsTtHhAaEeOoOoOoOoYyAaBbBbBbCcDdDdDdDdDdEeEeEeEeEeFfGgHhHhHhHhHhIiIiKkKkKkLlLlLlLlMmMmMmNnNnNnNnOoOoOoOoPpPpRrRrRrRrSsSsSsSsSsTtTtTtTtUuUuUuUuUuVvVvWwWwWwWwWwXxXxYyZzZzZzhtwyasAaAaAaAaAaAaAaAaAaAaAaAaEeEeEeEeEeEeEeEeIiIiOoOoOoOoOoOoOoOoOoOoOoOoUuUuUuUuUuUuUuYyYyYyYy            ')), '[^a-z0-9_ \t\n\r\f\v-]', '', 'g'), '[- \t\n\r\f\v]+', '-', 'g'), '-_'), 50)) STORED NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone,
	"point" jsonb NOT NULL,
	"point_label" varchar(255) DEFAULT '' NOT NULL,
	"budget" integer DEFAULT 0 NOT NULL,
	"is_archived" boolean DEFAULT false NOT NULL,
	CONSTRAINT "proposals_budget_not_negative" CHECK ("proposals"."budget" >= 0)
);
--> statement-breakpoint
ALTER TABLE "comments" DROP CONSTRAINT "comments_content_type_check";--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "area" jsonb;--> statement-breakpoint
ALTER TABLE "map_idea_labels" ADD CONSTRAINT "map_idea_labels_map_idea_id_map_ideas_id_fk" FOREIGN KEY ("map_idea_id") REFERENCES "public"."map_ideas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_idea_labels" ADD CONSTRAINT "map_idea_labels_label_id_labels_id_fk" FOREIGN KEY ("label_id") REFERENCES "public"."labels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_ideas" ADD CONSTRAINT "map_ideas_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_ideas" ADD CONSTRAINT "map_ideas_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_ideas" ADD CONSTRAINT "map_ideas_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_labels" ADD CONSTRAINT "proposal_labels_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_labels" ADD CONSTRAINT "proposal_labels_label_id_labels_id_fk" FOREIGN KEY ("label_id") REFERENCES "public"."labels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "map_ideas_module_idx" ON "map_ideas" USING btree ("module_id","created");--> statement-breakpoint
CREATE INDEX "map_ideas_creator_idx" ON "map_ideas" USING btree ("creator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "map_ideas_legacy_slug_idx" ON "map_ideas" USING btree ("legacy_slug") WHERE "map_ideas"."legacy_slug" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "map_ideas_title_slug_idx" ON "map_ideas" USING btree ("title_slug","id") WHERE "map_ideas"."legacy_slug" IS NULL;--> statement-breakpoint
CREATE INDEX "proposals_module_idx" ON "proposals" USING btree ("module_id","created");--> statement-breakpoint
CREATE INDEX "proposals_creator_idx" ON "proposals" USING btree ("creator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "proposals_legacy_slug_idx" ON "proposals" USING btree ("legacy_slug") WHERE "proposals"."legacy_slug" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "proposals_title_slug_idx" ON "proposals" USING btree ("title_slug","id") WHERE "proposals"."legacy_slug" IS NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_content_type_check" CHECK (content_type IN ('project', 'module', 'phase', 'idea', 'mapidea', 'proposal', 'poll', 'chapter', 'paragraph', 'comment', 'rating', 'report', 'moderatorcommentfeedback'));