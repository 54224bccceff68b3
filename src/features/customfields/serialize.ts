import { Type, type Static } from 'typebox';
import type { CustomAnswer } from './rules.js';

/** An item's answer to one of its module's questions, as the app API shows it. */
export const CustomAnswerSchema = Type.Object({
  id: Type.Integer({ description: 'The question’s id: its answer is sent as custom_<id>' }),
  question: Type.String(),
  kind: Type.Union([Type.Literal('text'), Type.Literal('choice')], { description: 'text: open text; choice: one of its choices' }),
  answer: Type.String({ description: 'The text, or the chosen choice’s label; empty when none was given' }),
  choice: Type.Union([Type.Integer(), Type.Null()], { description: 'The chosen choice’s id (choice questions)' }),
});

export const serializeAnswer = (a: CustomAnswer): Static<typeof CustomAnswerSchema> => ({ id: a.field, question: a.question, kind: a.kind, answer: a.answer, choice: a.choice });
