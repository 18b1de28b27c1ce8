// HTML escaping for the HTML report: safe in element content and in quoted attribute values.

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** C0 controls other than tab, LF and CR, DEL, and lone surrogates: shown as U+FFFD rather than passed on. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uD800-\uDFFF]/gu;

export function escapeHtml(text: string): string {
  return text.replace(CONTROL, "\uFFFD").replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
