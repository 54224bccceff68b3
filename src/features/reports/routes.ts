import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { apiErrors } from '../../http/responses.js';
import { requireUser } from '../../http/auth.js';
import { fieldErrors } from '../../http/errors.js';
import { renderContext } from '../../http/render.js';
import { formatDateTime } from '../../i18n/dates.js';
import { findObjectContext } from '../../core/contenttypes/context.js';
import { contentKindOf, reportable } from '../../core/contenttypes/registry.js';
import { canReport, REPORT_MAX_LENGTH, reportDescriptionError } from './rules.js';
import { createReport, takeReportAllowance } from './services.js';

const ReportBody = Type.Object({
  content_type: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  object_pk: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  description: Type.String({ maxLength: REPORT_MAX_LENGTH }),
});
const ReportSchema = Type.Object({
  pk: Type.Integer(),
  content_type: Type.Integer(),
  object_pk: Type.Integer(),
  description: Type.String(),
  username: Type.String(),
  created: Type.String(),
});

export async function reportRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  app.post(
    '/api/reports/',
    { schema: { tags: ['reports'], body: ReportBody, response: { 201: ReportSchema, ...apiErrors } } },
    async (request, reply) => {
      const user = await requireUser(request);
      const { content_type: ctId, object_pk: objectPk, description } = request.body;
      const kind = contentKindOf(ctId);
      if (!kind || !reportable().includes(kind)) throw fieldErrors({ content_type: ['This content type cannot be reported.'] });
      const context = await findObjectContext(db, ctId, objectPk, user, reportable());
      if (!context || !canReport(context)) throw fieldErrors({ object_pk: ['The object does not exist.'] });
      const { target } = context;
      const invalid = reportDescriptionError(description);
      if (invalid) throw fieldErrors({ description: [invalid] });
      const ctx = renderContext(request, user, config);
      await takeReportAllowance(app.ctx, user.id);
      const report = await db.transaction((tx) =>
        createReport(tx, { creatorId: user.id, target: { type: kind, id: objectPk }, projectId: target.projectId, description }, { origin: ctx.origin }),
      );
      return reply.status(201).send({
        pk: report.id,
        content_type: ctId,
        object_pk: objectPk,
        description,
        username: user.username,
        created: formatDateTime(report.created, ctx.lang, ctx.timeZone),
      });
    },
  );
}
