// The player's room settings (issue 17): where his home board is drawn ("right" or "left")
// and whether the room sounds. A player's are kept with his account (POST
// /api/me/preferences, so they follow him to another device and reach his other tabs as a
// `me` frame); a guest's stay in this browser.

const KEY = "prefs";
export const DEFAULTS = { home: "right", sound: true };

function local() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

/** The settings now: the account's for a player, this browser's for a guest. */
export function prefsOf(ctx) {
  return { ...DEFAULTS, ...(ctx.me ? ctx.me.prefs || {} : local()) };
}

/** Change one setting; the new settings (the server's answer for a player). */
export async function setPref(ctx, name, value) {
  if (!ctx.me) {
    const found = { ...local(), [name]: value };
    localStorage.setItem(KEY, JSON.stringify(found));
    return found;
  }
  const found = await ctx.api.post("/api/me/preferences", { [name]: value });
  ctx.me.prefs = found;
  return found;
}
