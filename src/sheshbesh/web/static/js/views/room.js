// A game's room: the two-player room (views/game.js), or a chouette table's
// (views/chouette.js, issue 18), chosen by the game's kind. The game's page says which;
// a game that cannot be read (none such, the network) goes to the two-player room,
// which says why.

export async function mount(main, ctx) {
  const id = ctx.params.get("game");
  let kind = null;
  try {
    kind = (await ctx.api.get(`/api/games/${id}`)).kind;
  } catch (error) {
    console.warn(error);
  }
  const view = kind === "chouette" ? await import("./chouette.js") : await import("./game.js");
  return view.mount(main, ctx);
}
