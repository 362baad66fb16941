/** `<prefix>.<subject>`, or the subject alone when the prefix is empty. */
export function prefixed(prefix: string, subject: string): string {
  return prefix === '' ? subject : `${prefix}.${subject}`;
}
