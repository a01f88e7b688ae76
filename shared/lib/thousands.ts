/**
 * `n` with a comma between thousands ("1,024"), as `toLocaleString('en-US')` writes it, without
 * Intl: its first use loads ICU's locale data, about 12 ms, and the schema modules that say their
 * limits in words did so at every cold start.
 */
export function thousands(n: number): string {
  const [whole, fraction] = String(n).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
