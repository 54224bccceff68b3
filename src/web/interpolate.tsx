import type { ComponentChild } from 'preact';

/**
 * Fills `%(name)s` placeholders of a translated sentence with elements (links), so that translators
 * keep the word order of their language: "%(actor)s left a %(comment)s on your %(contribution)s".
 */
export function interpolate(text: string, parts: Record<string, ComponentChild>): ComponentChild[] {
  return text.split(/(%\(\w+\)s)/).map((piece) => {
    const name = /^%\((\w+)\)s$/.exec(piece)?.[1];
    return name && name in parts ? parts[name] : piece;
  });
}
