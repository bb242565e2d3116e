import type { TexRenderer } from "./sanitize";

/**
 * TeX to MathML with KaTeX (`output: "mathml"`, pure JavaScript, runs in workerd). Loaded on the
 * first write that holds TeX, not when the worker starts: the import is dynamic, so the bundle's
 * KaTeX is evaluated only then, and no read or grade pays for it.
 */

/** KaTeX's own bounds on a formula: macro expansions and sizes (it refuses `\def` loops past them). */
const KATEX_OPTIONS = {
  output: "mathml",
  throwOnError: true,
  // No \href, \url, \includegraphics or \html…: what they make is not MathML.
  trust: false,
  strict: "ignore",
  maxExpand: 1000,
  maxSize: 50,
} as const;

let loaded: Promise<TexRenderer> | undefined;

export function loadTex(): Promise<TexRenderer> {
  loaded ??= import("katex").then(({ default: katex }) => (source: string, display: boolean) => {
    try {
      return katex.renderToString(source, { ...KATEX_OPTIONS, displayMode: display });
    } catch {
      return null;
    }
  });
  return loaded;
}
