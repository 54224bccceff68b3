import { Type, type Static } from 'typebox';
import type { Lang } from '../../i18n/index.js';
import { formatDateTime } from '../../i18n/dates.js';
import type { LoadedModule, ModulePhase, NamedRef } from './queries.js';
import { activePhase, phaseIsFuture, phaseIsPast } from './phases.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const AppPhase = Type.Object({
  name: Type.String(),
  description: Type.String(),
  type: Type.String(),
  start_date: NullableString,
  end_date: NullableString,
});

const Refs = Type.Union([Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })), Type.Literal(false)]);

/** The AppModuleSerializer's fields, in its order. */
export const AppModule = Type.Object({
  pk: Type.Integer(),
  active_phase: Type.Union([AppPhase, Type.Null()]),
  future_phases: Type.Union([Type.Array(AppPhase), Type.Null()], { description: 'null when there are none' }),
  past_phases: Type.Union([Type.Array(AppPhase), Type.Null()], { description: 'null when there are none' }),
  labels: Refs,
  categories: Refs,
  has_idea_adding_permission: Type.Boolean(),
});
export type AppModule = Static<typeof AppModule>;

interface ModuleSerializeContext {
  lang: Lang;
  timeZone: string;
  now: Date;
}

function serializePhase(phase: ModulePhase, ctx: ModuleSerializeContext): Static<typeof AppPhase> {
  const display = (date: Date | null) => (date ? formatDateTime(date, ctx.lang, ctx.timeZone) : null);
  return { name: phase.name, description: phase.description, type: phase.type, start_date: display(phase.startDate), end_date: display(phase.endDate) };
}

const startOrLast = (p: ModulePhase) => p.startDate?.getTime() ?? Infinity;
const byStart = (a: ModulePhase, b: ModulePhase) => startOrLast(a) - startOrLast(b) || a.weight - b.weight || a.id - b.id;
const refsOrFalse = (refs: NamedRef[]) => (refs.length ? refs : false);

export function serializeAppModule(module: LoadedModule, canAddIdea: boolean, ctx: ModuleSerializeContext): AppModule {
  const list = (phases: ModulePhase[]) => (phases.length ? phases.sort(byStart).map((p) => serializePhase(p, ctx)) : null);
  const active = activePhase(module.phases, ctx.now);
  return {
    pk: module.id,
    active_phase: active ? serializePhase(active, ctx) : null,
    future_phases: list(module.phases.filter((p) => phaseIsFuture(p, ctx.now))),
    past_phases: list(module.phases.filter((p) => phaseIsPast(p, ctx.now))),
    labels: refsOrFalse(module.labels),
    categories: refsOrFalse(module.categories),
    has_idea_adding_permission: canAddIdea,
  };
}
