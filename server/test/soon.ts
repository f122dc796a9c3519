/**
 * Asks until `check` holds, for at most `withinMs`: for what follows a change message, which
 * arrives a moment after its commit, never seconds later.
 */
export async function soon(check: () => Promise<boolean>, withinMs = 1_000): Promise<boolean> {
  const until = Date.now() + withinMs;
  for (;;) {
    if (await check()) {
      return true;
    }
    if (Date.now() > until) {
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
