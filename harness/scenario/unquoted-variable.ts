// A YAML plain scalar cannot start with `{`: unquoted, `path: {{server.docroot}}/x` is a YAML syntax error and
// `path: {{server.docroot}}` a map. Either way the message is about YAML or types; this names the cause.

export const UNQUOTED_VARIABLE_HINT =
  'Quote a value that starts with a variable (path: "{{server.docroot}}/x"): unquoted, YAML reads { as the start of a map.';

/** Whether a line of YAML has a value starting with an unquoted {{: after `key:`, after `- `, or in a flow list. */
export function hasUnquotedVariable(line: string): boolean {
  return /(?:^\s*-\s+|:\s+|[[,]\s*)\{\{/.test(line);
}
