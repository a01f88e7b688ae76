/** A message for the next page (a creation or deletion that led there), shown once. */
let pending: string | undefined;

export const flash = (message: string): void => {
  pending = message;
};

export const takeFlash = (): string | undefined => {
  const m = pending;
  pending = undefined;
  return m;
};
