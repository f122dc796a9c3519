/** A count with its noun, e.g. "1 study", "2 studies". */
export function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
