// mod_macro's replacement of a macro's parameters in one body line (2.4.62 modules/core/mod_macro.c
// substitute_macro_args): left to right, the earliest occurrence of any parameter name (the longest on a tie)
// is replaced by its value, and scanning goes on after the value; a parameter named `@x` puts its value in
// double quotes, escaping `"` and `\`. Names are replaced literally: `$name` as declared, `${name}` only if
// declared so.

export function substituteMacroLine(line: string, params: readonly string[], values: readonly string[]): string {
  let buf = line;
  let from = 0;
  for (;;) {
    let chosen = -1;
    let which = -1;
    params.forEach((param, i) => {
      if (param === "") return;
      const found = buf.indexOf(param, from);
      if (found >= 0 && (chosen < 0 || found < chosen || (found === chosen && params[which]!.length < param.length))) {
        chosen = found;
        which = i;
      }
    });
    if (chosen < 0) return buf;
    const name = params[which]!;
    const value = values[which] ?? "";
    const inserted = name.startsWith("@") ? `"${value.replace(/["\\]/g, "\\$&")}"` : value;
    if (name !== value) buf = buf.slice(0, chosen) + inserted + buf.slice(chosen + name.length);
    // As mod_macro: the scan resumes the value's (unescaped) length after the match.
    from = chosen + value.length;
  }
}
