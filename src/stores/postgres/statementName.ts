const names = new Map<string, string>();

/** A name per statement text (two FNV-1a hashes), as `pg` wants for prepared statements. */
export function statementName(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    let a = 0x811c9dc5;
    let b = 0x01000193;
    for (let i = 0; i < sql.length; i++) {
      a = Math.imul(a ^ sql.charCodeAt(i), 0x01000193);
      b = Math.imul(b ^ sql.charCodeAt(i), 0x811c9dc5);
    }
    name = `loopchart_${(a >>> 0).toString(16)}${(b >>> 0).toString(16)}`;
    names.set(sql, name);
  }
  return name;
}
